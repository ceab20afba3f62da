#!/usr/bin/env python3
"""Settles the "find the win / find the defence" suite, tests/data/forced-wins.txt.

usage: scripts/settle-suite.py --engine CMD [options] RECORDS [RECORDS ...]
       scripts/settle-suite.py --engine CMD [--ms MS] [--verify-ms MS] --verify SUITE [-o FILE]

RECORDS are gauntlet folders, read as scripts/forced-wins.py reads them; its
candidate positions (the first announced forced win of a peer in each game,
and the move before) are settled with a pbrain engine that honours YXBLOCK
(Rapfi does), asked again and again with the moves found so far blocked:

  win      the engine, to move, announces a win (+M): its move is a winning
           move. Block it and ask again, until the engine no longer sees a
           win. The right moves are the winning moves found.
  defence  the engine, to move, does not see a loss (no -M): its move holds
           for now. Block it and ask again, until the engine sees every move
           left lose. The right moves are the moves found before that.

A position is kept only if its set closes with 1..MAX moves (default 4 for
a defence, 6 for a win): a win the engine does not see at this depth, a set
still open after MAX moves, or a defence already lost whatever is played is
dropped. For such a lost defence the defender's turn two and four plies
earlier is tried instead (if no opening stone is taken back). At most
PER positions (default 12) are kept per league and kind, in game order.

A settling engine that sees a defence hold at 1.5 s may see it lose given
longer. --verify SUITE asks again about every right move of each defence in
an existing suite file: the move is played and the engine, now the attacker,
is asked with --verify-ms; a move after which it announces a win (+M) is
dropped from the set. A defence left with no right move was lost whatever
is played: the defender's turn 2, 4 or 6 plies earlier (no opening stone
taken back) is settled at --ms and verified in the same way, and the first
that holds replaces it; if none does, it is dropped. Wins are kept as they
are. The suite is written to -o (or stdout) with a `verified` line in each
defence kept; RECORDS are not needed.

Options:
  --engine CMD   the pbrain engine that settles (required)
  --verify SUITE check the defences of an existing suite file (above)
  --verify-ms MS time per question of --verify (default 8000)
  --ms MS        time per question (default 1500)
  --max N        largest set of right moves kept for a defence (default 4)
  --max-win N    largest set of right moves kept for a win (default 6)
  --per N        positions kept per league and kind (default 12)
  --cache FILE   JSON lines of settled positions, read and appended, so that
                 a run over more folders asks only about the new positions
  -o FILE        write the suite to FILE instead of stdout

Only the standard library is used.
"""
import importlib.util
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("forced_wins", os.path.join(HERE, "forced-wins.py"))
fw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fw)

RULE_NAMES = fw.RULE_NAMES

HEADER = """\
# The "find the win / find the defence" suite, read by tests/forced_wins.rs.
#
# Made by scripts/settle-suite.py from gauntlet games (c-gomoku-cli folders)
# in which a peer announced a forced win (+M in its search lines); the
# folders are named <wuzi build or suite>-<peer>-<league> and hold games of
# wuzi against that peer under ../shared/tools/peers/gauntlet.sh:
#   {command}
# Each position was settled once, when the suite was made, by asking the
# settling engine ({engine_name}, {ms} ms a question) again and again with the
# moves found so far blocked (YXBLOCK); see that script for the rules.
#
# Format: one block per position, blank lines between, '#' starts a comment.
#   position win|defence   win: the side to move has a forced win, play a
#                          winning move; defence: the opponent threatens a
#                          forced win, play a move that does not lose
#   rule R                 0 freestyle, 1 standard, 4 renju
#   size N                 the board is N x N
#   source ...             the game folder, game number and ply it comes from,
#                          and the peer's announcement there
#   played x,y             the move made in the game at this point
#   settled ...            how the right moves were found (engine, time, the
#                          verdict that closed the set)
#   to-move X|O            X Black, O White (it also follows from the counts)
#   right x,y [x,y ...]    the right moves: all winning moves the settling
#                          engine found (win), or all moves it does not see
#                          lose (defence)
#   moves ...              the game up to here (letter = x, number = y + 1)
#   N rows of N cells      the board: rows top to bottom are y = 0..,
#                          columns left to right are x = 0..; X Black,
#                          O White, . empty
"""


