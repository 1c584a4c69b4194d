#!/usr/bin/env bash
# Gateway load harness: one run, same machine, same origin, four paths to squid A.
#   (a) wrk -> squid A -> nginx                 (the single-proxy floor: direct to the upstream)
#   (h) wrk -> HAProxy -> squid A -> nginx      (HAProxy as a bare TCP relay, `mode tcp`: no CONNECT parsing,
#                                                 no auth, no pick; the floor any middle hop can reach)
#   (b) wrk -> gateway -> squid A -> nginx      (ours: `proxypool serve` with squid A as its only upstream;
#                                                 listener "own" = the bare wire layer over a static engine)
#   (c) wrk -> squid B -> squid A -> nginx      (a squid peer chain: the baseline to beat)
# plus CONNECT tunnel set-up rate and bulk MB/s through a tunnel for every path, and for each the middle
# hop's CPU time and context switches (all its threads, voluntary and not) per request and per tunnel.
# Everything binds to 127.0.0.1; every process started here is stopped on exit.
#
# Usage: benchmarks/gateway/run.sh [--duration 15] [--connections 50] [--threads 2] [--rounds 1]
#                                  [--listeners product[,own]] [--tunnel-seconds 8] [--skip-build]
#                                  [--tunnel-warmup 6] [--tunnel-threads 16] [--open-loop-seconds 15] [--open-loop-rate R]
#                                  [--profile DIR] [--gateway-opts "-Djdk.virtualThreadScheduler.parallelism=1"] [--hold]
# --hold starts everything, checks it, prints ports, PIDs and the client credentials, and waits (Ctrl-C stops
# all): for investigations by hand, e.g. with thread-cpu.sh (per-thread CPU and context switches per unit).
# With several listeners, one gateway per listener kind runs (ports 18080, 18081, ...) and each is
# measured as its own (b) row in the same interleaved rounds; the b/c ratio uses the first one.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DURATION=15
CONNECTIONS=50
THREADS=2
SKIP_BUILD=0
TUNNEL_SECONDS=8
TUNNEL_WARMUP=6
TUNNEL_THREADS=16
OPEN_LOOP_SECONDS=15
OPEN_LOOP_RATE=""
LISTENERS=product
ROUNDS=1
GATEWAY_OPTS=""
PROFILE_DIR=""
HOLD=0
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --skip-build) SKIP_BUILD=1; shift ;;
    --listeners) LISTENERS="$2"; shift 2 ;;    # comma list of product (default) | own
    --rounds) ROUNDS="$2"; shift 2 ;;          # interleaved rounds; the table shows the median round
    --tunnel-seconds) TUNNEL_SECONDS="$2"; shift 2 ;;
    --tunnel-warmup) TUNNEL_WARMUP="$2"; shift 2 ;;  # unmeasured set-up loop before each path's tunnels (0: none)
    --tunnel-threads) TUNNEL_THREADS="$2"; shift 2 ;;
    --open-loop-seconds) OPEN_LOOP_SECONDS="$2"; shift 2 ;;   # 0 skips the open-loop latency phase
    --open-loop-rate) OPEN_LOOP_RATE="$2"; shift 2 ;;         # default: 50% of squid B's measured peak
    --gateway-opts) GATEWAY_OPTS="$2"; shift 2 ;;  # extra JVM options for the gateway(s)
    --profile) PROFILE_DIR="$2"; shift 2 ;;    # JFR of the first gateway: DIR/http.jfr, DIR/tunnel.jfr + hot methods
    --hold) HOLD=1; shift ;;                   # start everything, print ports/PIDs, wait until interrupted
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

ORIGIN_PORT=18100
ORIGIN_TLS_PORT=18443
SQUID_A_PORT=18128
SQUID_B_PORT=18129
HAPROXY_PORT=18130
GATEWAY_PORT=18080
API_PORT=19090

# --- tools (installed only when missing) ---------------------------------------------------
need=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v squid >/dev/null 2>&1 || [ -x /usr/sbin/squid ] || need+=(squid)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
SQUID=$(command -v squid || echo /usr/sbin/squid)
HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)

