//! `scripts/vet-openings.py`: `score` asks an engine about every opening of a
//! suite, `pick` keeps the contested ones. Our own engine stands in for the
//! stronger judge: it reports its score the same way (`MESSAGE ... eval V`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/vet-openings.py")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-vet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> (bool, String, String) {
    let output = Command::new("python3")
        .arg(script())
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn score_asks_the_engine_about_every_opening() {
    let dir = scratch("score");
    let suite = dir.join("suite.txt");
    // Three stones each, White to move.
    std::fs::write(&suite, "0,0, 1,0, 0,1\n0,0, -1,-1, 1,1\n").unwrap();
    let engine = env!("CARGO_BIN_EXE_pbrain-wuzi");
    let suite_arg = suite.to_str().unwrap();
    let (ok, out, err) = run(&[
        "score", "--engine", engine, "--rule", "0", "--nodes", "3000", suite_arg,
    ]);
    assert!(ok, "{err}");
    let lines: Vec<Vec<&str>> = out.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 2, "{out}");
    for (i, fields) in lines.iter().enumerate() {
        assert_eq!(fields.len(), 3, "{out}");
        assert_eq!(fields[0], (i + 1).to_string());
        let score = fields[1];
        let is_mate = score.starts_with("+M") || score.starts_with("-M");
        assert!(is_mate || score.parse::<i32>().is_ok(), "score {score}");
        // The engine's move, on an empty cell of the 15x15 board.
        let xy: Vec<usize> = fields[2].split(',').map(|v| v.parse().unwrap()).collect();
        assert!(xy[0] < 15 && xy[1] < 15, "{out}");
        let taken = [[(7, 7), (8, 7), (7, 8)], [(7, 7), (6, 6), (8, 8)]];
        assert!(!taken[i].contains(&(xy[0], xy[1])), "{out}");
    }
    // --resume skips what the table already holds and appends the rest.
    let table = dir.join("table.txt");
    std::fs::write(&table, "1 12 6,6\n").unwrap();
    let (ok, out, err) = run(&[
        "score",
        "--engine",
        engine,
        "--rule",
        "0",
        "--nodes",
        "3000",
        "--resume",
        table.to_str().unwrap(),
        suite_arg,
    ]);
    assert!(ok && out.is_empty(), "{out}{err}");
    let text = std::fs::read_to_string(&table).unwrap();
    let indices: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(indices, ["1", "2"], "{text}");
    assert!(text.starts_with("1 12 6,6\n"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pick_keeps_the_openings_nearest_the_window_and_no_copies() {
    let dir = scratch("pick");
    let first = dir.join("first.txt");
    let second = dir.join("second.txt");
    std::fs::write(
        &first,
        "0,0, 1,0, 0,1\n\
         0,0, 2,0, 0,2\n\
         0,0, 1,1, 2,2\n",
    )
    .unwrap();
    // The first line is the first suite's first opening mirrored (x -> -x).
    std::fs::write(
        &second,
        "0,0, -1,0, 0,1\n\
         0,0, 3,0, 0,3\n\
         0,0, 1,-1, 2,0\n\
         0,0, 2,1, 1,2\n",
    )
    .unwrap();
    let first_scores = dir.join("first.scores");
    let second_scores = dir.join("second.scores");
    // Window -100..0, middle -50.
    std::fs::write(&first_scores, "1 -40 a\n2 -95 b\n3 +M9 c\n").unwrap();
    std::fs::write(&second_scores, "1 -50 d\n2 60 e\n3 -10 f\n4 ? g\n").unwrap();
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    let files = [
        path(&first),
        path(&first_scores),
        path(&second),
        path(&second_scores),
    ];
    let mut args = vec!["pick", "--window=-100,0", "--count", "2"];
    args.extend(files.iter().map(String::as_str));
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    // -40 (10 from the middle) and -10 (40) are kept; -95 (45) is not; the
    // mate, the score outside the window, the unreadable one and the
    // mirrored copy never are. The kept ones keep the files' order.
    assert_eq!(out, "0,0, 1,0, 0,1\n0,0, 1,-1, 2,0\n");

    // Asking for more than the window holds says so, and writes what it has.
    let mut args = vec!["pick", "--window=-100,0", "--count", "5"];
    args.extend(files.iter().map(String::as_str));
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(err.contains("only 3 openings"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
