# shellcheck shell=bash
# Go-built tools cached outside the clone (SHELLGRADE_TOOLS): k6, minio, jaeger.
# Versions are pinned so every machine benchmarks the same binaries.

K6_MODULE=go.k6.io/k6@v1.8.1
# MinIO tags releases outside Go semver; this pseudo-version is what @latest resolved to (2026-02).
MINIO_MODULE=github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c
# Jaeger v2 is released from the v1 module path; `go install` refuses it (replace directives),
# so build ./cmd/jaeger inside the downloaded module.
JAEGER_MODULE=github.com/jaegertracing/jaeger@v1.76.0

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

k6_tool_ensure() { go_tool_ensure k6 build_k6; }
minio_tool_ensure() { go_tool_ensure minio build_minio; }
jaeger_tool_ensure() { go_tool_ensure jaeger build_jaeger; }
