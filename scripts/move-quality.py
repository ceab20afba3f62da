#!/usr/bin/env python3
"""How good are an engine's moves in the positions of real games, as a
stronger engine judges them?

usage:
  scripts/move-quality.py positions RECORDS [RECORDS ...] [--engine NAME]
                          [--count N] [--decided CP] -o POSITIONS
  scripts/move-quality.py play POSITIONS --cmd CMD [--nodes N | --ms MS]
                          [--jobs J] -o MOVES
  scripts/move-quality.py judge POSITIONS MOVES [MOVES ...] --judge CMD
                          [--judge-nodes N] [--jobs J] [--cache FILE] [--loss]

A game against a peer is decided by a few moves that the peer punishes; a
match needs hundreds of games to show a change of a few points. This asks
the question move by move instead: the same positions, each build's move
in them, and the peer's score of the position after each move.

positions  Takes the positions where the engine whose player name holds NAME
           (default "wuzi") was to move in gauntlet or wuzi-match records
           (folders as scripts/forced-wins.py reads them), from its first
           move after the opening stones, while the game was still open:
           the opponent's last score before (Rapfi's "Eval", from msgs.txt)
           within +/-CP (default 800) and no forced win announced. N
           positions (default 300) are taken evenly over all of them.
           POSITIONS has a line per position: "RULE SIZE x,y x,y ...".
play       Asks the pbrain engine CMD for its move in every position, under
           `INFO max_node N` (no clock) or a turn of MS milliseconds, J at
           a time (default 2). MOVES has a line per position: "INDEX x,y".
judge      The pbrain engine CMD (Rapfi, as ../shared/tools/peers builds it)
           searches the position after each move, N nodes (default 1000000),
           and its score E for the side then to move becomes the mover's
           expected score 1 / (1 + exp(E / 200)) (a forced win +/-3000).
           Every distinct (position, move) is searched once; --cache keeps
           the scores across runs (a line "KEY SCORE" each). Only the
           positions where the files' moves differ are searched. For each
           MOVES file after the first it prints the mean difference of
           expected score a position against the first file (a position
           with the same move counts 0) with its standard error, the
           positions where the moves differ, and how many of those are
           better or worse by more than 0.02. With --loss it judges every
           move and every position before its move as well, and prints
           each file's mean loss a move (the expected score of the
           position before, less that after the move) by stones on the
           board.

The judge's reading is not the truth: a move the judge misjudges counts
against the build that plays it. The figure is a screen for changes worth a
match, not a replacement for one. Only the standard library is used.
"""
import argparse
import importlib.util
import math
import os
import queue
import re
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("forced_wins", os.path.join(HERE, "forced-wins.py"))
forced_wins = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(forced_wins)

MATE = 3000
SCALE = 200.0
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


# ---------------------------------------------------------------- positions


def open_scores(messages, ours):
    """{ply: the opponent's last plain score at that ply, or None once it
    announced a forced win or loss}."""
    scores = {}
    for ply, name, text in messages:
        if ours in name:
            continue
        verdict = forced_wins.verdict(text)
        if verdict != "open":
            scores[ply] = None
        else:
            score = forced_wins.plain_score(text)
            if score is not None:
                scores[ply] = score
    return scores


def collect(folders, ours, decided):
    found = []
    for folder in folders:
        games, msgs = forced_wins.read_records(folder)
        messages = forced_wins.read_messages(msgs)
        for number in sorted(games):
            game = games[number]
            colour = forced_wins.colour_of(game, ours)
            if colour is None:
                continue
            scores = open_scores(messages.get(number, []), ours)
            moves = game["moves"]
            last = 0  # the suites' openings are balanced
            for index, move in enumerate(moves):
                ply = index + 1  # the number of the stone about to be played
                if ply - 1 in scores:
                    last = scores[ply - 1]
                    if last is None:
                        break  # the opponent announced the game decided
                if move["opening"] or move["colour"] != colour:
                    continue
                if abs(last) > decided:
                    continue
                found.append((game["rule"], game["size"], [(m["x"], m["y"]) for m in moves[:index]]))
    return found


