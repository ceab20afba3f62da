//! `scripts/depth-by-nodes.py`: the depth an engine's last search line
//! reports at each node budget, over the positions every engine searched.

mod script_support;

/// One freestyle game of ten stones. After four stones Black is to move in a
/// quiet position; after seven White faces Black's four (x 7 to 10 on row
/// 7, blocked at x 6) and answers at once, without a search line; nine
/// stones is within two of the end.
const RECORDS: &str = "\
(;FF[4]GM[4]RO[1]RU[0]SZ[15]PB[a]PW[b]RE[B+1]\
;B[hh];W[ii];B[ih];W[gh];B[jh];W[ji];B[kh];W[lh];B[hg];W[hj])
";

#[test]
fn depths_come_from_the_last_search_line_of_the_positions_every_budget_searched() {
    let engine = env!("CARGO_BIN_EXE_pbrain-wuzi");
    let out = script_support::run_on_records(
        "depth-by-nodes.py",
        "depth-by-nodes",
        &[
            "--engine",
            engine,
            "--nodes",
            "2000,40000",
            "--plies",
            "4,7,9",
            "--games",
            "1",
        ],
        &[("game-0001.sgf", RECORDS)],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "positions: 1 of 2 (every engine printed a depth at every budget)",
        "{out}"
    );
    assert_eq!(lines.len(), 3, "{out}");
    let depth = |line: &str, nodes: &str| -> u32 {
        assert!(line.starts_with("pbrain-wuzi"), "{line}");
        assert!(line.contains(&format!(" {nodes} nodes ")), "{line}");
        assert!(line.contains("by ply 4: "), "{line}");
        let after = line.split("median depth ").nth(1).unwrap();
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    let shallow = depth(lines[1], "2000");
    let deep = depth(lines[2], "40000");
    assert!(shallow >= 2 && deep > shallow, "{out}");
}
