//! `scripts/forced-wins.py` on a made-up c-gomoku-cli folder: the positions it
//! draws are the right ones, with the right side to move, and they load as
//! boards the way the tactical suite loads its drawings.

use std::path::Path;
use std::process::Command;
use wuzi::board::{Board, Color, Geometry, Pos, Rule};

/// Black (the peer) plays along row 0, White (ours) along row 2; the peer
/// announces a win when it is asked for stone 7 (its 4th), and wins at stone 9.
const SGF: &str = "(;FF[4]GM[4]GN[1]EV[peer x wuzi]RO[1.1]RU[0]SZ[15]PB[peer]PW[wuzi]RE[B+1]TE[Black win by five connection]
;B[aa]C[opening move];W[ac]C[opening move];B[ba]C[opening move]
;W[bc]C[5ms];B[ca]C[5ms];W[cc]C[5ms];B[da]C[5ms];W[ee]C[5ms];B[ea]C[5ms])

(;FF[4]GM[4]GN[2]EV[wuzi x peer]RO[1.2]RU[0]SZ[15]PB[wuzi]PW[peer]RE[B+1]TE[Black win by five connection]
;B[aa]C[opening move];W[ac]C[opening move];B[ba]C[opening move]
;W[bc]C[5ms];B[ca]C[5ms];W[cc]C[5ms];B[da]C[5ms];W[dc]C[5ms];B[ea]C[5ms])

";

fn msgs() -> Vec<u8> {
    let mut text = Vec::new();
    text.extend_from_slice(
        b"----------------------------------------\nGame ID: 1\nEngines: peer x wuzi\n",
    );
    text.extend_from_slice(b"4) wuzi: depth 3-3 | eval +M9 | pv c3\n"); // ours: does not count
    text.extend_from_slice(b"5) peer: Depth 4-4 | Eval 120 | Time 1ms | D1\n");
    text.extend_from_slice(b"6) wuzi: depth 4-4 | eval -30 | pv e5\n");
    // A raw depth byte (PentaZen) and a line broken by it.
    text.extend_from_slice(b"7) peer: dep \x0e-\x14 ev 40 nd 3k\n-\x0c ev +v9 nd 3k\n");
    // wuzi-match --msgs keeps such a piece as an ignored line of the engine.
    text.extend_from_slice(b"7) peer ignored (control characters): -\\x0c ev +v9 nd 3k\n");
    text.extend_from_slice(b"7) peer: Depth 6-6 | Eval +M3 | Time 1ms | D1 E5 E1\n");
    text.extend_from_slice(b"9) peer: Depth 1-1 | Eval +M1 | Time 0ms | E1\n");
    // Game 2: the peer (White) never announces a win and loses.
    text.extend_from_slice(
        b"----------------------------------------\nGame ID: 2\nEngines: wuzi x peer\n",
    );
    text.extend_from_slice(b"5) wuzi: depth 2-2 | eval +M5 | pv d1\n");
    text.extend_from_slice(b"6) peer: Depth 3-3 | Eval -M4 | Time 0ms | D3\n");
    text
}

/// The rest of the block's line that starts with `key` and a space.
fn value(block: &str, key: &str) -> String {
    block
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key} ")))
        .unwrap_or_else(|| panic!("no {key} in {block}"))
        .to_string()
}

