#!/usr/bin/env bash
# Per-thread CPU of one process, grouped by thread name (digits dropped: "ForkJoinPool-1-worker-3"
# and "-worker-7" count as one group), user and system time apart, and context switches (voluntary and
# not), each divided by a count of units of work (tunnels, requests).
#   thread-cpu.sh snap PID > before.txt ; ... load ... ; thread-cpu.sh snap PID > after.txt
#   thread-cpu.sh diff before.txt after.txt [UNITS]   # UNITS: divide by this count (tunnels, requests)
# Threads that ended between the snapshots are not counted (the process total in run.sh is).
set -euo pipefail
case "${1:-}" in
  snap)
    pid=$2
    for t in /proc/"$pid"/task/*; do
      # comm may hold spaces: take it from between the parentheses, the times after it
      line=$(cat "$t/stat" 2>/dev/null) || continue
      comm=${line#*(}; comm=${comm%)*}
      rest=${line##*) }
      set -- $rest
      # after "state": fields 14/15 of stat are utime/stime, here $12/$13
      cs=$(awk '/^voluntary_ctxt_switches/ { v = $2 } /^nonvoluntary_ctxt_switches/ { n = $2 } END { print v + n }' \
        "$t/status" 2>/dev/null) || cs=0
      echo "${t##*/} ${comm// /_} ${12} ${13} ${cs:-0}"
    done ;;
  diff)
    units=${4:-1}
    hz=$(getconf CLK_TCK)
    printf "%-32s %10s %10s %10s %10s\n" "threads (per unit)" "user us" "sys us" "all us" "switches"
    awk -v units="$units" -v hz="$hz" '
      FNR == NR { u0[$1] = $3; s0[$1] = $4; c0[$1] = $5; next }
      { g = $2; gsub(/[0-9]+/, "N", g)
        du = $3 - (($1 in u0) ? u0[$1] : 0); ds = $4 - (($1 in s0) ? s0[$1] : 0); dc = $5 - (($1 in c0) ? c0[$1] : 0)
        U[g] += du; S[g] += ds; C[g] += dc; TU += du; TS += ds; TC += dc }
      END {
        for (g in U) if (U[g] + S[g] + C[g] > 0)
          printf "%-32s %10.1f %10.1f %10.1f %10.2f\n", g, U[g]/hz*1e6/units, S[g]/hz*1e6/units, (U[g]+S[g])/hz*1e6/units, C[g]/units
        printf "%-32s %10.1f %10.1f %10.1f %10.2f\n", "(all live threads)", TU/hz*1e6/units, TS/hz*1e6/units, (TU+TS)/hz*1e6/units, TC/units
      }' "$2" "$3" | sort -k4 -n -r ;;
  *) echo "usage: thread-cpu.sh snap PID | diff BEFORE AFTER [UNITS]" >&2; exit 2 ;;
esac
