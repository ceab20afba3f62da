//! Renju endings on a nearly full board: Black to move with nowhere to play
//! but a forbidden point has lost (it must play there, and a forbidden
//! move loses), and White steers into that ending rather than a draw
//! (drawings as `search_support` describes them).

mod search_support;

use search_support::{assert_plays, assert_unproven, assert_wins, board, search};
use wuzi::board::{Pos, Rule};
use wuzi::search::MATE_BOUND;

/// One cell left, d4 (x 3, y 3): Black's overline (seven along row 3) and
/// no five along any other line.
const ONLY_A_FORBIDDEN_CELL: &str = "
    X X X X O O O
    X X O O O X O
    O O O X O X X
    X X X . X X X
    O X O X O O O
    X X O O X X O
    X O O O X O O
";

/// The same board one move earlier, White to move with c3 (x 2, y 2) empty
/// too. White on c3 leaves Black only the overline; White on d4 leaves
/// Black c3, which fills the board without a five: a draw.
const WHITE_CHOOSES_THE_ENDING: &str = "
    X X X X O O O
    X X O O O X O
    O O . X O X X
    X X X . X X X
    O X O X O O O
    X X O O X X O
    X O O O X O O
";

#[test]
fn black_with_only_a_forbidden_cell_has_lost() {
    let b = board(Rule::Renju, ONLY_A_FORBIDDEN_CELL);
    assert!(b.forbidden(Pos::new(3, 3)).is_some());
    let result = search(&b, 10_000);
    assert!(
        result.score < -MATE_BOUND,
        "Black's only cell is forbidden, yet it scored {}",
        result.score
    );
}

#[test]
fn white_leaves_black_only_the_forbidden_cell() {
    let b = board(Rule::Renju, WHITE_CHOOSES_THE_ENDING);
    let result = search(&b, 10_000);
    assert_plays(&result, &[(2, 2)]);
    assert_wins(&result);
}

#[test]
fn the_same_board_in_standard_is_a_draw() {
    // Without forbidden points the last cell is Black's to take; under
    // exactly five its seven in a row wins nothing, so the board fills and
    // the game is drawn.
    let b = board(Rule::Standard, ONLY_A_FORBIDDEN_CELL);
    let result = search(&b, 10_000);
    assert_plays(&result, &[(3, 3)]);
    assert_unproven(&result);
}
