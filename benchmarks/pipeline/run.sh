#!/usr/bin/env bash
# Validation benchmark, one command (issue 5): builds the benchmarks jar, then runs
# ValidationBenchmark, which starts test-kit fake proxies (good, slow, leaking, transparent, dead)
# and an echo server on loopback, validates 10,000 then 100,000 candidates with the SDK Validator
# (bounded queue) and prints candidates/s and heap peaks per size. Writes
# benchmarks/pipeline/RESULTS-pipeline.md. Options: --quick (1,000 then 10,000 candidates),
# --heap SIZE (max heap, default 256m: small on purpose, so unbounded memory would show).
set -euo pipefail
cd "$(dirname "$0")/../.."

SIZES="10000,100000"
HEAP=256m
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) SIZES="1000,10000"; shift ;;
    --heap) HEAP="$2"; shift 2 ;;
    *) echo "usage: benchmarks/pipeline/run.sh [--quick] [--heap SIZE]" >&2; exit 2 ;;
  esac
done

. benchmarks/java.sh # java_bin: the newest JDK 25+
JAVA=$(java_bin)

echo "building benchmarks jar..." >&2
./mvnw -B -q -pl benchmarks -am package -DskipTests >&2

OUT=benchmarks/pipeline/RESULTS-pipeline.md
RAW=$(mktemp)
trap 'rm -f "$RAW"' EXIT
echo "validating $SIZES candidates (max heap $HEAP)..." >&2
"$JAVA" -Xmx"$HEAP" -Xms"$HEAP" --sun-misc-unsafe-memory-access=allow \
  -Djava.util.logging.config.file=/dev/null \
  -cp benchmarks/target/benchmarks.jar dev.proxypool.benchmarks.pipeline.ValidationBenchmark \
  --sizes "$SIZES" | tee "$RAW"

{
  echo "# Validation benchmark (benchmarks/pipeline/run.sh)"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($(uptime | sed 's/.*load average: /load /')), $("$JAVA" -version 2>&1 | head -1)."
  echo "The SDK Validator over the full path (dial the fake proxy, GET the echo endpoint through it, judge the exit"
  echo "address and leak headers) with a bounded queue; candidates are generated lazily, each a distinct proxy id"
  echo "pointing at one of a few dozen test-kit fakes. Every verdict is checked against the fake's kind."
  echo "Heap: baseline after System.gc(); peak used = sampled every 10 ms and before each GC; peak live = after GC."
  echo
  sed 's/^# //' "$RAW"
} > "$OUT"
echo "wrote $OUT" >&2
