# shellcheck shell=bash disable=SC2016,SC2034  # node -e scripts are single-quoted on purpose
# Shared helpers for the native servers: paths, apt/Go installs, pm2 apps, health waits.
# Sourced by infra/bin/servers after it has set SG_REPO_ROOT.

SG_RUN_DIR="$SG_REPO_ROOT/run"
SG_TOOLS_DIR="${SHELLGRADE_TOOLS:-$HOME/.cache/shellgrade/tools}"
SG_SERVERS_DIR="$SG_REPO_ROOT/infra/servers"
SG_PM2="$SG_REPO_ROOT/node_modules/.bin/pm2"
# Every pm2 call (ours and the variant launcher's) shares this daemon.
export PM2_HOME="$SG_RUN_DIR/pm2"
export DEBIAN_FRONTEND=noninteractive

log() { printf '[servers] %s\n' "$*" >&2; }
die() { printf '[servers] error: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- directories

# Creates <dir> owned by <user> (mode 0700 unless given) and keeps its parents traversable,
# because the repo lives in a root-owned tree and the servers drop root.
own_dir() {
  local user=$1 dir=$2 mode=${3:-0700}
  mkdir -p "$dir"
  chown "$user:$(id -gn "$user")" "$dir"
  chmod "$mode" "$dir"
  local parent
  parent=$(dirname "$dir")
  while [[ "$parent" != "/" ]]; do
    if [[ $(stat -c %A "$parent") != *[xt] ]]; then
      log "making $parent traversable (o+x) so $user can reach $dir"
      chmod o+x "$parent"
    fi
    parent=$(dirname "$parent")
  done
}

# Runs a command as a system user without a forked wrapper (setpriv execs), so pm2 signals
# reach the server itself.
as_user() {
  local user=$1; shift
  setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups -- "$@"
}

# ---------------------------------------------------------------- installs

sg_apt_updated=0

# Installs missing Debian packages; the distro's own services must not be what we use,
# so policy-rc.d keeps apt from starting them and any that run anyway are stopped.
apt_ensure() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  (
    flock 9
    local policy=/usr/sbin/policy-rc.d created=0
    if [[ ! -e $policy ]]; then
      printf '#!/bin/sh\n# shellgrade: do not start services during install\nexit 101\n' >"$policy"
      chmod 755 "$policy"
      created=1
    fi
    trap '[[ $created == 1 ]] && rm -f "$policy"' EXIT
    local out=/tmp/shellgrade-apt.log
    if ((sg_apt_updated == 0)); then
      log "apt-get update"
      apt-get update -qq >"$out" 2>&1 || { tail -n 20 "$out" >&2; exit 1; }
    fi
    log "apt-get install ${missing[*]}"
    apt-get install -y -qq "${missing[@]}" >"$out" 2>&1 || { tail -n 30 "$out" >&2; exit 1; }
  ) 9>/tmp/shellgrade-apt.lock || die "apt-get install ${missing[*]} failed"
  sg_apt_updated=1
  stop_distro_services
}

# Stops the Debian-managed instances on their default ports (we run our own under pm2).
stop_distro_services() {
  if command -v pg_lsclusters >/dev/null 2>&1; then
    pg_lsclusters --no-header 2>/dev/null | while read -r ver cluster _port status _rest; do
      if [[ $status == online* ]]; then
        log "stopping Debian's postgresql cluster $ver/$cluster"
        pg_ctlcluster "$ver" "$cluster" stop >/dev/null 2>&1 || true
      fi
    done
  fi
  local svc
  for svc in redis-server rabbitmq-server; do
    if [[ -x /etc/init.d/$svc ]] && service "$svc" status >/dev/null 2>&1; then
      log "stopping Debian's $svc service"
      service "$svc" stop >/dev/null 2>&1 || true
    fi
    update-rc.d "$svc" disable >/dev/null 2>&1 || true
  done
}

tool_path() { printf '%s/%s\n' "$SG_TOOLS_DIR" "$1"; }

