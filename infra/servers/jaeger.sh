# shellcheck shell=bash disable=SC2034  # APP_ENV, *_TIMEOUT are read by common.sh / bin/servers
# Jaeger v2 built from its Go module, run under pm2 with infra/servers/jaeger.yaml:
# OTLP gRPC 4317 / HTTP 4318, query API + UI 16686, bounded in-memory storage, loopback only.

JAEGER_PORT=16686
JAEGER_OTLP_GRPC_PORT=4317
JAEGER_OTLP_HTTP_PORT=4318
JAEGER_DIR="$SG_RUN_DIR/jaeger"
JAEGER_TIMEOUT=60
# Collector self-metrics (Prometheus text) on 127.0.0.1:<port>/metrics.
SG_JAEGER_METRICS_PORT=${SG_JAEGER_METRICS_PORT:-58888}
# Memory is bounded by trace count: ~200k traces of a few spans stays well under 2 GiB.
SG_JAEGER_MAX_TRACES=${SG_JAEGER_MAX_TRACES:-200000}

jaeger_port() { echo "$JAEGER_PORT"; }
jaeger_logs() { echo "$JAEGER_DIR/log"; }

jaeger_install() {
  apt_ensure curl
  jaeger_tool_ensure
}

jaeger_start() {
  mkdir -p "$JAEGER_DIR"
  APP_ENV=("JAEGER_METRICS_PORT=$SG_JAEGER_METRICS_PORT" "JAEGER_MAX_TRACES=$SG_JAEGER_MAX_TRACES")
  pm2_start_app sg-jaeger "$JAEGER_DIR" 15000 "$JAEGER_DIR/log" -- \
    "$(tool_path jaeger)" --config "$SG_SERVERS_DIR/jaeger.yaml"
}

jaeger_ready() {
  curl -sf -o /dev/null "http://127.0.0.1:$JAEGER_PORT/api/services" &&
    port_open "$JAEGER_OTLP_GRPC_PORT" && port_open "$JAEGER_OTLP_HTTP_PORT"
}
jaeger_provision() { :; }
jaeger_healthy() { jaeger_ready; }
jaeger_wipe() { rm -rf "$JAEGER_DIR"; } # traces live in memory: stopping already dropped them

jaeger_env() {
  cat <<EOF
export OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$JAEGER_OTLP_HTTP_PORT
export JAEGER_QUERY_URL=http://127.0.0.1:$JAEGER_PORT
EOF
}
