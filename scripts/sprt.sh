#!/usr/bin/env bash
# Builds a base revision and the working tree, runs a wuzi-match SPRT of the
# working tree (engine 1, "new") against the base (engine 2, "base"), and
# prints the verdict.
#
# usage: scripts/sprt.sh [BASE_REV] [-- extra wuzi-match options]
#   BASE_REV defaults to main. Settings come from the environment:
#   ELO0=0 ELO1=10 ALPHA=0.05 BETA=0.05    the SPRT hypotheses and error rates
#   RULE=0 SIZE=15 OPENINGS=openings/freestyle-15.txt
#   GEOMETRY=square (hex: the triangle-mesh board; then OPENINGS defaults to
#   openings/hex-15.txt, and RANDOM_OPENINGS=N plays N random 3-stone
#   openings instead)
#   TURN=100 MATCH=0 INCREMENT=0 TOLERANCE=1000 (ms)
#   GAMES=4000 CONCURRENCY=2
# Exit status: 0 = H1 accepted (new is at least ELO1 better), 1 = H0 accepted,
# 2 = undecided when GAMES ran out, 3 = build or setup failure.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
cd "$root"
base_rev=main
if [[ $# -gt 0 && "$1" != "--" ]]; then
    base_rev=$1
    shift
fi
[[ $# -gt 0 && "$1" == "--" ]] && shift

ELO0=${ELO0:-0} ELO1=${ELO1:-10} ALPHA=${ALPHA:-0.05} BETA=${BETA:-0.05}
RULE=${RULE:-0} SIZE=${SIZE:-15}
GEOMETRY=${GEOMETRY:-square}
if [[ -n "${RANDOM_OPENINGS:-}" ]]; then
    OPENINGS=""
elif [[ "$GEOMETRY" == hex ]]; then
    OPENINGS=${OPENINGS:-openings/hex-15.txt}
else
    OPENINGS=${OPENINGS:-openings/freestyle-15.txt}
fi
TURN=${TURN:-100} MATCH=${MATCH:-0} INCREMENT=${INCREMENT:-0} TOLERANCE=${TOLERANCE:-1000}
GAMES=${GAMES:-4000} CONCURRENCY=${CONCURRENCY:-2}

work=$(mktemp -d "${TMPDIR:-/tmp}/wuzi-sprt.XXXXXX")
cleanup() {
    git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

base_commit=$(git rev-parse --verify "$base_rev^{commit}") || { echo "unknown revision $base_rev"; exit 3; }
echo "== building base $base_rev ($(git rev-parse --short "$base_commit"))"
git worktree add --detach --quiet "$work/base" "$base_commit"
(cd "$work/base" && cargo build --release --quiet --bin pbrain-wuzi) || exit 3
cp "$work/base/target/release/pbrain-wuzi" "$work/pbrain-base"

echo "== building the working tree"
cargo build --release --quiet --bins || exit 3
# Copies, so a rebuild during the match cannot swap an engine under it.
cp target/release/pbrain-wuzi "$work/pbrain-new"
cp target/release/wuzi-match "$work/wuzi-match"

opening_args=(--random-openings "${RANDOM_OPENINGS:-200}")
[[ -n "$OPENINGS" ]] && opening_args=(--openings "$OPENINGS")

echo "== SPRT new vs base: elo0 $ELO0 elo1 $ELO1 alpha $ALPHA beta $BETA, ${TURN} ms a move"
"$work/wuzi-match" \
    --engine1 "$work/pbrain-new" --name1 new \
    --engine2 "$work/pbrain-base" --name2 base \
    --rule "$RULE" --size "$SIZE" --geometry "$GEOMETRY" "${opening_args[@]}" \
    --turn "$TURN" --match "$MATCH" --increment "$INCREMENT" --tolerance "$TOLERANCE" \
    --games "$GAMES" --concurrency "$CONCURRENCY" \
    --sprt "$ELO0,$ELO1,$ALPHA,$BETA" "$@" | tee "$work/match.txt"

verdict=$(grep '^SPRT ' "$work/match.txt" || true)
case "$verdict" in
    *"H1 accepted"*) echo "verdict: H1 accepted, new is better than base (by >= $ELO1 Elo at the chosen error rates)"; exit 0 ;;
    *"H0 accepted"*) echo "verdict: H0 accepted, new is not $ELO1 Elo better than base"; exit 1 ;;
    *) echo "verdict: undecided after the games played"; exit 2 ;;
esac