. "$ROOT/benchmarks/java.sh"
JAVA_HOME_SEL=$(java_home)
JAVA="$JAVA_HOME_SEL/bin/java"

. "$ROOT/benchmarks/procs.sh"
bench_start pp-gateway-bench

# --- build the gateway ------------------------------------------------------------------------
# the bare wire layer's main class lives in benchmarks/ (it runs the server's static upstream test fixture)
if [ "$SKIP_BUILD" = 0 ] || [ ! -f "$ROOT/benchmarks/target/gateway-classpath.txt" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl benchmarks -am package -DskipTests \
      dependency:build-classpath -Dmdep.outputFile="$ROOT/benchmarks/target/gateway-classpath.txt" >/dev/null)
  (cd "$ROOT" && ./mvnw -B -q -pl proxypool-cli -am package -DskipTests >/dev/null)
fi
CP="$ROOT/benchmarks/target/classes:$(cat "$ROOT/benchmarks/target/gateway-classpath.txt")"

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
# HAProxy as a bare TCP relay in front of squid A: bytes in, bytes out (Debian's haproxy, default threads)
cat > "$WORK/haproxy.cfg" <<CFG
global
  maxconn 4096
defaults
  mode tcp
  timeout connect 5s
  timeout client 60s
  timeout server 60s
frontend relay
  bind 127.0.0.1:$HAPROXY_PORT
  default_backend squid_a
backend squid_a
  server a 127.0.0.1:$SQUID_A_PORT
CFG

"$NGINX" -c "$WORK/nginx.conf" -e "$WORK/nginx-error.log" &
PIDS+=($!)
"$SQUID" -N -f "$WORK/squid-a.conf" > "$WORK/squid-a.out" 2>&1 &
PIDS+=($!)
declare -A PID_OF
PID_OF[a]=$!
IFS=',' read -r -a LISTENER_LIST <<< "$LISTENERS"
# every client (wrk, TunnelBench, OpenLoop) sends these credentials to every proxy; the squids ignore them
CLIENT_NAME=bench
CLIENT_SECRET=bench-secret-0123456789
PROXY_AUTH="Basic $(printf '%s:%s' "$CLIENT_NAME" "$CLIENT_SECRET" | base64 -w0)"
export PROXY_AUTH
declare -A GW_PORT
i=0
for L in "${LISTENER_LIST[@]}"; do
  GW_PORT[$L]=$((GATEWAY_PORT + i))
  if [ "$L" != product ] && [ "$L" != own ]; then
    echo "--listeners: $L is not one of product, own" >&2; exit 2
  fi
  if [ "$L" = product ]; then
    # the real product: routing, dispatcher, capacity, health, destination policy, SDK dialer
    printf '{"host": "127.0.0.1", "port": %d, "protocol": "http", "maxConcurrency": 100000}\n' "$SQUID_A_PORT" \
      > "$WORK/inventory.jsonl"
    # a client with a PBKDF2 secret hash, as a production config has it: every request authenticates
    if [ -z "${SECRET_HASH:-}" ]; then
      SECRET_HASH=$(printf '%s' "$CLIENT_SECRET" | "$JAVA" --sun-misc-unsafe-memory-access=allow \
        -jar "$ROOT/proxypool-cli/target/proxypool.jar" hash-secret | tail -1)
    fi
    cat > "$WORK/proxypool.yaml" <<YAML
