#!/usr/bin/env python3
"""Which of two judges predicts the games' results better, position by position.

usage: scripts/judge-pairs.py ROWS[:COLUMN] ROWS[:COLUMN]

Each ROWS file is what `pbrain-wuzi tune RECORDS --judge-nodes N --judge-rows ROWS`
writes: one tab-separated line a quiet position (record, ply, static score,
searched score, teacher's score or "-", result). COLUMN picks the score to
judge by: searched (the default), static or teacher. Two runs of different
builds or node budgets over the same records compare their searches; one
file twice (ROWS:searched ROWS:teacher) compares wuzi's search with the
teacher's.

Only the positions both files have (and, for a teacher column, where the
teacher scored) are compared. Each score goes through a sigmoid of its own
fitted scale K, as `tune --judge-nodes` does, and its squared error against
the result is taken. The positions of one game share its result, so the
uncertainty of the difference is taken over games: the per-game sums of the
differences, clustered. It prints both errors, the difference (second minus
first: negative when the second judges better) with two standard errors,
and in how many games the second was better.
"""

import math
import sys


def read_rows(spec):
    path, _, column = spec.partition(":")
    column = column or "searched"
    index = {"static": 2, "searched": 3, "teacher": 4}.get(column)
    if index is None:
        sys.exit("unknown column %r: use searched, static or teacher" % column)
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6 or fields[index] == "-":
                continue
            rows[(fields[0], int(fields[1]))] = (float(fields[index]), float(fields[5]))
    return rows


def sigmoid(score, k):
    x = -score / k
    if x > 700:
        return 0.0
    return 1.0 / (1.0 + math.exp(x))


def error(pairs, k):
    return sum((sigmoid(s, k) - r) ** 2 for s, r in pairs) / len(pairs)


def fit_scale(pairs):
    """The K that minimises the squared error, by golden section on ln K."""
    lo, hi = 0.0, math.log(100_000.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a = hi - ratio * (hi - lo)
        b = lo + ratio * (hi - lo)
        if error(pairs, math.exp(a)) < error(pairs, math.exp(b)):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def compare(first, second):
    """(error of first, error of second, difference, two standard errors,
    games, games where second was better, positions) over the shared keys."""
    keys = sorted(set(first) & set(second))
    if not keys:
        raise ValueError("the two files share no positions")
    k1 = fit_scale([first[key] for key in keys])
    k2 = fit_scale([second[key] for key in keys])
    per_game = {}
    for key in keys:
        (s1, r), (s2, _) = first[key], second[key]
        d = (sigmoid(s2, k2) - r) ** 2 - (sigmoid(s1, k1) - r) ** 2
        total, count = per_game.get(key[0], (0.0, 0))
        per_game[key[0]] = (total + d, count + 1)
    n = len(keys)
    mean = sum(t for t, _ in per_game.values()) / n
    g = len(per_game)
    spread = sum((t - c * mean) ** 2 for t, c in per_game.values())
    se = math.sqrt(spread * g / max(g - 1, 1)) / n
    better = sum(1 for t, _ in per_game.values() if t < 0)
    e1 = error([first[key] for key in keys], k1)
    e2 = error([second[key] for key in keys], k2)
    return e1, e2, mean, 2 * se, g, better, n


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    first, second = read_rows(argv[1]), read_rows(argv[2])
    try:
        e1, e2, diff, two_se, games, better, n = compare(first, second)
    except ValueError as e:
        sys.exit(str(e))
    print("%d positions of %d games" % (n, games))
    print("first  %s: %.5f" % (argv[1], e1))
    print("second %s: %.5f" % (argv[2], e2))
    print("second - first: %+.5f +- %.5f (2 SE over games); second better in %d of %d games"
          % (diff, two_se, better, games))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
