#!/usr/bin/env bash
# Generates both crates from every public spec in this folder and `cargo check`s them.
#   codegen/tests/corpus/check.sh          all specs
#   codegen/tests/corpus/check.sh NAME...  only these (file names without extension)
#   CORPUS_SAMPLE=1 codegen/tests/corpus/check.sh
#                                           generate every spec, but compile only
#                                           CORPUS_COMPILE (default 16) of those up to 300 KB and
#                                           one larger one, a different set each day (what CI
#                                           runs, to stay inside its time)
#   CORPUS_TAGS=N codegen/tests/corpus/check.sh
#                                           also generate N documents that have tags with a cargo
#                                           feature per tag (a different set each day; `all` for
#                                           every document) and check each one's client crate with
#                                           each tag alone, and with only the schemas no operation
#                                           uses
# Each spec is generated as a new user would, leniently (what cannot be represented is left out
# and listed, the rest generated); it is whole when nothing was left out, and it passes when the
# crates compile. The run's time and peak memory are reported per spec, with the slowest five at
# the end. Exits 1 on any panic, on any compiler warning in generated code, or when fewer than
# 90 % pass.
set -uo pipefail
cd "$(dirname "$0")/../../.."
export CARGO_TERM_QUIET=true
# The release build, so the times are those users see.
cargo build --quiet --release -p xtask || exit 1
xtask="${CARGO_TARGET_DIR:-target}/release/xtask"
out=target/corpus
target="${CARGO_TARGET_DIR:-target}/corpus-target"
rm -rf "$out" && mkdir -p "$out"

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for spec in codegen/tests/corpus/*.json codegen/tests/corpus/*.y*ml codegen/tests/corpus/*.tree; do
    names+=("$(basename "${spec%.*}")")
  done
fi

# The root document of a spec: the file itself, or for a spec split across files (NAME.tree)
# the root the `.tree` file names, under this folder. Its size is that of all its files.
spec_of() {
  local spec
  spec=$(ls codegen/tests/corpus/"$1".* | head -1)
  case "$spec" in
    *.tree) echo "codegen/tests/corpus/$(cat "$spec")" ;;
    *) echo "$spec" ;;
  esac
}
size_of() {
  case "$(ls codegen/tests/corpus/"$1".* | head -1)" in
    *.tree) du -sb "codegen/tests/corpus/$1" | cut -f1 ;;
    *) stat -c %s "$(spec_of "$1")" ;;
  esac
}

# In a sample run, the specs compiled today: CORPUS_COMPILE of the small ones and one large one,
# each set moving on by a day.
compiled_today=" "
if [ "${CORPUS_SAMPLE:-0}" = 1 ]; then
  large=() small=()
  for name in "${names[@]}"; do
    if [ "$(size_of "$name")" -gt 307200 ]; then large+=("$name"); else small+=("$name"); fi
  done
  day=$((10#$(date +%j)))
  [ ${#large[@]} -gt 0 ] && compiled_today+="${large[$((day % ${#large[@]}))]} "
  count=${CORPUS_COMPILE:-16}
  [ "$count" -gt ${#small[@]} ] && count=${#small[@]}
  for ((i = 0; i < count; i++)); do
    compiled_today+="${small[$(((day * count + i) % ${#small[@]}))]} "
  done
fi

total=0 whole=0 passed=0 checked=0 generated_only=0 panics=0 warned=0 ops_kept=0 ops_left=0
printf '%-30s %-6s %-9s %-14s %-11s %8s %8s\n' spec whole generated compiles operations seconds MiB
for name in "${names[@]}"; do
  spec=$(spec_of "$name")
  listed=$name
  name=${name//./-}
  total=$((total + 1))
  /usr/bin/time -f '%e %M' -o "$out/$name.time" \
    "$xtask" codegen --spec "$spec" --out "$out" --name "$name" --lenient > /dev/null 2> "$out/$name.skip.log"
  rc=$?
  read -r seconds kib < "$out/$name.time" || { seconds=0; kib=0; }
  # A crashed run leaves a line about its signal before the figures.
  [[ "$seconds" =~ ^[0-9.]+$ ]] || read -r seconds kib < <(tail -1 "$out/$name.time")
  echo "$seconds $name" >> "$out/times"
  # 101 is a Rust panic; anything else above 1 means the generator did not run at all.
  [ $rc -gt 1 ] && [ $rc -ne 101 ] && { echo "cannot run $xtask (exit $rc)" >&2; exit 1; }
  left=$(grep -c "left out operation" "$out/$name.skip.log")
  if [ $rc -eq 101 ]; then
    panics=$((panics + 1)) w=PANIC
  elif [ $rc -eq 0 ] && ! grep -qE "left out (operation|schema)" "$out/$name.skip.log"; then
    whole=$((whole + 1)) w=yes
  else
    w=no
  fi
  if [ $rc -eq 0 ] && [ "${CORPUS_SAMPLE:-0}" = 1 ] && [[ "$compiled_today" != *" $listed "* ]]; then
    s=yes compiles=generated generated_only=$((generated_only + 1))
    kept=$(sed -n 's/^- Operations: //p' "$out/$name-client/README.md")
  elif [ $rc -eq 0 ]; then
    s=yes checked=$((checked + 1))
    kept=$(sed -n 's/^- Operations: //p' "$out/$name-client/README.md")
    compiles=yes
    for side in client server; do
      if ! CARGO_TARGET_DIR=$target cargo check --quiet --manifest-path "$out/$name-$side/Cargo.toml" > "$out/$name-$side.check.log" 2>&1; then
        compiles="no ($side)"
      elif grep -q '^warning' "$out/$name-$side.check.log"; then
        compiles="warns ($side)"
        warned=$((warned + 1))
      fi
    done
    [ "$compiles" = yes ] || [[ "$compiles" == warns* ]] && passed=$((passed + 1))
  else
    s=no kept=0 compiles=- checked=$((checked + 1))
  fi
  ops_kept=$((ops_kept + kept)) ops_left=$((ops_left + left))
  printf '%-30s %-6s %-9s %-14s %-11s %8s %8s\n' "$name" "$w" "$s" "$compiles" "$kept of $((kept + left))" \
    "$seconds" "$((kib / 1024))"
done
echo
echo "generated whole (nothing left out): $whole of $total; generated and compiled: $passed of $checked checked;"
[ $generated_only -gt 0 ] && echo "generated but not compiled in this sample run: $generated_only (a different set is compiled each day)"
echo "operations generated: $ops_kept of $((ops_kept + ops_left)); panics: $panics; crates with compiler warnings: $warned"
echo "(reasons for what was left out: $out/NAME.skip.log; compiler output: $out/NAME-client.check.log)"
echo "slowest to generate: $(sort -rg "$out/times" | head -5 | awk '{ printf "%s%s %ss", sep, $2, $1; sep = ", " }')"

# Each tag alone, for documents that have tags.
tag_docs=0 tags_checked=0 tags_failed=0
if [ -n "${CORPUS_TAGS:-}" ]; then
  echo
  printf '%-30s %5s %s\n' spec tags "each alone"
  day=$((10#$(date +%j)))
  count=${#names[@]}
  # A sample starts at a different document each day; `all` takes them in order.
  start=$((day * 7))
  [ "$CORPUS_TAGS" = all ] && start=0
  for ((i = 0; i < count; i++)); do
    [ "$CORPUS_TAGS" != all ] && [ "$tag_docs" -ge "$CORPUS_TAGS" ] && break
    listed=${names[$(((start + i) % count))]}
    spec=$(spec_of "$listed")
    name=${listed//./-}-tags
    "$xtask" codegen --spec "$spec" --out "$out" --name "$name" --lenient --tag-features > /dev/null 2>&1 || continue
    manifest=$out/$name-client/Cargo.toml
    tags=$(sed -n 's/^all-tags = \[\(.*\)\]/\1/p' "$manifest" | tr -d '",')
    [ -n "$tags" ] || continue
    grep -q '^unused-schemas = ' "$manifest" && tags="$tags unused-schemas"
    tag_docs=$((tag_docs + 1))
    failing=
    for tag in $tags; do
      tags_checked=$((tags_checked + 1))
      log=$out/$name-client.$tag.check.log
      if ! CARGO_TARGET_DIR=$target cargo check --quiet --no-default-features --features "rustls $tag" \
        --manifest-path "$manifest" > "$log" 2>&1 || grep -q '^warning' "$log"; then
        tags_failed=$((tags_failed + 1)) failing+=" $tag"
      fi
    done
    printf '%-30s %5s %s\n' "$listed" "$(wc -w <<< "$tags")" "${failing:+failing:$failing}${failing:-all compile, lint-free}"
  done
  echo "tags checked alone: $tags_checked, of $tag_docs documents; failing or warning: $tags_failed"
  echo "(compiler output: $out/NAME-tags-client.TAG.check.log)"
fi

[ $panics -eq 0 ] && [ $warned -eq 0 ] && [ $tags_failed -eq 0 ] && [ $((passed * 10)) -ge $((checked * 9)) ]