server: { host: 127.0.0.1, gatewayPort: ${GW_PORT[$L]}, apiPort: $((API_PORT + i)) }
providers: [{ name: squid, type: jsonl_inventory, path: inventory.jsonl }]
upstreams: [{ name: squid-a, provider: squid, validate: false }]
health: { active: { enabled: false } }
security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [443, $ORIGIN_PORT, $ORIGIN_TLS_PORT] }
clients: [{ name: $CLIENT_NAME, secretHash: "$SECRET_HASH" }]
YAML
    # shellcheck disable=SC2086
    "$JAVA" -Xms512m -Xmx512m -XX:+UseParallelGC $GATEWAY_OPTS --sun-misc-unsafe-memory-access=allow \
      -jar "$ROOT/proxypool-cli/target/proxypool.jar" serve --config "$WORK/proxypool.yaml" \
      > "$WORK/gateway-$L.out" 2>&1 &
  else
  # shellcheck disable=SC2086
  "$JAVA" -Xms512m -Xmx512m -XX:+UseParallelGC $GATEWAY_OPTS -cp "$CP" dev.proxypool.benchmarks.gateway.StaticGatewayMain \
    --gateway-port "${GW_PORT[$L]}" --api-port $((API_PORT + i)) --upstream "127.0.0.1:$SQUID_A_PORT" \
    > "$WORK/gateway-$L.out" 2>&1 &
  fi
  PIDS+=($!)
  PID_OF[b-$L]=$!
  i=$((i + 1))
done

