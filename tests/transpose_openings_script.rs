//! `scripts/transpose-openings.py`: a suite mirrored along the board's
//! diagonal, each stone's x and y swapped, for control runs.

mod script_support;

fn transposed(suite: &str, tag: &str) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("wuzi-transpose-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("suite.txt");
    std::fs::write(&file, suite).unwrap();
    let result = script_support::run_script("transpose-openings.py", &[file.to_str().unwrap()]);
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
