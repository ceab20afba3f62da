#!/usr/bin/env python3
"""Candidate "find the win" / "find the defence" positions from gauntlet games.

usage: scripts/forced-wins.py [options] RECORDS [RECORDS ...]

RECORDS is a folder that c-gomoku-cli filled (games.sgf and msgs.txt, as
../shared/tools/peers/gauntlet.sh writes them) or that wuzi-match filled
(--sgf DIR with game-NNNN.sgf and --msgs DIR/msgs.txt), or a games.sgf file
with msgs.txt beside it.

For every game the script finds the first move at which an engine other than
ours announced a forced win in its search lines, and emits:

  win      the position that engine was to move in, with the engine to move:
           "find the win". The move it played is the first candidate.
  defence  the position one move earlier, with the loser to move: "find the
           defence". The loser's move there let the forced win in; whether
           another move holds is not known until it is settled.

A win counts only if the announcing engine went on to win the game (unless
--unconfirmed), and positions repeated across games are emitted once.

What counts as an announcement (the engines' own words in msgs.txt):
  +M<n>            Rapfi ("Eval +M25"), wuzi ("eval +M7"): mate in n plies
  ev +v<n>         PentaZen ("ev +v16"). Its depth is a raw byte, so some of
                   its lines arrive broken in two; c-gomoku-cli keeps only the
                   part that starts with MESSAGE, and an announcement in the
                   other part is missed.
  VCF success!     AIWine; VCT success! too (no distance)

msgs.txt, as c-gomoku-cli writes it (src/main.cpp, src/engine.cpp): per game a
line of dashes, "Game ID: N", "Engines: BLACK x WHITE", then "PLY) NAME: TEXT"
for each MESSAGE, where PLY is the number of the stone the engine was asked for
(opening stones counted, 1-based). The engines' raw bytes are kept, so lines
are split on LF only. wuzi-match --msgs writes the same layout, with extra
"PLY) NAME ignored (WHY): TEXT" lines for the lines it ignored, which are
read here as that engine's words (the pieces of PentaZen's broken lines).

Options:
  --ours REGEX      names of our engine, whose announcements do not count
                    (default: wuzi)
  --unconfirmed     keep announcements by an engine that did not win the game
  --kind win|defence|both   which positions to emit (default both)
  --score-before-under CP   keep a game's positions only if the announcing
                    engine's last search line at its move before carries a
                    plain score (Rapfi "Eval 120", wuzi "eval 120") below CP:
                    the win came after a move, not from a position that
                    engine already judged won
  --settle CMD      ask the pbrain engine CMD (a peer, or pbrain-wuzi with a
                    deep search) for its move in each position and add it as
                    "engine-move", with its last search line and its verdict
                    for the side to move: "engine-verdict win|loss|open" (a
                    defence whose verdict is "loss" has none the engine sees)
  --ms MS           time per position for --settle (default 5000)
  --memory BYTES    INFO max_memory for --settle (default 67108864: Rapfi
                    allocates its whole hash at every START otherwise)
  -o FILE           write the positions to FILE instead of stdout

The right moves are not settled here: --settle gives one engine's move, and
a position may have several winning moves, or (for a defence) none. Fill
"right" once, with a deeper search or the peer, before a test uses the block.

Output: one block per position, blank lines between, '#' lines are comments:

  position win
  rule 0
  size 15
  source base-rapfi-f15 game 3 ply 33
  announced pbrain-rapfi +M25 at ply 33: Depth 12-27 | Eval +M25 | ...
  played 3,14            (x,y of the move made in the game at this point)
  right ?                (to settle: the right moves, x,y separated by spaces)
  moves h8 i9 ...        (the game up to here; letter = x, number = y+1)
  . . . X O . . .        (the board: rows top to bottom are y = 0.., X Black,
  ...                     O White; the side to move follows from the counts)

Only the standard library is used.
"""
import os
import re
import subprocess
import sys
import threading
import queue
import time

RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}


# ---------------------------------------------------------------- records


