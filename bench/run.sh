#!/usr/bin/env bash
# Benchmarks, one command each (see BENCHMARKS.md):
#   bench/run.sh generation   wall time of the xtask binary regenerating both crates, and the stages
#   bench/run.sh scaling      the generator on synthetic specs of 50, 500 and 5000 operations
#   bench/run.sh server       the generated router against hand-written axum, with wrk
#   bench/run.sh client       the generated client against raw reqwest
#   bench/run.sh compile      cold and incremental builds of the generated crates and the peers'
#   bench/run.sh load         the generated server under serve_with against hand-written axum, with oha
#   bench/run.sh memory       the client's peak memory while a 2 GiB reply arrives
#   bench/run.sh bodies       the server's peak memory with 1,000 peers holding 2 MiB bodies, with and without the budget
#   bench/run.sh cpu          the generated server's CPU time per request against the baseline's
#   bench/run.sh large        GitHub's description, the 5,000-operation synthetic spec and the project
#                             spec: generation, lines, and cold `cargo check` of each crate (with every
#                             tag, and GitHub's with `issues` and `repos` alone), wall time and peak memory
# Needs hyperfine and wrk (Debian packages) for generation and server.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_QUIET=true

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# Progenitor stops at operations with several media types, so every tool gets the same reduced copy
# of the spec (application/json only) for the comparisons.
peer_spec() {
  .venv/bin/python - <<'PY'
import json, yaml
doc = yaml.safe_load(open("spec/openapi.yaml"))
def only_json(node):
    if isinstance(node, dict):
        if "content" in node and isinstance(node["content"], dict) and "application/json" in node["content"]:
            node["content"] = {"application/json": node["content"]["application/json"]}
        for value in node.values():
            only_json(value)
    elif isinstance(node, list):
        for value in node:
            only_json(value)
only_json(doc)
json.dump(doc, open("target/peer-spec.json", "w"))
PY
}

# Peers, when installed: PROGENITOR=path/to/cargo-progenitor, OPENAPI_GENERATOR=path/to/openapi-generator-cli.
generation() {
  cargo build --release -p xtask -p portfolio-bench
  peer_spec
  # The project's two crates alone (the generic entry point; after the warm-up runs it only
  # compares), everything `codegen --check` covers (also the features fixture), and the reduced spec.
  target/release/xtask codegen --spec spec/openapi.yaml --out target/bench-out --name portfolio > /dev/null
  local commands=(
    'target/release/xtask codegen --spec spec/openapi.yaml --out target/bench-out --name portfolio'
    'target/release/xtask codegen --check'
    'target/release/generate_file target/peer-spec.json'
  )
  if [ -n "${PROGENITOR:-}" ]; then
    commands+=("rm -rf target/peer-out/progenitor && $PROGENITOR progenitor -i target/peer-spec.json -o target/peer-out/progenitor -n peer -v 0.1.0")
  fi
  if [ -n "${OPENAPI_GENERATOR:-}" ]; then
    commands+=("$OPENAPI_GENERATOR generate -i target/peer-spec.json -g rust -o target/peer-out/oag-rust > /dev/null")
    commands+=("$OPENAPI_GENERATOR generate -i target/peer-spec.json -g rust-axum -o target/peer-out/oag-axum > /dev/null")
  fi
  hyperfine --warmup 2 --runs 10 --export-markdown target/bench-generation.md --export-json target/bench-generation.json "${commands[@]}"
  python3 - <<'PY2'
import json
results = json.load(open("target/bench-generation.json"))["results"]
base = results[0]["median"]
for r in results:
    print(f"median {r['median'] * 1e3:8.1f} ms  ratio {r['median'] / base:6.2f}  {r['command'][:90]}")
PY2
  cargo bench -p portfolio-bench --bench generate
}

scaling() {
  cargo build --release -p portfolio-bench
  for n in 50 500 5000; do
    target/release/synth_spec "$n" > "target/synthetic-$n.json"
    for run in 1 2 3; do
      /usr/bin/time -f "%M" -o "target/synthetic-$n.mem" target/release/generate_file "target/synthetic-$n.json" > "target/synthetic-$n.out"
      echo "$(cut -d' ' -f1 "target/synthetic-$n.out") $(cat "target/synthetic-$n.mem")"
    done | sort -g | sed -n 2p | awk -v n="$n" '{ printf "%5d operations: %8.1f ms (%.3f ms/operation), peak RSS %.1f MiB\n", n, $1, $1 / n, $2 / 1024 }'
  done
}

