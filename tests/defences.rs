//! Defences the threat code must not miss, in positions drawn as boards
//! (see `search_support`). Black's renju four that comes with two open
//! threes: the board counts and lists it among the fours and settles it by
//! the recursive rule (forbidden when both threes are real). The defence
//! against the opponent's VCF: the far end of the straight four it ends
//! with is a stop.

mod search_support;

use search_support::{assert_plays, assert_unproven, board, search};
use wuzi::board::{Color, Forbidden, Pos, Rule, Threat};

/// From a gauntlet game against Rapfi (renju 15, Black to move). Black's
/// (12,11) would make a four on the diagonal (8,7)-(12,11) once (8,7) is
/// played, and two three shapes: the vertical (12,9)-(12,12) and the
/// anti-diagonal (10,13)-(12,11). The anti-diagonal is no real three: its
/// only straight four needs (13,10), a double four for Black by then.
const FOUR_WITH_TWO_THREE_SHAPES: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . X O . O . . .
    . . . . . . . O . . X X O . .
    . . . . . . . . X . O X . . .
    . . . . . . . . O O X . X . .
    . . . . . . . O . X O X . . .
    . . . . . . . . X . O O . . .
    . . . . . . . O . X O X X . .
    . . . . . . . . . . X . . O .
    . . . . . . . . . . . . . . .
    ";

#[test]
fn a_legal_four_with_two_three_shapes_is_counted_and_listed_as_a_four() {
    let mut b = board(Rule::Renju, FOUR_WITH_TWO_THREE_SHAPES);
    b.play(Pos::new(8, 7)).expect("(8,7) is empty");
    let point = Pos::new(12, 11);
    assert_eq!(b.forbidden(point), None);
    assert_eq!(b.threat(point, Color::Black), Threat::FourThree);
    let fours: Vec<Pos> = b.cells_with_threat(Color::Black, Threat::Four).collect();
    assert!(fours.contains(&point), "fours listed: {fours:?}");
    assert_eq!(
        b.threat_count_at_least(Color::Black, Threat::Four),
        fours.len()
    );
    assert!(b.any_four(Color::Black, |t| t == Threat::FourThree));
}

#[test]
fn a_four_with_two_real_threes_is_forbidden() {
    // (7,7): a four on row 7 (closed at (3,7)), an open three down the
    // column and one on the diagonal.
    let b = board(
        Rule::Renju,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . O X X X . . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . . . X . . . O O
        . . . . . . . . . . . . . O O
        . . . . . . . . . . . . . O .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let point = Pos::new(7, 7);
    assert_eq!(b.forbidden(point), Some(Forbidden::DoubleThree));
    assert_eq!(b.threat(point, Color::Black), Threat::Forbidden);
    // The counts keep it among the fours; what settles it is `threat`.
    let fours: Vec<Pos> = b.cells_with_threat(Color::Black, Threat::Four).collect();
    assert!(fours.contains(&point), "fours listed: {fours:?}");
    assert!(!b.any_four(Color::Black, |t| t == Threat::FourThree));
}

#[test]
fn white_blocks_a_three_at_a_four_with_two_three_shapes() {
    // Black's (8,7) makes a split three on the diagonal whose ends are
    // (7,6) and (12,11). Taking (12,11) holds, so Black has no forced win;
    // a threat solver that missed (12,11) among Black's four points, and
    // so among White's blocks, played (8,7) at once as a win in five.
    let b = board(Rule::Renju, FOUR_WITH_TWO_THREE_SHAPES);
    assert_unproven(&search(&b, 20_000));
}

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

#[test]
fn the_far_end_of_the_last_straight_four_is_a_defence() {
    let b = board(Rule::Renju, BLACK_THREATENS_A_VCF);
    let result = search(&b, 100_000);
    assert_unproven(&result);
    assert_plays(&result, &[(2, 11)]);
}

#[test]
fn black_proves_no_win_through_a_defence_it_overlooks() {
    // The move before: Black's (3,9) made the VCF above, and a search that
    // dropped (2,11) from White's answers proved it a mate in 11.
    let mut b = board(Rule::Renju, BLACK_THREATENS_A_VCF);
    b.remove(Pos::new(3, 9)).expect("Black's stone");
    assert_unproven(&search(&b, 100_000));
}
