#!/usr/bin/env bash
# Memory per open idle CONNECT tunnel in the middle hop: the gateway and a squid front doing the same job.
#   client (IdleTunnels.java open) -> X -> squid A -> idle target (IdleTunnels.java target)
#   X = (b) the gateway (`proxypool serve`, squid A its only upstream; client auth on)
#       (c) squid B (cache_peer parent squid A, like run.sh's squid front)
# For each X: start it, open and close a few hundred tunnels (warm-up), read its resident memory, open N
# tunnels and hold them idle (no byte after the CONNECT's 200), read it again: memory per tunnel =
# RSS growth / tunnels. The gateway runs with its heap touched up front (-XX:+AlwaysPreTouch), so its RSS
# growth is the memory outside the heap, and the heap's part is read as live heap growth after a full GC;
# its figure is the sum of the two. Squid's is its RSS growth. Written against the gateway's external
# behaviour only (its config and CONNECT), so it measures any data plane behind them.
# Everything binds to 127.0.0.1; every process started here is stopped on exit; bounded in time.
#
# Usage: benchmarks/gateway/idle-tunnels.sh [--tunnels 10000] [--parallel 32] [--skip-build]
#                                           [--gateway-opts "..."] [--only gateway|squid] [--histogram FILE]
# --histogram FILE: the gateway's heap by class (top 25 of jcmd GC.class_histogram) while the tunnels are held
# Each tunnel takes two descriptors in the middle hop and two in squid A: N is lowered to what
# `ulimit -n` (raised to its hard limit here) allows, and the run says so.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TUNNELS=10000
PARALLEL=32
SKIP_BUILD=0
GATEWAY_OPTS="-Xms512m -Xmx512m -XX:+UseParallelGC -XX:+AlwaysPreTouch"
ONLY=""
HISTOGRAM=""
WARMUP=300
while [ $# -gt 0 ]; do
  case "$1" in
    --tunnels) TUNNELS="$2"; shift 2 ;;
    --parallel) PARALLEL="$2"; shift 2 ;;      # tunnels being opened at once
    --skip-build) SKIP_BUILD=1; shift ;;
    --gateway-opts) GATEWAY_OPTS="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --histogram) HISTOGRAM="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

TARGET_PORT=18200
SQUID_A_PORT=18228
SQUID_B_PORT=18229
GATEWAY_PORT=18280
API_PORT=19290

ulimit -n "$(ulimit -Hn)"
LIMIT=$(ulimit -n)
# the middle hop and squid A each hold 2 descriptors per tunnel, plus their own (a JVM: a few hundred,
# and the gateway keeps a reserve of limit/8, at most 1024, for its REST listener)
MAX=$(( (LIMIT - 1500) / 2 / 100 * 100 ))
if [ "$TUNNELS" -gt "$MAX" ]; then
  echo "note: ulimit -n is $LIMIT (hard limit): $TUNNELS tunnels need $((2 * TUNNELS)) descriptors in one process;"
  echo "      measuring $MAX tunnels instead (memory per tunnel is a ratio: the count barely moves it)"
  TUNNELS=$MAX
fi

command -v squid >/dev/null 2>&1 || [ -x /usr/sbin/squid ] || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq squid >/dev/null; }
SQUID=$(command -v squid || echo /usr/sbin/squid)
. "$ROOT/benchmarks/java.sh"
JAVA_HOME_SEL=$(java_home)
JAVA="$JAVA_HOME_SEL/bin/java"
JCMD="$JAVA_HOME_SEL/bin/jcmd"

. "$ROOT/benchmarks/procs.sh"
bench_before_stop() { touch "$WORK/release" 2>/dev/null || true; }  # the held clients let go first
bench_start pp-idle-tunnels

if [ "$SKIP_BUILD" = 0 ] || [ ! -f "$ROOT/proxypool-cli/target/proxypool.jar" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl proxypool-cli -am package -DskipTests >/dev/null)
fi

