#!/usr/bin/env bash
# Server CPU time per request, generated against the hand-written baseline of `bench_server`,
# alternating: ROUNDS runs of 3 s a side with wrk, for POST and GET. CPU time is read from
# /proc/PID/stat around each run, so it does not depend on how wrk and the server share the cores.
#   bench/cpu_pairs.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-6}
target/release/bench_server 18001 18002 > /dev/null &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
sleep 1
headers=(-H 'Authorization: t' -H 'x-pps-subscription-key: k' -H 'x-pps-api-version: 2022.09.26')
get='/api/holdings?AccountIds=A1&AccountIds=A2&ValuationDate=2024-06-30T00:00:00Z&ClassificationType=3'
post_lua=$(mktemp)
cat > "$post_lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"AccountId":"A1","CategoryIds":["ESG1","ESG2"]}'
wrk.headers["Content-Type"] = "application/json"
LUA
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
out=$(mktemp)
for what in POST GET; do
  for _ in $(seq "$rounds"); do
    for side in generated baseline; do
      port=18001; [ "$side" = baseline ] && port=18002
      before=$(ticks)
      if [ "$what" = POST ]; then
        result=$(wrk -t1 -c16 -d3s "${headers[@]}" -s "$post_lua" "http://127.0.0.1:$port/api/esgcategories")
      else
        result=$(wrk -t1 -c16 -d3s "${headers[@]}" "http://127.0.0.1:$port$get")
      fi
      echo "$what $side $(echo "$result" | awk '/requests in/ { print $1 }') $(($(ticks) - before))" >> "$out"
    done
  done
done
rm -f "$post_lua"
python3 - "$out" "$(getconf CLK_TCK)" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
tick_us = 1e6 / int(sys.argv[2])
for what in ("POST", "GET"):
    med = {}
    for side in ("generated", "baseline"):
        per = [int(r[3]) * tick_us / int(r[2]) for r in rows if r[0] == what and r[1] == side]
        med[side] = statistics.median(per)
        print(f"{what} {side}: {med[side]:.2f} us of CPU a request ({', '.join(f'{p:.2f}' for p in per)})")
    print(f"{what}: generated / baseline {med['generated'] / med['baseline']:.3f}")
PY
rm -f "$out"