wait_port() { # port name  # up to 60 s: a JVM on a loaded 2-core host can take over 10 s to start
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "$2 did not start on port $1" >&2
  cat "$WORK"/*.out "$WORK"/*.log 2>/dev/null | tail -20 >&2
  exit 1
}
wait_port $ORIGIN_PORT nginx
wait_port $SQUID_A_PORT "squid A"
"$HAPROXY" -db -f "$WORK/haproxy.cfg" > "$WORK/haproxy.out" 2>&1 &
PIDS+=($!)
PID_OF[h]=$!
wait_port $HAPROXY_PORT "haproxy"
# squid B only after squid A answers: a parent found dead at start-up is avoided for a while
"$SQUID" -N -f "$WORK/squid-b.conf" > "$WORK/squid-b.out" 2>&1 &
PIDS+=($!)
PID_OF[c]=$!
wait_port $SQUID_B_PORT "squid B"
for L in "${LISTENER_LIST[@]}"; do wait_port "${GW_PORT[$L]}" "gateway ($L)"; done

ORIGIN_URL="http://127.0.0.1:$ORIGIN_PORT/small.txt"
export ORIGIN_URL
check() { # proxy-port name (retries for up to 10 s while the proxy settles)
  for _ in $(seq 1 50); do
    if curl -sf -o /dev/null -H "Proxy-Authorization: $PROXY_AUTH" -x "http://127.0.0.1:$1" "$ORIGIN_URL"; then
      return 0
    fi
    sleep 0.2
  done
  echo "$2 does not forward $ORIGIN_URL" >&2; exit 1
}
check $SQUID_A_PORT "squid A"; check $HAPROXY_PORT "haproxy"; check $SQUID_B_PORT "squid B"
for L in "${LISTENER_LIST[@]}"; do check "${GW_PORT[$L]}" "gateway ($L)"; done
echo "sanity: gateway headers:"
curl -s -D - -o /dev/null -H "Proxy-Authorization: $PROXY_AUTH" -x "http://127.0.0.1:$GATEWAY_PORT" "$ORIGIN_URL" | grep -i '^x-proxypool' | tr -d '\r' | sed 's/^/  /'

if [ "$HOLD" = 1 ]; then
  # for investigations by hand: the same processes and configs, no measurement; Ctrl-C stops all
  echo "holding: nginx :$ORIGIN_PORT, squid A :$SQUID_A_PORT (pid ${PID_OF[a]}), squid B :$SQUID_B_PORT (pid ${PID_OF[c]}),"
  echo "  haproxy :$HAPROXY_PORT (pid ${PID_OF[h]})"
  for L in "${LISTENER_LIST[@]}"; do echo "  gateway[$L] :${GW_PORT[$L]} (pid ${PID_OF[b-$L]})"; done
  echo "  export PROXY_AUTH='$PROXY_AUTH' ORIGIN_URL=$ORIGIN_URL   # work dir $WORK"
  while true; do sleep 3600; done
fi

# --- HTTP throughput --------------------------------------------------------------------------
declare -A RPS P50 P99 CPU CSW
CLK_TCK=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# context switches of every live thread of a process, voluntary and not (threads that ended meanwhile
# are not counted; the hops here keep their threads)
ctx_switches() {
  cat /proc/"$1"/task/*/status 2>/dev/null \
    | awk '/^(voluntary|nonvoluntary)_ctxt_switches/ { n += $2 } END { printf "%d", n }'
}
echo "machine load before: $(uptime)"
# --profile: a JFR recording (settings=profile) of the first gateway around one phase, then its hot methods
profile_start() { # name
  [ -n "$PROFILE_DIR" ] || return 0
  "$JAVA_HOME_SEL/bin/jcmd" "${PID_OF[b-${LISTENER_LIST[0]}]}" JFR.start name="$1" settings=profile \
    'jdk.CPUTimeSample#enabled=true' 'jdk.CPUTimeSample#throttle=2ms' >/dev/null
}
profile_stop() { # name
  [ -n "$PROFILE_DIR" ] || return 0
  mkdir -p "$PROFILE_DIR"
  "$JAVA_HOME_SEL/bin/jcmd" "${PID_OF[b-${LISTENER_LIST[0]}]}" JFR.stop name="$1" filename="$PROFILE_DIR/$1.jfr" >/dev/null
  # CPU-time samples (JDK 25, Linux) count time in system calls too, unlike execution samples
  "$JAVA_HOME_SEL/bin/jfr" view --width 160 cpu-time-hot-methods "$PROFILE_DIR/$1.jfr" \
    > "$PROFILE_DIR/$1-hot-methods.txt" 2>&1 || true
  echo "  profile: $PROFILE_DIR/$1.jfr (hot methods: $PROFILE_DIR/$1-hot-methods.txt)"
}
to_ms() { # wrk latency like 812.00us / 1.20ms / 1.01s -> ms
  awk -v v="$1" 'BEGIN{ n=v; sub(/[a-z]+$/,"",n); u=v; sub(/^[0-9.]+/,"",u);
    if (u=="us") n=n/1000; else if (u=="s") n=n*1000; printf "%.3f", n }'
}
run_wrk() { # key port round
  local out="$WORK/wrk-$1-$3.txt"
  local pid=${PID_OF[$1]} t0 t1
  if [ "$TUNNEL_WARMUP" != 0 ]; then
    # the HTTP rows are measured warm (5 s of wrk first); the tunnel path (CONNECT parsing, dial, relay)
    # is other code, which a gateway in service has long compiled: measured cold, the JIT's compile
    # threads took over half of a tunnel's CPU in the first seconds. Same warm-up for every path
    "$JAVA" "$HERE/TunnelBench.java" 127.0.0.1 "$2" "127.0.0.1:$ORIGIN_PORT" setup "$TUNNEL_WARMUP" \
      "$TUNNEL_THREADS" /small.txt > /dev/null
  fi
  t0=$(cpu_ticks "$pid"); local cs0; cs0=$(ctx_switches "$pid")
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$HERE/abs-path.lua" "http://127.0.0.1:$2" > "$out"
  local rps p50 p99
  rps=$(awk '/^Requests\/sec/ {print $2}' "$out")
  p50=$(to_ms "$(awk '$1=="50%" {print $2}' "$out")")
  p99=$(to_ms "$(awk '$1=="99%" {print $2}' "$out")")
  t1=$(cpu_ticks "$pid"); local cs1; cs1=$(ctx_switches "$pid")
  local reqs; reqs=$(awk '/requests in/ {print $1}' "$out")
  local us; us=$(awk -v t=$((t1 - t0)) -v n="$reqs" -v hz="$CLK_TCK" 'BEGIN{ printf "%.1f", t / hz * 1e6 / n }')
  local sw; sw=$(awk -v c=$((cs1 - cs0)) -v n="$reqs" 'BEGIN{ printf "%.2f", n ? c / n : 0 }')
  echo "$rps $p50 $p99 $us $sw" >> "$WORK/rounds-$1.txt"
  printf '  round %s %s: %s req/s, P50 %s ms, P99 %s ms, %s CPU us/req and %s switches/req in the hop\n' \
    "$3" "$1" "$rps" "$p50" "$p99" "$us" "$sw"
  local errs; errs=$(grep -E 'Non-2xx|Socket errors' "$out" || true)
  if [ -n "$errs" ]; then echo "  $1: $errs"; fi
  return 0
}
median_round() { # key -> sets RPS/P50/P99 from the round with the median req/s
  local line; line=$(sort -n "$WORK/rounds-$1.txt" | awk '{a[NR]=$0} END{print a[int((NR+1)/2)]}')
  RPS[$1]=$(echo "$line" | awk '{print $1}'); P50[$1]=$(echo "$line" | awk '{print $2}'); P99[$1]=$(echo "$line" | awk '{print $3}')
  CPU[$1]=$(echo "$line" | awk '{print $4}'); CSW[$1]=$(echo "$line" | awk '{print $5}')
}
echo "warm-up (gateway JIT, squid pconns): 5 s each"
for L in "${LISTENER_LIST[@]}"; do
  wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s "$HERE/abs-path.lua" "http://127.0.0.1:${GW_PORT[$L]}" >/dev/null