wait_port() { # port name (up to 60 s)
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "$2 did not start on port $1" >&2
  tail -20 "$WORK"/*.out >&2 2>/dev/null || true
  exit 1
}
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
# live heap after a full GC, KiB (the "used" of the heap's generations or regions as GC.heap_info prints them)
heap_kib() {
  "$JCMD" "$1" GC.run >/dev/null
  "$JCMD" "$1" GC.heap_info | grep -E '^ *(PSYoungGen|ParOldGen|garbage-first heap|def new generation|tenured generation|ZHeap|Shenandoah)' \
    | sed -n 's/.*used \([0-9]*\)K.*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}
sed_conf() { # template out port name
  sed -e "s#@WORK@#$WORK#g" -e "s#@SQUID_A_PORT@#$SQUID_A_PORT#g" -e "s#@SQUID_B_PORT@#$SQUID_B_PORT#g" "$1" > "$2"
  printf 'max_filedescriptors %s\n' "$LIMIT" >> "$2"
}

echo "machine load before: $(uptime)"
"$JAVA" "$HERE/IdleTunnels.java" target $TARGET_PORT > "$WORK/target.out" 2>&1 &
PIDS+=($!)
sed_conf "$HERE/squid-a.conf.in" "$WORK/squid-a.conf"
"$SQUID" -N -f "$WORK/squid-a.conf" > "$WORK/squid-a.out" 2>&1 &
PIDS+=($!)
wait_port $TARGET_PORT "idle target"
wait_port $SQUID_A_PORT "squid A"

CLIENT_NAME=bench
CLIENT_SECRET=bench-secret-0123456789
PROXY_AUTH="Basic $(printf '%s:%s' "$CLIENT_NAME" "$CLIENT_SECRET" | base64 -w0)"
export PROXY_AUTH

# open N tunnels through port $1, hold them; sets OPENED, FAILED, OPEN_S and leaves the client running
open_tunnels() { # port count name
  rm -f "$WORK/release" "$WORK/client-$3.out"
  "$JAVA" -Xss256k "$HERE/IdleTunnels.java" open 127.0.0.1 "$1" "127.0.0.1:$TARGET_PORT" "$2" 300 \
    "$WORK/release" "$PARALLEL" > "$WORK/client-$3.out" 2>&1 &
  CLIENT_PID=$!
  for _ in $(seq 1 3000); do # up to 300 s
    grep -q '^READY' "$WORK/client-$3.out" 2>/dev/null && break
    kill -0 "$CLIENT_PID" 2>/dev/null || break
    sleep 0.1
  done
  local line; line=$(grep '^open=' "$WORK/client-$3.out" || echo "open=0 failed=$2")
  OPENED=$(echo "$line" | sed -n 's/.*open=\([0-9]*\).*/\1/p')
  FAILED=$(echo "$line" | sed -n 's/.*failed=\([0-9]*\).*/\1/p')
  OPEN_S=$(echo "$line" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
  if [ "$FAILED" != 0 ]; then echo "  $3: $line"; fi
}
release_tunnels() {
  touch "$WORK/release"
  wait "$CLIENT_PID" 2>/dev/null || true
}

declare -A RESULT
measure() { # name pid port jvm(0/1)
  local name=$1 pid=$2 port=$3 jvm=$4
  # warm-up: the CONNECT path compiled and its buffers and pools at their working size, then closed
  open_tunnels "$port" "$WARMUP" "$name-warmup"
  release_tunnels
  sleep 2
  local heap0=0 heap1=0
  [ "$jvm" = 1 ] && heap0=$(heap_kib "$pid")
  sleep 1
  local rss0; rss0=$(rss_kib "$pid")
  open_tunnels "$port" "$TUNNELS" "$name"
  sleep 3 # let the last ones settle (buffers handed back, threads parked)
  [ "$jvm" = 1 ] && heap1=$(heap_kib "$pid")
  if [ "$jvm" = 1 ] && [ -n "$HISTOGRAM" ]; then
    "$JCMD" "$pid" GC.class_histogram | head -28 > "$HISTOGRAM"
    echo "  heap by class while held: $HISTOGRAM"
  fi
  sleep 1
  local rss1; rss1=$(rss_kib "$pid")
  local threads; threads=$(ls "/proc/$pid/task" | wc -l)
  release_tunnels
  local n=$OPENED
  RESULT[$name]=$(awk -v n="$n" -v f="$FAILED" -v s="$OPEN_S" -v r0="$rss0" -v r1="$rss1" -v h0="$heap0" -v h1="$heap1" \
    -v jvm="$jvm" -v th="$threads" 'BEGIN{
      rss = n ? (r1 - r0) / n : 0; heap = n ? (h1 - h0) / n : 0
      printf "%d open (%d failed, %.1f s to open); RSS %.1f -> %.1f MiB = %.2f KiB/tunnel", n, f, s, r0/1024, r1/1024, rss
      if (jvm == 1) printf "; live heap %.1f -> %.1f MiB = %.2f KiB/tunnel; total %.2f KiB/tunnel", h0/1024, h1/1024, heap, rss + heap
      else printf "; total %.2f KiB/tunnel", rss
      printf "; %d threads while held", th }')
  echo "  $name: ${RESULT[$name]}"
}

if [ "$ONLY" != squid ]; then
  printf '{"host": "127.0.0.1", "port": %d, "protocol": "http", "maxConcurrency": 100000}\n' "$SQUID_A_PORT" \
    > "$WORK/inventory.jsonl"
  if [ -z "${SECRET_HASH:-}" ]; then
    SECRET_HASH=$(printf '%s' "$CLIENT_SECRET" | "$JAVA" --sun-misc-unsafe-memory-access=allow \
      -jar "$ROOT/proxypool-cli/target/proxypool.jar" hash-secret | tail -1)
  fi
  cat > "$WORK/proxypool.yaml" <<YAML
server: { host: 127.0.0.1, gatewayPort: $GATEWAY_PORT, apiPort: $API_PORT, maxConnections: $((TUNNELS + 200)), maxConnectionsPerAddress: $((TUNNELS + 200)) }
providers: [{ name: squid, type: jsonl_inventory, path: inventory.jsonl }]
upstreams: [{ name: squid-a, provider: squid, validate: false }]
health: { active: { enabled: false } }
security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [$TARGET_PORT] }
clients: [{ name: $CLIENT_NAME, secretHash: "$SECRET_HASH" }]
YAML
  echo "gateway JVM options: $GATEWAY_OPTS"
  # shellcheck disable=SC2086
  (cd "$WORK" && exec "$JAVA" $GATEWAY_OPTS --sun-misc-unsafe-memory-access=allow \
    -jar "$ROOT/proxypool-cli/target/proxypool.jar" serve --config "$WORK/proxypool.yaml") > "$WORK/gateway.out" 2>&1 &
  GW_PID=$!
  PIDS+=($GW_PID)
  wait_port $GATEWAY_PORT gateway
  echo "measuring $TUNNELS idle tunnels through (b) the gateway"
  measure gateway $GW_PID $GATEWAY_PORT 1
  kill "$GW_PID" 2>/dev/null || true
  wait "$GW_PID" 2>/dev/null || true
  sleep 2 # squid A closes the tunnels' upstream halves
fi

if [ "$ONLY" != gateway ]; then
  sed_conf "$HERE/squid-b.conf.in" "$WORK/squid-b.conf"
  "$SQUID" -N -f "$WORK/squid-b.conf" > "$WORK/squid-b.out" 2>&1 &
  SQ_PID=$!
  PIDS+=($SQ_PID)
  wait_port $SQUID_B_PORT "squid B"
  echo "measuring $TUNNELS idle tunnels through (c) squid B (the squid front)"
  measure squid $SQ_PID $SQUID_B_PORT 0
fi

echo
echo "== memory per open idle tunnel in the middle hop ($TUNNELS tunnels, loopback) =="
[ -n "${RESULT[gateway]:-}" ] && echo "(b) gateway: ${RESULT[gateway]}"
[ -n "${RESULT[squid]:-}" ] && echo "(c) squid B: ${RESULT[squid]}"
echo "machine load after: $(uptime)"
