#!/usr/bin/env python3
"""A scripted pbrain engine for the match runner's tests.

It plays the first empty point of its move list (`--moves x,y;x,y;...`;
`--moves-white` replaces it when it plays White, i.e. when an odd number of
stones is on the board), or, without a list, the empty point nearest the centre. Options make it misbehave
on purpose on its N-th move request (1-based, counted per process):

  --crash-at N        exit without answering
  --crash-once FILE   exit on the first request if FILE does not exist (then create it)
  --hang-at N         sleep 60 s instead of answering
  --occupied-at N     answer with a point that already holds a stone
  --offboard-at N     answer 99,99
  --garbage-at N      answer 'hello there' and nothing else
  --no-ok             never answer START
  --error-start       answer START with 'ERROR no thanks'
  --chatty            send MESSAGE, DEBUG and UNKNOWN lines before every move
  --noisy             send lines that are no move before every move: PentaZen's
                      MESSAGE broken by a raw depth byte 10 (0x0A), control
                      characters, bytes that are not UTF-8, plain garbage
  --slow MS           sleep MS before every move
  --eval N            report a score of N (Rapfi's "Eval N") before every move
  --wins-after X,Y    announce a win (Rapfi's "Eval +M3") before every move
                      made while a stone stands on X,Y (after --eval's line)
  --busy-after-move MS
                      like Rapfi, which clears its busy flag only after it has
                      printed its move: a command that comes within MS of a
                      move (counted from just before the move is printed)
                      loses its first word, and the rest is answered as an
                      unknown command; a TURN so lost is never answered
  --busy-start-after-move MS
                      the same for START alone, as a loaded machine can
                      stretch the busy spell past the runner's pause
  --log FILE          append every command received to FILE
"""
import sys
import time
import os


def main():
    args = sys.argv[1:]
    opts = {}
    flags = set()
    i = 0
    while i < len(args):
        if args[i] in ("--no-ok", "--error-start", "--chatty", "--noisy"):
            flags.add(args[i])
            i += 1
        else:
            opts[args[i]] = args[i + 1]
            i += 2
    log = open(opts["--log"], "a") if "--log" in opts else None
    def move_list(option):
        text = opts.get(option, "")
        return [tuple(int(v) for v in m.split(",")) for m in text.split(";") if m]

    moves = move_list("--moves")
    moves_white = move_list("--moves-white") or moves
    width = height = 15
    stones = set()
    requests = 0
    in_board = False
    moved_at = None

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def say_bytes(data):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()

    def at(option):
        return option in opts and int(opts[option]) == requests

    def answer():
        nonlocal requests, moved_at
        requests += 1
        if at("--crash-at"):
            sys.exit(3)
        if "--crash-once" in opts and requests == 1 and not os.path.exists(opts["--crash-once"]):
            open(opts["--crash-once"], "w").close()
            sys.exit(3)
        if at("--hang-at"):
            time.sleep(60)
        if "--slow" in opts:
            time.sleep(int(opts["--slow"]) / 1000.0)
        if "--eval" in opts:
            say("MESSAGE Depth 3-3 | Eval %s | Time 1ms" % opts["--eval"])
        if "--wins-after" in opts:
            if tuple(int(v) for v in opts["--wins-after"].split(",")) in stones:
                say("MESSAGE Depth 3-3 | Eval +M3 | Time 1ms")
        if "--chatty" in flags:
            say("MESSAGE thinking hard")
            say("DEBUG depth 1")
            say("UNKNOWN whatever")
        if "--noisy" in flags:
            # PentaZen: "MESSAGE dep " << int8 depth << "-" << int8 seldepth ...
            say_bytes(b"MESSAGE dep \x0a-\x0c ev 34 nd 12k tm 150 sp 80\n")
            say_bytes(b"\x01\x02\x1b[0m\n")
            say_bytes(b"7,\x077\n")
            say_bytes(b"\xff\xfe 3,3\r\n")
            say_bytes(b"MESSAGE caf\xe9 latin-1\n")
            say("hello there")
            say("7,7,7")
            say("")
        if at("--occupied-at") and stones:
            x, y = sorted(stones)[0]
            say(f"{x},{y}")
            return
        if at("--offboard-at"):
            say("99,99")
            return
        if at("--garbage-at"):
            say("hello there")
            return
        mine = moves_white if len(stones) % 2 == 1 else moves
        candidates = [m for m in mine if m not in stones]
        if not candidates:
            cx, cy = width // 2, height // 2
            cells = [(x, y) for y in range(height) for x in range(width) if (x, y) not in stones]
            cells.sort(key=lambda p: (max(abs(p[0] - cx), abs(p[1] - cy)), p[1], p[0]))
            candidates = cells
        move = candidates[0]
        stones.add(move)
        moved_at = time.monotonic()
        say(f"{move[0]},{move[1]}")

    for raw in sys.stdin:
        line = raw.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        word = line.split(" ")[0].upper()
        if in_board:
            if word == "DONE":
                in_board = False
                answer()
            else:
                x, y, _ = (int(v) for v in line.split(","))
                stones.add((x, y))
            continue
        busy_ms = int(opts.get("--busy-after-move", 0))
        if word in ("START", "RECTSTART"):
            busy_ms = max(busy_ms, int(opts.get("--busy-start-after-move", 0)))
        if word != "END" and moved_at is not None and (time.monotonic() - moved_at) * 1000 < busy_ms:
            say("ERROR Unknown command: " + " ".join(line.split()[1:]))
            continue
        if word in ("START", "RECTSTART"):
            if "--no-ok" in flags:
                continue
            if "--error-start" in flags:
                say("ERROR no thanks")
                continue
            size = line.split(" ")[1]
            if "," in size:
                width, height = (int(v) for v in size.split(","))
            else:
                width = height = int(size)
            stones = set()
            say("OK")
        elif word == "BEGIN":
            answer()
        elif word == "TURN":
            x, y = (int(v) for v in line.split(" ")[1].split(","))
            stones.add((x, y))
            answer()
        elif word == "BOARD":
            in_board = True
        elif word == "END":
            return


if __name__ == "__main__":
    main()
