//! The match runner against scripted fake engines (tests/fake-engine/
//! fake_engine.py) that misbehave on purpose: adjudication, clocks, crashes,
//! restarts, records, concurrency and the SPRT stop.
//!
//! Time limits here are generous (seconds) wherever a well-behaved engine must
//! not lose on time, so a loaded machine does not make the tests flaky.

use std::path::{Path, PathBuf};
use wuzi::tools::match_runner::config::MatchConfig;
use wuzi::tools::match_runner::stats::SprtVerdict;
use wuzi::tools::match_runner::{run, MatchSummary};

/// Black plays along row 0, White along row 2: Black wins by five at stone 9.
const BLACK_ROW0_WHITE_ROW2: &str =
    "--moves 0,0;1,0;2,0;3,0;4,0;5,0;6,0 --moves-white 0,2;1,2;2,2;3,2;4,2;5,2;6,2";

fn fake_engine(options: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-engine/fake_engine.py");
    format!("python3 '{}' {options}", script.display())
}

/// A test's own directory under the system's temporary one. It is removed
/// when the test passes and kept when it fails, for its logs and records.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch_dir(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("wuzi-match-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn play(engine1: &str, engine2: &str, options: &[&str]) -> (MatchSummary, String) {
    let mut args: Vec<String> = vec![
        "--engine1".into(),
        fake_engine(engine1),
        "--engine2".into(),
        fake_engine(engine2),
        "--name1".into(),
        "one".into(),
        "--name2".into(),
        "two".into(),
        // Python's start-up can take seconds on a loaded machine; tests that
        // are about the start time-out set their own (later options win).
        "--start-timeout".into(),
        "10000".into(),
    ];
    args.extend(options.iter().map(|s| s.to_string()));
    let config = MatchConfig::from_args(&args).expect("valid arguments");
    let mut output = Vec::new();
    let summary = run(&config, &mut output).expect("the match runs");
    (summary, String::from_utf8(output).unwrap())
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_five_wins_and_the_manager_sequence_is_followed() {
    let dir = scratch_dir("five");
    let openings = dir.join("openings.txt");
    // Pos format: o15 = (14,14) Black, o13 = (14,12) White; Black to move.
    std::fs::write(&openings, "o15o13\n").unwrap();
    let (log1, log2) = (dir.join("one.log"), dir.join("two.log"));
    let sgf = dir.join("sgf");
    let psq = dir.join("psq");
    let (summary, output) = play(
        &format!("{BLACK_ROW0_WHITE_ROW2} --log '{}'", log1.display()),
        &format!("{BLACK_ROW0_WHITE_ROW2} --log '{}'", log2.display()),
        &[
            "--openings",
            openings.to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
            "--psq",
            psq.to_str().unwrap(),
        ],
    );
    // Each side wins its Black game: colours were swapped.
    assert_eq!(
        (
            summary.tally.wins,
            summary.tally.losses,
            summary.tally.draws
        ),
        (1, 1, 0)
    );
    for game in &summary.games {
        assert_eq!(game.outcome.reason.to_string(), "five");
        assert_eq!(game.outcome.moves.len(), 2 + 9);
    }
    assert!(output.contains("game    1/2"), "{output}");
    assert!(
        output.contains("Elo difference (one - two): +0.0"),
        "{output}"
    );

    let one = lines(&log1);
    let expected_start = [
        "START 15",
        "INFO timeout_turn 1000",
        "INFO timeout_match 0",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO time_left 2147483647",
        "BOARD",
        "14,14,1",
        "14,12,2",
        "DONE",
        "INFO time_left 2147483647",
        "TURN 0,2",
    ];
    assert_eq!(one[..expected_start.len()], expected_start, "{one:#?}");
    // Engine two is White in game 1: its first request lists Black's stones as 2.
    let two = lines(&log2);
    let board_at = two.iter().position(|l| l == "BOARD").unwrap();
    assert_eq!(
        two[board_at..board_at + 5],
        ["BOARD", "14,14,2", "14,12,1", "0,0,2", "DONE"]
    );
    assert_eq!(
        one.iter().filter(|l| l.starts_with("START")).count(),
        2,
        "START per game"
    );
    assert_eq!(one.last().map(String::as_str), Some("END"));

    let record = std::fs::read_to_string(sgf.join("game-0001.sgf")).unwrap();
    assert!(record.starts_with("(;FF[4]GM[4]"), "{record}");
    assert!(record.contains("PB[one]PW[two]RE[B+1]"), "{record}");
    assert!(
        record.contains(";B[oo]C[opening move];W[om]C[opening move];B[aa]C["),
        "{record}"
    );
    let psq_text = std::fs::read_to_string(psq.join("game-0002.psq")).unwrap();
    assert!(
        psq_text.starts_with("Piskvorky 15x15, 11:11, 0\n15,15,0\n15,13,0\n1,1,"),
        "{psq_text}"
    );
    assert!(psq_text.ends_with("two\none\n-1\n"), "{psq_text}");
}

