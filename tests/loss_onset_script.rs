//! `scripts/loss-onset.py`: wuzi's results by colour, the opening pairs one
//! colour won twice, and for each loss whether wuzi's own score had seen it
//! coming when the peer first announced a forced win; and who first led by
//! 300 in the peer's own score, with how those games ended.

mod script_support;

/// Two openings (three stones each), each played twice with colours
/// swapped: the peer wins both games of the first, White both of the second.
const RECORDS: &str = "\
(;FF[4]GM[4]GN[1]RU[0]SZ[15]PB[cand-wuzi]PW[pbrain-rapfi]RE[W+1]\
;B[hh]C[opening move];W[hi]C[opening move];B[ih]C[opening move]\
;W[gh]C[10ms];B[jh]C[10ms];W[ii]C[10ms];B[kh]C[10ms];W[ji]C[10ms])
(;FF[4]GM[4]GN[2]RU[0]SZ[15]PB[pbrain-rapfi]PW[cand-wuzi]RE[B+1]\
;B[hh]C[opening move];W[hi]C[opening move];B[ih]C[opening move]\
;W[gh]C[10ms];B[jh]C[10ms];W[ii]C[10ms])
(;FF[4]GM[4]GN[3]RU[0]SZ[15]PB[cand-wuzi]PW[pbrain-rapfi]RE[W+1]\
;B[dd]C[opening move];W[de]C[opening move];B[ed]C[opening move]\
;W[cd]C[10ms];B[fd]C[10ms])
(;FF[4]GM[4]GN[4]RU[0]SZ[15]PB[pbrain-rapfi]PW[cand-wuzi]RE[W+1]\
;B[dd]C[opening move];W[de]C[opening move];B[ed]C[opening move]\
;W[cd]C[10ms];B[fd]C[10ms])
";

/// Game 1: wuzi (Black) scores itself -50 at move 7, the peer announces a
/// win at move 8, wuzi its loss at move 9: unseen, a ply later. Game 2:
/// wuzi (White) scores -400 at move 5 before the peer's announcement at
/// move 6: seen, and wuzi never announces its loss. Game 4: the peer's
/// last line at move 5 scores it -350, so wuzi (who wins) led first.
const MESSAGES: &str = "\
----------------------------------------
Game ID: 1
Engines: cand-wuzi x pbrain-rapfi
5) cand-wuzi: depth 9-9 | eval 20 | nodes 10 | speed 1 n/s | time 0 ms | pv h8
6) pbrain-rapfi: Depth 10-12 | Eval 30 | Time 0ms | J11 I10
7) cand-wuzi: depth 9-9 | eval -400 | nodes 10 | speed 1 n/s | time 0 ms | pv h8
7) cand-wuzi: depth 10-12 | eval -50 | nodes 20 | speed 1 n/s | time 1 ms | pv h8
8) pbrain-rapfi: Depth 10-12 | Eval 120 | Time 0ms | J11 I10
8) pbrain-rapfi: Depth 11-13 | Eval +M9 | Time 1ms | J11 I10
9) cand-wuzi: depth 10-12 | eval -M8 | nodes 20 | speed 1 n/s | time 1 ms | pv h8
----------------------------------------
Game ID: 2
Engines: pbrain-rapfi x cand-wuzi
4) pbrain-rapfi: Depth 10-12 | Eval 200 | Time 0ms | J11 I10
5) cand-wuzi: depth 10-12 | eval -400 | nodes 20 | speed 1 n/s | time 1 ms | pv h8
6) pbrain-rapfi: Depth 12-14 | Eval +M5 | Time 1ms | J11 I10
----------------------------------------
Game ID: 4
Engines: pbrain-rapfi x cand-wuzi
5) pbrain-rapfi: Depth 10-12 | Eval -290 | Time 0ms | J11 I10
5) pbrain-rapfi: Depth 11-13 | Eval -350 | Time 1ms | J11 I10
";

#[test]
fn losses_are_split_by_whether_wuzi_had_seen_them() {
    let out = script_support::run_on_records(
        "loss-onset.py",
        "onset",
        &["--engine", "cand-wuzi"],
        &[("games.sgf", RECORDS), ("msgs.txt", MESSAGES)],
    );
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            "  as Black: won 0, lost 2, drawn 0",
            "  as White: won 1, lost 1, drawn 0",
            "  opening pairs: 2, won by one colour both times: 1",
            // The peer led first in games 1 (at move 8, on its announced
            // win; its 120 is inside the window) and 2 (move 6), wuzi in
            // game 4 (move 5, its last line, not the -290 before it).
            "  300 ahead first by the peer's score: wuzi in 1 (wuzi won 1, lost 0, drawn 0), \
             the peer in 2 (wuzi won 0, lost 2, drawn 0), at a median of 5 stones",
            // Game 1's last score before move 8 is depth 10's -50, not -400;
            // game 3 has no search lines, so no announcement.
            "  losses: 3; the peer announced a win in 2: seen 1, unseen 1, no score of wuzi's before 0",
            "  wuzi announced its loss a median of 1 plies later (1)",
        ],
        "{out}"
    );
}