def sgf_games(text):
    """Yields dicts with the header properties and the moves of every game."""
    for chunk in re.findall(r"\(;(.*?)\)\s*(?=\(;|$)", text, re.S):
        props = {}
        for key, value in re.findall(r"(?<![A-Z])([A-Z]{2})\[((?:[^\]\\]|\\.)*)\]", chunk):
            props.setdefault(key, value)
        moves = []
        for colour, point, comment in re.findall(
            r";([BW])\[([a-z]{2})\](?:C\[((?:[^\]\\]|\\.)*)\])?", chunk
        ):
            x, y = ord(point[0]) - 97, ord(point[1]) - 97
            moves.append({"colour": colour, "x": x, "y": y, "opening": comment == "opening move"})
        size = props.get("SZ", "15").split(":")[0]
        yield {
            "gn": props.get("GN", ""),
            "round": props.get("RO", ""),
            "rule": int(props.get("RU", "0") or 0),
            "size": int(size),
            "black": props.get("PB", ""),
            "white": props.get("PW", ""),
            "result": props.get("RE", ""),
            "moves": moves,
        }


def game_number(game, fallback):
    """c-gomoku-cli: GN is the game id; wuzi-match: RO is."""
    for key in ("gn", "round"):
        if re.fullmatch(r"\d+", game[key]):
            return int(game[key])
    return fallback


def read_records(path):
    """(games by number, the msgs.txt path) for a folder or a .sgf file."""
    if os.path.isdir(path):
        sgf_files = []
        if os.path.exists(os.path.join(path, "games.sgf")):
            sgf_files = [os.path.join(path, "games.sgf")]
        else:
            for sub in (path, os.path.join(path, "sgf")):
                if os.path.isdir(sub):
                    sgf_files += sorted(
                        os.path.join(sub, f) for f in os.listdir(sub) if f.endswith(".sgf")
                    )
        msgs = os.path.join(path, "msgs.txt")
    else:
        sgf_files = [path]
        msgs = os.path.join(os.path.dirname(path) or ".", "msgs.txt")
    games = {}
    for file in sgf_files:
        with open(file, encoding="utf-8", errors="replace") as f:
            for game in sgf_games(f.read()):
                games[game_number(game, len(games) + 1)] = game
    return games, msgs


MSG_LINE = re.compile(r"^(\d+)\) (.*?): (.*)$")
IGNORED_NAME = re.compile(r" ignored \([^)]*\)$")


def read_messages(path):
    """{game id: [(ply, name, text)]} from a msgs.txt, raw bytes tolerated."""
    messages = {}
    if not os.path.exists(path):
        return messages
    with open(path, "rb") as f:
        data = f.read()
    current = None
    for raw in data.split(b"\n"):
        line = raw.decode("utf-8", errors="replace").rstrip("\r")
        if line.startswith("Game ID:"):
            current = int(line.split(":", 1)[1])
            messages[current] = []
            continue
        match = MSG_LINE.match(line)
        if current is None or not match:
            continue  # dashes, "Engines:", a broken piece of a line
        ply, name, text = int(match.group(1)), match.group(2), match.group(3)
        # wuzi-match keeps the pieces of broken lines: PentaZen's
        # announcement may be in the piece after its raw depth byte.
        name = IGNORED_NAME.sub("", name)
        messages[current].append((ply, name, text))
    return messages


ANNOUNCEMENTS = [
    re.compile(r"(?<![A-Za-z])\+M(\d+)"),  # Rapfi, wuzi
    re.compile(r"\bev \+v(\d+)"),  # PentaZen
    re.compile(r"VC[FT] success()"),  # AIWine
]


LOSSES = [
    re.compile(r"(?<![A-Za-z])-M(\d+)"),  # Rapfi, wuzi
    re.compile(r"\bev -v(\d+)"),  # PentaZen
]


def verdict(text):
    """What a search line says of the side to move: win, loss or open."""
    if announced(text) is not None:
        return "win"
    if any(pattern.search(text) for pattern in LOSSES):
        return "loss"
    return "open"


SCORES = [re.compile(r"\b[Ee]val (-?\d+)\b")]  # Rapfi, wuzi


def plain_score(text):
    """The plain (not mate) score a search line gives, or None."""
    for pattern in SCORES:
        match = pattern.search(text)
        if match:
            return int(match.group(1))
    return None


def line_score(text, mate):
    """A search line's score for its side to move, an announced win or loss
    counting as +/-mate; None when it gives neither."""
    return {"win": mate, "loss": -mate}.get(verdict(text), plain_score(text))


def announced(text):
    """The announced mate distance ('' when the engine gives none), or None."""
    for pattern in ANNOUNCEMENTS:
        match = pattern.search(text)
        if match:
            return match.group(1)
    return None


def printable(text):
    return "".join(c if c.isprintable() else "\\x%02x" % ord(c) if ord(c) < 128 else c for c in text)


# ---------------------------------------------------------------- positions