#[test]
fn hex_matches_tell_the_engines_and_count_pairs() {
    // Random 3-stone openings near the centre, so White moves first after
    // them and wins along row 2 (a row is a hex line) in every game: each
    // engine wins its White game, so both pairs score 1 point of 2.
    let dir = scratch_dir("hex");
    let log1 = dir.join("one.log");
    let (summary, output) = play(
        &format!("{BLACK_ROW0_WHITE_ROW2} --log '{}'", log1.display()),
        BLACK_ROW0_WHITE_ROW2,
        &["--geometry", "hex", "--random-openings", "2", "--seed", "3"],
    );
    assert_eq!(summary.games.len(), 4, "{output}");
    for game in &summary.games {
        assert_eq!(game.outcome.reason.to_string(), "five", "{output}");
        assert_eq!(game.outcome.moves.len(), 3 + 9);
    }
    assert_eq!(summary.white_wins, 4);
    assert_eq!(summary.pairs.counts, [0, 0, 2, 0, 0]);
    assert!(output.contains("15x15 hex rule 0"), "{output}");
    assert!(
        output.contains("Pairs (points of 2 for one: 0 / 0.5 / 1 / 1.5 / 2): 0 / 0 / 2 / 0 / 0"),
        "{output}"
    );
    let one = lines(&log1);
    let rule = one.iter().position(|l| l == "INFO rule 0").unwrap();
    assert_eq!(one[rule + 1], "INFO geometry hex", "{one:#?}");
    // Both games of a pair start from the same opening.
    let openings: Vec<_> = summary
        .games
        .iter()
        .map(|g| g.outcome.moves[..3].to_vec())
        .collect();
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[0], openings[2]);
}

#[test]
fn a_misbehaving_engine_loses_and_is_restarted() {
    let cases = [
        ("--crash-at 2", "crash"),
        ("--hang-at 2", "time-out"),
        ("--occupied-at 2", "(occupied)"),
        ("--offboard-at 1", "illegal move 99,99 (off the board)"),
        // Garbage is ignored, as c-gomoku-cli ignores it: no move comes.
        ("--garbage-at 2", "time-out"),
        // Lines that are no move do not hide a real fault.
        ("--noisy --occupied-at 2", "(occupied)"),
        (
            "--noisy --offboard-at 1",
            "illegal move 99,99 (off the board)",
        ),
        ("--no-ok", "no start (no OK in time)"),
        ("--error-start", "no start (ERROR no thanks)"),
    ];
    for (misbehaviour, fault) in cases {
        let (summary, output) = play(
            &format!("{BLACK_ROW0_WHITE_ROW2} {misbehaviour}"),
            BLACK_ROW0_WHITE_ROW2,
            &[
                "--turn",
                "2000",
                "--tolerance",
                "1000",
                "--start-timeout",
                // Short only where the time-out is what is tested.
                if misbehaviour == "--no-ok" {
                    "2000"
                } else {
                    "10000"
                },
            ],
        );
        assert_eq!(summary.tally.losses, 2, "{misbehaviour}: {output}");
        assert_eq!(summary.faults[0].len(), 2, "{misbehaviour}");
        assert!(
            summary.faults[0].iter().all(|f| f.contains(fault)),
            "{misbehaviour}: {:?}",
            summary.faults[0]
        );
        assert!(summary.faults[1].is_empty(), "{misbehaviour}");
        assert_eq!(
            summary.restarts,
            [1, 0],
            "{misbehaviour}: a fresh process for game 2"
        );
    }
}