def write_positions(args):
    found = collect(args.records, args.engine, args.decided)
    if not found:
        sys.exit("no open positions of %s's in those records" % args.engine)
    step = max(1.0, len(found) / args.count)
    chosen = [found[int(i * step)] for i in range(min(args.count, len(found)))]
    with open(args.out, "w") as out:
        out.write("# %d of %d open positions: %s\n" % (len(chosen), len(found), " ".join(sys.argv[1:])))
        for rule, size, stones in chosen:
            out.write("%d %d %s\n" % (rule, size, " ".join("%d,%d" % s for s in stones)))
    print("%d positions of %d" % (len(chosen), len(found)))


def read_positions(path):
    positions = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split()
            stones = [tuple(int(v) for v in s.split(",")) for s in fields[2:]]
            positions.append((int(fields[0]), int(fields[1]), stones))
    return positions


def as_position(rule, size, stones):
    """The block forced-wins.py's Engine.best_move reads."""
    moves = [{"x": x, "y": y, "colour": "B" if i % 2 == 0 else "W"} for i, (x, y) in enumerate(stones)]
    return {"rule": rule, "size": size, "moves": moves}


# ---------------------------------------------------------------- engines


def run_all(cmd, jobs, tasks, work):
    """work(engine, task) for every task, `jobs` engines at once; results by task."""
    pending = queue.Queue()
    for task in tasks:
        pending.put(task)
    results = {}
    lock = threading.Lock()

    def worker():
        engine = forced_wins.Engine(cmd)
        try:
            while True:
                try:
                    task = pending.get_nowait()
                except queue.Empty:
                    return
                result = work(engine, task)
                with lock:
                    results[task] = result
                    done = len(results)
                if done % 50 == 0:
                    print("  %d of %d" % (done, len(tasks)), file=sys.stderr)
        finally:
            engine.close()

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def play(args):
    positions = read_positions(args.positions)
    ms = args.ms if args.ms else 0

    def work(engine, index):
        rule, size, stones = positions[index]
        answer = engine.best_move(as_position(rule, size, stones), ms, args.memory, nodes=args.nodes)
        return None if answer is None else answer[:2]

    results = run_all(args.cmd, args.jobs, list(range(len(positions))), work)
    missing = 0
    with open(args.out, "w") as out:
        out.write("# %s\n" % " ".join(sys.argv[1:]))
        for index in range(len(positions)):
            if results.get(index) is None:
                missing += 1
                continue
            out.write("%d %d,%d\n" % (index, *results[index]))
    print("%d moves, %d positions unanswered" % (len(positions) - missing, missing))


def read_moves(path):
    moves = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            index, move = line.split()
            moves[int(index)] = tuple(int(v) for v in move.split(","))
    return moves


# ---------------------------------------------------------------- judging


def makes_five(rule, size, stones, move):
    """Whether `move` completes a five for its player (freestyle: five or
    more; standard and renju: exactly five, which is what Black needs in
    renju and what both need in standard)."""
    own = set(stones[len(stones) % 2 :: 2])
    x, y = move
    for dx, dy in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and (cx, cy) in own:
                run += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        if run == 5 or (run > 5 and rule == 0):
            return True
    return False


def judge_score(text):
    """The judge's score for its side to move from its last search line."""
    return forced_wins.line_score(text, MATE)


def expected(score_after):
    """The mover's expected score from the judge's score of the position
    after the move (the opponent's view)."""
    return 1.0 / (1.0 + math.exp(max(-MATE, min(MATE, score_after)) / SCALE))