done
wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s "$HERE/abs-path.lua" "http://127.0.0.1:$SQUID_B_PORT" >/dev/null
echo "measuring ${DURATION}s each at $CONNECTIONS connections, $THREADS wrk threads, $ROUNDS interleaved round(s)"
for r in $(seq 1 "$ROUNDS"); do
  [ "$r" = 1 ] && profile_start http
  run_wrk a $SQUID_A_PORT "$r"
  run_wrk h $HAPROXY_PORT "$r"
  for L in "${LISTENER_LIST[@]}"; do run_wrk "b-$L" "${GW_PORT[$L]}" "$r"; done
  run_wrk c $SQUID_B_PORT "$r"
  [ "$r" = 1 ] && profile_stop http
done
KEYS=(a h)
for L in "${LISTENER_LIST[@]}"; do KEYS+=("b-$L"); done
KEYS+=(c)
for k in "${KEYS[@]}"; do median_round "$k"; done

# --- CONNECT tunnels --------------------------------------------------------------------------
declare -A TUN BULK
tunnel() { # key port
  local pid=${PID_OF[$1]} t0 t1
  if [ "$TUNNEL_WARMUP" != 0 ]; then
    # the HTTP rows are measured warm (5 s of wrk first); the tunnel path (CONNECT parsing, dial, relay)
    # is other code, which a gateway in service has long compiled: measured cold, the JIT's compile
    # threads took over half of a tunnel's CPU in the first seconds. Same warm-up for every path
    "$JAVA" "$HERE/TunnelBench.java" 127.0.0.1 "$2" "127.0.0.1:$ORIGIN_PORT" setup "$TUNNEL_WARMUP" \
      "$TUNNEL_THREADS" /small.txt > /dev/null
  fi
  [ "$1" = "b-${LISTENER_LIST[0]}" ] && profile_start tunnel
  t0=$(cpu_ticks "$pid"); local cs0; cs0=$(ctx_switches "$pid")
  TUN[$1]=$("$JAVA" "$HERE/TunnelBench.java" 127.0.0.1 "$2" "127.0.0.1:$ORIGIN_PORT" setup "$TUNNEL_SECONDS" \
    "$TUNNEL_THREADS" /small.txt)
  t1=$(cpu_ticks "$pid"); local cs1; cs1=$(ctx_switches "$pid")
  local n; n=$(echo "${TUN[$1]}" | sed -n 's/.*count=\([0-9]*\).*/\1/p')
  [ "$1" = "b-${LISTENER_LIST[0]}" ] && profile_stop tunnel
  TUN[$1]="${TUN[$1]} hopCPUus/tunnel=$(awk -v t=$((t1 - t0)) -v n="$n" -v hz="$CLK_TCK" 'BEGIN{ printf "%.0f", n ? t / hz * 1e6 / n : 0 }')"
  TUN[$1]="${TUN[$1]} hopSwitches/tunnel=$(awk -v c=$((cs1 - cs0)) -v n="$n" 'BEGIN{ printf "%.2f", n ? c / n : 0 }')"
  BULK[$1]=$("$JAVA" "$HERE/TunnelBench.java" 127.0.0.1 "$2" "127.0.0.1:$ORIGIN_PORT" bulk "$TUNNEL_SECONDS" 1 /big.bin)
}
echo "measuring CONNECT tunnels (${TUNNEL_SECONDS}s each after ${TUNNEL_WARMUP}s unmeasured: $TUNNEL_THREADS clients set-up loop; 1 client bulk 64 MiB loop)"
tunnel a $SQUID_A_PORT
tunnel h $HAPROXY_PORT
for L in "${LISTENER_LIST[@]}"; do tunnel "b-$L" "${GW_PORT[$L]}"; done
tunnel c $SQUID_B_PORT

