# Sourced by the benchmark scripts: which JDK runs the benchmarks jar and the single-file clients.
# java_home prints the newest JDK 25 or later among $JAVA_HOME and /usr/lib/jvm/* (the jar is compiled for
# 25; ./mvnw chooses the same way); none found: one clear line on stderr and a failing status.
java_home() {
  local d v best="" best_v=0
  for d in ${JAVA_HOME:-} /usr/lib/jvm/*; do
    [ -n "$d" ] && [ -x "$d/bin/java" ] && [ -f "$d/release" ] || continue
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$d/release")
    if [ -n "$v" ] && [ "$v" -ge 25 ] && [ "$v" -gt "$best_v" ]; then best="$d"; best_v="$v"; fi
  done
  [ -n "$best" ] || { echo "no JDK 25+ found (set JAVA_HOME, or install one under /usr/lib/jvm)" >&2; return 1; }
  echo "$best"
}

# java_bin prints that JDK's java launcher.
java_bin() {
  local h
  h=$(java_home) || return 1
  echo "$h/bin/java"
}
