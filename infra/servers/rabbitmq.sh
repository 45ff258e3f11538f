# shellcheck shell=bash disable=SC2034  # APP_ENV, *_TIMEOUT are read by common.sh / bin/servers
# RabbitMQ 3.10 from Debian, run as user rabbitmq under pm2: AMQP on 127.0.0.1:55672,
# Erlang distribution on 55680, node sg@localhost, state and logs under run/rabbitmq.

RABBITMQ_PORT=55672
RABBITMQ_DIST_PORT=55680
RABBITMQ_DIR="$SG_RUN_DIR/rabbitmq"
RABBITMQ_TIMEOUT=120
RABBITMQ_NODE=sg@localhost
# Opt-in HTTP management API (queue inspection) on 127.0.0.1:55673: SG_RABBITMQ_MANAGEMENT=1.
RABBITMQ_MANAGEMENT_PORT=55673
AMQP_USER=shellgrade AMQP_PASSWORD=shellgrade

rabbitmq_port() { echo "$RABBITMQ_PORT"; }
rabbitmq_logs() { echo "$RABBITMQ_DIR/log"; }

rabbitmq_install() { apt_ensure rabbitmq-server; }

# The environment shared by the server and every rabbitmqctl call: same node name and
# HOME, hence the same Erlang cookie ($HOME/.erlang.cookie, created by the first start).
rabbitmq_env_lines() {
  printf '%s\n' \
    "HOME=$RABBITMQ_DIR/home" \
    "LANG=C.UTF-8" \
    "RABBITMQ_NODENAME=$RABBITMQ_NODE" \
    "RABBITMQ_NODE_IP_ADDRESS=127.0.0.1" \
    "RABBITMQ_NODE_PORT=$RABBITMQ_PORT" \
    "RABBITMQ_DIST_PORT=$RABBITMQ_DIST_PORT" \
    "ERL_EPMD_ADDRESS=127.0.0.1" \
    "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-kernel inet_dist_use_interface {127,0,0,1}" \
    "RABBITMQ_CTL_ERL_ARGS=-kernel inet_dist_use_interface {127,0,0,1}" \
    "RABBITMQ_CONFIG_FILE=$RABBITMQ_DIR/rabbitmq.conf" \
    "RABBITMQ_CONF_ENV_FILE=$RABBITMQ_DIR/rabbitmq-env.conf" \
    "RABBITMQ_MNESIA_BASE=$RABBITMQ_DIR/mnesia" \
    "RABBITMQ_LOG_BASE=$RABBITMQ_DIR/log" \
    "RABBITMQ_FEATURE_FLAGS_FILE=$RABBITMQ_DIR/feature_flags" \
    "RABBITMQ_ENABLED_PLUGINS_FILE=$RABBITMQ_DIR/enabled_plugins"
}

# Runs a RabbitMQ CLI (rabbitmqctl, rabbitmq-diagnostics) as rabbitmq with the server's env.
rabbitmq_cli() {
  local tool=$1; shift
  local env_args=()
  mapfile -t env_args < <(rabbitmq_env_lines)
  (cd "$RABBITMQ_DIR" && as_user rabbitmq env "${env_args[@]}" "/usr/lib/rabbitmq/bin/$tool" "$@")
}

rabbitmq_start() {
  own_dir rabbitmq "$RABBITMQ_DIR" 0755
  own_dir rabbitmq "$RABBITMQ_DIR/home" 0700
  own_dir rabbitmq "$RABBITMQ_DIR/mnesia" 0750
  own_dir rabbitmq "$RABBITMQ_DIR/log" 0755
  # default_* create the application user when the node boots on an empty database.
  cat >"$RABBITMQ_DIR/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$RABBITMQ_PORT
default_vhost = /
default_user = $AMQP_USER
default_pass = $AMQP_PASSWORD
default_permissions.configure = .*
default_permissions.read = .*
default_permissions.write = .*
default_user_tags.administrator = true
EOF
  : >"$RABBITMQ_DIR/rabbitmq-env.conf"
  if [[ ${SG_RABBITMQ_MANAGEMENT:-0} == 1 ]]; then
    printf 'management.tcp.ip = 127.0.0.1\nmanagement.tcp.port = %s\n' "$RABBITMQ_MANAGEMENT_PORT" >>"$RABBITMQ_DIR/rabbitmq.conf"
    echo '[rabbitmq_management].' >"$RABBITMQ_DIR/enabled_plugins"
  else
    echo '[].' >"$RABBITMQ_DIR/enabled_plugins"
  fi
  chown rabbitmq: "$RABBITMQ_DIR/rabbitmq.conf" "$RABBITMQ_DIR/rabbitmq-env.conf" "$RABBITMQ_DIR/enabled_plugins"
  mapfile -t APP_ENV < <(rabbitmq_env_lines)
  # The foreground script turns pm2's SIGINT into a clean stop of the Erlang node.
  pm2_start_app sg-rabbitmq "$RABBITMQ_DIR" 60000 "$RABBITMQ_DIR/log" -- \
    /usr/bin/setpriv --reuid=rabbitmq --regid="$(id -g rabbitmq)" --init-groups -- \
    /usr/lib/rabbitmq/bin/rabbitmq-server
}

# The AMQP listener opens last in the boot sequence, so an open port means a booted node.
rabbitmq_ready() { port_open "$RABBITMQ_PORT"; }

# An AMQP login as the application user on vhost /: proves listener, user, password and vhost
# access in ~0.5 s (rabbitmqctl boots an Erlang VM per call: seconds, minutes under load).
# Falls back to the diagnostics CLI when the repo's amqplib is not installed yet.
rabbitmq_amqp_login() {
  (cd "$SG_REPO_ROOT" && node -e '
    let amqp;
    try { amqp = require("amqplib"); } catch { process.exit(3); }
    amqp.connect(process.argv[1], { timeout: 5000 })
      .then((c) => c.close())
      .then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); });
  ' "amqp://$AMQP_USER:$AMQP_PASSWORD@127.0.0.1:$RABBITMQ_PORT")
}

rabbitmq_healthy() {
  local rc=0
  rabbitmq_amqp_login || rc=$?
  ((rc == 3)) && { port_open "$RABBITMQ_PORT" && rabbitmq_cli rabbitmq-diagnostics -q check_port_connectivity; return; }
  return "$rc"
}

# The user normally exists from boot (default_user); recreate it if someone removed it.
rabbitmq_provision() {
  rabbitmq_amqp_login >/dev/null 2>&1 && return 0
  if ! rabbitmq_cli rabbitmqctl -q list_users | awk '{print $1}' | grep -qx "$AMQP_USER"; then
    rabbitmq_cli rabbitmqctl -q add_user "$AMQP_USER" "$AMQP_PASSWORD" >/dev/null
    rabbitmq_cli rabbitmqctl -q set_user_tags "$AMQP_USER" administrator >/dev/null
  fi
  rabbitmq_cli rabbitmqctl -q set_permissions -p / "$AMQP_USER" '.*' '.*' '.*' >/dev/null
}

rabbitmq_wipe() { rm -rf "$RABBITMQ_DIR"; }

rabbitmq_env() { echo "export AMQP_URL=amqp://$AMQP_USER:$AMQP_PASSWORD@127.0.0.1:$RABBITMQ_PORT"; }
