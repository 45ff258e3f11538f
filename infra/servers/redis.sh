# shellcheck shell=bash disable=SC2034  # APP_ENV, *_TIMEOUT are read by common.sh / bin/servers
# Redis 7 from Debian, run as user redis under pm2 on 127.0.0.1:56379, AOF on (broker durability).

REDIS_PORT=56379
REDIS_DIR="$SG_RUN_DIR/redis"
REDIS_TIMEOUT=30

redis_port() { echo "$REDIS_PORT"; }
redis_logs() { echo "$REDIS_DIR/log"; }

redis_install() { apt_ensure redis-server; }

redis_start() {
  own_dir redis "$REDIS_DIR" 0755
  own_dir redis "$REDIS_DIR/data" 0700
  # Regenerated on every start so a config change here applies on the next up.
  cat >"$REDIS_DIR/redis.conf" <<EOF
bind 127.0.0.1
port $REDIS_PORT
protected-mode yes
daemonize no
supervised no
logfile ""
dir $REDIS_DIR/data
appendonly yes
appendfsync everysec
save 3600 1 300 100 60 10000
maxclients 10000
EOF
  chmod 644 "$REDIS_DIR/redis.conf"
  APP_ENV=("HOME=$REDIS_DIR")
  pm2_start_app sg-redis "$REDIS_DIR" 30000 "$REDIS_DIR/log" -- \
    /usr/bin/setpriv --reuid=redis --regid="$(id -g redis)" --init-groups -- \
    /usr/bin/redis-server "$REDIS_DIR/redis.conf"
}

redis_ready() { [[ $(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null) == PONG ]]; }
redis_provision() { :; }
redis_healthy() { redis_ready; }
redis_wipe() { rm -rf "$REDIS_DIR"; }
redis_env() { echo "export REDIS_URL=redis://127.0.0.1:$REDIS_PORT"; }
