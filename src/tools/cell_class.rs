//! Cell classes for `tune --features cells`: an empty cell's line patterns
//! over every direction taken as an unordered set, so that the same shapes
//! in other directions are one class (715 classes of four patterns drawn
//! from ten; the hex board's third direction pads with `Pattern::None`).

use crate::board::{Board, Color, Pattern, Rule, Threat};
use std::sync::OnceLock;

pub const CELL_CLASSES: usize = 715;
/// The class of a cell with no pattern in any direction.
pub const NOTHING: usize = 0;

const N: usize = Pattern::COUNT;

/// The class of a cell whose lines read `patterns` (at most four).
pub fn cell_class(patterns: &[Pattern]) -> usize {
    static INDEX: OnceLock<Vec<u16>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut table = vec![u16::MAX; N * N * N * N];
        let mut next = 0u16;
        for a in 0..N {
            for b in a..N {
                for c in b..N {
                    for d in c..N {
                        table[((a * N + b) * N + c) * N + d] = next;
                        next += 1;
                    }
                }
            }
        }
        assert_eq!(usize::from(next), CELL_CLASSES);
        table
    });
    let mut p = [Pattern::None as usize; 4];
    for (slot, pattern) in p.iter_mut().zip(patterns) {
        *slot = *pattern as usize;
    }
    p.sort_unstable();
    usize::from(index[((p[0] * N + p[1]) * N + p[2]) * N + p[3]])
}

/// The patterns of every class, in `cell_class`'s numbering.
pub fn class_patterns() -> Vec<[Pattern; 4]> {
    let mut out = Vec::with_capacity(CELL_CLASSES);
    for a in 0..N {
        for b in a..N {
            for c in b..N {
                for d in c..N {
                    out.push([a, b, c, d].map(|code| Pattern::from_code(code as u8)));
                }
            }
        }
    }
    out
}

/// Calls `visit(side, patterns)` for each empty cell of `board` and each
/// side (0: the side to move, 1: the opponent) with the cell's line patterns
/// for that side, one per direction. Black's forbidden points in renju are
/// left out, as the evaluation's threat counts leave them out.
pub fn visit_empty_cells(board: &Board, mut visit: impl FnMut(usize, &[Pattern])) {
    let me = board.side_to_move();
    let directions = board.geometry().deltas().len();
    let mut patterns = [Pattern::None; 4];
    for pos in board.empty_cells() {
        for (side, color) in [me, me.opponent()].into_iter().enumerate() {
            for (dir, slot) in patterns[..directions].iter_mut().enumerate() {
                *slot = board.pattern(pos, color, dir);
            }
            let lines = &patterns[..directions];
            let renju_black = board.rule() == Rule::Renju && color == Color::Black;
            if Threat::combine(lines, renju_black) != Threat::Forbidden {
                visit(side, lines);
            }
        }
    }
}

/// The empty cells of `board` by class, for the side to move (`[0]`) and
/// the opponent (`[1]`), as `visit_empty_cells` sees them.
pub fn counts(board: &Board) -> [Vec<f64>; 2] {
    let mut counts = [vec![0.0; CELL_CLASSES], vec![0.0; CELL_CLASSES]];
    visit_empty_cells(board, |side, patterns| {
        counts[side][cell_class(patterns)] += 1.0;
    });
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn a_class_is_the_same_in_any_order_and_differs_between_sets() {
        use Pattern::*;
        let a = cell_class(&[OpenTwo, None, Three, None]);
        assert_eq!(a, cell_class(&[Three, OpenTwo, None, None]));
        assert_eq!(a, cell_class(&[None, None, OpenTwo, Three]));
        assert_ne!(a, cell_class(&[OpenTwo, OpenTwo, Three, None]));
        assert_ne!(a, cell_class(&[OpenTwo, Two, None, None]));
        assert_eq!(cell_class(&[None; 4]), NOTHING);
        // Three directions (hex) read as four with one empty line.
        assert_eq!(cell_class(&[OpenTwo, Three, None]), a);
    }

    #[test]
    fn every_multiset_has_its_own_class() {
        let all = Pattern::ALL;
        assert_eq!(all.len(), N);
        let mut seen = std::collections::HashSet::new();
        for a in 0..N {
            for b in a..N {
                for c in b..N {
                    for d in c..N {
                        let class = cell_class(&[all[d], all[b], all[c], all[a]]);
                        assert!(class < CELL_CLASSES);
                        seen.insert(class);
                    }
                }
            }
        }
        assert_eq!(seen.len(), CELL_CLASSES);
        for (class, patterns) in class_patterns().iter().enumerate() {
            assert_eq!(cell_class(patterns), class);
        }
    }

    #[test]
    fn counts_cover_every_empty_cell_for_both_sides() {
        let board = Board::from_diagram(
            "
            . . . . . . .
            . . . . . . .
            . . X X . . .
            . . . O . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            ",
            Rule::Freestyle,
            Geometry::Square,
        )
        .unwrap();
        let counts = counts(&board);
        let empty = board.empty_cells().count() as f64;
        for side in &counts {
            assert_eq!(side.iter().sum::<f64>(), empty);
        }
        // White to move: the cell between X X's open ends makes Black's
        // three, so the opponent's side has cells beyond the empty class.
        assert!(counts[1][NOTHING] < empty);
        let open_two = cell_class(&[Pattern::OpenTwo]);
        assert!(counts[0][open_two] + counts[1][open_two] > 0.0);
    }
}
