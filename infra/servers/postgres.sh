# shellcheck shell=bash disable=SC2034  # APP_ENV, *_TIMEOUT are read by common.sh / bin/servers
# PostgreSQL 15 from Debian, run as user postgres under pm2 on 127.0.0.1:55432.

PG_BIN=/usr/lib/postgresql/15/bin
PG_PORT=55432
PG_DIR="$SG_RUN_DIR/postgres"
PG_DATA="$PG_DIR/data"
PG_SOCKET="$PG_DIR/socket"
PG_DB=shellgrade PG_USER=shellgrade PG_PASSWORD=shellgrade
POSTGRES_TIMEOUT=60

# Benchmark sanity: enough connections for many replicas' pools, modest memory,
# durability left on (fsync, synchronous_commit) so numbers stay honest.
PG_SETTINGS=(
  listen_addresses=127.0.0.1
  "port=$PG_PORT"
  "unix_socket_directories=$PG_SOCKET"
  max_connections=300
  shared_buffers=256MB
  effective_cache_size=2GB
  work_mem=4MB
  fsync=on
  synchronous_commit=on
  logging_collector=off
  log_line_prefix='%m [%p] %u@%d '
  # Statements and round trips per request (npm run bench -- pg-statements): counting costs
  # little, and only loaded at start can it count. A server started before: servers restart postgres.
  shared_preload_libraries=pg_stat_statements
)

# The application's role logs in over the unix socket with its password, as over TCP: the services
# connect there (a query costs ~20 % less CPU than over loopback TCP, both sides counted). Every
# other local login stays peer. The first matching line wins, so it goes before the peer line.
PG_HBA_APP_LINE="local   all   $PG_USER   scram-sha-256"

postgres_port() { echo "$PG_PORT"; }

# Adds PG_HBA_APP_LINE to a data folder made before it existed (or by initdb); true when it was there.
postgres_allow_app_socket() {
  local hba="$PG_DATA/pg_hba.conf"
  grep -qxF "$PG_HBA_APP_LINE" "$hba" && return 0
  as_user postgres sed -i "0,/^local/s//$PG_HBA_APP_LINE\nlocal/" "$hba"
  return 1
}
postgres_logs() { echo "$PG_DIR/log"; }

postgres_install() { apt_ensure postgresql; }

postgres_start() {
  own_dir postgres "$PG_DIR" 0755
  own_dir postgres "$PG_SOCKET" 0755
  if [[ ! -f $PG_DATA/PG_VERSION ]]; then
    own_dir postgres "$PG_DATA" 0700
    log "initdb $PG_DATA"
    as_user postgres "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -E UTF8 --locale=C.UTF-8 \
      --auth-local=peer --auth-host=scram-sha-256 >"$PG_DIR/initdb.log" 2>&1 \
      || { cat "$PG_DIR/initdb.log" >&2; die "initdb failed"; }
  fi
  postgres_allow_app_socket || true
  local args=(-D "$PG_DATA") setting
  for setting in "${PG_SETTINGS[@]}"; do args+=(-c "$setting"); done
  APP_ENV=("HOME=$PG_DIR" "LANG=C.UTF-8")
  # pm2's SIGINT is postgres' fast shutdown: pooled clients of other processes cannot block a stop.
  pm2_start_app sg-postgres "$PG_DIR" 60000 "$PG_DIR/log" -- \
    /usr/bin/setpriv --reuid=postgres --regid="$(id -g postgres)" --init-groups -- \
    "$PG_BIN/postgres" "${args[@]}"
}

postgres_ready() { pg_isready -q -h 127.0.0.1 -p "$PG_PORT"; }

# Superuser statements over the unix socket (peer auth as postgres).
# shellcheck disable=SC2120
pg_admin() { as_user postgres psql -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKET" -p "$PG_PORT" -U postgres -d postgres "$@"; }

postgres_provision() {
  postgres_allow_app_socket || pg_admin -c 'select pg_reload_conf()' >/dev/null
  pg_admin <<SQL >/dev/null
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_USER') THEN
    CREATE ROLE $PG_USER LOGIN CREATEDB PASSWORD '$PG_PASSWORD';
  END IF;
END \$\$;
SELECT 'CREATE DATABASE $PG_DB OWNER $PG_USER'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$PG_DB') \gexec
SQL
  # The view over the preloaded counters, in the application's database (an extension only a superuser creates).
  pg_admin -d "$PG_DB" -c 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements' >/dev/null
}

# The application's role answers a query through <host> (an address, or the socket's folder).
pg_app_answers_at() {
  [[ $(PGPASSWORD=$PG_PASSWORD PGCONNECT_TIMEOUT=3 psql -X -tAq -h "$1" -p "$PG_PORT" \
    -U "$PG_USER" -d "$PG_DB" -c 'select 1' 2>/dev/null) == 1 ]]
}

postgres_healthy() { postgres_ready && pg_app_answers_at 127.0.0.1 && pg_app_answers_at "$PG_SOCKET"; }

postgres_wipe() { rm -rf "$PG_DIR"; }

# As the services' default (libs/variant connections.ts defaultDatabaseUrl): the socket while it exists.
postgres_env() {
  local url="postgres://$PG_USER:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB"
  [[ -S $PG_SOCKET/.s.PGSQL.$PG_PORT ]] && url+="?host=$(url_encode "$PG_SOCKET")"
  echo "export DATABASE_URL=$url"
}

# Percent-encodes every byte but [A-Za-z0-9._~-] (JavaScript's encodeURIComponent, for a path).
url_encode() {
  local s=$1 out="" c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in [A-Za-z0-9._~-]) out+=$c ;; *) printf -v c '%%%02X' "'$c"; out+=$c ;; esac
  done
  echo "$out"
}
