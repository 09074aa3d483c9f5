#!/usr/bin/env bash
# Runs schemathesis (an independent OpenAPI implementation) against the sandbox: every operation,
# valid and invalid data, all checks. Exits non-zero on any failure.
#
#   tests/conformance/schemathesis.sh [EXAMPLES_PER_OPERATION]   (default 100)
#
# Needs schemathesis in .venv (bash .ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/../.."

examples="${1:-100}"
schemathesis=".venv/bin/schemathesis"
[ -x "$schemathesis" ] || { echo "schemathesis is not installed in .venv; run: .venv/bin/pip install schemathesis" >&2; exit 2; }

cargo build --quiet -p sandbox
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
"$target_dir/debug/sandbox" --addr "127.0.0.1:$port" >"$log" 2>&1 &
sandbox_pid=$!
trap 'kill "$sandbox_pid" 2>/dev/null || true; rm -f "$log"' EXIT
listening=false
for _ in $(seq 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then listening=true; break; fi
  sleep 0.1
done
if ! $listening; then
  echo "the sandbox did not start listening on port $port:" >&2
  cat "$log" >&2
  exit 1
fi

"$schemathesis" run spec/openapi.yaml \
  --url "http://127.0.0.1:$port" \
  -H 'Authorization: conformance-token' \
  -H 'x-pps-subscription-key: conformance-key' \
  --checks all \
  --mode all \
  --max-examples "$examples" \
  --seed 20221 \
  --no-color \
  --output-truncate true
