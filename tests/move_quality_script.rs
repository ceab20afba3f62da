//! `scripts/move-quality.py`: the open positions of wuzi's games, an
//! engine's move in each, and a judge's verdict on two sets of moves.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Game 1: wuzi (Black) is to move at stones 5, 7 and 9; the peer's score
/// before stone 7 is 900 (decided) and it announces a win before stone 9.
/// Game 2: wuzi (White) is to move at stones 4 and 6, the peer scoring -100.
const RECORDS: &str = "\
(;FF[4]GM[4]GN[1]RU[0]SZ[15]PB[cand-wuzi]PW[pbrain-rapfi]RE[W+1]\
;B[hh]C[opening move];W[hi]C[opening move];B[ih]C[opening move]\
;W[gh]C[10ms];B[jh]C[10ms];W[ii]C[10ms];B[kh]C[10ms];W[ji]C[10ms];B[lh]C[10ms])
(;FF[4]GM[4]GN[2]RU[0]SZ[15]PB[pbrain-rapfi]PW[cand-wuzi]RE[B+1]\
;B[dd]C[opening move];W[de]C[opening move];B[ed]C[opening move]\
;W[cd]C[10ms];B[fd]C[10ms];W[ce]C[10ms])
";

const MESSAGES: &str = "\
----------------------------------------
Game ID: 1
Engines: cand-wuzi x pbrain-rapfi
4) pbrain-rapfi: Depth 10-12 | Eval 100 | Time 0ms | J11 I10
6) pbrain-rapfi: Depth 10-12 | Eval 900 | Time 0ms | J11 I10
8) pbrain-rapfi: Depth 11-13 | Eval +M9 | Time 1ms | J11 I10
----------------------------------------
Game ID: 2
Engines: pbrain-rapfi x cand-wuzi
5) pbrain-rapfi: Depth 10-12 | Eval -100 | Time 0ms | J11 I10
";

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/move-quality.py")
}

fn fake(options: &str) -> String {
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-engine/fake_engine.py");
    format!("python3 '{}' {options}", fake.display())
}

fn run(args: &[&str]) -> Output {
    let output = Command::new("python3")
        .arg(script())
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn positions_moves_and_the_judges_verdict() {
    let dir = std::env::temp_dir().join(format!("wuzi-move-quality-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let records = dir.join("records");
    std::fs::create_dir_all(&records).unwrap();
    std::fs::write(records.join("games.sgf"), RECORDS).unwrap();
    std::fs::write(records.join("msgs.txt"), MESSAGES).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();

    // Stone 5 of game 1 and stones 4 and 6 of game 2; not stone 7 (decided)
    // nor stone 9 (announced).
    let positions = path("positions.txt");
    run(&[
        "positions",
        records.to_str().unwrap(),
        "--engine",
        "cand-wuzi",
        "--count",
        "10",
        "-o",
        &positions,
    ]);
    assert_eq!(
        lines(Path::new(&positions)),
        [
            "0 15 7,7 7,8 8,7 6,7",
            "0 15 3,3 3,4 4,3",
            "0 15 3,3 3,4 4,3 2,3 5,3",
        ]
    );

    // The scripted engine plays the first free point of its list.
    let played = path("played.txt");
    run(&[
        "play",
        &positions,
        "--cmd",
        &fake("--moves 5,5"),
        "--ms",
        "100",
        "-o",
        &played,
    ]);
    assert_eq!(lines(Path::new(&played)), ["0 5,5", "1 5,5", "2 5,5"]);

    // Against moves that agree on position 1 only, a judge that scores
    // every position 0 unless a stone stands on 5,5, where it announces
    // its own win: 5,5 loses half a point in positions 0 and 2.
    let base = path("base.txt");
    std::fs::write(&base, "0 9,9\n1 5,5\n2 9,9\n").unwrap();
    let cache = path("cache.txt");
    let judge_cmd = fake("--eval 0 --wins-after 5,5");
    let judge = |extra: &[&str], expect_judged: &str| {
        let mut args = vec![
            "judge",
            &positions,
            &base,
            &played,
            "--judge",
            &judge_cmd,
            "--judge-nodes",
            "1000",
            "--jobs",
            "2",
            "--cache",
            &cache,
        ];
        args.extend_from_slice(extra);
        let output = run(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expect_judged), "{stderr}");
        String::from_utf8(output.stdout).unwrap()
    };
    let expected = format!(
        "{played}: -0.3333 +/- 0.1667 a move against {base} over 3 positions; \
         moves differ in 2, better 0, worse 2"
    );
    let out = judge(&[], "4 moves to judge, 0 known");
    assert!(out.contains(&expected), "{out}");
    // The cache answers a second run without a search.
    let out = judge(&[], "0 moves to judge, 4 known");
    assert!(out.contains(&expected), "{out}");

    // --loss also judges the positions before the moves (all scored 0) and
    // the moves both files agree on: 5,5 loses half a point wherever it is
    // played.
    let out = judge(&["--loss"], "4 moves to judge, 4 known");
    for line in [
        format!("{base}: loss a move 0.1667 over 3; 0-10 stones 0.1667 (3)"),
        format!("{played}: loss a move 0.5000 over 3; 0-10 stones 0.5000 (3)"),
    ] {
        assert!(out.contains(&line), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