# Builds a Go binary into the tools dir unless present. <builder> gets a temp dir to put
# <name> into; the result is moved in atomically so concurrent callers never see half a file.
go_tool_ensure() {
  local name=$1 builder=$2 target
  target=$(tool_path "$name")
  [[ -x $target ]] && return 0
  command -v go >/dev/null 2>&1 || die "go is required to build $name"
  mkdir -p "$SG_TOOLS_DIR"
  (
    flock 9
    [[ -x $target ]] && exit 0
    local tmp start
    tmp=$(mktemp -d "$SG_TOOLS_DIR/.build-$name.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    start=$(date +%s)
    log "building $name (a few minutes, once per machine)"
    "$builder" "$tmp" >&2 || die "building $name failed"
    mv "$tmp/$name" "$target"
    log "built $name in $(($(date +%s) - start)) s -> $target"
  ) 9>"$SG_TOOLS_DIR/.$name.lock" || exit 1
}

# ---------------------------------------------------------------- pm2

pm2_cli() {
  [[ -x $SG_PM2 ]] || die "pm2 not found at $SG_PM2 (run npm ci first)"
  mkdir -p "$PM2_HOME"
  "$SG_PM2" "$@"
}

# Prints one line "<app> <status> <pid>" per pm2 app (one pm2 round trip, ~0.5-2 s).
pm2_list() {
  local json
  json=$(pm2_cli jlist 2>/dev/null | grep '^\[' | tail -n1) || true
  node -e '
    for (const a of JSON.parse(process.argv[1] || "[]")) console.log(`${a.name} ${a.pm2_env.status} ${a.pid || 0}`);
  ' "${json:-[]}"
}

# Prints "<status> <pid>" of pm2 app <name>, or "absent 0".
pm2_state() {
  local line
  line=$(pm2_list | awk -v app="$1" '$1 == app { print $2, $3 }')
  echo "${line:-absent 0}"
}

# Fast path without a pm2 round trip: the pid from pm2's pid file if that process is alive.
pm2_live_pid() {
  local f pid
  for f in "$PM2_HOME/pids/$1"-[0-9]*.pid; do
    [[ -f $f ]] || continue
    pid=$(<"$f")
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
      echo "$pid"
      return 0
    fi
  done
  return 1
}

# Writes a pm2 ecosystem file for one server and starts it from that file (call pm2_stop_app first).
# Usage: pm2_start_app <app> <cwd> <kill_timeout_ms> <log_dir> -- <cmd> [args...]
# pm2 stops apps with SIGINT (daemon-wide PM2_KILL_SIGNAL; it has no per-app signal); every
# server here treats SIGINT as a clean shutdown. SIGKILL follows after <kill_timeout_ms>.
# Environment for the app: entries "KEY=value" of the global array APP_ENV.
pm2_start_app() {
  local app=$1 cwd=$2 timeout=$3 log_dir=$4; shift 5
  local file="$SG_RUN_DIR/ecosystem/$app.json"
  mkdir -p "$(dirname "$file")" "$log_dir"
  node -e '
    const [file, name, cwd, timeout, logDir, envLines, script, ...args] = process.argv.slice(1);
    const env = Object.fromEntries(envLines.split("\n").filter(Boolean).map((l) => {
      const i = l.indexOf("=");
      return [l.slice(0, i), l.slice(i + 1)];
    }));
    const app = {
      name, cwd, script, args, env, interpreter: "none",
      autorestart: true, max_restarts: 10, min_uptime: 5000, restart_delay: 2000,
      kill_timeout: Number(timeout),
      // Servers manage their own children; signal only the main process.
      treekill: false,
      out_file: `${logDir}/out.log`, error_file: `${logDir}/err.log`,
      time: true, merge_logs: true,
    };
    require("fs").writeFileSync(file, JSON.stringify({ apps: [app] }, null, 2) + "\n");
  ' "$file" "$app" "$cwd" "$timeout" "$log_dir" "$(printf '%s\n' "${APP_ENV[@]}")" "$@"
  pm2_cli start "$file" >/dev/null || die "pm2 could not start $app"
}

# Stops and forgets the app (a no-op when pm2 does not know it); data stays.
pm2_stop_app() { pm2_cli delete "$1" >/dev/null 2>&1 || true; }

# ---------------------------------------------------------------- health

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Polls <check...> until it succeeds or <timeout_s> elapses.
wait_for() {
  local timeout=$1; shift
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS >= deadline)) && return 1
    sleep 0.3
  done
}

# Last lines of a server's logs, for error messages.
log_tail() {
  local dir=$1 f
  for f in "$dir"/*.log; do
    [[ -f $f ]] || continue
    printf -- '--- %s (last 30 lines)\n' "$f" >&2
    tail -n 30 "$f" >&2
  done
}
