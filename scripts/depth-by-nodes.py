#!/usr/bin/env python3
"""How deep each engine's search gets at a given number of nodes a move.

usage: scripts/depth-by-nodes.py --engine CMD [--engine CMD ...]
           --nodes N[,N ...] [--plies P[,P ...]] [--games G] [--memory BYTES]
           RECORDS

RECORDS is a folder of games as scripts/forced-wins.py reads them (a
gauntlet's games.sgf, or wuzi-match's --sgf folder). From each of the first
G games (default 20) the positions after P stones are taken (default
12,18,24,30,36; a position within two stones of the game's end is skipped).
Each engine is given each position afresh (START, BOARD) with
`INFO max_node N` and no time limit, and the depth of its last search line
(`depth 12-20 | ...` for wuzi, `Depth 16-36 | ...` for Rapfi) is read.

Only the positions where every engine printed a depth at every budget are
counted: a position an engine answers at once (a forced block, a win its
solvers prove) has no depth to compare. For each engine and budget the
script prints the median and mean depth, then the medians by ply.

A strong engine's depth grows faster with its nodes than a weaker one's: how
the selectivity shapes the tree, as the branching factor says for one
engine, compared across engines whose depths count alike only roughly
(docs/search.md, "Figures").
"""
import argparse
import importlib.util
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("forced_wins", os.path.join(HERE, "forced-wins.py"))
forced_wins = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(forced_wins)

DEPTH = re.compile(r"[Dd]epth (\d+)")


def positions(records, games, plies):
    """(label, position) for the chosen plies of the first `games` games."""
    found, _ = forced_wins.read_records(records)
    for number in sorted(found)[:games]:
        game = found[number]
        for ply in plies:
            if ply > len(game["moves"]) - 2:
                continue
            position = {"size": game["size"], "rule": game["rule"], "moves": game["moves"][:ply]}
            yield (number, ply), position


def depth_of(engine, position, nodes, memory):
    answer = engine.best_move(position, 0, memory, nodes=nodes)
    if answer is None:
        return None
    match = DEPTH.search(answer[2])
    return int(match.group(1)) if match else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", action="append", required=True)
    parser.add_argument("--nodes", required=True)
    parser.add_argument("--plies", default="12,18,24,30,36")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--memory", type=int, default=64 << 20)
    parser.add_argument("records")
    args = parser.parse_args()
    budgets = [int(n) for n in args.nodes.split(",")]
    plies = [int(p) for p in args.plies.split(",")]
    chosen = list(positions(args.records, args.games, plies))
    depths = {}
    for command in args.engine:
        engine = forced_wins.Engine(command)
        try:
            for nodes in budgets:
                for label, position in chosen:
                    depths[command, nodes, label] = depth_of(engine, position, nodes, args.memory)
        finally:
            engine.close()
    common = [
        label
        for label, _ in chosen
        if all(depths[c, n, label] is not None for c in args.engine for n in budgets)
    ]
    print(
        "positions: %d of %d (every engine printed a depth at every budget)"
        % (len(common), len(chosen))
    )
    if not common:
        return 1
    width = max(len(os.path.basename(c.split()[0])) for c in args.engine)
    for command in args.engine:
        name = os.path.basename(command.split()[0])
        for nodes in budgets:
            values = [depths[command, nodes, label] for label in common]
            by_ply = []
            for ply in plies:
                at = [depths[command, nodes, label] for label in common if label[1] == ply]
                if at:
                    by_ply.append("%d: %g" % (ply, statistics.median(at)))
            print(
                "%-*s %9d nodes  median depth %g  mean %.1f  by ply %s"
                % (
                    width,
                    name,
                    nodes,
                    statistics.median(values),
                    statistics.mean(values),
                    ", ".join(by_ply),
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