server() {
  cargo build --release -p portfolio-bench
  target/release/bench_server 18001 18002 > /dev/null &
  local pid=$!
  trap 'kill $pid 2>/dev/null || true' RETURN
  sleep 1
  local get='/api/holdings?AccountIds=A1&AccountIds=A2&ValuationDate=2024-06-30T00:00:00Z&ClassificationType=3'
  local headers=(-H 'Authorization: t' -H 'x-pps-subscription-key: k' -H 'x-pps-api-version: 2022.09.26')
  local post_lua
  post_lua=$(mktemp)
  cat > "$post_lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"AccountId":"A1","CategoryIds":["ESG1","ESG2"]}'
wrk.headers["Content-Type"] = "application/json"
LUA
  for what in GET POST; do
    for side in generated baseline generated baseline generated baseline generated baseline generated baseline; do
      port=18001; [ "$side" = baseline ] && port=18002
      if [ "$what" = GET ]; then
        out=$(wrk -t2 -c32 -d5s --latency "${headers[@]}" "http://127.0.0.1:$port$get")
      else
        out=$(wrk -t2 -c32 -d5s --latency "${headers[@]}" -s "$post_lua" "http://127.0.0.1:$port/api/esgcategories")
      fi
      rps=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
      p50=$(echo "$out" | awk '$1 == "50%" { print $2 }')
      p99=$(echo "$out" | awk '$1 == "99%" { print $2 }')
      echo "$what $side $rps $p50 $p99"
    done
  done | tee target/bench-server.txt
  rm -f "$post_lua"
  python3 - <<'PY'
import re, statistics
def ms(v):
    m = re.match(r"([\d.]+)(us|ms|s)", v)
    return float(m.group(1)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(2)]
rows = [l.split() for l in open("target/bench-server.txt")]
for what in ("GET", "POST"):
    g = [r for r in rows if r[0] == what and r[1] == "generated"]
    b = [r for r in rows if r[0] == what and r[1] == "baseline"]
    med = lambda rs, i, f=float: statistics.median(f(r[i]) for r in rs)
    print(f"{what}: generated {med(g,2):.0f} req/s vs baseline {med(b,2):.0f} req/s -> throughput ratio {med(g,2)/med(b,2):.3f}; "
          f"p50 {med(g,3,ms):.3f}/{med(b,3,ms):.3f} ms -> {med(g,3,ms)/med(b,3,ms):.3f}; p99 {med(g,4,ms):.3f}/{med(b,4,ms):.3f} ms -> {med(g,4,ms)/med(b,4,ms):.3f}")
PY
}

load() {
  cargo build --release -p portfolio-bench
  target/release/bench_server 18001 18002 > /dev/null &
  local pid=$!
  trap 'kill $pid 2>/dev/null || true' RETURN
  sleep 1
  bench/oha_pairs.sh "${PAIRS:-12}" 4 32
}

memory() {
  cargo build --release -p portfolio-bench
  target/release/reply_rss 2048
}

bodies() {
  cargo build --release -p portfolio-bench
  ulimit -n "$(ulimit -Hn)"
  target/release/body_rss 1000 0
  target/release/body_rss 1000
}

cpu() {
  cargo build --release -p portfolio-bench
  bench/cpu_pairs.sh "${ROUNDS:-6}"
}

client() {
  cargo build --release -p portfolio-bench
  target/release/bench_server 18001 18002 > /dev/null &
  local pid=$!
  trap 'kill $pid 2>/dev/null || true' RETURN
  sleep 1
  target/release/bench_client http://127.0.0.1:18002 5000 5
}