#[test]
fn an_engine_busy_just_after_its_move_still_starts_the_next_game() {
    // Game 1 ends with engine one's own five; an engine that, like Rapfi,
    // drops a START that comes within 120 ms of its move refuses the first
    // START after the settling pause, and would lose game 2 at the start if
    // that refusal were taken as its answer. A slower machine only moves the
    // START later, past the busy spell.
    let (summary, output) = play(
        &format!("{BLACK_ROW0_WHITE_ROW2} --busy-start-after-move 120"),
        BLACK_ROW0_WHITE_ROW2,
        &["--turn", "2000"],
    );
    assert!(summary.faults[0].is_empty(), "{output}");
    assert_eq!(summary.tally.wins + summary.tally.losses, 2, "{output}");
    assert_eq!(summary.restarts, [0, 0], "{output}");
}

#[test]
fn an_engine_busy_just_after_its_move_gets_its_opponents_instant_answer() {
    // Engine two answers at once. Engine one drops any command that comes
    // within 8 ms of its own move, as Rapfi does; a TURN sent on the heels
    // of its move would be lost and engine one would never answer it.
    let (summary, output) = play(
        &format!("{BLACK_ROW0_WHITE_ROW2} --busy-after-move 8"),
        BLACK_ROW0_WHITE_ROW2,
        &["--turn", "2000"],
    );
    assert!(summary.faults[0].is_empty(), "{output}");
    assert_eq!(summary.tally.wins + summary.tally.losses, 2, "{output}");
    for game in &summary.games {
        assert_eq!(game.outcome.reason.to_string(), "five", "{output}");
    }
}

#[test]
fn messages_and_other_chatter_are_skipped() {
    let (summary, _) = play(
        &format!("{BLACK_ROW0_WHITE_ROW2} --chatty"),
        BLACK_ROW0_WHITE_ROW2,
        &[],
    );
    assert_eq!((summary.tally.wins, summary.tally.losses), (1, 1));
    assert!(summary.faults[0].is_empty());
}

#[test]
fn lines_that_are_no_move_are_ignored_and_logged() {
    let dir = scratch_dir("noisy");
    let msgs = dir.join("msgs.txt");
    let (summary, output) = play(
        &format!("{BLACK_ROW0_WHITE_ROW2} --noisy"),
        BLACK_ROW0_WHITE_ROW2,
        &["--msgs", msgs.to_str().unwrap()],
    );
    // Both games are played out: each side wins its Black game by five.
    assert_eq!(
        (summary.tally.wins, summary.tally.losses),
        (1, 1),
        "{output}"
    );
    assert!(summary.faults.iter().all(Vec::is_empty), "{output}");
    assert_eq!(summary.restarts, [0, 0]);
    for game in &summary.games {
        assert_eq!(game.outcome.reason.to_string(), "five");
    }
    // Engine one asked 5 times as Black, 4 times as White; 6 ignored lines each.
    assert_eq!(summary.ignored, [9 * 6, 0], "{output}");
    assert!(
        output.contains("one: 54 lines ignored (neither a move nor a known reply)"),
        "{output}"
    );
    assert!(
        output.contains("game 1: 1) (control characters): -\\x0c ev 34 nd 12k tm 150 sp 80"),
        "{output}"
    );
    let text = std::fs::read_to_string(&msgs).unwrap();
    // Game 2: engine one plays White, first asked for the 2nd stone.
    assert!(
        text.contains("2) one ignored (not a move): hello there"),
        "{text}"
    );
    for expected in [
        "Game ID: 1\nEngines: one x two\n",
        "Game ID: 2\nEngines: two x one\n",
        "1) one: dep\n",
        "1) one ignored (control characters): -\\x0c ev 34",
        "1) one ignored (control characters): \\x01\\x02\\x1b[0m",
        "1) one ignored (control characters): 7,\\x077",
        "1) one ignored (not UTF-8): \u{fffd}\u{fffd} 3,3",
        "1) one: caf\u{fffd} latin-1",
        "1) one ignored (not a move): hello there",
        "1) one ignored (not a move): 7,7,7",
    ] {
        assert!(text.contains(expected), "{expected:?} in\n{text}");
    }
    assert_eq!(text.matches(" ignored (").count(), 54, "{text}");
}

