//! Black's fours in renju that come with two open threes: the board counts
//! and lists them among the fours, and settles each by the recursive rule
//! (forbidden when both threes are real). Drawings as in `tactics.rs`: `X`
//! Black, `O` White, rows top to bottom are y = 0...

use std::sync::atomic::AtomicBool;
use wuzi::board::{Board, Color, Forbidden, Geometry, Pos, Rule, Threat};
use wuzi::search::{EngineOptions, Limits, Searcher, WuziSearcher, MATE_BOUND};

fn board(drawing: &str) -> Board {
    Board::from_diagram(drawing, Rule::Renju, Geometry::Square).expect("a drawn board")
}

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
    let mut b = board(FOUR_WITH_TWO_THREE_SHAPES);
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
    let b = board(FOUR_WITH_TWO_THREE_SHAPES);
    let mut searcher = WuziSearcher::new(&EngineOptions {
        memory_bytes: 48 << 20,
        threads: 1,
    });
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let result = searcher.search(&b, &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(
        result.score < MATE_BOUND,
        "Black has no forced win here: {:?} scored {} by {:?}",
        result.best_move,
        result.score,
        result.pv
    );
}