#[test]
fn the_script_draws_the_first_announced_win_and_the_move_before() {
    let dir = std::env::temp_dir().join(format!("wuzi-forced-wins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("games.sgf"), SGF).unwrap();
    std::fs::write(dir.join("msgs.txt"), msgs()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/forced-wins.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "freestyle 15 defence: 1\nfreestyle 15 win: 1\n"
    );
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| b.contains("position"))
        .collect();
    assert_eq!(blocks.len(), 2, "{text}");

    let drawing = |block: &str| -> Board {
        let rows: Vec<&str> = block
            .lines()
            .filter(|l| l.starts_with(['.', 'X', 'O']))
            .collect();
        assert_eq!(rows.len(), 15, "{block}");
        Board::from_diagram(&rows.join("\n"), Rule::Freestyle, Geometry::Square).unwrap()
    };

    // "find the win": 6 stones, the peer (Black) to move; it played d1 = (3,0).
    let win = blocks[0];
    assert_eq!(value(win, "position"), "win");
    assert_eq!(
        value(win, "source"),
        format!(
            "{} game 1 ply 7",
            dir.file_name().unwrap().to_string_lossy()
        )
    );
    // The raw piece of a broken line has no "PLY) NAME:" and is not read;
    // wuzi-match's ignored line is.
    assert_eq!(
        value(win, "announced"),
        "peer +M9 at ply 7: -\\x0c ev +v9 nd 3k"
    );
    assert_eq!(value(win, "to-move"), "peer (X)");
    assert_eq!(value(win, "played"), "3,0");
    assert_eq!(value(win, "right"), "?");
    assert_eq!(value(win, "moves"), "a1 a3 b1 b3 c1 c3");
    let board = drawing(win);
    assert_eq!(board.stone_count(), 6);
    assert_eq!(board.side_to_move(), Color::Black);
    assert!(board.is_empty(Pos::new(3, 0)));

    // "find the defence": one stone less, ours (White) to move, its c3 let the win in.
    let defence = blocks[1];
    assert_eq!(value(defence, "position"), "defence");
    assert_eq!(value(defence, "to-move"), "wuzi (O)");
    assert_eq!(value(defence, "played"), "2,2");
    assert!(
        defence.contains("# wuzi's last line there: depth 4-4 | eval -30 | pv e5"),
        "{defence}"
    );
    let board = drawing(defence);
    assert_eq!(board.stone_count(), 5);
    assert_eq!(board.side_to_move(), Color::White);

    // --score-before-under keeps the game only if the peer's score at its
    // move before the announcement (Eval 120, at stone 5) was below it.
    let count_with = |under: &str| {
        let output = Command::new("python3")
            .arg(&script)
            .args(["--score-before-under", under])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        text.matches("\nposition ").count()
    };
    assert_eq!(count_with("121"), 2);
    assert_eq!(count_with("120"), 0);

    // --settle asks an engine (here the scripted one, which takes the point
    // nearest the centre and says nothing) for its move and verdict.
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-engine/fake_engine.py");
    let output = Command::new("python3")
        .arg(&script)
        .args(["--kind", "win", "--ms", "1000", "--settle"])
        .arg(format!("python3 '{}' --chatty", fake.display()))
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("\nplayed 3,0\nengine-move 7,7\nengine-verdict open\n"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A suite of one win and two defences on a nearly empty board (too few
/// stones to walk back from): the scripted engine announces a win whenever
/// a stone stands on 5,5, so that answer is lost.
fn verify_suite() -> String {
    let defence = |game: u32, right: &str, moves: &str| {
        format!(
            "position defence\nrule 0\nsize 15\nsource made-up game {game} ply 5; peer +M5\n\
             played 0,0\nsettled fake 10 ms; with the right moves blocked: -\nto-move X\n\
             right {right}\nmoves {moves}\n"
        )
    };
    format!(
        "{WIN}\n{}\n{}",
        defence(2, "5,5 9,9", "h8 h9 i8 i9"),
        defence(3, "5,5", "h8 h9 i8 j9")
    )
}

const WIN: &str = "# a suite
# freestyle 15 win: 1 kept, 0 dropped

position win
rule 0
size 15
source made-up game 1 ply 5; peer +M3
played 3,0
settled fake 10 ms; with the right moves blocked: -
to-move X
right 3,0
moves a1 a3 b1 b3
X X . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
O O . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
";

#[test]
fn verify_drops_the_defences_the_engine_refutes() {
    let dir = std::env::temp_dir().join(format!("wuzi-verify-suite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("suite.txt");
    std::fs::write(&suite, verify_suite()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/settle-suite.py");
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-engine/fake_engine.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg("--engine")
        .arg(format!("python3 '{}' --wins-after 5,5", fake.display()))
        .args(["--verify-ms", "100", "--verify"])
        .arg(&suite)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| b.starts_with("position"))
        .collect();
    assert_eq!(blocks.len(), 2, "{text}");
    // The win is kept as it was.
    assert!(blocks[0].starts_with("position win"));
    assert_eq!(value(blocks[0], "right"), "3,0");
    // 5,5 loses; 9,9 holds and stays, with the verification noted.
    assert!(blocks[1].contains("source made-up game 2 ply 5"), "{text}");
    assert_eq!(value(blocks[1], "right"), "9,9");
    assert!(blocks[1].contains("dropped as lost: 5,5"), "{text}");
    // Game 3's only right move loses and four stones leave nothing to walk
    // back to: it is dropped, and the counts say so.
    assert!(!text.contains("made-up game 3"), "{text}");
    assert!(
        text.contains("# freestyle 15 defence: 1 kept, 1 dropped as lost whatever is played"),
        "{text}"
    );
    assert!(
        !text.contains("1 kept, 0 dropped\n"),
        "old counts stay: {text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