# --- open-loop latency -------------------------------------------------------------------------
# a fixed offered rate (default 50% of squid B's wrk peak), sent by the clock; latency from the intended
# send time (OpenLoop.java). Added latency = the path's percentile minus the direct path's (a).
declare -A OL
if [ "$OPEN_LOOP_SECONDS" != 0 ]; then
  RATE=${OPEN_LOOP_RATE:-$(awk -v c="${RPS[c]}" 'BEGIN{ printf "%d", c / 2 }')}
  echo "measuring open-loop latency at $RATE req/s, ${OPEN_LOOP_SECONDS}s each (+2 s unmeasured start)"
  open_loop() { # key port
    OL[$1]=$("$JAVA" "$HERE/OpenLoop.java" 127.0.0.1 "$2" "$ORIGIN_URL" "$RATE" "$OPEN_LOOP_SECONDS" 2)
    echo "  $1: ${OL[$1]}"
  }
  open_loop a $SQUID_A_PORT
  open_loop h $HAPROXY_PORT
  for L in "${LISTENER_LIST[@]}"; do open_loop "b-$L" "${GW_PORT[$L]}"; done
  open_loop c $SQUID_B_PORT
fi

# --- report -----------------------------------------------------------------------------------
echo
label() {
  case $1 in
    a) echo "(a) client -> squid A" ;;
    h) echo "(h) client -> haproxy tcp -> squid A" ;;
    c) echo "(c) client -> squid B -> squid A" ;;
    b-own) echo "(b) client -> gateway -> squid A" ;;
    b-*) echo "(b) gateway[${1#b-}] -> squid A" ;;
  esac
}
echo "median of $ROUNDS interleaved round(s); gateway JVM options: -Xms512m -Xmx512m -XX:+UseParallelGC $GATEWAY_OPTS"
printf '%-36s %10s %9s %9s %14s %14s\n' "HTTP (wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s)" "req/s" "P50 ms" "P99 ms" \
  "hop CPU us/req" "hop switches"
for k in "${KEYS[@]}"; do
  printf '%-36s %10s %9s %9s %14s %14s\n' "$(label "$k")" "${RPS[$k]}" "${P50[$k]}" "${P99[$k]}" "${CPU[$k]}" "${CSW[$k]}"
done
echo "(hop CPU and switches: of the process in the middle per request: squid A for (a), haproxy for (h), the gateway"
echo " for (b), squid B for (c); context switches of all its threads, voluntary and not)"
for k in "${KEYS[@]}"; do
  case $k in b-*)
    awk -v n="$k" -v b="${RPS[$k]}" -v c="${RPS[c]}" -v pb="${P99[$k]}" -v pa="${P99[a]}" \
      'BEGIN{ printf "%s: throughput ratio b/c = %.2f   added P99 over (a) = %.3f ms\n", n, b/c, pb-pa }' ;;
  esac
done
echo
echo "CONNECT tunnels (TunnelBench.java)"
for k in "${KEYS[@]}"; do
  printf '%-36s set-up: %s | bulk: %s\n' "$(label "$k")" "${TUN[$k]}" "${BULK[$k]}"
