#!/usr/bin/env python3
"""How steady each engine's root score is, from a gauntlet's search lines.

usage: scripts/score-steadiness.py RECORDS [RECORDS ...]

RECORDS is a folder that c-gomoku-cli filled through
../shared/tools/peers/gauntlet.sh (its msgs.txt). For each folder it prints:

  swing    the change of each engine's score from one completed iteration
           to the next, both at depth 10 or more (median and mean), and the
           median size of its scores from depth 10 on, so that the two
           scales can be compared;
  against  wuzi's score at its move beside the peer's score of the position
           one ply later (negated, so both are wuzi's view), binned by the
           peer's score: where the two engines judge alike, and how wide
           wuzi's scale is against the peer's.

wuzi's lines are those of the engine whose name holds "wuzi"; the other
engine is the peer. Scores beyond +-1500 and mate scores are left out.
"""
import importlib.util
import os
import re
import statistics
import sys

# The message log is read as scripts/forced-wins.py reads it.
HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("forced_wins", os.path.join(HERE, "forced-wins.py"))
forced_wins = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(forced_wins)

ITERATION = re.compile(r"[Dd]epth (\d+)-\d+ \| [Ee]val (-?\d+) ")
LIMIT = 1500
BINS = [(-LIMIT, -300), (-300, -100), (-100, 100), (100, 300), (300, LIMIT)]


def main(folders):
    for folder in folders:
        swings = {"wuzi": [], "peer": []}
        sizes = {"wuzi": [], "peer": []}
        pairs = []
        for lines in forced_wins.read_messages(os.path.join(folder, "msgs.txt")).values():
            last = {}
            previous = None
            for move, name, text in lines:
                m = ITERATION.match(text)
                if not m:
                    continue
                depth, score = int(m[1]), int(m[2])
                who = "wuzi" if "wuzi" in name else "peer"
                if abs(score) < LIMIT and depth >= 10:
                    sizes[who].append(abs(score))
                    if previous == (move, True) and abs(last[move][1]) < LIMIT:
                        swings[who].append(abs(score - last[move][1]))
                previous = (move, depth >= 10)
                last[move] = (who, score)
            for move, (who, score) in last.items():
                reply = last.get(move + 1)
                if who == "wuzi" and reply and reply[0] == "peer":
                    if abs(score) < LIMIT and abs(reply[1]) < LIMIT:
                        pairs.append((score, -reply[1]))
        print(folder)
        for who in ("wuzi", "peer"):
            s, z = swings[who], sizes[who]
            if s:
                print(
                    f"  swing {who}: median {statistics.median(s):g}, "
                    f"mean {statistics.mean(s):.0f} over {len(s)}; "
                    f"median |score| {statistics.median(z):g}"
                )
        for lo, hi in BINS:
            ours = [w for w, p in pairs if lo <= p < hi]
            if ours:
                median = statistics.median(ours)
                print(f"  against: peer {lo}..{hi}: wuzi median {median:g} ({len(ours)})")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
