//! The defence against the opponent's VCF keeps every move that stops it,
//! on a position drawn as a board (`X` Black, `O` White, rows top to bottom
//! are y = 0..) and searched under a node limit on one thread.

use std::sync::atomic::AtomicBool;
use wuzi::board::{Board, Geometry, Pos, Rule};
use wuzi::search::{EngineOptions, Limits, SearchResult, Searcher, WuziSearcher, MATE_BOUND};

/// From a renju gauntlet game against Rapfi, White to move. If White
/// passed, Black would win by fours: (1,9) on row 9, (2,8) on the
/// anti-diagonal through (3,7), each blocked at its five point, and (2,7),
/// a straight four down column 2. White's (2,11) holds: it takes the far
/// end of that straight four, a point no move of the VCF plays.
const BLACK_THREATENS_A_VCF: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . O . . . . . . . . .
    . . . . X . . . . . . . . . .
    . . . X O O O X . . . . . . .
    . . . O X X . . . . . . . . .
    . . X X X O O . . . . . . . .
    . . X O O . . . . . . . . . .
    . . . . X . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    ";

fn search(board: &Board, nodes: u64) -> SearchResult {
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

#[test]
fn the_far_end_of_the_last_straight_four_is_a_defence() {
    let b = Board::from_diagram(BLACK_THREATENS_A_VCF, Rule::Renju, Geometry::Square)
        .expect("a drawn board");
    let result = search(&b, 100_000);
    assert!(
        result.score > -MATE_BOUND,
        "White is not lost here: {:?} scored {} by {:?}",
        result.best_move,
        result.score,
        result.pv
    );
    assert_eq!(result.best_move, Some(Pos::new(2, 11)));
}

#[test]
fn black_proves_no_win_through_a_defence_it_overlooks() {
    // The move before: Black's (3,9) made the VCF above, and a search that
    // dropped (2,11) from White's answers proved it a mate in 11.
    let mut b = Board::from_diagram(BLACK_THREATENS_A_VCF, Rule::Renju, Geometry::Square)
        .expect("a drawn board");
    b.remove(Pos::new(3, 9)).expect("Black's stone");
    let result = search(&b, 100_000);
    assert!(
        result.score < MATE_BOUND,
        "Black has no forced win here: {:?} scored {} by {:?}",
        result.best_move,
        result.score,
        result.pv
    );
}
