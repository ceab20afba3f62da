//! What the search tests share: boards drawn as text, a node-limited search
//! on one thread (every run the same), and the assertions on its result.
//!
//! Drawings: `X` Black, `O` White, `.` empty; rows top to bottom are y = 0..,
//! columns left to right are x = 0... The side to move follows from the
//! counts (Black when both have as many stones). Moves are written as
//! (x, y).

#![allow(dead_code)]

use std::sync::atomic::AtomicBool;
use wuzi::board::{Board, Geometry, Pos, Rule};
use wuzi::search::{EngineOptions, Limits, SearchResult, Searcher, WuziSearcher, MATE_BOUND};

pub fn board(rule: Rule, drawing: &str) -> Board {
    Board::from_diagram(drawing, rule, Geometry::Square).expect("a drawn board")
}

pub fn search(board: &Board, nodes: u64) -> SearchResult {
    let mut searcher = WuziSearcher::new(&EngineOptions {
        memory_bytes: 48 << 20,
        threads: 1,
    });
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    searcher.search(board, &limits, &AtomicBool::new(false), &mut |_| {})
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
