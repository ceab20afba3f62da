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
        err.contains("no game of the same name in every run"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// c-gomoku-cli's `-sgf FILE`: every game of a run in one file, numbered by
/// `GN[n]`, with the engines named after their files.
fn gomoku_cli_run(games: &[(u32, &str, &str)]) -> String {
    games
        .iter()
        .map(|&(number, black, result)| {
            let white = if black == "wuzi" { "rapfi" } else { "wuzi-0f55e72" };
            let black = if black == "wuzi" { "wuzi-0f55e72" } else { "rapfi" };
            format!(
                "(;FF[4]GM[4]GN[{number}]EV[pbrain-rapfi x pbrain-wuzi-0f55e72]RU[4]SZ[15]\
                 PB[pbrain-{black}]PW[pbrain-{white}]RE[{result}]TE[five]\n;B[hh]C[opening move])\n\n"
            )
        })
        .collect()
}

#[test]
fn a_gomoku_cli_file_pairs_its_games_by_their_numbers() {
    let dir = std::env::temp_dir().join(format!("wuzi-pair-runs-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("lever")).unwrap();
    // The base's file given by its path, the lever's by its folder.
    let base = dir.join("base.sgf");
    std::fs::write(
        &base,
        gomoku_cli_run(&[(1, "wuzi", "W+1"), (2, "rapfi", "W+1"), (3, "wuzi", "B+1")]),
    )
    .unwrap();
    std::fs::write(
        dir.join("lever").join("games.sgf"),
        gomoku_cli_run(&[(1, "wuzi", "B+1"), (2, "rapfi", "W+1"), (3, "wuzi", "W+1")]),
    )
    .unwrap();
    let lever = dir.join("lever");
    let (ok, out, err) = script_support::run_script(
        "pair-runs.py",
        &[base.to_str().unwrap(), lever.to_str().unwrap()],
    );
    assert!(ok, "{out}{err}");
    // Base: 0 + 1 + 1 of 3; lever: 1 + 1 + 0 of 3; game 1 better, game 3 worse.
    assert!(
        out.starts_with("3 paired games: base 66.7 %, lever 66.7 %, difference +0.0 +- "),
        "{out}"
    );
    assert!(out.contains("(lever better in 1, worse in 1)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_control_run_is_reported_and_the_lever_paired_with_the_mean() {
    let dir = scratch("control");
    // The control: the base's build again, losing game 3 as Black and
    // winning game 4 as White, where the base did the opposite.
    write_run(
        &dir.join("control"),
        &[
            (1, "wuzi", "W+1"),
            (2, "rapfi", "W+1"),
            (3, "wuzi", "W+1"),
            (4, "rapfi", "W+1"),
        ],
    );
    let control = dir.join("control");
    let (ok, out, err) = run(&["--control", control.to_str().unwrap()], &dir);
    assert!(ok, "{out}{err}");
    // Games 1-4 (the control has no 6): base 2 of 4, lever 2.5 of 4,
    // control 0 + 1 + 0 + 1 = 2 of 4.
    assert!(
        out.contains("4 paired games: base 50.0 %, control 50.0 %, difference +0.0 +- "),
        "{out}"
    );
    assert!(out.contains("(control better in 1, worse in 1)"), "{out}");
    // The mean of base and control per game: 0, 1, 0.5, 0.5; the lever's
    // 1, 0.5, 1, 0 differ by +1, -0.5, +0.5, -0.5: +12.5 in all.
    let mean = out
        .split("the lever against the mean of the base and the controls:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no line for the mean: {out}"));
    assert!(
        mean.starts_with("4 paired games: mean 50.0 %, lever 62.5 %, difference +12.5 +- "),
        "{out}"
    );
    assert!(mean.contains("(lever better in 2, worse in 2)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_control_whose_colours_differ_from_the_base_is_refused() {
    let dir = scratch("colours");
    write_run(
        &dir.join("control"),
        &[(1, "rapfi", "W+1"), (2, "rapfi", "W+1")],
    );
    let control = dir.join("control");
    let (ok, _, err) = run(&["--control", control.to_str().unwrap()], &dir);
    assert!(!ok);
    assert!(err.contains("plays another colour in"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
