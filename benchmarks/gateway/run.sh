#!/usr/bin/env bash
# Gateway load harness: one run, same machine, same origin, three paths to squid A.
#   (a) wrk -> squid A -> nginx                 (the single-proxy floor)
#   (b) wrk -> gateway -> squid A -> nginx      (ours, StaticUpstreamEngine pointing at squid A)
#   (c) wrk -> squid B -> squid A -> nginx      (a squid peer chain: the baseline to beat)
# plus CONNECT tunnel set-up rate and bulk MB/s through a tunnel for (a)/(b)/(c).
# Everything binds to 127.0.0.1; every process started here is stopped on exit.
#
# Usage: benchmarks/gateway/run.sh [--duration 15] [--connections 50] [--threads 2] [--rounds 1]
#                                  [--listener own|own-platform|helidon] [--tunnel-seconds 8] [--skip-build]
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DURATION=15
CONNECTIONS=50
THREADS=2
SKIP_BUILD=0
TUNNEL_SECONDS=8
LISTENER=own
ROUNDS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --skip-build) SKIP_BUILD=1; shift ;;
    --listener) LISTENER="$2"; shift 2 ;;      # own (default) | own-platform | helidon
    --rounds) ROUNDS="$2"; shift 2 ;;          # interleaved rounds; the table shows the median round
    --tunnel-seconds) TUNNEL_SECONDS="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

ORIGIN_PORT=18100
ORIGIN_TLS_PORT=18443
SQUID_A_PORT=18128
SQUID_B_PORT=18129
GATEWAY_PORT=18080
API_PORT=19090

# --- tools (installed only when missing) ---------------------------------------------------
need=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v squid >/dev/null 2>&1 || [ -x /usr/sbin/squid ] || need+=(squid)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
SQUID=$(command -v squid || echo /usr/sbin/squid)

JAVA_HOME_SEL="${JAVA_HOME:-}"
if [ -z "$JAVA_HOME_SEL" ] || [ ! -x "$JAVA_HOME_SEL/bin/java" ]; then
  JAVA_HOME_SEL=$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1)
fi
JAVA="$JAVA_HOME_SEL/bin/java"

WORK=$(mktemp -d /tmp/pp-gateway-bench.XXXXXX)
chmod 777 "$WORK"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 1 30); do
    alive=0
    for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# --- build the gateway ------------------------------------------------------------------------
if [ "$SKIP_BUILD" = 0 ] || [ ! -f "$ROOT/proxypool-server/target/bench-classpath.txt" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl proxypool-server -am package -DskipTests \
      dependency:build-classpath -Dmdep.outputFile="$ROOT/proxypool-server/target/bench-classpath.txt" >/dev/null)
fi
CP="$ROOT/proxypool-server/target/classes:$(cat "$ROOT/proxypool-server/target/bench-classpath.txt")"

# --- origin -----------------------------------------------------------------------------------
mkdir -p "$WORK/www"
head -c 100 /dev/zero | tr '\0' 'x' > "$WORK/www/small.txt"          # 100-byte static file
head -c $((64 * 1024 * 1024)) /dev/zero > "$WORK/www/big.bin"        # 64 MiB for bulk tunnels
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" \
  -keyout "$WORK/origin.key" -out "$WORK/origin.crt" >/dev/null 2>&1
subst() {
  sed -e "s#@WORK@#$WORK#g" -e "s#@ORIGIN_PORT@#$ORIGIN_PORT#g" -e "s#@ORIGIN_TLS_PORT@#$ORIGIN_TLS_PORT#g" \
      -e "s#@SQUID_A_PORT@#$SQUID_A_PORT#g" -e "s#@SQUID_B_PORT@#$SQUID_B_PORT#g" "$1" > "$2"
}
subst "$HERE/nginx.conf.in" "$WORK/nginx.conf"
subst "$HERE/squid-a.conf.in" "$WORK/squid-a.conf"
subst "$HERE/squid-b.conf.in" "$WORK/squid-b.conf"

"$NGINX" -c "$WORK/nginx.conf" -e "$WORK/nginx-error.log" &
PIDS+=($!)
"$SQUID" -N -f "$WORK/squid-a.conf" > "$WORK/squid-a.out" 2>&1 &
PIDS+=($!)
"$JAVA" -Xms512m -Xmx512m -XX:+UseParallelGC -cp "$CP" dev.proxypool.server.StaticGatewayMain \
  --gateway-port "$GATEWAY_PORT" --api-port "$API_PORT" --upstream "127.0.0.1:$SQUID_A_PORT" --listener "$LISTENER" \
  > "$WORK/gateway.out" 2>&1 &
PIDS+=($!)