#[test]
fn the_match_carries_on_after_a_crash() {
    let dir = scratch_dir("crash-once");
    let marker = dir.join("crashed");
    let (summary, output) = play(
        &format!(
            "{BLACK_ROW0_WHITE_ROW2} --crash-once '{}'",
            marker.display()
        ),
        BLACK_ROW0_WHITE_ROW2,
        &["--games", "4"],
    );
    assert_eq!(summary.faults[0], vec!["crash".to_string()], "{output}");
    assert_eq!(summary.restarts, [1, 0]);
    let reasons: Vec<String> = summary
        .games
        .iter()
        .map(|g| g.outcome.reason.to_string())
        .collect();
    assert_eq!(reasons, ["crash", "five", "five", "five"]);
    // Game 3 has engine one as Black again, playing normally: it wins.
    assert_eq!((summary.tally.wins, summary.tally.losses), (1, 3));
}

#[test]
fn a_full_board_and_the_move_cap_are_draws() {
    // 5x5, filled without any five:
    //   X X O O X
    //   O O X X O
    //   X X O O X
    //   O O X X O
    //   X X O O X
    let black = "0,0;1,0;4,0;2,1;3,1;0,2;1,2;4,2;2,3;3,3;0,4;1,4;4,4";
    let white = "2,0;3,0;0,1;1,1;4,1;2,2;3,2;0,3;1,3;4,3;2,4;3,4";
    let engine = format!("--moves '{black}' --moves-white '{white}'");
    let (summary, _) = play(&engine, &engine, &["--size", "5"]);
    assert_eq!(summary.tally.draws, 2);
    assert!(summary
        .games
        .iter()
        .all(|g| g.outcome.reason.to_string() == "full board"));
    assert_eq!(summary.games[0].outcome.moves.len(), 25);

    let (summary, _) = play(
        BLACK_ROW0_WHITE_ROW2,
        BLACK_ROW0_WHITE_ROW2,
        &["--max-stones", "6"],
    );
    assert_eq!(summary.tally.draws, 2);
    assert!(summary
        .games
        .iter()
        .all(|g| g.outcome.reason.to_string() == "move cap"));
    assert_eq!(summary.games[0].outcome.moves.len(), 6);
}

