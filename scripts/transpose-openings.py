#!/usr/bin/env python3
"""An opening suite with every stone's x and y swapped, or mirrored or turned.

usage: scripts/transpose-openings.py [--symmetry NAME] SUITE > TRANSPOSED

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

--symmetry picks another of the square board's seven symmetries for more
controls: transpose (the default, (x, y) -> (y, x)), anti-transpose
(-y, -x), mirror-x (-x, y), mirror-y (x, -y), turn-90 (-y, x), turn-180
(-x, -y), turn-270 (y, -x). On a rectangular board only mirror-x, mirror-y
and turn-180 keep every stone on it.
"""

import sys


SYMMETRIES = {
    "transpose": lambda x, y: (y, x),
    "anti-transpose": lambda x, y: (-y, -x),
    "mirror-x": lambda x, y: (-x, y),
    "mirror-y": lambda x, y: (x, -y),
    "turn-90": lambda x, y: (-y, x),
    "turn-180": lambda x, y: (-x, -y),
    "turn-270": lambda x, y: (y, -x),
}


def transform(line, symmetry):
    text = line.strip()
    if not text or text.startswith("#"):
        return line.rstrip("\n")
    numbers = [int(part) for part in text.replace(",", " ").split()]
    if len(numbers) % 2:
        raise ValueError("an odd number of offsets: %r" % text)
    stones = ["%d,%d" % symmetry(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
    return ", ".join(stones)


def main(argv):
    symmetry = SYMMETRIES["transpose"]
    if len(argv) == 3 and argv[0] == "--symmetry":
        if argv[1] not in SYMMETRIES:
            sys.exit("unknown symmetry %r: one of %s" % (argv[1], ", ".join(SYMMETRIES)))
        symmetry, argv = SYMMETRIES[argv[1]], argv[2:]
    if len(argv) != 1:
        sys.exit(__doc__.strip().splitlines()[2])
    with open(argv[0], encoding="utf-8") as f:
        lines = f.readlines()
    for number, line in enumerate(lines, 1):
        try:
            print(transform(line, symmetry))
        except ValueError as error:
            sys.exit("%s:%d: %s" % (argv[0], number, error))


if __name__ == "__main__":
    main(sys.argv[1:])
