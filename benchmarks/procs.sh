# Sourced by the benchmark scripts: one work directory and the processes a script starts, all stopped
# and removed when it exits (normally, on an error or on Ctrl-C).
#   bench_start PREFIX   sets WORK (a fresh /tmp/PREFIX.XXXXXX, mode 777: squid and nginx drop
#                        privileges and write there) and PIDS=(); the script appends each PID it starts
#   bench_before_stop    if the script defines it, runs first (e.g. tells its own clients to let go)
bench_start() {
  WORK=$(mktemp -d "/tmp/$1.XXXXXX")
  chmod 777 "$WORK"
  PIDS=()
  trap bench_stop EXIT INT TERM
}

bench_stop() {
  if declare -F bench_before_stop >/dev/null; then bench_before_stop || true; fi
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 1 50); do   # up to 5 s for a graceful stop, then SIGKILL
    alive=0
    for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
