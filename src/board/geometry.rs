//! The shape of the grid: which lines exist. Directions are data, so line
//! scans, win detection and line patterns work unchanged on every geometry.

use super::types::STRIDE;

/// How cells connect into lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Geometry {
    /// The usual board: horizontal, vertical and both diagonals.
    #[default]
    Square,
    /// A triangle-mesh (hexagonal) board stored on the same grid: three axes,
    /// horizontal, vertical and the rising diagonal.
    Hex,
}

const SQUARE_DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
const HEX_DIRECTIONS: [(isize, isize); 3] = [(1, 0), (0, 1), (1, -1)];

/// The eight rotations and reflections of the square, as maps
/// `(dx, dy) -> (a·dx + b·dy, c·dx + d·dy)` written `[a, b, c, d]`.
const SQUARE_SYMMETRIES: [[isize; 4]; 8] = [
    [1, 0, 0, 1],
    [-1, 0, 0, 1],
    [1, 0, 0, -1],
    [-1, 0, 0, -1],
    [0, 1, 1, 0],
    [0, -1, 1, 0],
    [0, 1, -1, 0],
    [0, -1, -1, 0],
];
/// The twelve of the hexagon on this grid: the six turns by 60° (one turn
/// takes (dx, dy) to (dx + dy, −dx), so the axis (1, 0) to (1, −1)), and
/// each of them followed by swapping x and y.
const HEX_SYMMETRIES: [[isize; 4]; 12] = [
    [1, 0, 0, 1],
    [1, 1, -1, 0],
    [0, 1, -1, -1],
    [-1, 0, 0, -1],
    [-1, -1, 1, 0],
    [0, -1, 1, 1],
    [0, 1, 1, 0],
    [-1, 0, 1, 1],
    [-1, -1, 0, 1],
    [0, -1, -1, 0],
    [1, 0, -1, -1],
    [1, 1, 0, -1],
];

/// The step in the padded cell array that moves by (dx, dy) on the board.
pub const fn delta((dx, dy): (isize, isize)) -> isize {
    dy * STRIDE as isize + dx
}

const fn deltas<const N: usize>(directions: [(isize, isize); N]) -> [isize; N] {
    let mut deltas = [0; N];
    let mut i = 0;
    while i < N {
        deltas[i] = delta(directions[i]);
        i += 1;
    }
    deltas
}

/// The square directions as steps in the padded cell array.
pub const SQUARE_DELTAS: [isize; 4] = deltas(SQUARE_DIRECTIONS);
/// The hex directions as steps in the padded cell array.
pub const HEX_DELTAS: [isize; 3] = deltas(HEX_DIRECTIONS);

impl Geometry {
    pub const ALL: [Geometry; 2] = [Geometry::Square, Geometry::Hex];

    /// The line directions as (dx, dy), one per line through a cell.
    pub fn directions(self) -> &'static [(isize, isize)] {
        match self {
            Geometry::Square => &SQUARE_DIRECTIONS,
            Geometry::Hex => &HEX_DIRECTIONS,
        }
    }

    /// The same directions as steps in the padded cell array (see `Pos::offset`).
    pub fn deltas(self) -> &'static [isize] {
        match self {
            Geometry::Square => &SQUARE_DELTAS,
            Geometry::Hex => &HEX_DELTAS,
        }
    }

    /// The symmetries of the grid about a cell: the linear maps that carry
    /// every line to a line (see `SQUARE_SYMMETRIES`), the identity first.
    /// Positions that one of them maps onto each other are the same game.
    pub fn symmetries(self) -> &'static [[isize; 4]] {
        match self {
            Geometry::Square => &SQUARE_SYMMETRIES,
            Geometry::Hex => &HEX_SYMMETRIES,
        }
    }

    /// Grid distance between two cells: the fewest single steps along the
    /// directions (forwards or backwards) that lead from one to the other.
    pub fn distance(self, (dx, dy): (isize, isize)) -> usize {
        let (ax, ay) = (dx.unsigned_abs(), dy.unsigned_abs());
        match self {
            Geometry::Square => ax.max(ay),
            // A step along (1, -1) changes x and y in opposite senses at once.
            Geometry::Hex => ax.max(ay).max((dx + dy).unsigned_abs()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Color, Pos, Rule};

    #[test]
    fn hex_distance_counts_anti_diagonal_steps_as_one() {
        assert_eq!(Geometry::Hex.distance((1, -1)), 1);
        assert_eq!(Geometry::Hex.distance((1, 1)), 2);
        assert_eq!(Geometry::Hex.distance((2, -1)), 2);
        assert_eq!(Geometry::Square.distance((1, 1)), 1);
    }

    #[test]
    fn symmetries_carry_lines_to_lines_and_are_all_different() {
        for geometry in Geometry::ALL {
            let axes: Vec<(isize, isize)> = geometry
                .directions()
                .iter()
                .flat_map(|&(dx, dy)| [(dx, dy), (-dx, -dy)])
                .collect();
            let symmetries = geometry.symmetries();
            assert_eq!(symmetries[0], [1, 0, 0, 1]);
            for (i, &[a, b, c, d]) in symmetries.iter().enumerate() {
                for &(dx, dy) in &axes {
                    let image = (a * dx + b * dy, c * dx + d * dy);
                    assert!(
                        axes.contains(&image),
                        "{geometry:?} #{i} moves {dx},{dy} off a line"
                    );
                }
                assert!(
                    !symmetries[..i].contains(&[a, b, c, d]),
                    "{geometry:?} #{i} repeats"
                );
            }
            // Closed under composition: a group, so no image of an image is
            // missing. And the whole group: 8 for the square, 12 for the
            // hexagon (each axis vector can go to each, mirrored or not; on
            // the square the diagonals only go to diagonals).
            for &[a, b, c, d] in symmetries {
                for &[e, f, g, h] in symmetries {
                    let product = [a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h];
                    assert!(symmetries.contains(&product), "{geometry:?} is not closed");
                }
            }
            let expected = match geometry {
                Geometry::Square => 8,
                Geometry::Hex => 12,
            };
            assert_eq!(symmetries.len(), expected);
        }
    }

    #[test]
    fn hex_wins_follow_its_three_axes_only() {
        let five_along = |(dx, dy): (usize, usize), rising: bool| {
            let mut board = Board::with_geometry(9, 9, Rule::Freestyle, Geometry::Hex).unwrap();
            for i in 0..4 {
                let y = if rising { 6 - i * dy } else { 2 + i * dy };
                board.place(Pos::new(2 + i * dx, y), Color::Black).unwrap();
            }
            let y = if rising { 6 - 4 * dy } else { 2 + 4 * dy };
            board.is_win(Pos::new(2 + 4 * dx, y), Color::Black)
        };
        assert!(five_along((1, 0), false));
        assert!(five_along((0, 1), false));
        assert!(five_along((1, 1), true), "(1,-1) is a hex axis");
        assert!(!five_along((1, 1), false), "(1,1) is not a hex axis");
    }
}