def notation(move):
    return "%s%d" % (chr(97 + move["x"]), move["y"] + 1)


def diagram(size, moves):
    cells = [["." for _ in range(size)] for _ in range(size)]
    for move in moves:
        cells[move["y"]][move["x"]] = "X" if move["colour"] == "B" else "O"
    return "\n".join(" ".join(row) for row in cells)


def colour_of(game, ours):
    """"B" or "W": the colour of the player whose name holds `ours`, or None."""
    if ours in game["black"]:
        return "B"
    if ours in game["white"]:
        return "W"
    return None


def winner(game):
    result = game["result"]
    if result.startswith("B+"):
        return game["black"]
    if result.startswith("W+"):
        return game["white"]
    return None


def candidates(source, games, messages, ours, unconfirmed, kinds, under=None):
    """Yields position blocks (dicts) for one records folder."""
    for number in sorted(games):
        game = games[number]
        moves = game["moves"]
        names = {game["black"], game["white"]}
        first = None
        for ply, name, text in messages.get(number, []):
            if name not in names or ours.search(name):
                continue
            distance = announced(text)
            if distance is not None:
                first = (ply, name, text, distance)
                break
        if first is None:
            continue
        ply, name, text, distance = first
        if winner(game) != name and not unconfirmed:
            continue
        if under is not None:
            said = [plain_score(t) for p, n, t in messages.get(number, []) if p == ply - 2 and n == name]
            if not said or said[-1] is None or said[-1] >= under:
                continue
        before = ply - 1  # stones on the board when the engine was asked
        if before >= len(moves):
            continue
        colour = "B" if before % 2 == 0 else "W"
        if (game["black"] if colour == "B" else game["white"]) != name:
            continue  # the message does not fit the record
        loser = game["white"] if colour == "B" else game["black"]
        common = {
            "rule": game["rule"],
            "size": game["size"],
            "source": "%s game %d" % (source, number),
            "announced": "%s %s at ply %d: %s"
            % (name, ("+M" + distance) if distance else "win", ply, printable(text)),
        }
        if "win" in kinds:
            yield dict(
                common,
                kind="win",
                ply=ply,
                to_move=name,
                played=moves[before],
                moves=moves[:before],
            )
        if "defence" in kinds and before >= 1 and not moves[before - 1]["opening"]:
            said = [t for p, n, t in messages.get(number, []) if p == ply - 1 and n == loser]
            yield dict(
                common,
                said=printable(said[-1]) if said else "",
                kind="defence",
                ply=ply - 1,
                to_move=loser,
                played=moves[before - 1],
                moves=moves[: before - 1],
                note="%s's move here let the win in; whether another move holds is not settled"
                % loser,
            )


# ---------------------------------------------------------------- settling


