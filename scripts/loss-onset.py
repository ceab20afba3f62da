#!/usr/bin/env python3
"""When wuzi's lost games were lost, from a gauntlet's records and search lines.

usage: scripts/loss-onset.py [--engine NAME] [--lead CP] RECORDS [RECORDS ...]

RECORDS is a folder that c-gomoku-cli filled through
../shared/tools/peers/gauntlet.sh (games.sgf and msgs.txt), or one that
`wuzi-match --sgf --msgs` filled. wuzi is the player whose name holds NAME
(default "wuzi"); the other is the peer. For each folder it prints:

  colours  wuzi's wins, losses and draws as Black and as White, and how many
           opening pairs (the same opening stones, both colours played) one
           colour won twice: a suite whose pairs mostly go to one colour
           scores near 50 % for any two engines;
  lead     who first stood CP (default 300) ahead by the peer's own score
           (the last search line of each of its moves; an announced win or
           loss counts), how those games ended, and at a median of how many
           stones: when the side that first leads nearly always wins,
           the games are decided by who gets ahead first, not by converting
           a lead;
  losses   for each game wuzi lost, the first of the peer's moves whose last
           search line announced a forced win, and wuzi's own score at its
           move before that: "seen" when it was -300 or lower (or a loss it
           announced itself), "unseen" when above; and how many plies after
           the peer's announcement wuzi announced its own loss (median).

A loss that wuzi had seen is a slide; an unseen one is a surprise, a
threat sequence its search did not read.
"""
import argparse
import importlib.util
import os
import statistics
import sys

# Records and message logs are read as scripts/forced-wins.py reads them.
HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("forced_wins", os.path.join(HERE, "forced-wins.py"))
forced_wins = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(forced_wins)

SEEN = -300


def last_lines(lines):
    """{ply: (name, text)}: the last search line of each move."""
    last = {}
    for ply, name, text in lines:
        if forced_wins.verdict(text) != "open" or forced_wins.plain_score(text) is not None:
            last[ply] = (name, text)
    return last


def onset(last, ours):
    """(the peer's first announcing ply, wuzi's verdict then, plies until wuzi's own)."""
    plies = sorted(last)
    peer_win = next(
        (ply for ply in plies if ours not in last[ply][0]
         and forced_wins.verdict(last[ply][1]) == "win"),
        None,
    )
    if peer_win is None:
        return None, None, None
    before = [ply for ply in plies if ply < peer_win and ours in last[ply][0]]
    seen = None
    if before:
        text = last[before[-1]][1]
        score = forced_wins.plain_score(text)
        seen = forced_wins.verdict(text) == "loss" or (score is not None and score <= SEEN)
    own_loss = next(
        (ply for ply in plies if ours in last[ply][0]
         and forced_wins.verdict(last[ply][1]) == "loss"),
        None,
    )
    lag = own_loss - peer_win if own_loss is not None else None
    return peer_win, seen, lag


def first_lead(last, ours, lead):
    """(wuzi leads, stones on the board) when the peer's score first leaves
    the window of +-lead, or None."""
    for ply in sorted(last):
        name, text = last[ply]
        if ours in name:
            continue
        score = forced_wins.line_score(text, lead)
        if score is not None and abs(score) >= lead:
            return score < 0, ply - 1
    return None


def report(folder, ours, lead):
    games, msgs = forced_wins.read_records(folder)
    messages = forced_wins.read_messages(msgs)
    results = {"B": [0, 0, 0], "W": [0, 0, 0]}
    pairs = {}
    seen = unseen = unknown = unannounced = 0
    lags = []
    # Who led first: wuzi's results in the games that wuzi led, then in
    # those the peer led, and the stones on the board when each lead began.
    leads = {True: [0, 0, 0], False: [0, 0, 0]}
    lead_stones = []
    for number, game in sorted(games.items()):
        colour = forced_wins.colour_of(game, ours)
        if colour is None:
            continue
        winner = forced_wins.winner(game)
        outcome = 2 if winner is None else (0 if ours in winner else 1)
        results[colour][outcome] += 1
        last = last_lines(messages.get(number, []))
        first = first_lead(last, ours, lead)
        if first is not None:
            leads[first[0]][outcome] += 1
            lead_stones.append(first[1])
        opening = tuple((m["x"], m["y"]) for m in game["moves"] if m["opening"])
        pairs.setdefault(opening, []).append(game["result"][:1] if winner else "D")
        if outcome != 1:
            continue
        peer_win, was_seen, lag = onset(last, ours)
        if peer_win is None:
            unannounced += 1
        elif was_seen is None:
            unknown += 1
        elif was_seen:
            seen += 1
        else:
            unseen += 1
        if lag is not None:
            lags.append(lag)
    both = [p for p in pairs.values() if len(p) == 2]
    one_colour = sum(1 for p in both if p[0] == p[1] and p[0] in "BW")
    print(folder)
    for colour, label in (("B", "Black"), ("W", "White")):
        won, lost, drawn = results[colour]
        print(f"  as {label}: won {won}, lost {lost}, drawn {drawn}")
    print(f"  opening pairs: {len(both)}, won by one colour both times: {one_colour}")
    if lead_stones:
        ours_led, theirs_led = leads[True], leads[False]
        print(
            f"  {lead} ahead first by the peer's score: wuzi in {sum(ours_led)} "
            f"(wuzi won {ours_led[0]}, lost {ours_led[1]}, drawn {ours_led[2]}), "
            f"the peer in {sum(theirs_led)} (wuzi won {theirs_led[0]}, lost {theirs_led[1]}, "
            f"drawn {theirs_led[2]}), at a median of {statistics.median(lead_stones):g} stones"
        )
    losses = results["B"][1] + results["W"][1]
    print(
        f"  losses: {losses}; the peer announced a win in {losses - unannounced}: "
        f"seen {seen}, unseen {unseen}, no score of wuzi's before {unknown}"
    )
    if lags:
        print(f"  wuzi announced its loss a median of {statistics.median(lags):g} plies later ({len(lags)})")


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--engine", default="wuzi")
    parser.add_argument("--lead", type=int, default=300)
    parser.add_argument("folders", nargs="+")
    args = parser.parse_args(argv)
    for folder in args.folders:
        report(folder, args.engine, args.lead)


if __name__ == "__main__":
    main(sys.argv[1:])
