#!/usr/bin/env python3
"""Two runs of the same openings and colours compared game by game.

usage: scripts/pair-runs.py [--engine NAME] [--control RUN]... BASE_RUN LEVER_RUN

A run is what one build (the base, then a lever) played against the same
opponent, on the same openings and colours, at fixed nodes: a folder of
the SGF records that `wuzi-match --sgf DIR` writes, one game a file, named
by the game's number; or c-gomoku-cli's `games.sgf` (`-sgf FILE`), many
games in one file, each named by its `GN[n]`, given as the file or as the
folder that holds it. The name fixes the opening and who plays Black, so
the records of one name are the same game played by the two builds. A
node-limited engine replays move for move, so a game the lever does not
touch ends as before.

The engine whose score is taken is the player whose name (PB or PW)
contains NAME (default "wuzi"). A record without a decided result (RE[?])
is left out of every run, as is a name that one run lacks. It prints the
number of paired games, each run's score, the difference (lever minus
base) with one standard error, in how many games the lever did better and
worse, and the same difference for the games played as Black and as White.

A changed move makes the rest of a game a fresh draw, and in long
searches nearly every game changes: then the pairing removes little
noise, and every lever judged against one base run shares that run's luck.
A control measures it: the base build played again so that its games
differ while its strength does not, e.g. on the same openings transposed
(`scripts/transpose-openings.py`). Each `--control RUN` is printed with
its own difference from the base, and the lever is then also paired with
the mean of the base and the controls.
"""

import math
import os
import re
import sys

RECORD = re.compile(r"\(;")
NUMBER = re.compile(r"GN\[(\d+)\]")
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


def records(path):
    """(name, record) for each game of a run: a numbered record (`GN[n]`,
    as c-gomoku-cli writes) is named by its number, any other by its file."""
    if os.path.isdir(path):
        files = [os.path.join(path, n) for n in sorted(os.listdir(path)) if n.endswith(".sgf")]
    else:
        files = [path]
    for file in files:
        with open(file, encoding="utf-8") as f:
            text = f.read()
        starts = [m.start() for m in RECORD.finditer(text)] + [len(text)]
        for start, end in zip(starts, starts[1:]):
            record = text[start:end]
            number = NUMBER.search(record)
            name = "game %s" % number.group(1) if number else os.path.basename(file)
            yield name, record


def read_run(path, engine):
    games = {}
    for name, record in records(path):
        scored = score_of(record, engine)
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


def report_pairs(label, names, reference, lever, lever_label="lever"):
    """The paired difference lever - reference over `names`; `reference`
    maps a name to a score, `lever` to (score, plays_black)."""
    differences = [lever[n][0] - reference[n] for n in names]
    difference, error = mean_and_error(differences)
    reference_score = sum(reference[n] for n in names) / len(names)
    lever_score = sum(lever[n][0] for n in names) / len(names)
    better = sum(1 for d in differences if d > 0)
    worse = sum(1 for d in differences if d < 0)
    print(
        "%d paired games: %s %.1f %%, %s %.1f %%, difference %+.1f +- %.1f points "
        "(%s better in %d, worse in %d)"
        % (
            len(names), label, 100 * reference_score, lever_label, 100 * lever_score,
            100 * difference, 100 * error, lever_label, better, worse,
        )
    )
    for as_black, colour in ((True, "Black"), (False, "White")):
        part = [lever[n][0] - reference[n] for n in names if lever[n][1] == as_black]
        if not part:
            continue
        part_difference, part_error = mean_and_error(part)
        print("  as %s: %d games, %+.1f +- %.1f points" % (colour, len(part), 100 * part_difference, 100 * part_error))


def main(argv):
    engine = "wuzi"
    controls = []
    while len(argv) >= 2 and argv[0] in ("--engine", "--control"):
        if argv[0] == "--engine":
            engine = argv[1]
        else:
            controls.append(argv[1])
        argv = argv[2:]
    if len(argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    base = read_run(argv[0], engine)
    lever = read_run(argv[1], engine)
    others = [(path, read_run(path, engine)) for path in controls]
    names = set(base) & set(lever)
    for _, run in others:
        names &= set(run)
    names = sorted(names)
    if not names:
        sys.exit("no game of the same name in every run with %r playing" % engine)
    for path, run in [(argv[1], lever)] + others:
        mismatched = [n for n in names if base[n][1] != run[n][1]]
        if mismatched:
            sys.exit("%s: %r plays another colour in %s than in the base" % (mismatched[0], engine, path))
    base_scores = {n: base[n][0] for n in names}
    report_pairs("base", names, base_scores, lever)
    if not others:
        return
    for path, run in others:
        print("control %s:" % path)
        report_pairs("base", names, base_scores, run, "control")
    reference = {n: (base[n][0] + sum(run[n][0] for _, run in others)) / (1 + len(others)) for n in names}
    print("the lever against the mean of the base and the controls:")
    report_pairs("mean", names, reference, lever)


if __name__ == "__main__":
    main(sys.argv[1:])
