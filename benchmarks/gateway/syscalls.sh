#!/usr/bin/env bash
# System calls per CONNECT tunnel (or per HTTP request) in the middle hop: `proxypool serve` vs a squid
# front, counted with `strace -c -f` on the middle process while a fixed client load runs. Counts do not
# depend on the machine's other load the way CPU time does, so they compare builds and JVM options on a
# shared host. strace slows the traced process down a lot: read the counts, not the rates.
#
# Usage: benchmarks/gateway/syscalls.sh [--mode tunnel|http] [--seconds 5] [--gateway-opts "..."] [--skip-build]
# Everything binds to 127.0.0.1 (ports 28080-29090); every process started here is stopped on exit.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
MODE=tunnel
SECONDS_MEASURED=5
GATEWAY_OPTS=""
SKIP_BUILD=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) MODE="$2"; shift 2 ;;
    --seconds) SECONDS_MEASURED="$2"; shift 2 ;;
    --gateway-opts) GATEWAY_OPTS="$2"; shift 2 ;;
    --skip-build) SKIP_BUILD=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
case "$MODE" in tunnel|http) ;; *) echo "--mode must be tunnel or http" >&2; exit 2 ;; esac
need=()
for t in nginx squid wrk strace openssl; do
  command -v $t >/dev/null 2>&1 || [ -x /usr/sbin/$t ] || need+=($t)
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
SQUID=$(command -v squid || echo /usr/sbin/squid)
. "$ROOT/benchmarks/java.sh"
JAVA_HOME_SEL=$(java_home)
J="$JAVA_HOME_SEL/bin/java"
if [ "$SKIP_BUILD" = 0 ] || [ ! -f "$ROOT/proxypool-cli/target/proxypool.jar" ]; then
  (cd "$ROOT" && ./mvnw -B -q -pl proxypool-cli -am package -DskipTests >/dev/null)
fi

W=$(mktemp -d /tmp/pp-syscalls.XXXXXX); chmod 777 "$W"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 1
            for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$W"; }
trap cleanup EXIT INT TERM
mkdir -p "$W/www"; head -c 100 /dev/zero | tr '\0' x > "$W/www/small.txt"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" \
  -keyout "$W/origin.key" -out "$W/origin.crt" >/dev/null 2>&1
subst() { sed -e "s#@WORK@#$W#g" -e "s#@ORIGIN_PORT@#28100#g" -e "s#@ORIGIN_TLS_PORT@#28443#g" \
              -e "s#@SQUID_A_PORT@#28128#g" -e "s#@SQUID_B_PORT@#28129#g" "$1" > "$2"; }
subst "$HERE/nginx.conf.in" "$W/nginx.conf"; subst "$HERE/squid-a.conf.in" "$W/squid-a.conf"
subst "$HERE/squid-b.conf.in" "$W/squid-b.conf"
wait_port() { for _ in $(seq 1 600); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
              echo "$2 did not start on port $1" >&2; exit 1; }
"$NGINX" -c "$W/nginx.conf" -e "$W/nginx-error.log" & PIDS+=($!)
"$SQUID" -N -f "$W/squid-a.conf" > "$W/squid-a.out" 2>&1 & PIDS+=($!)
wait_port 28100 nginx; wait_port 28128 "squid A"
"$SQUID" -N -f "$W/squid-b.conf" > "$W/squid-b.out" 2>&1 & PIDS+=($!); SQUID_B=$!
printf '{"host": "127.0.0.1", "port": 28128, "protocol": "http", "maxConcurrency": 100000}\n' > "$W/inventory.jsonl"
SECRET=bench-secret-0123456789
PROXY_AUTH="Basic $(printf 'bench:%s' "$SECRET" | base64 -w0)"; export PROXY_AUTH
HASH=$(printf '%s' "$SECRET" | "$J" --sun-misc-unsafe-memory-access=allow -jar "$ROOT/proxypool-cli/target/proxypool.jar" hash-secret | tail -1)
cat > "$W/proxypool.yaml" <<YAML
server: { host: 127.0.0.1, gatewayPort: 28080, apiPort: 29090 }
providers: [{ name: squid, type: jsonl_inventory, path: inventory.jsonl }]
upstreams: [{ name: squid-a, provider: squid, validate: false }]
health: { active: { enabled: false } }
security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [443, 28100] }
clients: [{ name: bench, secretHash: "$HASH" }]
YAML
# shellcheck disable=SC2086
"$J" -Xms512m -Xmx512m -XX:+UseParallelGC $GATEWAY_OPTS --sun-misc-unsafe-memory-access=allow \
  -jar "$ROOT/proxypool-cli/target/proxypool.jar" serve --config "$W/proxypool.yaml" > "$W/gateway.out" 2>&1 & PIDS+=($!)
GATEWAY=$!
wait_port 28129 "squid B"; wait_port 28080 gateway
export ORIGIN_URL=http://127.0.0.1:28100/small.txt

load() { # port seconds -> prints the count of tunnels or requests
  if [ "$MODE" = tunnel ]; then
    "$J" "$HERE/TunnelBench.java" 127.0.0.1 "$1" 127.0.0.1:28100 setup "$2" 8 /small.txt | sed -n 's/.*count=\([0-9]*\).*/\1/p'
  else
    wrk -t2 -c50 -d"$2"s -s "$HERE/abs-path.lua" "http://127.0.0.1:$1" 2>&1 | awk '/requests in/ {print $1}'
  fi
}
unit=$([ "$MODE" = tunnel ] && echo tunnel || echo request)
echo "system calls per $unit in the middle hop (strace -c -f; ${SECONDS_MEASURED}s of load after a 6 s warm-up)"
echo "gateway JVM options: ${GATEWAY_OPTS:-(none)}"
for who in gateway squid-front; do
  pid=$GATEWAY; port=28080
  [ "$who" = squid-front ] && { pid=$SQUID_B; port=28129; }
  load $port 6 > /dev/null
  strace -c -f -q -p "$pid" -o "$W/strace-$who.txt" 2>/dev/null & tracer=$!
  sleep 1
  n=$(load $port "$SECONDS_MEASURED")
  sleep 0.5; kill -INT $tracer; wait $tracer 2>/dev/null || true
  echo "== $who: $n ${unit}s"
  awk -v n="$n" '/^ *[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+/ && $NF != "total" { printf "  %-16s %7.2f\n", $NF, $4 / n; sum += $4 }
                 END { printf "  %-16s %7.2f\n", "all", sum / n }' "$W/strace-$who.txt"
done
