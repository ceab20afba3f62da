#!/usr/bin/env python3
"""Two runs of the same openings and colours compared game by game.

usage: scripts/pair-runs.py [--engine NAME] BASE_DIR LEVER_DIR

Each directory holds the SGF records that `wuzi-match --sgf DIR` wrote for
one run: one build (the base, then a lever) against the same opponent, on
the same openings, at fixed nodes. wuzi-match names a game's record by its
number, and the number fixes the opening and who plays Black, so the two
records of one name are the same game played by the two builds. A
node-limited engine replays move for move, so only the games where the
lever changed a move can differ; pairing takes the noise of all the others
away.

The engine whose score is taken is the player whose name (PB or PW)
contains NAME (default "wuzi"). A record without a decided result (RE[?])
is left out of both runs, as is a name only one run has. It prints the
number of paired games, each run's score, the difference (lever minus base)
with one standard error, in how many games the lever did better and
worse, and the same difference for the games played as Black and as White.
"""

import math
import os
import re
import sys

RESULT = re.compile(r"RE\[([^\]]*)\]")
BLACK = re.compile(r"PB\[((?:\\.|[^\]\\])*)\]")
WHITE = re.compile(r"PW\[((?:\\.|[^\]\\])*)\]")


def score_of(record, engine):
    """The engine's score in one record and whether it played Black, or
    None when the record has no result or the engine is not in it."""
    result = RESULT.search(record)
    black = BLACK.search(record)
    white = WHITE.search(record)
    if not (result and black and white):
        return None
    plays_black = engine in black.group(1)
    if not plays_black and engine not in white.group(1):
        return None
    outcome = result.group(1)
    if outcome.startswith("B+"):
        return (1.0 if plays_black else 0.0), plays_black
    if outcome.startswith("W+"):
        return (0.0 if plays_black else 1.0), plays_black
    if outcome in ("0", "Draw", "Void"):
        return 0.5, plays_black
    return None


def read_run(directory, engine):
    games = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".sgf"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            scored = score_of(f.read(), engine)
        if scored is not None:
            games[name] = scored
    return games


def mean_and_error(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def main(argv):
    engine = "wuzi"
    if len(argv) >= 2 and argv[0] == "--engine":
        engine, argv = argv[1], argv[2:]
    if len(argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    base = read_run(argv[0], engine)
    lever = read_run(argv[1], engine)
    names = sorted(set(base) & set(lever))
    if not names:
        sys.exit("no game of the same name in both runs with %r playing" % engine)
    colours = {base[n][1] for n in names} | {lever[n][1] for n in names}
    mismatched = [n for n in names if base[n][1] != lever[n][1]]
    if mismatched:
        sys.exit("%s: %r plays another colour in each run" % (mismatched[0], engine))
    differences = [lever[n][0] - base[n][0] for n in names]
    difference, error = mean_and_error(differences)
    base_score = sum(base[n][0] for n in names) / len(names)
    lever_score = sum(lever[n][0] for n in names) / len(names)
    better = sum(1 for d in differences if d > 0)
    worse = sum(1 for d in differences if d < 0)
    print(
        "%d paired games: base %.1f %%, lever %.1f %%, difference %+.1f +- %.1f points "
        "(lever better in %d, worse in %d)"
        % (len(names), 100 * base_score, 100 * lever_score, 100 * difference, 100 * error, better, worse)
    )
    for as_black, colour in ((True, "Black"), (False, "White")):
        if as_black not in colours:
            continue
        part = [lever[n][0] - base[n][0] for n in names if base[n][1] == as_black]
        part_difference, part_error = mean_and_error(part)
        print("  as %s: %d games, %+.1f +- %.1f points" % (colour, len(part), 100 * part_difference, 100 * part_error))


if __name__ == "__main__":
    main(sys.argv[1:])