done

# --- the issue's table: gateway (first listener) vs squid front (c) and vs direct (a) -------------
B="b-${LISTENER_LIST[0]}"
field() { # "k1=v1 k2=v2 ..." key -> value
  echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k { print $2; exit }'
}
ratio() { awk -v x="$1" -v y="$2" 'BEGIN{ if (y > 0) printf "%.2fx", x / y; else print "n/a" }'; }
echo
echo "== summary: gateway ($(label "$B")) vs haproxy tcp relay (h), squid front (c) and direct to squid A (a), same run =="
echo "machine load after: $(uptime)"
row() { # measure gateway haproxy front direct
  printf '%-50s %10s %10s %10s %10s %8s %8s %8s\n' "$1" "$2" "$3" "$4" "$5" "$(ratio "$2" "$3")" "$(ratio "$2" "$4")" \
    "$(ratio "$2" "$5")"
}
printf '%-50s %10s %10s %10s %10s %8s %8s %8s\n' "measure" "gateway" "haproxy" "sq.front" "direct" "gw/hap" "gw/front" "gw/dir"
tun_row() { # label field
  row "$1" "$(field "${TUN[$B]}" "$2")" "$(field "${TUN[h]}" "$2")" "$(field "${TUN[c]}" "$2")" "$(field "${TUN[a]}" "$2")"
}
tun_row "CONNECT tunnels/s ($TUNNEL_THREADS thr, CONNECT+GET+close)" tunnels/s
row "HTTP req/s (wrk -t$THREADS -c$CONNECTIONS)" "${RPS[$B]}" "${RPS[h]}" "${RPS[c]}" "${RPS[a]}"
tun_row "middle-hop CPU us per tunnel" hopCPUus/tunnel
tun_row "middle-hop context switches per tunnel" hopSwitches/tunnel
row "middle-hop CPU us per HTTP request" "${CPU[$B]}" "${CPU[h]}" "${CPU[c]}" "${CPU[a]}"
row "middle-hop context switches per HTTP request" "${CSW[$B]}" "${CSW[h]}" "${CSW[c]}" "${CSW[a]}"
# the middle hop adds a proxy to the path, so no gateway outruns going direct: a hop that cost nothing
# would at best match (a), which bounds gw/front at direct/front on these shared cores
ta=$(field "${TUN[a]}" tunnels/s); tc=$(field "${TUN[c]}" tunnels/s); th=$(field "${TUN[h]}" tunnels/s)
echo "(ceiling of gw/front, a middle hop that costs nothing: CONNECT $(ratio "$ta" "$tc"), HTTP $(ratio "${RPS[a]}" "${RPS[c]}");"
echo " the bare TCP relay reaches CONNECT $(ratio "$th" "$tc"), HTTP $(ratio "${RPS[h]}" "${RPS[c]}") of the squid front;"
echo " for (a) the 'middle hop' is squid A itself, the upstream every path ends at)"
if [ "$OPEN_LOOP_SECONDS" != 0 ]; then
  for q in p50ms p99ms p999ms; do
    la=$(field "${OL[a]}" $q); lb=$(field "${OL[$B]}" $q); lc=$(field "${OL[c]}" $q); lh=$(field "${OL[h]}" $q)
    added_b=$(awk -v x="$lb" -v y="$la" 'BEGIN{ printf "%.3f", x - y }')
    added_c=$(awk -v x="$lc" -v y="$la" 'BEGIN{ printf "%.3f", x - y }')
    added_h=$(awk -v x="$lh" -v y="$la" 'BEGIN{ printf "%.3f", x - y }')
    printf '%-50s %10s %10s %10s %10s\n' "open-loop @ $RATE/s: added ${q%ms} ms over direct" "$added_b" "$added_h" \
      "$added_c" "($la)"
  done
  echo "(open loop: latency from the intended send time; 'direct' shows squid A's own percentile)"
fi
