//! `scripts/judge-pairs.py`: two judges of the same positions (the rows of
//! `tune --judge-nodes N --judge-rows FILE`) compared against the results,
//! with the uncertainty taken over games.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Rows of three games, as `--judge-rows` writes them: the searched column
/// follows the results, the static one does not, and the teacher scored all
/// but one position.
const SHARP: &str = "\
# record\tply\tstatic\tsearched\tteacher\tresult
game-0001.sgf\t6\t300\t400\t200\t1
game-0001.sgf\t8\t-300\t500\t-\t1
game-0002.sgf\t6\t300\t-400\t-250\t0
game-0002.sgf\t8\t-300\t-450\t-150\t0
game-0003.sgf\t7\t250\t350\t100\t1
game-0003.sgf\t9\t-250\t300\t90\t1
";

/// The same positions judged by a search that reads the second game wrong,
/// and one position the first file does not have.
const BLUNT: &str = "\
# record\tply\tstatic\tsearched\tteacher\tresult
game-0001.sgf\t6\t300\t380\t200\t1
game-0001.sgf\t8\t-300\t450\t-\t1
game-0002.sgf\t6\t300\t350\t-250\t0
game-0002.sgf\t8\t-300\t200\t-150\t0
game-0003.sgf\t7\t250\t340\t100\t1
game-0003.sgf\t9\t-250\t310\t90\t1
game-0004.sgf\t6\t0\t0\t0\t0.5
";

fn run(dir: &Path, first: &str, second: &str) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/judge-pairs.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(dir.join(first))
        .arg(dir.join(second))
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-judge-pairs-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("sharp.tsv"), SHARP).unwrap();
    std::fs::write(dir.join("blunt.tsv"), BLUNT).unwrap();
    dir
}

/// The number after `key` in `text`.
fn number_after(text: &str, key: &str) -> f64 {
    let rest = &text[text.find(key).unwrap_or_else(|| panic!("{key}: {text}")) + key.len()..];
    rest.trim_start()
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{key}: {text}"))
}

#[test]
fn the_search_that_reads_a_game_wrong_judges_worse_over_the_shared_positions() {
    let dir = scratch("builds");
    let (ok, out) = run(&dir, "sharp.tsv", "blunt.tsv");
    assert!(ok, "{out}");
    // The fourth game is only in the second file.
    assert!(out.starts_with("6 positions of 3 games"), "{out}");
    let difference = number_after(&out, "second - first:");
    assert!(difference > 0.05, "{out}");
    // The first file's signs are all right, so its fitted scale is sharp and
    // no game is judged better by the second.
    assert!(out.contains("second better in 0 of 3 games"), "{out}");
    let (ok, swapped) = run(&dir, "blunt.tsv", "sharp.tsv");
    assert!(ok, "{swapped}");
    assert!(
        (number_after(&swapped, "second - first:") + difference).abs() < 1e-4,
        "{out}\n{swapped}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_teacher_column_skips_the_positions_it_did_not_score_and_a_static_one_judges_worse() {
    let dir = scratch("columns");
    let (ok, out) = run(&dir, "sharp.tsv:searched", "sharp.tsv:teacher");
    assert!(ok, "{out}");
    assert!(out.starts_with("5 positions of 3 games"), "{out}");
    let (ok, out) = run(&dir, "sharp.tsv:searched", "sharp.tsv:static");
    assert!(ok, "{out}");
    assert!(out.starts_with("6 positions of 3 games"), "{out}");
    assert!(number_after(&out, "second - first:") > 0.1, "{out}");
    assert!(out.contains("second better in 0 of 3 games"), "{out}");
    let (ok, _) = run(&dir, "sharp.tsv:searched", "sharp.tsv:nonsense");
    assert!(!ok);
    let _ = std::fs::remove_dir_all(&dir);
}
