#!/usr/bin/env python3
"""Tunes the search's selectivity (src/search/pruning.rs) by SPSA in node-limited self-play.

usage: scripts/spsa.py RULE OPENINGS ITERATIONS LOG [--nodes N] [--hold NAMES] [--engine BIN] [--match BIN]

BIN is a build with the `knobs` feature (cargo build --release --features knobs), which reads the
numbers below from the environment. Each iteration perturbs every number by +c or -c at random,
plays two random openings of OPENINGS twice (colours swapped) between the two versions, and moves
each number by A * c * (wins - losses) / 4 in the direction of the winner. Every tenth iteration
appends the iteration, the running (wins, losses, draws) and the numbers to LOG as one line of JSON.
--hold leaves the named numbers (comma-separated) at the build's own values: those whose worth a
node-limited game misjudges, such as the branch width, which timed games need wider.
Numbers whose final value lies within about half of c of the start are noise; keep only those
that moved, and confirm them in a match against the build before (docs/search.md).
"""
import argparse, json, os, random, re, subprocess, tempfile

# name, start for freestyle/standard and for renju (the shipped numbers of pruning.rs: update both
# together), c, lowest, highest (units as the engine reads them)
KNOBS = [
    ("LMR_DIV", 108, 116, 25, 90, 250), ("MC_BASE", 31, 22, 8, 10, 80), ("MC_EXP", 131, 122, 12, 90, 180),
    ("BRANCH_BASE", 4, 5, 2, 3, 12), ("BRANCH_STEP", 1, 1, 1, 1, 4), ("BRANCH_DEPTH", 14, 14, 3, 5, 20),
    ("RFP_MARGIN", 65, 80, 15, 30, 150),
    ("RFP_DEPTH", 5, 7, 2, 3, 10), ("FUT1", 226, 272, 60, 60, 700), ("FUT2", 568, 566, 100, 150, 1200),
    ("SE_MARGIN", 7, 11, 4, 2, 40), ("KILLER", 268, 264, 100, 0, 800), ("LEAF_VCF", 8, 8, 32, 0, 400),
    ("RAZOR1", 185, 245, 60, 50, 600), ("RAZOR2", 436, 474, 100, 100, 900),
]
# not in renju: the fail-high reduction and ProbCut
FAIL_HIGH = [("FH_MARGIN", 11, 5, 0, 60), ("FH_BASE", -2, 12, -50, 80), ("PC_MARGIN", 60, 20, 10, 250)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    release = os.path.join(here, "..", "target", "release")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rule", help="freestyle, standard or renju")
    ap.add_argument("openings")
    ap.add_argument("iterations", type=int)
    ap.add_argument("log")
    ap.add_argument("--nodes", type=int, default=30000)
    ap.add_argument("--hold", default="", help="comma-separated names left as the build has them")
    ap.add_argument("--engine", default=os.path.join(release, "pbrain-wuzi"))
    ap.add_argument("--match", default=os.path.join(release, "wuzi-match"))
    ap.add_argument("--rate", type=float, default=0.06, help="A, the step per unit of c")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    renju = args.rule == "renju"
    knobs = [(n, r if renju else f, c, lo, hi) for n, f, r, c, lo, hi in KNOBS]
    if not renju:
        knobs += FAIL_HIGH
    held = set(filter(None, args.hold.split(",")))
    unknown = held - {n for n, *_ in knobs}
    if unknown:
        ap.error(f"no such number for {args.rule}: {', '.join(sorted(unknown))}")
    knobs = [k for k in knobs if k[0] not in held]
    theta = {n: float(s) for n, s, *_ in knobs}
    openings = [line for line in open(args.openings) if line.strip()]
    work = tempfile.mkdtemp(prefix="spsa-")
    log = open(args.log, "a")
    total = [0, 0, 0]

    def engine(name, values):
        path = os.path.join(work, name)
        env = " ".join(f"{k}={round(v)}" for k, v in values.items())
        with open(path, "w") as f:
            f.write(f'#!/bin/sh\nexec env {env} {args.engine} "$@"\n')
        os.chmod(path, 0o755)
        return path

    for k in range(args.iterations):
        sign = {n: rng.choice((-1, 1)) for n, *_ in knobs}
        plus = {n: min(max(theta[n] + c * sign[n], lo), hi) for n, _, c, lo, hi in knobs}
        minus = {n: min(max(theta[n] - c * sign[n], lo), hi) for n, _, c, lo, hi in knobs}
        chosen = os.path.join(work, "openings.txt")
        with open(chosen, "w") as f:
            f.writelines(rng.sample(openings, 2))
        run = subprocess.run(
            [args.match, "--engine1", engine("plus", plus), "--engine2", engine("minus", minus),
             "--info1", f"max_node={args.nodes}", "--info2", f"max_node={args.nodes}", "--turn", "0",
             "--rule", args.rule, "--openings", chosen, "--games", "4", "--concurrency", "1"],
            capture_output=True, text=True)
        score = re.search(r"^plus\s+\d+\s+(\d+)\s+(\d+)\s+(\d+)", run.stdout + run.stderr, re.M)
        if not score:
            print("no result:", (run.stdout + run.stderr)[-300:], file=log, flush=True)
            continue
        wins, losses, draws = map(int, score.groups())
        total = [total[0] + wins, total[1] + losses, total[2] + draws]
        for n, _, c, lo, hi in knobs:
            theta[n] = min(max(theta[n] + args.rate * c * (wins - losses) / 4 * sign[n], lo), hi)
        if k % 10 == 0 or k == args.iterations - 1:
            numbers = {n: round(v, 1) for n, v in theta.items()}
            print(json.dumps({"iteration": k, "games": total, "numbers": numbers}), file=log, flush=True)


if __name__ == "__main__":
    main()
