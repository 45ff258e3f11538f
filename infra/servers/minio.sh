# shellcheck shell=bash disable=SC2034  # APP_ENV, *_TIMEOUT are read by common.sh / bin/servers
# MinIO built from its Go module, run under pm2: S3 API on 127.0.0.1:59000, console on 59001,
# data under run/minio, credentials from the environment, archive bucket created on start.

MINIO_PORT=59000
MINIO_CONSOLE_PORT=59001
MINIO_DIR="$SG_RUN_DIR/minio"
MINIO_TIMEOUT=60
MINIO_USER=${MINIO_ROOT_USER:-${MINIO_ACCESS_KEY:-shellgrade}}
MINIO_PASSWORD=${MINIO_ROOT_PASSWORD:-${MINIO_SECRET_KEY:-shellgrade-secret}}
MINIO_ARCHIVE_BUCKET=${MINIO_BUCKET:-shellgrade-archives}

minio_port() { echo "$MINIO_PORT"; }
minio_logs() { echo "$MINIO_DIR/log"; }

minio_install() {
  apt_ensure curl
  minio_tool_ensure
}

minio_start() {
  mkdir -p "$MINIO_DIR/data"
  # The deprecated MINIO_ACCESS_KEY/SECRET_KEY (our clients' variable names) would reach the
  # server through pm2's inherited environment: pin them to the same credentials.
  APP_ENV=(
    "MINIO_ROOT_USER=$MINIO_USER" "MINIO_ROOT_PASSWORD=$MINIO_PASSWORD"
    "MINIO_ACCESS_KEY=$MINIO_USER" "MINIO_SECRET_KEY=$MINIO_PASSWORD"
    "MINIO_UPDATE=off" "MINIO_CALLHOME_ENABLE=off"
  )
  pm2_start_app sg-minio "$MINIO_DIR" 30000 "$MINIO_DIR/log" -- \
    "$(tool_path minio)" server "$MINIO_DIR/data" \
    --address "127.0.0.1:$MINIO_PORT" --console-address "127.0.0.1:$MINIO_CONSOLE_PORT" --quiet
}

minio_ready() { curl -sf -o /dev/null "http://127.0.0.1:$MINIO_PORT/minio/health/ready"; }

# Signed S3 request (SigV4 by curl) against the local server.
minio_s3() {
  local method=$1 path=$2
  curl -s -o /dev/null -w '%{http_code}' -X "$method" \
    --aws-sigv4 "aws:amz:us-east-1:s3" --user "$MINIO_USER:$MINIO_PASSWORD" \
    -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' \
    "http://127.0.0.1:$MINIO_PORT/$path"
}

minio_provision() {
  [[ $(minio_s3 HEAD "$MINIO_ARCHIVE_BUCKET") == 200 ]] && return 0
  local code
  code=$(minio_s3 PUT "$MINIO_ARCHIVE_BUCKET")
  [[ $code == 200 || $code == 409 ]] || { log "creating bucket $MINIO_ARCHIVE_BUCKET: HTTP $code"; return 1; }
}

minio_healthy() { minio_ready && [[ $(minio_s3 HEAD "$MINIO_ARCHIVE_BUCKET") == 200 ]]; }

minio_wipe() { rm -rf "$MINIO_DIR"; }

minio_env() {
  cat <<EOF
export MINIO_ENDPOINT=http://127.0.0.1:$MINIO_PORT
export MINIO_ACCESS_KEY=$MINIO_USER
export MINIO_SECRET_KEY=$MINIO_PASSWORD
export MINIO_BUCKET=$MINIO_ARCHIVE_BUCKET
EOF
}
