# shellcheck shell=bash
# Go-built tools cached outside the clone (SHELLGRADE_TOOLS): k6, minio, jaeger, toxiproxy.
# Versions are pinned so every machine benchmarks the same binaries.

K6_MODULE=go.k6.io/k6@v1.8.1
# MinIO tags releases outside Go semver; this pseudo-version is what @latest resolved to (2026-02).
MINIO_MODULE=github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c
# Jaeger v2 is released from the v1 module path; `go install` refuses it (replace directives),
# so build ./cmd/jaeger inside the downloaded module.
JAEGER_MODULE=github.com/jaegertracing/jaeger@v1.76.0
# Shopify's fault proxy (the faults suite: latency or loss on one internal hop, never the whole loopback);
# v2.5.0 is the proxy's @latest. Its command is ./cmd/server: installed, then named toxiproxy.
TOXIPROXY_MODULE=github.com/Shopify/toxiproxy/v2@v2.5.0

build_k6() { GOBIN="$1" go install "$K6_MODULE"; }

build_minio() { GOBIN="$1" go install "$MINIO_MODULE"; }

build_jaeger() {
  local out=$1 dir
  dir=$(go mod download -json "$JAEGER_MODULE" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const m = JSON.parse(s);
      if (m.Error) { console.error(m.Error); process.exit(1); }
      console.log(m.Dir);
    });')
  (cd "$dir" && go build -o "$out/jaeger" ./cmd/jaeger)
}

build_toxiproxy() { GOBIN="$1" go install "${TOXIPROXY_MODULE%@*}/cmd/server@${TOXIPROXY_MODULE#*@}" && mv "$1/server" "$1/toxiproxy"; }

k6_tool_ensure() { go_tool_ensure k6 build_k6; }
toxiproxy_tool_ensure() { go_tool_ensure toxiproxy build_toxiproxy; }
minio_tool_ensure() { go_tool_ensure minio build_minio; }
jaeger_tool_ensure() { go_tool_ensure jaeger build_jaeger; }

# The graders' interpreter, CPython built from its tagged source tree (the Go module proxy
# serves github.com/python/cpython like any module). Neither interpreter already on these
# machines will do: Debian's 3.11.2 has no tarfile extraction filters, and pyenv's 3.11.7 has
# the filter bypasses CVE-2025-4517, CVE-2025-4138, CVE-2025-4330 and CVE-2024-12718 (fixed in
# 3.11.13). Stdlib only: graders run with -S and use the helper library.
GRADER_PYTHON_VERSION=3.11.16
GRADER_PYTHON_NAME=python-$GRADER_PYTHON_VERSION

build_grader_python() {
  local out=$1 src prefix
  prefix=$(tool_path "$GRADER_PYTHON_NAME")
  src=$(go mod download -json "github.com/python/cpython@v$GRADER_PYTHON_VERSION+incompatible" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const m = JSON.parse(s);
      if (m.Error) { console.error(m.Error); process.exit(1); }
      console.log(m.Dir);
    });')
  # Module zips keep no file modes and the module cache is read-only: build from a copy.
  cp -r "$src" "$out/src" && chmod -R u+w "$out/src"
  (
    cd "$out/src"
    sh ./configure --prefix="$prefix" --without-ensurepip --disable-test-modules >"$out/configure.log" 2>&1 ||
      { tail -20 "$out/configure.log"; exit 1; }
    make -j"$(nproc)" >"$out/make.log" 2>&1 || { tail -20 "$out/make.log"; exit 1; }
    make install DESTDIR="$out/root" >"$out/install.log" 2>&1 || { tail -20 "$out/install.log"; exit 1; }
  )
  mv "$out/root$prefix" "$out/$GRADER_PYTHON_NAME"
  # Every module a grader or the sandbox needs must have been built (a missing -dev package skips one silently).
  "$out/$GRADER_PYTHON_NAME/bin/python3" -S -c 'import zlib, ctypes, tarfile, select, socket, resource, json, fcntl; tarfile.data_filter' ||
    { echo "the built Python lacks a module the graders need" >&2; exit 1; }
}

grader_python_tool_ensure() {
  apt_ensure zlib1g-dev libffi-dev libssl-dev
  go_tool_ensure "$GRADER_PYTHON_NAME" build_grader_python
}