def key_of(position):
    stones = sorted((m["x"], m["y"], m["colour"]) for m in position["moves"])
    return "%s|%d|%d|%s" % (position["kind"], position["rule"], position["size"], stones)


def ask(engine_factory, state, position, ms, memory, blocked=()):
    """The engine's (x, y, last MESSAGE) for the position, with one restart
    of the engine if it does not answer; None if it still does not."""
    for _attempt in range(2):
        answer = state["engine"].best_move(position, ms, memory, blocked=blocked)
        if answer is not None:
            return answer
        state["engine"].close()
        state["engine"] = engine_factory()
    return None


def settle(engine_factory, state, position, ms, memory, limit):
    """(right moves, verdict line) or (None, why)."""
    found = []
    last = ""
    for _ in range(limit + 1):
        answer = ask(engine_factory, state, position, ms, memory, blocked=found)
        if answer is None:
            return None, "no answer"
        x, y, message = answer
        verdict = fw.verdict(message)
        last = message
        if position["kind"] == "win":
            if verdict != "win":
                break
        else:
            if verdict == "loss":
                break
        if (x, y) in found:
            return None, "the engine played a blocked move"
        found.append((x, y))
        if len(found) > limit:
            return None, "more than %d right moves" % limit
    if not found:
        return None, "no right move: %s" % fw.printable(last)
    return found, fw.printable(last)


STEPS_BACK = 2


def earlier(position):
    """The defender's turn before (two plies back), if no opening stone is
    taken back, else None."""
    moves = position["moves"]
    if len(moves) < 3 or moves[-2]["opening"] or moves[-1]["opening"]:
        return None
    return dict(
        position,
        ply=position["ply"] - 2,
        played=moves[-2],
        moves=moves[:-2],
    )


def block(position, right, closing, engine_name, ms):
    played = position["played"]
    lines = [
        "position %s" % position["kind"],
        "rule %d" % position["rule"],
        "size %d" % position["size"],
        "source %s ply %d; %s" % (position["source"], position["ply"], position["announced"]),
        "played %d,%d" % (played["x"], played["y"]),
        "settled %s %d ms; with the right moves blocked: %s" % (engine_name, ms, closing),
        "to-move %s" % ("X" if len(position["moves"]) % 2 == 0 else "O"),
        "right %s" % " ".join("%d,%d" % m for m in right),
        "moves %s" % " ".join(fw.notation(m) for m in position["moves"]),
        fw.diagram(position["size"], position["moves"]),
    ]
    return "\n".join(lines) + "\n"


def parse_suite(text):
    """The header (comment lines before the first block) and the blocks of
    a suite file, each as (its lines, the position to ask about)."""
    header, blocks = [], []
    for chunk in text.split("\n\n"):
        lines = [l for l in chunk.strip("\n").split("\n") if l]
        if not lines:
            continue
        if not lines[0].startswith("position "):
            header.extend(l for l in lines if l.startswith("#"))
            continue
        fields = {}
        for line in lines:
            word, _, rest = line.partition(" ")
            fields.setdefault(word, rest)
        moves = []
        for i, m in enumerate(fields["moves"].split()):
            moves.append({"x": ord(m[0]) - 97, "y": int(m[1:]) - 1,
                          "colour": "B" if i % 2 == 0 else "W", "opening": False})
        position = {"kind": fields["position"], "rule": int(fields["rule"]),
                    "size": int(fields["size"]), "moves": moves,
                    "right": [tuple(map(int, r.split(","))) for r in fields["right"].split()]}
        blocks.append((lines, position))
    return header, blocks


def holding_moves(verify_ask, position, moves):
    """The moves of `moves` after which the engine, as the attacker, does not
    announce a win, and those after which it does. `verify_ask(position)` is
    the engine's answer, or None."""
    holding, losing = [], []
    colour = "B" if len(position["moves"]) % 2 == 0 else "W"
    for x, y in moves:
        after = dict(position, moves=position["moves"] + [
            {"x": x, "y": y, "colour": colour, "opening": False}])
        answer = verify_ask(after)
        if answer is not None and fw.verdict(answer[2]) == "win":
            losing.append((x, y))
        else:
            holding.append((x, y))
    return holding, losing


# Stones of the suites' openings: a walk back stops before taking one.
OPENING_STONES = 5


