//! `scripts/pair-runs.py`: two runs of the same openings and colours
//! compared game by game, by the records' file names.

mod script_support;

use std::path::{Path, PathBuf};

/// A record as `wuzi-match --sgf` writes it, without the moves the script
/// does not read.
fn record(black: &str, white: &str, result: &str) -> String {
    format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[wuzi-match]GN[{black} vs {white}]RU[4]SZ[15]\
         PB[{black}]PW[{white}]RE[{result}]TE[five];B[hh]C[opening move])\n"
    )
}

/// A run: each game's number, who plays Black ("wuzi" or "rapfi") and the result.
fn write_run(dir: &Path, games: &[(u32, &str, &str)]) {
    std::fs::create_dir_all(dir).unwrap();
    for &(number, black, result) in games {
        let white = if black == "wuzi" { "rapfi" } else { "wuzi" };
        let sgf = record(
            &format!("pbrain-{black}"),
            &format!("pbrain-{white}"),
            result,
        );
        std::fs::write(dir.join(format!("game-{number:04}.sgf")), sgf).unwrap();
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-pair-runs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Game 1: the lever turns a loss as Black into a win; game 2: it draws
    // a game as White that the base won; games 3 and 4 replay the same.
    // Game 5 is only in the lever's run, game 6 has no result in the base's.
    write_run(
        &dir.join("base"),
        &[
            (1, "wuzi", "W+1"),
            (2, "rapfi", "W+1"),
            (3, "wuzi", "B+1"),
            (4, "rapfi", "B+1"),
            (6, "wuzi", "?"),
        ],
    );
    write_run(
        &dir.join("lever"),
        &[
            (1, "wuzi", "B+1"),
            (2, "rapfi", "0"),
            (3, "wuzi", "B+1"),
            (4, "rapfi", "B+1"),
            (5, "wuzi", "B+1"),
            (6, "wuzi", "B+1"),
        ],
    );
    dir
}

fn run(args: &[&str], dir: &Path) -> (bool, String, String) {
    let (base, lever) = (dir.join("base"), dir.join("lever"));
    let runs = [base.to_str().unwrap(), lever.to_str().unwrap()];
    let args: Vec<&str> = args.iter().copied().chain(runs).collect();
    script_support::run_script("pair-runs.py", &args)
}

#[test]
fn only_the_games_both_runs_decided_are_paired_and_the_difference_is_theirs() {
    let dir = scratch("paired");
    let (ok, out, err) = run(&[], &dir);
    assert!(ok, "{out}{err}");
    // Base: 0 + 1 + 1 + 0 = 2 of 4; lever: 1 + 0.5 + 1 + 0 = 2.5 of 4.
    assert!(
        out.starts_with("4 paired games: base 50.0 %, lever 62.5 %, difference +12.5 +- "),
        "{out}"
    );
    assert!(out.contains("(lever better in 1, worse in 1)"), "{out}");
    // The differences +1, -0.5, 0, 0 have a standard deviation of 0.629,
    // so the error of their mean over 4 games is 0.315.
    assert!(out.contains("+12.5 +- 31.5 points"), "{out}");
    assert!(
        out.contains("as Black: 2 games, +50.0 +- 50.0 points"),
        "{out}"
    );
    assert!(
        out.contains("as White: 2 games, -25.0 +- 25.0 points"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_score_is_taken_for_the_engine_named() {
    let dir = scratch("named");
    let (ok, out, err) = run(&["--engine", "rapfi"], &dir);
    assert!(ok, "{out}{err}");
    assert!(
        out.starts_with("4 paired games: base 50.0 %, lever 37.5 %, difference -12.5 +- "),
        "{out}"
    );
    let (ok, _, err) = run(&["--engine", "pentazen"], &dir);
    assert!(!ok);
    assert!(
        err.contains("no game of the same name in both runs"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