#[test]
fn the_match_clock_runs_out() {
    // 1000 ms for the game, 400 ms a move: the third move overruns
    // (1000 - 2·400 = 200 ms left, + 200 ms tolerance < 400 ms).
    let dir = scratch_dir("clock");
    let log = dir.join("one.log");
    let (summary, output) = play(
        &format!(
            "{BLACK_ROW0_WHITE_ROW2} --slow 400 --log '{}'",
            log.display()
        ),
        BLACK_ROW0_WHITE_ROW2,
        &["--turn", "0", "--match", "1000", "--tolerance", "200"],
    );
    assert_eq!(summary.tally.losses, 2, "{output}");
    assert!(summary.faults[0].iter().all(|f| f == "time-out"));
    let sent = lines(&log);
    assert!(
        !sent.iter().any(|l| l.starts_with("INFO timeout_turn")),
        "no per-move limit"
    );
    assert!(sent.contains(&"INFO timeout_match 1000".to_string()));
    let time_left: Vec<i64> = sent
        .iter()
        .filter_map(|l| l.strip_prefix("INFO time_left "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(time_left[0], 1000);
    assert!(time_left[1] <= 600 && time_left[2] <= 200, "{time_left:?}");
}

#[test]
fn sprt_stops_the_match_and_games_run_concurrently() {
    // Black always wins, each engine plays Black half the time: the score is
    // 50 %, far from +200 Elo, so H0 is accepted after a handful of games.
    // The 10 ms a move keeps games slower than the reporting thread's
    // reaction even on a loaded machine (bare fake games take ~0.3 ms, and
    // dozens could finish before a starved reporter sets the stop flag).
    let slow = format!("{BLACK_ROW0_WHITE_ROW2} --slow 10");
    let (summary, output) = play(
        &slow,
        &slow,
        &[
            "--games",
            "200",
            "--concurrency",
            "2",
            "--sprt",
            "0,200,0.2,0.2",
        ],
    );
    assert_eq!(summary.verdict, Some(SprtVerdict::AcceptH0), "{output}");
    let played = summary.games.len();
    // Every pair scores 1 point of 2; two pairs decide (pentanomial LLR
    // -1.95 < -1.39). The games in flight when it stops still count.
    assert!((2..100).contains(&played), "{played} games\n{output}");
    let numbers: Vec<usize> = summary.games.iter().map(|g| g.number).collect();
    assert_eq!(
        numbers,
        (0..played).collect::<Vec<_>>(),
        "no game lost or doubled"
    );
    assert!(output.contains("-> H0 accepted"), "{output}");
    assert_eq!(summary.black_wins as usize, played);
}

#[test]
fn the_binary_prints_usage_and_plays() {
    let binary = env!("CARGO_BIN_EXE_wuzi-match");
    let help = std::process::Command::new(binary)
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: wuzi-match"));
    assert!(help.stderr.is_empty(), "stderr stays silent");

    let output = std::process::Command::new(binary)
        .args([
            "--engine1",
            &fake_engine(""),
            "--engine2",
            &fake_engine(""),
            "--size",
            "7",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{text}"
    );
    assert!(text.contains("LOS"), "{text}");

    let missing = std::process::Command::new(binary)
        .args([
            "--engine1",
            "/nonexistent/engine",
            "--engine2",
            &fake_engine(""),
        ])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stdout).contains("cannot start"));
}

#[test]
fn a_renju_forbidden_move_loses_for_black() {
    // Black's fifth stone at (7,7) makes two open threes at once:
    //   . . . . . . . . .      row 5:  (7,5)
    //   . . . . . . . X .      row 6:  (7,6)
    //   . . . . . X X * .      row 7:  (5,7) (6,7) and * = (7,7)
    // White plays spaced-out stones on the bottom row.
    let engine = "--moves '5,7;7,5;6,7;7,6;7,7' --moves-white '0,14;2,14;4,14;10,14;12,14'";
    let (summary, output) = play(engine, engine, &["--rule", "4"]);
    assert_eq!(summary.white_wins, 2, "{output}");
    for game in &summary.games {
        assert_eq!(
            game.outcome.reason.to_string(),
            "forbidden move (DoubleThree)"
        );
        assert_eq!(game.outcome.moves.len(), 9);
    }
    // Under freestyle the same stones are just a move: the game goes on.
    let (summary, _) = play(engine, engine, &["--max-stones", "10"]);
    assert!(summary
        .games
        .iter()
        .all(|g| g.outcome.reason.to_string() == "move cap"));
}

#[test]
fn analyze_reviews_a_record_the_runner_wrote() {
    let dir = scratch_dir("analyze");
    let psq = dir.join("psq");
    let sgf = dir.join("sgf");
    let (summary, _) = play(
        BLACK_ROW0_WHITE_ROW2,
        BLACK_ROW0_WHITE_ROW2,
        &[
            "--psq",
            psq.to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
        ],
    );
    let engine = env!("CARGO_BIN_EXE_pbrain-wuzi");
    for file in [psq.join("game-0001.psq"), sgf.join("game-0001.sgf")] {
        let output = std::process::Command::new(engine)
            .args(["analyze", file.to_str().unwrap(), "--nodes", "2000"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{text}");
        assert!(output.stderr.is_empty());
        let move_lines: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert_eq!(
            move_lines.len(),
            summary.games[0].outcome.moves.len(),
            "{text}"
        );
        // White walks along row 3 instead of blocking Black's row 1: the
        // review must catch at least one White blunder, and the final five.
        assert!(move_lines.last().unwrap().contains("(five)"), "{text}");
        assert!(!text.contains("White 0\n"), "{text}");
    }
}

#[test]
fn the_shipped_opening_suites_are_playable() {
    use wuzi::board::Rule;
    use wuzi::tools::openings::parse_openings;
    let suites = [
        ("freestyle-15.txt", 15, Rule::Freestyle),
        ("freestyle-20.txt", 20, Rule::Freestyle),
        ("standard-15.txt", 15, Rule::Standard),
        ("renju-15.txt", 15, Rule::Renju),
    ];
    for (file, size, rule) in suites {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("openings")
            .join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        // Parsing re-checks every stone: on the board, empty, no five, and
        // for Black in renju not forbidden.
        let openings = parse_openings(&text, size, size, rule).unwrap();
        assert!(openings.len() >= 200, "{file}: {}", openings.len());
        assert!(
            openings.iter().all(|o| o.stones.len() % 2 == 1),
            "{file}: White to move"
        );
        // No opening is a turn or a mirror of another (the same stones in
        // the same order): each would measure the same thing twice.
        let distinct: std::collections::HashSet<_> = openings
            .iter()
            .map(|o| symmetric_key(&o.stones, size))
            .collect();
        assert_eq!(distinct.len(), openings.len(), "{file}: no repeats");
    }
}

/// An opening's stones as offsets from the centre, the least of its eight
/// turns and mirrors: one key for every copy of the same opening.
fn symmetric_key(stones: &[wuzi::board::Pos], size: usize) -> Vec<(i64, i64)> {
    let centre = (size / 2) as i64;
    let offsets: Vec<(i64, i64)> = stones
        .iter()
        .map(|p| (p.x() as i64 - centre, p.y() as i64 - centre))
        .collect();
    let mut forms = Vec::new();
    for swap in [false, true] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let form: Vec<(i64, i64)> = offsets
                    .iter()
                    .map(|&(dx, dy)| {
                        let (a, b) = if swap { (dy, dx) } else { (dx, dy) };
                        (a * sx, b * sy)
                    })
                    .collect();
                forms.push(form);
            }
        }
    }
    forms.into_iter().min().unwrap_or_default()
}

