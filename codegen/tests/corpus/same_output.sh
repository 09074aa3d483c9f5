#!/usr/bin/env bash
# Whether the generator at REV and the one at NEW (by default the working tree) write the same
# files, byte for byte, for every spec in this folder (each once as it is and once with a feature
# per tag), and for the project spec and the fixtures:
#   codegen/tests/corpus/same_output.sh REV [NEW]
# Prints each spec whose output differs, with the first lines of the difference; exits 1 if any.
set -uo pipefail
cd "$(dirname "$0")/../../.."
rev=${1:?usage: same_output.sh REV [NEW]}
new_rev=${2:-}
export CARGO_TERM_QUIET=true
out=target/same-output
base=$out/base-tree new=.
rm -rf "$out/base" "$out/new" "$out/differing" && mkdir -p "$out/base" "$out/new"
git worktree remove --force "$base" 2>/dev/null || true
git worktree add --detach --quiet "$base" "$rev" || exit 1
cleanup="git worktree remove --force $base"
if [ -n "$new_rev" ]; then
  new=$out/new-tree
  git worktree remove --force "$new" 2>/dev/null || true
  git worktree add --detach --quiet "$new" "$new_rev" || exit 1
  cleanup="$cleanup; git worktree remove --force $new"
fi
trap 'eval "$cleanup"' EXIT
# Each tree builds into a target directory of its own, beside the trees.
(cd "$base" && CARGO_TARGET_DIR=../target-base cargo build --release -p xtask) || exit 1
if [ -n "$new_rev" ]; then
  (cd "$new" && CARGO_TARGET_DIR=../target-new cargo build --release -p xtask) || exit 1
  new_xtask=$out/target-new/release/xtask
else
  cargo build --release -p xtask || exit 1
  new_xtask=${CARGO_TARGET_DIR:-target}/release/xtask
fi
base_xtask=$out/target-base/release/xtask

differ=0 specs=0
for spec in codegen/tests/corpus/*.json codegen/tests/corpus/*.y*ml codegen/tests/corpus/*.tree; do
  name=$(basename "${spec%.*}")
  name=${name//./-}
  case "$spec" in *.tree) spec="codegen/tests/corpus/$(cat "$spec")" ;; esac
  for flags in "" "--tag-features"; do
    specs=$((specs + 1))
    dir=$name${flags:+-tags}
    # Both write to the same place, which the READMEs name, and are moved aside after.
    for side in base new; do
      xtask=$base_xtask
      [ "$side" = new ] && xtask=$new_xtask
      rm -rf "$out/work"
      # shellcheck disable=SC2086
      "$xtask" codegen --spec "$spec" --out "$out/work" --name "$name" --lenient $flags > "$out/$side/$dir.log" 2>&1
      mv "$out/work" "$out/$side/$dir"
    done
    if ! diff -r -q "$out/base/$dir" "$out/new/$dir" > /dev/null 2>&1 || ! diff -q "$out/base/$dir.log" "$out/new/$dir.log" > /dev/null; then
      differ=$((differ + 1))
      # Which files differ, named within the output (the runtime's copy differs alike in every
      # output when the runtime changed, so it is counted at the end, not shown each time).
      diff -r -q "$out/base/$dir" "$out/new/$dir" | sed -E "s|^Files $out/base/$dir/([^ ]*) and .*|\1|; s|^Only in $out/([a-z]*)/$dir/?|only in \1: |" >> "$out/differing"
      if diff -r -q -x apigen-runtime "$out/base/$dir" "$out/new/$dir" > /dev/null && diff -q "$out/base/$dir.log" "$out/new/$dir.log" > /dev/null; then
        continue
      fi
      echo "differs: $dir"
      diff -r -x apigen-runtime "$out/base/$dir" "$out/new/$dir" | head -20
      diff "$out/base/$dir.log" "$out/new/$dir.log" | head -5
    fi
  done
done
echo "corpus: $((specs - differ)) of $specs outputs the same"
[ -f "$out/differing" ] && { echo "files that differ, and in how many outputs:"; sort "$out/differing" | uniq -c; }

# The project spec and the fixtures: REV's generator writes them into its tree, to compare with
# NEW's (checked in, and up to date where `cargo xtask codegen --check` passes).
(cd "$base" && "../target-base/release/xtask" codegen > /dev/null) || exit 1
fixtures_differ=0
for dir in generated-types generated-client generated-server-stubs fixtures; do
  if ! diff -r -q "$base/$dir" "$new/$dir" > /dev/null; then
    differ=$((differ + 1)) fixtures_differ=$((fixtures_differ + 1))
    echo "differs: $dir"
    diff -r "$base/$dir" "$new/$dir" | head -20
  fi
done
[ "$fixtures_differ" -eq 0 ] && echo "project spec and fixtures: the same"
[ "$differ" -eq 0 ]