class Engine:
    """A pbrain engine on pipes, just enough to ask for one move."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=os.path.dirname(command.split()[0]) or None,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read(self, deadline):
        try:
            return self.lines.get(timeout=max(0.0, deadline - time.time()))
        except queue.Empty:
            return None

    def start(self, size, pause=0.2):
        """START SIZE until the engine answers OK; False if it does not.
        Rapfi drops what it reads while its search winds down, even after
        the move: a START may lose its first word. Ask again on an ERROR,
        `pause` seconds later."""
        for _ in range(5):
            self.send("START %d" % size)
            deadline = time.time() + 30
            line = ""
            while line is not None and line.strip() != "OK" and not line.startswith("ERROR"):
                line = self.read(deadline)
            if line is None:
                return False
            if line.strip() == "OK":
                return True
            time.sleep(pause)
        return False

    def best_move(self, position, ms, memory, blocked=(), nodes=None):
        """(x, y, last MESSAGE) for the position, or None. `blocked` root
        moves (x, y) are sent as YXBLOCK, which Rapfi and wuzi honour.
        With `nodes` the search stops there (`INFO max_node`; give `ms` 0
        for no time limit)."""
        if not self.start(position["size"]):
            return None
        self.send("INFO max_memory %d" % memory)
        self.send("INFO rule %d" % position["rule"])
        self.send("INFO timeout_turn %d" % ms)
        self.send("INFO timeout_match 0")
        self.send("INFO time_left 2147483647")
        if nodes is not None:
            self.send("INFO max_node %d" % nodes)
        self.send("YXBLOCKRESET")
        if blocked:
            self.send("YXBLOCK")
            for x, y in blocked:
                self.send("%d,%d" % (x, y))
            self.send("DONE")
        self.send("BOARD")
        mover = "B" if len(position["moves"]) % 2 == 0 else "W"
        for move in position["moves"]:
            self.send("%d,%d,%d" % (move["x"], move["y"], 1 if move["colour"] == mover else 2))
        self.send("DONE")
        deadline = time.time() + ms / 1000.0 + (30 if nodes is None else 600)
        last = ""
        while True:
            line = self.read(deadline)
            if line is None:
                return None
            match = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*", line)
            if match:
                return int(match.group(1)), int(match.group(2)), last
            if line.upper().startswith("MESSAGE "):
                last = line[8:]

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=2)
        except Exception:
            self.proc.kill()


# ---------------------------------------------------------------- output


def block(position):
    played = position["played"]
    lines = [
        "position %s" % position["kind"],
        "rule %d" % position["rule"],
        "size %d" % position["size"],
        "source %s ply %d" % (position["source"], position["ply"]),
        "announced %s" % position["announced"],
        "to-move %s (%s)"
        % (position["to_move"], "X" if len(position["moves"]) % 2 == 0 else "O"),
        "played %d,%d" % (played["x"], played["y"]),
    ]
    if "note" in position:
        lines.append("# " + position["note"])
    if position.get("said"):
        lines.append("# %s's last line there: %s" % (position["to_move"], position["said"]))
    if "engine_move" in position:
        x, y, message = position["engine_move"]
        lines.append("engine-move %d,%d" % (x, y))
        lines.append("engine-verdict %s" % verdict(message))
        lines.append("# engine's last line: %s" % printable(message))
    lines.append("right ?")
    lines.append("moves %s" % " ".join(notation(m) for m in position["moves"]))
    lines.append(diagram(position["size"], position["moves"]))
    return "\n".join(lines) + "\n"


def main(argv):
    ours = re.compile("wuzi")
    unconfirmed = False
    kinds = {"win", "defence"}
    settle = None
    under = None
    ms = 5000
    memory = 64 << 20
    out = None
    sources = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            print(__doc__)
            return 0
        if arg == "--ours":
            ours = re.compile(args.pop(0))
        elif arg == "--unconfirmed":
            unconfirmed = True
        elif arg == "--kind":
            value = args.pop(0)
            kinds = {"win", "defence"} if value == "both" else {value}
        elif arg == "--score-before-under":
            under = int(args.pop(0))
        elif arg == "--settle":
            settle = args.pop(0)
        elif arg == "--ms":
            ms = int(args.pop(0))
        elif arg == "--memory":
            memory = int(args.pop(0))
        elif arg == "-o":
            out = args.pop(0)
        elif arg.startswith("-"):
            print("unknown option %s (see --help)" % arg, file=sys.stderr)
            return 2
        else:
            sources.append(arg)
    if not sources:
        print(__doc__)
        return 2

    positions = []
    seen = set()
    counts = {}
    for path in sources:
        games, msgs = read_records(path)
        messages = read_messages(msgs)
        source = os.path.basename(os.path.normpath(path if os.path.isdir(path) else os.path.dirname(path) or "."))
        for position in candidates(source, games, messages, ours, unconfirmed, kinds, under):
            key = (
                position["kind"],
                position["rule"],
                position["size"],
                frozenset((m["x"], m["y"], m["colour"]) for m in position["moves"]),
            )
            if key in seen:
                continue
            seen.add(key)
            positions.append(position)
            league = "%s %d %s" % (RULE_NAMES.get(position["rule"], position["rule"]), position["size"], position["kind"])
            counts[league] = counts.get(league, 0) + 1

    lost = {}
    if settle:
        engine = Engine(settle)
        for position in positions:
            answer = engine.best_move(position, ms, memory)
            if answer is None:
                engine.close()
                engine = Engine(settle)
                continue
            position["engine_move"] = answer
            if position["kind"] == "defence" and verdict(answer[2]) == "loss":
                league = "%s %d defence" % (
                    RULE_NAMES.get(position["rule"], position["rule"]),
                    position["size"],
                )
                lost[league] = lost.get(league, 0) + 1
        engine.close()

    text = "# candidates from %s\n" % " ".join(sources)
    for league in sorted(counts):
        text += "# %s: %d\n" % (league, counts[league])
    text += "\n" + "\n".join(block(p) for p in positions)
    if out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    for league in sorted(counts):
        already = " (%d already lost for the engine)" % lost[league] if league in lost else ""
        print(
            "%s: %d%s" % (league, counts[league], already),
            file=sys.stderr if not out else sys.stdout,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