def walk_back(engine_factory, state, memory, settle_ms, ms, engine_name, lines, position, limit):
    """For a defence lost whatever is played: the defender's turn 2, 4 or 6
    plies earlier whose set, settled at `settle_ms` and verified at `ms`,
    still holds, as new block lines, or None."""
    full = position["moves"]
    source = next(l for l in lines if l.startswith("source "))[len("source "):]
    match = re.fullmatch(r"(.*?) ply (\d+); (.*)", source)
    for back in (2, 4, 6) if match else ():
        if len(full) - back < OPENING_STONES:
            return None
        earlier_position = dict(position, moves=full[:-back])
        found, verdict_line = settle(engine_factory, state, earlier_position, settle_ms, memory, limit)
        if found is None:
            continue
        holding, losing = holding_moves(
            lambda p: ask(engine_factory, state, p, ms, memory), earlier_position, found)
        if not holding:
            continue
        source_game, ply, announced = match.groups()
        earlier_position.update(
            source=source_game, ply=int(ply) - back, announced=announced, played=full[len(full) - back])
        note = "verified %s %d ms, %d plies before the position first kept, where every move lost" % (
            engine_name, ms, back)
        if losing:
            note += "; dropped as lost: %s" % " ".join("%d,%d" % m for m in losing)
        new_lines = block(earlier_position, holding, verdict_line, engine_name, settle_ms).rstrip("\n").split("\n")
        settled = next(n for n, l in enumerate(new_lines) if l.startswith("settled "))
        return new_lines[:settled + 1] + [note] + new_lines[settled + 1:]
    return None


