#!/usr/bin/env python3
"""Scores an opening suite with a stronger engine, and keeps the contested openings.

usage: scripts/vet-openings.py score --engine CMD --rule R [--size N] [--nodes N] SUITE > TABLE
       scripts/vet-openings.py pick --window LO,HI [--count N] SUITE TABLE [SUITE TABLE ...] > OUT

score  asks a pbrain engine (Rapfi, wuzi, anything that reports its score in a
       MESSAGE line as "Eval V" or "eval V", +M/-M for a mate) for its move
       in every opening of SUITE, at --nodes nodes (INFO max_node), each in a
       fresh process, so that no table carries over from one opening to the
       next. One line per opening: its line number in SUITE, the score from
       the side to move's view (White's in every shipped suite; a mate is
       printed as +M/-M as the engine wrote it), and the engine's move. With
       --resume TABLE the openings already in TABLE are skipped and the new
       lines appended to it.

pick   writes the openings whose score in their TABLE lies in LO..HI, the
       COUNT (default 210) nearest the middle of the window, in the order of
       the files; a mate is never kept. An opening that is a turn or a mirror
       of an earlier one (the same stones in the same order) is skipped.

An opening the score calls won for one side is decided before either
engine plays: both games of its pair go to that side whoever plays it, and
the pair says nothing about the engines. See docs/openings.md.
"""
import argparse
import importlib.util
import os
import re
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("forced_wins", os.path.join(HERE, "forced-wins.py"))
fw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fw)


def read_suite(path):
    """The openings of an offset-format suite, as lists of (dx, dy)."""
    suite = []
    for line in open(path):
        nums = [int(t) for t in re.findall(r"-?\d+", line)]
        if nums:
            suite.append([(nums[k], nums[k + 1]) for k in range(0, len(nums) - 1, 2)])
    return suite


def absolute(cmd):
    """The command with its program as an absolute path: the engine is
    started in its own folder (Rapfi reads its config there)."""
    program, _, args = cmd.strip().partition(" ")
    return (shlex.quote(os.path.abspath(program)) + " " + args).strip()


def score_one(cmd, stones, rule, size, nodes):
    """(score, move) of the engine for the position after `stones`. A fresh
    process each time: Rapfi, asked one position after another, drops what
    it reads while a search winds down."""
    centre = size // 2
    colours = "BW"
    position = {"size": size, "rule": rule,
                "moves": [{"x": centre + dx, "y": centre + dy, "colour": colours[i % 2]}
                          for i, (dx, dy) in enumerate(stones)]}
    engine = fw.Engine(absolute(cmd))
    try:
        answer = engine.best_move(position, 0, 134217728, nodes=nodes)
    finally:
        engine.close()
    if answer is None:
        return "?", "none"
    x, y, last = answer
    found = re.search(r"\b[Ee]val (\S+)", last)
    return (found.group(1) if found else "?"), "%d,%d" % (x, y)


def value(text):
    """A score as a number; a mate is +-inf, an unreadable score None."""
    if text.startswith("+M") or text.startswith("M"):
        return float("inf")
    if text.startswith("-M"):
        return float("-inf")
    try:
        return float(text)
    except ValueError:
        return None


def cmd_score(a):
    suite = read_suite(a.suite)
    done = set()
    out = sys.stdout
    if a.resume:
        if os.path.exists(a.resume):
            done = {int(line.split()[0]) for line in open(a.resume) if line.strip()}
        out = open(a.resume, "a")
    for index, stones in enumerate(suite, 1):
        if index in done:
            continue
        score, move = score_one(a.engine, stones, a.rule, a.size, a.nodes)
        out.write("%d %s %s\n" % (index, score, move.replace(" ", "_")))
        out.flush()


def canonical(stones):
    """The opening under the board's 8 symmetries, as one key: the same
    stones played in the same order after a turn or a mirror are one opening."""
    forms = []
    for swap in (False, True):
        for sx in (1, -1):
            for sy in (1, -1):
                forms.append(tuple(((dy if swap else dx) * sx, (dx if swap else dy) * sy)
                                   for dx, dy in stones))
    return min(forms)


def cmd_pick(a):
    lo, hi = (float(x) for x in a.window.split(","))
    middle = (lo + hi) / 2
    if len(a.files) % 2:
        sys.exit("pick wants SUITE TABLE pairs")
    candidates = []
    seen = set()
    for suite_path, table_path in zip(a.files[::2], a.files[1::2]):
        suite = read_suite(suite_path)
        lines = [line.rstrip("\n") for line in open(suite_path) if line.strip()]
        scores = {}
        for line in open(table_path):
            parts = line.split()
            if len(parts) >= 2:
                scores[int(parts[0])] = value(parts[1])
        for index, stones in enumerate(suite, 1):
            key = canonical(stones)
            if key in seen:
                continue
            seen.add(key)
            v = scores.get(index)
            if v is not None and lo <= v <= hi:
                candidates.append((abs(v - middle), len(candidates), lines[index - 1]))
    kept = sorted(candidates)[:a.count]
    if len(kept) < a.count:
        sys.stderr.write("only %d openings inside %s (asked for %d)\n" % (len(kept), a.window, a.count))
    for _, _, line in sorted(kept, key=lambda c: c[1]):
        print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("score")
    s.add_argument("--engine", required=True, help="the pbrain engine's command line")
    s.add_argument("--rule", type=int, required=True, help="Gomocup rule code: 0, 1 or 4")
    s.add_argument("--size", type=int, default=15)
    s.add_argument("--nodes", type=int, default=300000)
    s.add_argument("--resume", help="a table to skip and append to")
    s.add_argument("suite")
    p = sub.add_parser("pick")
    p.add_argument("--window", required=True, help="LO,HI: the scores kept")
    p.add_argument("--count", type=int, default=210)
    p.add_argument("files", nargs="+", metavar="SUITE TABLE",
                   help="suites and the tables `score` wrote for them, in pairs")
    a = ap.parse_args()
    {"score": cmd_score, "pick": cmd_pick}[a.command](a)


if __name__ == "__main__":
    main()
