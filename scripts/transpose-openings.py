#!/usr/bin/env python3
"""An opening suite with every stone's x and y swapped.

usage: scripts/transpose-openings.py SUITE > TRANSPOSED

SUITE is a file of openings as the suites in `openings/` hold them and
c-gomoku-cli reads them with `type=offset`: one opening a line, the stones
as comma-separated `x,y` offsets from the centre, in the order they were
played. Each line is written back with every stone's two offsets swapped,
the board mirrored along its diagonal; blank lines and `#` comments are
kept as they are. Every rule is symmetric under that mirror, so an engine
is as strong on the transposed opening as on the original, but it searches
the position in another order and plays other games: the same build run
on SUITE and on TRANSPOSED, with the same `srand`, is two samples of one
strength, a control for `scripts/pair-runs.py --control`.
"""

import sys


def transpose(line):
    text = line.strip()
    if not text or text.startswith("#"):
        return line.rstrip("\n")
    numbers = [int(part) for part in text.replace(",", " ").split()]
    if len(numbers) % 2:
        raise ValueError("an odd number of offsets: %r" % text)
    stones = ["%d,%d" % (numbers[i + 1], numbers[i]) for i in range(0, len(numbers), 2)]
    return ", ".join(stones)


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__.strip().splitlines()[2])
    with open(argv[0], encoding="utf-8") as f:
        lines = f.readlines()
    for number, line in enumerate(lines, 1):
        try:
            print(transpose(line))
        except ValueError as error:
            sys.exit("%s:%d: %s" % (argv[0], number, error))


if __name__ == "__main__":
    main(sys.argv[1:])
