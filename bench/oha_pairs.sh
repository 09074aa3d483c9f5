#!/usr/bin/env bash
# Alternating oha runs against the generated server (under `serve_with`) and the hand-written
# baseline, both from `bench_server`: PAIRS pairs of SECONDS each at CONNECTIONS connections.
# Prints each pair's throughput ratio, the median ratio, and both sides' p99 and p99.99.
#   bench/oha_pairs.sh [PAIRS] [SECONDS] [CONNECTIONS]
# With POST_BODY set, each request is `POST /api/esgcategories` with that JSON body instead.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-8} seconds=${2:-4} connections=${3:-32}
get='/api/holdings?AccountIds=A1&AccountIds=A2&ValuationDate=2024-06-30T00:00:00Z&ClassificationType=3'
headers=(-H 'Authorization: t' -H 'x-pps-subscription-key: k' -H 'x-pps-api-version: 2022.09.26')
ok=200
if [ -n "${POST_BODY:-}" ]; then
  get='/api/esgcategories'
  headers+=(-m POST -T application/json -d "$POST_BODY")
  ok=204
fi
out=$(mktemp -d)
for i in $(seq "$pairs"); do
  for side in generated baseline; do
    port=18001; [ "$side" = baseline ] && port=18002
    oha --no-tui --output-format json -z "${seconds}s" -c "$connections" "${headers[@]}" "http://127.0.0.1:$port$get" > "$out/$side.$i.json"
  done
done
python3 - "$out" "$pairs" "$connections" "$ok" <<'PY'
import json, statistics, sys
out, pairs, connections, ok_status = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def load(side, i):
    d = json.load(open(f"{out}/{side}.{i}.json"))
    s, p = d["summary"], d["latencyPercentiles"]
    ok = sum(v for k, v in d["statusCodeDistribution"].items() if k == ok_status)
    return s["requestsPerSec"], p["p99"] * 1e3, p["p99.99"] * 1e3, ok, sum(d["statusCodeDistribution"].values())
rows = [(load("generated", i), load("baseline", i)) for i in range(1, pairs + 1)]
ratios = [g[0] / b[0] for g, b in rows]
print(f"{connections} connections, {pairs} alternating pairs")
print("pair ratios: " + ", ".join(f"{r:.3f}" for r in ratios))
med = lambda k, side: statistics.median(r[side][k] for r in rows)
print(f"median req/s generated {med(0,0):.0f} baseline {med(0,1):.0f}; median ratio {statistics.median(ratios):.3f}")
print(f"p99 ms generated {med(1,0):.2f} baseline {med(1,1):.2f}; p99.99 ms generated {med(2,0):.2f} baseline {med(2,1):.2f}")
bad = [(r[s][4] - r[s][3]) for r in rows for s in (0, 1)]
print(f"replies other than {ok_status}: {sum(bad)}")
PY
