#!/usr/bin/env python3
"""Scores every position of existing game records with a stronger engine,
for `pbrain-wuzi tune --teacher-weight`.

usage: scripts/teacher-scores.py --engine CMD [--nodes N] [--jobs J] DIR [DIR ...]

Each DIR holds game-NNNN.sgf records as `wuzi-match --sgf DIR` writes them.
For every position before an engine move (the opening's stones are not
asked about), the engine is given the position (BOARD) with a node limit
and its last MESSAGE before the move is kept. The lines are written to
DIR/msgs.txt in the layout of `wuzi-match --msgs` ("Game ID: N", then
"PLY) NAME: TEXT", PLY the number of the move asked for, from 1), which
is where `tune --teacher-weight` looks for them. An existing msgs.txt is
left alone unless --force is given.

Games played by the teacher itself with `--msgs DIR/msgs.txt` need no
rescoring: the messages are already there.

Options:
  --engine CMD  the pbrain engine that scores (Rapfi prints "Eval N")
  --nodes N     node limit a position, sent as INFO max_node (default 20000)
  --jobs J      engines at once (default 2)
  --force       overwrite an existing msgs.txt
"""

import importlib.util
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("forced_wins", os.path.join(HERE, "forced-wins.py"))
fw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fw)


def last_message(engine, game, ply, nodes):
    """The engine's last MESSAGE before it answers the position before
    move `ply` (from 1) of `game`; None if it gives no answer."""
    if not engine.start(game["size"], pause=0.0):
        return None
    engine.send("INFO max_memory 67108864")
    engine.send("INFO rule %d" % game["rule"])
    engine.send("INFO max_node %d" % nodes)
    engine.send("INFO timeout_turn 0")
    engine.send("INFO timeout_match 0")
    engine.send("INFO time_left 2147483647")
    moves = game["moves"][: ply - 1]
    mover = "B" if len(moves) % 2 == 0 else "W"
    engine.send("BOARD")
    for m in moves:
        engine.send("%d,%d,%d" % (m["x"], m["y"], 1 if m["colour"] == mover else 2))
    engine.send("DONE")
    last = None
    deadline = time.time() + 60
    while True:
        line = engine.read(deadline)
        if line is None:
            return None
        if line.upper().startswith("MESSAGE "):
            last = line[8:]
        elif "," in line and all(part.strip().isdigit() for part in line.split(",")):
            return last


def score_games(command, games, nodes):
    """{game number: [(ply, message)]} for the given (number, game) pairs,
    with one engine."""
    engine = fw.Engine(command)
    out = {}
    for number, game in games:
        lines = []
        for ply in range(1, len(game["moves"]) + 1):
            if game["moves"][ply - 1]["opening"]:
                continue
            message = last_message(engine, game, ply, nodes)
            if message is None:
                engine.close()
                engine = fw.Engine(command)
                continue
            lines.append((ply, message))
        out[number] = lines
    engine.close()
    return out


def main(argv):
    args = {"--nodes": "20000", "--jobs": "2"}
    dirs, force, i = [], False, 0
    while i < len(argv):
        if argv[i] == "--force":
            force = True
        elif argv[i] in ("--engine", "--nodes", "--jobs"):
            args[argv[i]] = argv[i + 1]
            i += 1
        elif argv[i].startswith("-"):
            sys.exit(__doc__)
        else:
            dirs.append(argv[i])
        i += 1
    if "--engine" not in args or not dirs:
        sys.exit(__doc__)
    command, nodes, jobs = args["--engine"], int(args["--nodes"]), int(args["--jobs"])
    name = os.path.basename(command.split()[0])
    for path in dirs:
        target = os.path.join(path, "msgs.txt")
        if os.path.exists(target) and not force:
            print("%s exists; skipped (--force to redo)" % target)
            continue
        games, _ = fw.read_records(path)
        numbers = sorted(games)
        shares = [[(n, games[n]) for n in numbers[j::jobs]] for j in range(jobs)]
        started = time.time()
        with ThreadPoolExecutor(jobs) as pool:
            parts = list(pool.map(lambda share: score_games(command, share, nodes), shares))
        scored = {}
        for part in parts:
            scored.update(part)
        with open(target, "w", encoding="utf-8") as f:
            for n in numbers:
                f.write("----------------------------------------\n")
                f.write("Game ID: %d\n" % n)
                for ply, message in scored.get(n, []):
                    f.write("%d) %s: %s\n" % (ply, name, message))
        count = sum(len(v) for v in scored.values())
        print("%s: %d games, %d positions in %.0f s" % (target, len(numbers), count, time.time() - started))


if __name__ == "__main__":
    main(sys.argv[1:])