def verify(engine_cmd, suite_path, ms, memory, out, settle_ms, limit, command):
    """Drops the right moves of each defence after which the engine, as the
    attacker, announces a win, walks a defence left with none back to where
    one held, and writes the suite that results."""
    with open(suite_path) as f:
        header, blocks = parse_suite(f.read())
    engine_name = os.path.basename(engine_cmd.split()[0])

    def factory():
        return fw.Engine(engine_cmd)

    state = {"engine": factory()}
    kept_blocks, counts = [], {}
    for lines, position in blocks:
        league = "%s %d %s" % (RULE_NAMES.get(position["rule"]), position["size"], position["kind"])
        counts.setdefault(league, [0, 0])
        if position["kind"] != "defence":
            kept_blocks.append(lines)
            counts[league][0] += 1
            continue
        holding, losing = holding_moves(
            lambda p: ask(factory, state, p, ms, memory), position, position["right"])
        source = next((l for l in lines if l.startswith("source ")), "")
        print("%s %s: holds %s, loses %s" % (league, source[7:60], holding, losing), file=sys.stderr)
        if not holding:
            earlier_lines = walk_back(
                factory, state, memory, settle_ms, ms, engine_name, lines, position, limit)
            print("  walked back: %s" % (earlier_lines[3][7:60] + " " + earlier_lines[8] if earlier_lines else "none"), file=sys.stderr)
            if earlier_lines is None:
                counts[league][1] += 1
            else:
                counts[league][0] += 1
                kept_blocks.append(earlier_lines)
            continue
        counts[league][0] += 1
        note = "verified %s %d ms: each right move played, the attacker announces no win" % (engine_name, ms)
        if losing:
            note += "; dropped as lost: %s" % " ".join("%d,%d" % m for m in losing)
        new = []
        for line in lines:
            if line.startswith("right "):
                line = "right %s" % " ".join("%d,%d" % m for m in holding)
            new.append(line)
            if line.startswith("settled "):
                new.append(note)
        kept_blocks.append(new)
    state["engine"].close()
    text = "\n".join(l for l in header if not re.match(r"# .* \d+ kept, \d+ dropped$", l)) + "\n"
    text += "# Verified with %s at %d ms a question (walk-backs settled at %d ms):\n#   %s\n" % (
        engine_name, ms, settle_ms, command)
    for league in sorted(counts):
        kept, dropped = counts[league]
        if league.endswith("defence"):
            text += "# %s: %d kept, %d dropped as lost whatever is played\n" % (league, kept, dropped)
        else:
            text += "# %s: %d kept\n" % (league, kept)
    text += "\n" + "\n\n".join("\n".join(b) for b in kept_blocks) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def main(argv):
    engine_cmd = None
    verify_path = None
    verify_ms = 8000
    ms = 1500
    limit = 4
    limit_win = 6
    per = 12
    cache_path = None
    out = None
    memory = 64 << 20
    sources = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            print(__doc__)
            return 0
        if arg == "--engine":
            engine_cmd = args.pop(0)
        elif arg == "--ms":
            ms = int(args.pop(0))
        elif arg == "--max":
            limit = int(args.pop(0))
        elif arg == "--max-win":
            limit_win = int(args.pop(0))
        elif arg == "--per":
            per = int(args.pop(0))
        elif arg == "--cache":
            cache_path = args.pop(0)
        elif arg == "-o":
            out = args.pop(0)
        elif arg == "--verify":
            verify_path = args.pop(0)
        elif arg == "--verify-ms":
            verify_ms = int(args.pop(0))
        elif arg.startswith("-"):
            print("unknown option %s (see --help)" % arg, file=sys.stderr)
            return 2
        else:
            sources.append(arg)
    if verify_path and engine_cmd:
        command = "scripts/settle-suite.py " + " ".join(argv)
        return verify(engine_cmd, verify_path, verify_ms, memory, out, ms, limit, command)
    if not sources or not engine_cmd:
        print(__doc__)
        return 2
    engine_name = os.path.basename(engine_cmd.split()[0])

    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            for line in f:
                if line.strip():
                    entry = json.loads(line)
                    cache[entry["key"]] = entry

    positions = []
    seen = set()
    ours = re.compile("wuzi")
    for path in sources:
        games, msgs = fw.read_records(path)
        messages = fw.read_messages(msgs)
        source = os.path.basename(os.path.normpath(path))
        for position in fw.candidates(source, games, messages, ours, False, {"win", "defence"}):
            key = key_of(position)
            if key not in seen:
                seen.add(key)
                positions.append((key, position))

    state = {"engine": None}

    def factory():
        return fw.Engine(engine_cmd)

    def cached_or_settled(key, position, league):
        most = limit_win if position["kind"] == "win" else limit
        entry = cache.get(key)
        if entry is not None and entry.get("ms") == ms and entry.get("max") != most:
            # A set that closed within both limits needs no new question.
            closed = entry["right"] is not None or entry["note"].startswith("no right move")
            if closed and len(entry["right"] or []) <= most:
                entry = dict(entry, max=most)
        if entry is None or entry.get("ms") != ms or entry.get("max") != most:
            if state["engine"] is None:
                state["engine"] = factory()
            started = time.time()
            right, note = settle(factory, state, position, ms, memory, most)
            entry = {"key": key, "ms": ms, "max": most, "right": right, "note": note}
            print(
                "%s %s: %s %s (%.1f s)"
                % (league, position["source"], right, note[:60], time.time() - started),
                file=sys.stderr,
            )
            if cache_path:
                with open(cache_path, "a") as f:
                    f.write(json.dumps(entry) + "\n")
        return entry

    kept = {}
    blocks = []
    dropped = {}
    for key, position in positions:
        league = "%s %d %s" % (RULE_NAMES.get(position["rule"]), position["size"], position["kind"])
        if kept.get(league, 0) >= per:
            continue
        for back in range(STEPS_BACK + 1 if position["kind"] == "defence" else 1):
            if back:
                position = earlier(position)
                if position is None:
                    break
                key = key_of(position)
                if key in seen:
                    break
                seen.add(key)
            entry = cached_or_settled(key, position, league)
            if entry["right"] is not None or not entry["note"].startswith("no right move"):
                break
        if entry["right"] is None:
            dropped[league] = dropped.get(league, 0) + 1
            continue
        kept[league] = kept.get(league, 0) + 1
        right = [tuple(m) for m in entry["right"]]
        blocks.append(block(position, right, entry["note"], engine_name, ms))
    if state["engine"] is not None:
        state["engine"].close()

    command = "scripts/settle-suite.py " + " ".join(argv)
    text = HEADER.format(command=command, engine_name=engine_name, ms=ms)
    for league in sorted(set(kept) | set(dropped)):
        text += "# %s: %d kept, %d dropped\n" % (league, kept.get(league, 0), dropped.get(league, 0))
    text += "\n" + "\n".join(blocks)
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    for league in sorted(set(kept) | set(dropped)):
        print("%s: %d kept, %d dropped" % (league, kept.get(league, 0), dropped.get(league, 0)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