# Cold `cargo check` and `cargo build` (debug) of our two crates and the peers' for the same spec,
# each with its own empty target directory, then the rebuild after a one-field change to the spec.
compile() {
  cargo build --release -p xtask
  peer_spec
  local out=target/compile-bench rounds=${ROUNDS:-1}
  rm -rf "$out" && mkdir -p "$out"
  # A crate directory, optionally with cargo options after a colon. The second client build leaves
  # out TLS, which the progenitor client does not build either.
  local crates=(ours-client ours-client:--no-default-features ours-server)
  generate_all() {
    target/release/xtask codegen --spec "$1" --out "$out" --name ours > /dev/null
    if [ -n "${PROGENITOR:-}" ]; then
      rm -rf "$out/progenitor" && "$PROGENITOR" progenitor -i "$1" -o "$out/progenitor" -n peer -v 0.1.0 > /dev/null
      grep -q '^\[workspace\]' "$out/progenitor/Cargo.toml" || printf '\n[workspace]\n' >> "$out/progenitor/Cargo.toml"
    fi
    if [ -n "${OPENAPI_GENERATOR:-}" ]; then
      "$OPENAPI_GENERATOR" generate -i "$1" -g rust-axum -o "$out/oag-axum" > /dev/null
      grep -q '^\[workspace\]' "$out/oag-axum/Cargo.toml" || printf '\n[workspace]\n' >> "$out/oag-axum/Cargo.toml"
      # It copies info.version into the crate version, which cargo refuses when not semver.
      sed -i 's/^version = .*/version = "0.1.0"/' "$out/oag-axum/Cargo.toml"
    fi
  }
  generate_all target/peer-spec.json
  [ -n "${PROGENITOR:-}" ] && crates+=(progenitor)
  [ -n "${OPENAPI_GENERATOR:-}" ] && crates+=(oag-axum)
  seconds() { if /usr/bin/time -f %e -o "$out/time" "$@" > "$out/log" 2>&1; then cat "$out/time"; else echo failed; fi; }
  for entry in "${crates[@]}"; do
    local crate=${entry%%:*}
    echo "$entry lines $(find "$out/$crate/src" -name '*.rs' -print0 | xargs -0 cat | wc -l)"
  done
  for round in $(seq "$rounds"); do
    for entry in "${crates[@]}"; do
      local crate=${entry%%:*} options=${entry#*:} target=${entry//[:-]/_}
      [ "$options" = "$entry" ] && options=
      for cmd in check build; do
        rm -rf "$out/target-$target-$cmd"
        # shellcheck disable=SC2086
        echo "$entry cold-$cmd $(CARGO_TARGET_DIR="$out/target-$target-$cmd" seconds cargo "$cmd" $options --manifest-path "$out/$crate/Cargo.toml")"
      done
    done
  done
  # One new optional field on a schema every crate uses, then the rebuild each crate needs.
  .venv/bin/python - <<'PY'
import json
doc = json.load(open("target/peer-spec.json"))
doc["components"]["schemas"]["HoldingData"]["properties"]["BenchNote"] = {"type": "string", "nullable": True}
json.dump(doc, open("target/peer-spec-changed.json", "w"))
PY
  generate_all target/peer-spec-changed.json
  for entry in "${crates[@]}"; do
    local crate=${entry%%:*} options=${entry#*:} target=${entry//[:-]/_}
    [ "$options" = "$entry" ] && options=
    # shellcheck disable=SC2086
    echo "$entry one-field-build $(CARGO_TARGET_DIR="$out/target-$target-build" seconds cargo build $options --manifest-path "$out/$crate/Cargo.toml")"
  done
}

# GitHub's description comes from the npm package `@octokit/openapi` (never checked in: 13 MB).
# Each spec is generated with a feature per tag into a directory of its own, standalone; its
# crates are checked cold in a target directory whose third-party dependencies an earlier check
# built, as a user's second crate finds them. ONLY=github (or synthetic, project) runs one spec.
# Every tag of a client crate checked alone (the generated crates and the runtime cold each
# time): how many compile, the slowest, and the first error of each that does not.
# The generated packages a crate of a spec builds (`cargo clean -p` refuses others): the crate
# (client or server), the types crates, each tag's too, and the runtime.
generated_packages() {
  local dir=$1 spec=$2 side=$3
  echo "-p $spec-$side -p $spec-types -p apigen-runtime"
  [ -d "$dir/$spec-types/tags" ] && ls "$dir/$spec-types/tags" | sed "s/^/-p $spec-types-/"
}

tags_alone() {
  local spec=$1 manifest=$2 target=$3 out=target/large-bench compiled=0 total=0 slowest=0 slowest_tag= failed=
  local packages
  packages=$(generated_packages "$(dirname "$(dirname "$manifest")")" "$spec" client)
  for tag in $(sed -n 's/^all-tags = \[\(.*\)\]/\1/p' "$manifest" | tr -d '",'); do
    total=$((total + 1))
    # shellcheck disable=SC2086
    CARGO_TARGET_DIR=$target cargo clean --quiet --manifest-path "$manifest" $packages 2>/dev/null || true
    if CARGO_TARGET_DIR=$target /usr/bin/time -f "%e %M" -o "$out/time" \
      cargo check --no-default-features --features "rustls $tag" --manifest-path "$manifest" > "$out/log" 2>&1; then
      compiled=$((compiled + 1))
      local seconds
      seconds=$(awk '{ print $1 }' "$out/time")
      if awk -v a="$seconds" -v b="$slowest" 'BEGIN { exit !(a > b) }'; then
        slowest=$seconds slowest_tag="$tag ($(awk '{ printf "%.0f MB", $2 / 1024 }' "$out/time"))"
      fi
    else
      failed="$failed $tag: $(grep -m1 '^error' "$out/log");"
    fi
  done
  echo "tags alone: $compiled of $total compile; slowest $slowest s, $slowest_tag${failed:+; failing:$failed}"
}

large() {
  cargo build --release -p apigen -p portfolio-bench
  local out=target/large-bench
  mkdir -p "$out"
  if [ ! -f "$out/github.json" ]; then
    (cd "$out" && npm pack --silent @octokit/openapi@23.0.2 > /dev/null &&
      tar xzf octokit-openapi-23.0.2.tgz package/generated/api.github.com.json &&
      mv package/generated/api.github.com.json github.json && rm -rf package octokit-openapi-23.0.2.tgz)
  fi
  target/release/synth_spec 5000 > "$out/synthetic.json"
  cp spec/openapi.yaml "$out/project.yaml"
  measure() {
    if /usr/bin/time -f "%e s, %M KB" -o "$out/time" "$@" > "$out/log" 2>&1; then
      awk '{ printf "%s s, %.0f MB\n", $1, $3 / 1024 }' "$out/time"
    else
      echo "failed after $(awk '{ print $1 }' "$out/time") s: $(grep -c '^error' "$out/log") errors, first: $(grep -m1 '^error' "$out/log")"
    fi
  }
  for spec in github synthetic project; do
    [ -n "${ONLY:-}" ] && [ "$ONLY" != "$spec" ] && continue
    local file dir=$out/$spec target=$out/target-$spec
    file=$(ls "$out/$spec".*)
    rm -rf "$dir"
    echo "$spec generate: $(measure target/release/apigen generate --spec "$file" --out "$dir" --name "$spec" --tag-features --standalone)"
    echo "$spec lines: $(find "$dir" -path "$dir/apigen-runtime" -prune -o -name '*.rs' -print0 | xargs -0 cat | wc -l)"
    [ -d "$dir/$spec-types/tags" ] && echo "$spec types crates: 1 core and $(ls "$dir/$spec-types/tags" | wc -l) of tags"
    local checks=("client" "server")
    if [ "$spec" = github ]; then
      checks+=("client:--no-default-features --features rustls,issues" "client:--no-default-features --features rustls,repos")
    fi
    for entry in "${checks[@]}"; do
      local side=${entry%%:*} options=${entry#*:}
      [ "$options" = "$entry" ] && options=
      local manifest=$dir/$spec-$side/Cargo.toml
      # The third-party dependencies first (built for the runtime with the features this crate
      # turns on), then the generated crates and the runtime, cold.
      # shellcheck disable=SC2086
      CARGO_TARGET_DIR=$target cargo check --quiet $options --manifest-path "$manifest" -p apigen-runtime > /dev/null 2>&1 || true
      # shellcheck disable=SC2086
      CARGO_TARGET_DIR=$target cargo clean --quiet --manifest-path "$manifest" $(generated_packages "$dir" "$spec" "$side") 2>/dev/null || true
      # shellcheck disable=SC2086
      echo "$spec $side${options:+ ($options)} cold check: $(CARGO_TARGET_DIR=$target measure cargo check $options --manifest-path "$manifest")"
    done
    if [ "$spec" = github ]; then
      echo "$spec $(tags_alone "$spec" "$dir/$spec-client/Cargo.toml" "$target")"
    fi
  done
}

case "${1:-}" in
  generation | scaling | server | client | compile | load | memory | bodies | cpu | large) "$1" ;;
  *) echo "usage: bench/run.sh generation|scaling|server|client|compile|load|memory|bodies|cpu|large" >&2; exit 2 ;;
esac
