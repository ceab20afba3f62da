//! What the search tests share: boards drawn as text, a node-limited search
//! on one thread (every run the same), and the assertions on its result.
//!
//! Drawings: `X` Black, `O` White, `.` empty; rows top to bottom are y = 0..,
//! columns left to right are x = 0... The side to move follows from the
//! counts (Black when both have as many stones). Moves are written as
//! (x, y).

#![allow(dead_code)]

use std::sync::atomic::AtomicBool;
use wuzi::board::{Board, Color, Geometry, Pos, Rule};
use wuzi::search::{
    EngineOptions, Limits, SearchEvent, SearchResult, Searcher, WuziSearcher, MATE_BOUND,
};

pub fn board(rule: Rule, drawing: &str) -> Board {
    Board::from_diagram(drawing, rule, Geometry::Square).expect("a drawn board")
}

pub fn search(board: &Board, nodes: u64) -> SearchResult {
    search_reporting(board, nodes, &mut |_| {})
}

/// `search`, with every event of the search passed to `report`.
pub fn search_reporting(
    board: &Board,
    nodes: u64,
    report: &mut dyn FnMut(&SearchEvent),
) -> SearchResult {
    let mut searcher = WuziSearcher::new(&EngineOptions {
        memory_bytes: 48 << 20,
        threads: 1,
    });
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    searcher.search(board, &limits, &AtomicBool::new(false), report)
}

/// The position blocks of a suite file (`tests/data/*.txt`): blank lines
/// between blocks, `#` starting a comment line.
pub fn suite_blocks(text: &str) -> Vec<Vec<&str>> {
    text.split("\n\n")
        .map(|block| {
            block
                .lines()
                .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|lines| !lines.is_empty())
        .collect()
}

/// The value of a block's `name value` line.
pub fn field<'a>(lines: &[&'a str], name: &str) -> &'a str {
    lines
        .iter()
        .find_map(|line| line.strip_prefix(name).and_then(|r| r.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no {name} in {lines:?}"))
}

/// A block's side to move: `to-move X` (Black) or `to-move O` (White).
pub fn to_move(lines: &[&str]) -> Color {
    match field(lines, "to-move") {
        "X" => Color::Black,
        "O" => Color::White,
        other => panic!("to-move {other}"),
    }
}

/// A move written `x,y`.
pub fn parse_move(text: &str) -> Pos {
    let (x, y) = text.split_once(',').expect("x,y");
    Pos::new(x.parse().expect("x"), y.parse().expect("y"))
}

pub fn assert_plays(result: &SearchResult, right: &[(usize, usize)]) {
    let right: Vec<Pos> = right.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    let played = result.best_move.expect("a move");
    assert!(
        right.contains(&played),
        "played {played:?} (score {}), expected one of {right:?}",
        result.score
    );
}

pub fn assert_wins(result: &SearchResult) {
    assert!(
        result.score > MATE_BOUND,
        "not a proven win: {}",
        result.score
    );
}

/// Neither side's score is a proven result: the position is still open.
pub fn assert_unproven(result: &SearchResult) {
    assert!(
        result.score.abs() < MATE_BOUND,
        "{:?} scored {} (proven) by {:?}",
        result.best_move,
        result.score,
        result.pv
    );
}
