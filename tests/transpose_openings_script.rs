//! `scripts/transpose-openings.py`: a suite mirrored along the board's
//! diagonal, each stone's x and y swapped, or under another of the board's
//! symmetries, for control runs.

mod script_support;

fn transposed(suite: &str, tag: &str) -> (bool, String, String) {
    under(&[], suite, tag)
}

/// The script run with `options` before the suite's file.
fn under(options: &[&str], suite: &str, tag: &str) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("wuzi-transpose-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("suite.txt");
    std::fs::write(&file, suite).unwrap();
    let args: Vec<&str> = options
        .iter()
        .copied()
        .chain([file.to_str().unwrap()])
        .collect();
    let result = script_support::run_script("transpose-openings.py", &args);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[test]
fn every_stone_is_mirrored_and_the_comments_are_kept() {
    let suite = "# renju, White to move\n-3,1, -1,-1, 2,0\n\n0,0,1,-2\n";
    let (ok, out, err) = transposed(suite, "mirror");
    assert!(ok, "{out}{err}");
    assert_eq!(
        out,
        "# renju, White to move\n1,-3, -1,-1, 0,2\n\n0,0, -2,1\n"
    );
}

#[test]
fn twice_transposed_is_the_suite_again() {
    let suite = "-3,3, -3,1, -1,-1, -3,-3, -1,-3\n3,2, 3,3, 1,3\n";
    let (ok, once, _) = transposed(suite, "once");
    assert!(ok);
    let (ok, twice, _) = transposed(&once, "twice");
    assert!(ok);
    assert_eq!(twice, suite);
}

#[test]
fn a_stone_without_its_second_offset_is_refused_with_its_line() {
    let (ok, _, err) = transposed("0,0, 1,1\n2,3, 4\n", "odd");
    assert!(!ok);
    assert!(err.contains(":2: an odd number of offsets"), "{err}");
}

#[test]
fn each_symmetry_moves_a_stone_where_it_should() {
    // The stone (2, 1): right of the centre by two, below it by one.
    let expected = [
        ("transpose", "1,2\n"),
        ("anti-transpose", "-1,-2\n"),
        ("mirror-x", "-2,1\n"),
        ("mirror-y", "2,-1\n"),
        ("turn-90", "-1,2\n"),
        ("turn-180", "-2,-1\n"),
        ("turn-270", "1,-2\n"),
    ];
    for (name, stone) in expected {
        let (ok, out, err) = under(&["--symmetry", name], "2,1\n", name);
        assert!(ok, "{name}: {err}");
        assert_eq!(out, stone, "{name}");
    }
}

#[test]
fn four_quarter_turns_are_the_suite_again() {
    let original = "-3,3, -3,1, -1,-1\n3,2, 0,1\n";
    let mut suite = original.to_string();
    for turn in 1..=4 {
        let (ok, out, err) = under(&["--symmetry", "turn-90"], &suite, &format!("turn{turn}"));
        assert!(ok, "{err}");
        suite = out;
        // Fewer than four quarter turns move these stones somewhere else.
        assert_eq!(suite == original, turn == 4, "after {turn} turns: {suite}");
    }
}

#[test]
fn an_unknown_symmetry_is_refused() {
    let (ok, _, err) = under(&["--symmetry", "turn-45"], "0,0\n", "unknown");
    assert!(!ok);
    assert!(err.contains("unknown symmetry 'turn-45'"), "{err}");
}
