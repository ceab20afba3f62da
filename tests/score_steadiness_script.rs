//! `scripts/score-steadiness.py`: the iteration-to-iteration swing of each
//! engine's root score, and wuzi's score beside the peer's one ply later,
//! from a gauntlet's `msgs.txt`.

mod script_support;

/// One game: wuzi searches move 6 to depth 12, the peer move 7 to depth 11,
/// in c-gomoku-cli's message format.
const MESSAGES: &str = "\
----------------------------------------
Game ID: 1
Engines: pbrain-rapfi x cand-wuzi
6) cand-wuzi: depth 9-9 | eval 900 | nodes 10 | speed 1 n/s | time 0 ms | pv h8
6) cand-wuzi: depth 10-12 | eval 100 | nodes 20 | speed 1 n/s | time 1 ms | pv h8
6) cand-wuzi: depth 11-12 | eval 140 | nodes 30 | speed 1 n/s | time 2 ms | pv h8
6) cand-wuzi: depth 12-14 | eval 120 | nodes 40 | speed 1 n/s | time 3 ms | pv h8
7) pbrain-rapfi: OptiTime 2857ms | MaxTime 8541ms
7) pbrain-rapfi: Depth 10-12 | Eval -50 | Time 0ms | J11 I10
7) pbrain-rapfi: Depth 11-12 | Eval -50 | Time 1ms | J11 I10
";

#[test]
fn swings_and_the_paired_scores_come_from_the_search_lines() {
    let out = script_support::run_on_records(
        "score-steadiness.py",
        "steady",
        &[],
        &[("msgs.txt", MESSAGES)],
    );
    let lines: Vec<&str> = out.lines().skip(1).collect();
    // Depth 9 is left out: the swings are 40 and 20, the sizes 100, 140, 120.
    assert_eq!(
        lines,
        [
            "  swing wuzi: median 30, mean 30 over 2; median |score| 120",
            "  swing peer: median 0, mean 0 over 1; median |score| 50",
            // Wuzi's last score, 120, beside the peer's -50 seen from wuzi's side.
            "  against: peer -100..100: wuzi median 120 (1)",
        ],
        "{out}"
    );
}