wait_port() { # port name
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "$2 did not start on port $1" >&2
  cat "$WORK"/*.out "$WORK"/*.log 2>/dev/null | tail -20 >&2
  exit 1
}
wait_port $ORIGIN_PORT nginx
wait_port $SQUID_A_PORT "squid A"
# squid B only after squid A answers: a parent found dead at start-up is avoided for a while
"$SQUID" -N -f "$WORK/squid-b.conf" > "$WORK/squid-b.out" 2>&1 &
PIDS+=($!)
wait_port $SQUID_B_PORT "squid B"
wait_port $GATEWAY_PORT gateway

ORIGIN_URL="http://127.0.0.1:$ORIGIN_PORT/small.txt"
export ORIGIN_URL
check() { # proxy-port name (retries for up to 10 s while the proxy settles)
  for _ in $(seq 1 50); do
    if curl -sf -o /dev/null -x "http://127.0.0.1:$1" "$ORIGIN_URL"; then return 0; fi
    sleep 0.2
  done
  echo "$2 does not forward $ORIGIN_URL" >&2; exit 1
}
check $SQUID_A_PORT "squid A"; check $SQUID_B_PORT "squid B"; check $GATEWAY_PORT gateway
echo "sanity: gateway headers:"
curl -s -D - -o /dev/null -x "http://127.0.0.1:$GATEWAY_PORT" "$ORIGIN_URL" | grep -i '^x-proxypool' | tr -d '\r' | sed 's/^/  /'

# --- HTTP throughput --------------------------------------------------------------------------
declare -A RPS P50 P99
to_ms() { # wrk latency like 812.00us / 1.20ms / 1.01s -> ms
  awk -v v="$1" 'BEGIN{ n=v; sub(/[a-z]+$/,"",n); u=v; sub(/^[0-9.]+/,"",u);
    if (u=="us") n=n/1000; else if (u=="s") n=n*1000; printf "%.3f", n }'
}
run_wrk() { # key port round
  local out="$WORK/wrk-$1-$3.txt"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$HERE/abs-path.lua" "http://127.0.0.1:$2" > "$out"
  local rps p50 p99
  rps=$(awk '/^Requests\/sec/ {print $2}' "$out")
  p50=$(to_ms "$(awk '$1=="50%" {print $2}' "$out")")
  p99=$(to_ms "$(awk '$1=="99%" {print $2}' "$out")")
  echo "$rps $p50 $p99" >> "$WORK/rounds-$1.txt"
  printf '  round %s %s: %s req/s, P50 %s ms, P99 %s ms\n' "$3" "$1" "$rps" "$p50" "$p99"
  local errs; errs=$(grep -E 'Non-2xx|Socket errors' "$out" || true)
  if [ -n "$errs" ]; then echo "  $1: $errs"; fi
  return 0
}
median_round() { # key -> sets RPS/P50/P99 from the round with the median req/s
  local line; line=$(sort -n "$WORK/rounds-$1.txt" | awk '{a[NR]=$0} END{print a[int((NR+1)/2)]}')
  RPS[$1]=$(echo "$line" | awk '{print $1}'); P50[$1]=$(echo "$line" | awk '{print $2}'); P99[$1]=$(echo "$line" | awk '{print $3}')
}
echo "warm-up (gateway JIT, squid pconns): 5 s each"
wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s "$HERE/abs-path.lua" "http://127.0.0.1:$GATEWAY_PORT" >/dev/null
wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s "$HERE/abs-path.lua" "http://127.0.0.1:$SQUID_B_PORT" >/dev/null
echo "measuring ${DURATION}s each at $CONNECTIONS connections, $THREADS wrk threads, $ROUNDS interleaved round(s)"
for r in $(seq 1 "$ROUNDS"); do
  run_wrk a $SQUID_A_PORT "$r"
  run_wrk b $GATEWAY_PORT "$r"
  run_wrk c $SQUID_B_PORT "$r"
done
for k in a b c; do median_round $k; done

# --- CONNECT tunnels --------------------------------------------------------------------------
declare -A TUN BULK
tunnel() { # key port
  TUN[$1]=$("$JAVA" "$HERE/TunnelBench.java" 127.0.0.1 "$2" "127.0.0.1:$ORIGIN_PORT" setup "$TUNNEL_SECONDS" 8 /small.txt)
  BULK[$1]=$("$JAVA" "$HERE/TunnelBench.java" 127.0.0.1 "$2" "127.0.0.1:$ORIGIN_PORT" bulk "$TUNNEL_SECONDS" 1 /big.bin)
}
echo "measuring CONNECT tunnels (${TUNNEL_SECONDS}s each: 8 clients set-up loop; 1 client bulk 64 MiB loop)"
tunnel a $SQUID_A_PORT
tunnel b $GATEWAY_PORT
tunnel c $SQUID_B_PORT

# --- report -----------------------------------------------------------------------------------
echo
echo "gateway listener: $LISTENER; median of $ROUNDS round(s)"
printf '%-34s %10s %9s %9s\n' "HTTP (wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s)" "req/s" "P50 ms" "P99 ms"
printf '%-34s %10s %9s %9s\n' "(a) client -> squid A" "${RPS[a]}" "${P50[a]}" "${P99[a]}"
printf '%-34s %10s %9s %9s\n' "(b) client -> gateway -> squid A" "${RPS[b]}" "${P50[b]}" "${P99[b]}"
printf '%-34s %10s %9s %9s\n' "(c) client -> squid B -> squid A" "${RPS[c]}" "${P50[c]}" "${P99[c]}"
awk -v b="${RPS[b]}" -v c="${RPS[c]}" -v pb="${P99[b]}" -v pa="${P99[a]}" \
  'BEGIN{ printf "throughput ratio b/c = %.2f   added P99 of the gateway over (a) = %.3f ms\n", b/c, pb-pa }'
echo
echo "CONNECT tunnels (TunnelBench.java)"
for k in a b c; do
  case $k in a) n="(a) client -> squid A";; b) n="(b) client -> gateway -> squid A";; c) n="(c) client -> squid B -> squid A";; esac
  printf '%-34s set-up: %s | bulk: %s\n' "$n" "${TUN[$k]}" "${BULK[$k]}"
done