def judge(args):
    positions = read_positions(args.positions)
    files = [(path, read_moves(path)) for path in args.moves]
    cache = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            for line in f:
                key, score = line.rsplit(" ", 1)
                cache[key] = int(score)

    def key(index, move):
        rule, size, stones = positions[index]
        return "n%d r%d s%d %s %s" % (
            args.judge_nodes, rule, size, ".".join("%d,%d" % s for s in stones),
            "-" if move is None else "%d,%d" % move)

    base_path, base = files[0]
    if args.loss:
        # Every move of every file, and every position before its move.
        wanted = {(i, m) for _, moves in files for i, m in moves.items()}
        wanted |= {(i, None) for i in base}
    else:
        # A position where every build plays the same move adds nothing to
        # a difference: only the others are judged (the first file's moves
        # there included, since it is one of the files).
        differing = {i for _, moves in files for i, m in moves.items() if base.get(i) != m}
        wanted = {(i, m) for _, moves in files for i, m in moves.items() if i in differing}
    tasks = sorted((t for t in wanted if key(*t) not in cache), key=lambda t: (t[0], t[1] or (-1, -1)))
    print("%d moves to judge, %d known" % (len(tasks), len(cache)), file=sys.stderr)

    def work(engine, task):
        index, move = task
        rule, size, stones = positions[index]
        if move is not None and makes_five(rule, size, stones, move):
            return -MATE
        after = stones if move is None else stones + [move]
        answer = engine.best_move(as_position(rule, size, after), 0, args.memory,
                                  nodes=args.judge_nodes)
        return None if answer is None else judge_score(answer[2])

    results = run_all(args.judge, args.jobs, tasks, work)
    with open(args.cache, "a") if args.cache else open(os.devnull, "w") as out:
        for task, score in results.items():
            if score is not None:
                cache[key(*task)] = score
                out.write("%s %d\n" % (key(*task), score))

    def value(index, move):
        score = cache.get(key(index, move))
        return None if score is None else expected(score)

    print("%s: %d moves" % (base_path, len(base)))
    if args.loss:
        print_losses(files, positions, lambda i: cache.get(key(i, None)), value)
    print_differences(files, value)


def print_differences(files, value):
    """Each file's mean difference of expected score a position against
    the first file, where `value(index, move)` is a judged move's."""
    base_path, base = files[0]
    for path, moves in files[1:]:
        common = [i for i in moves if i in base]
        diffs = []
        for i in common:
            if moves[i] == base[i]:
                diffs.append(0.0)
                continue
            ours, theirs = value(i, moves[i]), value(i, base[i])
            if ours is not None and theirs is not None:
                diffs.append(ours - theirs)
        n = len(diffs)
        if n < 2:
            print("%s: nothing to compare" % path)
            continue
        avg = sum(diffs) / n
        sd = math.sqrt(sum((d - avg) ** 2 for d in diffs) / (n - 1))
        differ = sum(1 for i in common if moves[i] != base[i])
        better = sum(1 for d in diffs if d > 0.02)
        worse = sum(1 for d in diffs if d < -0.02)
        print("%s: %+.4f +/- %.4f a move against %s over %d positions; "
              "moves differ in %d, better %d, worse %d"
              % (path, avg, sd / math.sqrt(n), base_path, n, differ, better, worse))


PHASES = ((0, 10), (11, 20), (21, 30), (31, 10**6))


def print_losses(files, positions, before, value):
    """Each file's mean loss a move (the judge's expected score of the
    position before, less that after the move), by stones on the board."""
    for path, moves in files:
        losses = {}
        for i, move in moves.items():
            score, after = before(i), value(i, move)
            if score is None or after is None:
                continue
            stones = len(positions[i][2])
            phase = next(p for p in PHASES if p[0] <= stones <= p[1])
            losses.setdefault(phase, []).append(expected(-score) - after)
        every = [x for xs in losses.values() for x in xs]
        parts = ["%d-%s stones %.4f (%d)" % (lo, hi if hi < 10**6 else "", sum(xs) / len(xs), len(xs))
                 for (lo, hi), xs in sorted(losses.items())]
        print("%s: loss a move %.4f over %d; %s" % (
            path, sum(every) / max(1, len(every)), len(every), ", ".join(parts)))


# ---------------------------------------------------------------- main


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions")
    p.add_argument("records", nargs="+")
    p.add_argument("--engine", default="wuzi")
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--decided", type=int, default=800)
    p.add_argument("-o", dest="out", required=True)
    p = sub.add_parser("play")
    p.add_argument("positions")
    p.add_argument("--cmd", required=True)
    p.add_argument("--nodes", type=int)
    p.add_argument("--ms", type=int)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--memory", type=int, default=64 << 20)
    p.add_argument("-o", dest="out", required=True)
    p = sub.add_parser("judge")
    p.add_argument("positions")
    p.add_argument("moves", nargs="+")
    p.add_argument("--judge", required=True)
    p.add_argument("--judge-nodes", type=int, default=1000000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--memory", type=int, default=64 << 20)
    p.add_argument("--cache")
    p.add_argument("--loss", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "play" and not (args.nodes or args.ms):
        parser.error("play needs --nodes or --ms")
    {"positions": write_positions, "play": play, "judge": judge}[args.command](args)


if __name__ == "__main__":
    main(sys.argv[1:])