#[test]
fn a_mirrored_opening_has_the_same_symmetric_key() {
    use wuzi::board::Pos;
    let opening = [Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 7)];
    let mirrored = [Pos::new(7, 7), Pos::new(6, 6), Pos::new(5, 7)];
    let turned = [Pos::new(7, 7), Pos::new(8, 8), Pos::new(7, 9)];
    let other = [Pos::new(7, 7), Pos::new(9, 7), Pos::new(8, 6)];
    let key = symmetric_key(&opening, 15);
    assert_eq!(symmetric_key(&mirrored, 15), key);
    assert_eq!(symmetric_key(&turned, 15), key);
    assert_ne!(
        symmetric_key(&other, 15),
        key,
        "the order of the stones counts"
    );
}

#[test]
fn the_shipped_hex_suite_is_playable_on_the_hex_board() {
    use wuzi::board::{Board, Geometry, Rule};
    use wuzi::tools::openings::{check_stone, parse_openings};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/hex-15.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let openings = parse_openings(&text, 15, 15, Rule::Freestyle).unwrap();
    assert!(openings.len() >= 200, "{}", openings.len());
    for opening in &openings {
        assert_eq!(opening.stones.len() % 2, 1, "White to move");
        // Replayed along the hex lines: every stone legal, no five.
        let mut board = Board::with_geometry(15, 15, Rule::Freestyle, Geometry::Hex).unwrap();
        for &stone in &opening.stones {
            check_stone(&board, stone).unwrap();
            board.play(stone).unwrap();
        }
    }
}

#[test]
fn our_engine_plays_itself_without_faults() {
    // Depth 2 keeps every move to milliseconds. The referee's limits are
    // there only to catch a hung engine: on a loaded machine the start (all
    // rules' tables are built) once took over the default 3 s, so every
    // limit is a minute, and the result cannot depend on the machine's speed.
    let engine = env!("CARGO_BIN_EXE_pbrain-wuzi");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/renju-15.txt");
    let args: Vec<String> = [
        "--engine1",
        engine,
        "--engine2",
        engine,
        "--info1",
        "max_depth=2",
        "--info2",
        "max_depth=2",
        "--openings",
        openings.to_str().unwrap(),
        "--rule",
        "4",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--turn",
        "5000",
        "--match",
        "60000",
        "--tolerance",
        "60000",
        "--start-timeout",
        "60000",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let config = MatchConfig::from_args(&args).unwrap();
    let mut output = Vec::new();
    let summary = run(&config, &mut output).unwrap();
    let output = String::from_utf8(output).unwrap();
    assert_eq!(summary.games.len(), 4, "{output}");
    assert!(summary.faults.iter().all(Vec::is_empty), "{output}");
    assert_eq!(summary.restarts, [0, 0]);
    // The referee skips lines that are no move; ours sends none.
    assert_eq!(summary.ignored, [0, 0], "{output}");
    for game in &summary.games {
        let reason = game.outcome.reason.to_string();
        assert!(
            ["five", "full board"].contains(&reason.as_str()) || reason.starts_with("forbidden"),
            "{reason}"
        );
    }
}
