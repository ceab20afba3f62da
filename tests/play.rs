//! The terminal board's logic without a terminal: scripted lines in, the
//! board as text out (`wuzi::play::session::Play`). Engine games use a fixed
//! node budget, so nothing here depends on the machine's speed.

use wuzi::board::{Color, Geometry, Rule};
use wuzi::play::game::{GameSetup, Swap2Stage};
use wuzi::play::session::{Play, Strength};

const FAST: Strength = Strength {
    level: 9,
    time_ms: 1000,
    nodes: Some(2000),
};

fn setup(rule: Rule, width: usize, height: usize, human: [bool; 2]) -> GameSetup {
    GameSetup {
        rule,
        width,
        height,
        geometry: Geometry::Square,
        human,
        swap2: false,
    }
}

/// Types each line and waits for the engine after each.
fn script(play: &mut Play, lines: &[&str]) {
    for line in lines {
        play.type_line(line);
        play.settle();
    }
}

/// Board rows as `board_text` writes them.
fn text(rows: &[&str]) -> String {
    rows.iter().map(|row| format!("{row}\n")).collect()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-play-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn renju_marks_blacks_forbidden_points_and_refuses_them() {
    let mut play = Play::new(setup(Rule::Renju, 9, 9, [true, true]), FAST).unwrap();
    script(&mut play, &["d5", "a9", "e5", "i9", "f3", "a1", "f4", "i1"]);
    let expected = text(&[
        "    a  b  c  d  e  f  g  h  i",
        " 1  O  .  .  .  .  .  .  . [O]",
        " 2  .  .  .  .  .  .  .  .  .",
        " 3  .  .  .  .  .  X  .  .  .",
        " 4  .  .  .  .  .  X  .  .  .",
        " 5  .  .  .  X  X  *  .  .  .",
        " 6  .  .  .  .  .  .  .  .  .",
        " 7  .  .  .  .  .  .  .  .  .",
        " 8  .  .  .  .  .  .  .  .  .",
        " 9  O  .  .  .  .  .  .  .  O",
    ]);
    assert_eq!(play.board_text(), expected);
    play.type_line("f5");
    assert!(
        play.message.contains("forbidden for Black"),
        "{}",
        play.message
    );
    assert_eq!(
        play.board_text(),
        expected,
        "a refused move changes nothing"
    );
    // White may play there.
    script(&mut play, &["b2", "f5"]);
    assert!(
        play.board_text().contains(" 5  .  .  .  X  X [O]"),
        "{}",
        play.board_text()
    );
}

#[test]
fn moves_numbers_undo_and_redo_between_two_people() {
    let mut play = Play::new(setup(Rule::Freestyle, 7, 5, [true, true]), FAST).unwrap();
    let empty = play.board_text();
    assert_eq!(empty.lines().next(), Some("    a  b  c  d  e  f  g"));
    assert_eq!(empty.lines().count(), 6, "{empty}");
    script(&mut play, &["d3", "e3", "d2"]);
    let three = play.board_text();
    assert_eq!(three.lines().nth(2), Some(" 2  .  .  . [X] .  .  ."));
    assert_eq!(three.lines().nth(3), Some(" 3  .  .  .  X  O  .  ."));
    play.type_line("numbers");
    assert_eq!(
        play.board_text().lines().nth(3),
        Some(" 3  .  .  .  1  2  .  .")
    );
    play.type_line("numbers");
    // Between two people undo takes back one stone at a time.
    script(&mut play, &["undo"]);
    assert_eq!(play.message, "took back 1 stone");
    assert_eq!(play.game.board().stone_count(), 2);
    script(&mut play, &["undo", "undo"]);
    assert_eq!(play.board_text(), empty);
    script(&mut play, &["undo"]);
    assert_eq!(play.message, "nothing to undo");
    script(&mut play, &["redo", "redo", "redo"]);
    assert_eq!(play.board_text(), three);
    // A new stone ends what redo could replay.
    script(&mut play, &["undo", "a1", "redo"]);
    assert_eq!(play.message, "nothing to redo");
    for (line, complaint) in [
        ("a1", "taken"),
        ("h1", "off the board"),
        ("jump", "not a move"),
    ] {
        play.type_line(line);
        assert!(play.message.contains(complaint), "{line}: {}", play.message);
    }
}

#[test]
fn against_the_engine_undo_takes_back_the_reply_too() {
    let mut play = Play::new(setup(Rule::Renju, 15, 15, [true, false]), FAST).unwrap();
    let empty = play.board_text();
    script(&mut play, &["h8"]);
    assert_eq!(play.game.board().stone_count(), 2, "the engine answered");
    assert!(
        play.message.starts_with("the engine plays"),
        "{}",
        play.message
    );
    assert!(play.search_line().unwrap().starts_with("depth "));
    let answered = play.board_text();
    assert!(answered.contains("[O]"), "{answered}");
    script(&mut play, &["undo"]);
    assert_eq!(play.message, "took back 2 stones");
    assert_eq!(play.board_text(), empty);
    script(&mut play, &["redo"]);
    assert_eq!(play.board_text(), answered);
    script(&mut play, &["hint"]);
    assert!(play.message.starts_with("hint: "), "{}", play.message);
    assert_eq!(play.board_text().matches(" ? ").count(), 1);
    assert_eq!(play.game.board().stone_count(), 2, "a hint plays nothing");
    // The person plays White: the engine opens.
    let mut play = Play::new(setup(Rule::Freestyle, 15, 15, [false, true]), FAST).unwrap();
    play.settle();
    assert_eq!(play.game.board().stone_count(), 1);
}

#[test]
fn records_are_saved_loaded_and_reviewed() {
    let dir = scratch("records");
    let mut play = Play::new(setup(Rule::Renju, 15, 15, [true, true]), FAST).unwrap();
    // White wanders along row 1 while Black makes five on row 8.
    script(
        &mut play,
        &["d8", "a1", "e8", "c1", "f8", "e1", "g8", "g1", "h8"],
    );
    assert!(play.message.contains("Black wins"), "{}", play.message);
    let finished = play.board_text();
    for name in ["game.sgf", "game.psq"] {
        let path = dir.join(name);
        let path = path.to_str().unwrap();
        script(&mut play, &[&format!("save {path}")]);
        assert!(
            play.message.starts_with("saved 9 moves"),
            "{}",
            play.message
        );
        let mut other = Play::new(setup(Rule::Renju, 15, 15, [true, false]), FAST).unwrap();
        script(&mut other, &[&format!("load {path}")]);
        assert!(other.paused, "a loaded game waits for go");
        assert_eq!(other.board_text(), finished, "{name}");
    }
    let sgf = std::fs::read_to_string(dir.join("game.sgf")).unwrap();
    assert!(
        sgf.contains("RU[4]") && sgf.contains("RE[B+1]") && sgf.contains(";B[hh]"),
        "{sgf}"
    );

    script(&mut play, &["analyze"]);
    let review = play.review.as_ref().expect("the review is done");
    assert_eq!(review.reviews.len(), 9);
    let blunders = review.blunder_lines();
    assert!(blunders.iter().any(|l| l.contains(" W ")), "{blunders:?}");
    let graph = review.graph_text(3);
    assert!(graph.lines().next().unwrap().contains('!'), "{graph}");
    assert!(graph.contains('+'), "Black ends ahead:\n{graph}");
    // Stepping shows the position at that move.
    script(&mut play, &["next", "next"]);
    assert_eq!(play.shown_board().stone_count(), 2);
    assert!(
        play.message.starts_with("move 2 White a1"),
        "{}",
        play.message
    );
    play.type_line("h9");
    assert!(play.message.starts_with("in analysis"), "{}", play.message);
    script(&mut play, &["back"]);
    assert_eq!(play.board_text(), finished);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn swap2_when_the_engine_opens_and_when_the_person_does() {
    let mut swap2 = setup(Rule::Freestyle, 15, 15, [false, true]);
    swap2.swap2 = true;
    let mut play = Play::new(swap2, FAST).unwrap();
    play.settle();
    assert_eq!(play.game.board().stone_count(), 3, "{}", play.message);
    assert_eq!(play.game.swap2_stage(), Some(Swap2Stage::SecondChooses));
    play.type_line("h1");
    assert!(play.message.contains("swap2"), "{}", play.message);
    script(&mut play, &["white"]);
    assert_eq!(play.game.human_color(), Some(Color::White));
    script(&mut play, &["a1"]);
    assert_eq!(
        play.game.board().stone_count(),
        5,
        "the engine answered as Black"
    );

    swap2.human = [true, false];
    let mut play = Play::new(swap2, FAST).unwrap();
    script(&mut play, &["h8", "h9", "j8"]);
    let stones = play.game.board().stone_count();
    match play.game.swap2_stage() {
        Some(Swap2Stage::OpenerChooses) => {
            assert_eq!(stones, 5);
            script(&mut play, &["black"]);
            assert_eq!(play.game.human_color(), Some(Color::Black));
            assert_eq!(
                play.game.board().stone_count(),
                6,
                "the engine plays White's sixth"
            );
        }
        None => assert!(stones == 3 || stones == 4, "{}", play.message),
        other => panic!("{other:?}"),
    }
}

#[test]
fn rectangles_and_the_hex_board_are_drawn() {
    let mut hex = setup(Rule::Freestyle, 6, 5, [true, true]);
    hex.geometry = Geometry::Hex;
    let mut play = Play::new(hex, FAST).unwrap();
    script(&mut play, &["a5", "b2"]);
    let expected = text(&[
        "    a  b  c  d  e  f",
        " 1  .  .  .  .  .  .",
        " 2   . [O] .  .  .  .",
        " 3     .  .  .  .  .  .",
        " 4      .  .  .  .  .  .",
        " 5        X  .  .  .  .  .",
    ]);
    assert_eq!(play.board_text(), expected);
    assert!(
        play.status().starts_with("freestyle 6x5 hex"),
        "{}",
        play.status()
    );
}
