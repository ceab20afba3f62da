//! Which points hold a stone and which are taken at all, one bit mask per
//! row, and the move candidates derived from them: the empty cells within
//! `CANDIDATE_DISTANCE` of a stone. A stone costs one bit to place or lift;
//! the candidates of a row are worked out when asked for, by spreading the
//! stones of the rows around it sideways (a few shifts per row).

use super::geometry::Geometry;
use super::types::{Pos, MAX_SIZE};

/// Distance within which a stone makes an empty cell a move candidate.
pub const CANDIDATE_DISTANCE: usize = 2;

const REACH: usize = CANDIDATE_DISTANCE;
/// Rows of the masks: the board's, and `REACH` empty ones on each side, so
/// that the rows around any board row can be read without bounds checks.
const ROWS: usize = MAX_SIZE + 2 * REACH;
/// Rows around a candidate that can hold the stone that makes it one.
const AREA_ROWS: usize = 2 * REACH + 1;

/// Bit `x` of a row mask stands for column `x`.
type RowMask = u64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Occupancy {
    /// The on-board columns of a row.
    columns: RowMask,
    /// Per row (shifted by `REACH`), the columns holding a stone.
    stones: [RowMask; ROWS],
    /// Per row (shifted by `REACH`), the columns holding a stone or a wall.
    taken: [RowMask; ROWS],
    /// For each row offset `dy` in `-REACH..=REACH`, the column offsets
    /// `dx` (lowest, highest) of the cells within `CANDIDATE_DISTANCE`; the
    /// area is one unbroken run per row in every geometry.
    area: [(isize, isize); AREA_ROWS],
    /// Every row of the area has the same run (the square geometry): the
    /// rows can be merged before they are spread.
    same_runs: bool,
}

/// The positions of the bits set in `mask`, lowest first.
pub(crate) fn set_bits(mask: u64) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            bit
        })
    })
}

/// The columns of `row` moved by `dx` (positive: to the right).
#[inline(always)]
fn shifted(row: RowMask, dx: isize) -> RowMask {
    if dx >= 0 {
        row << dx
    } else {
        row >> -dx
    }
}

/// Every column within `low..=high` columns of one in `row`.
#[inline(always)]
fn spread(row: RowMask, (low, high): (isize, isize)) -> RowMask {
    (low..=high).fold(0, |spread, dx| spread | shifted(row, dx))
}

impl Occupancy {
    /// An empty board of `width` columns.
    pub(crate) fn new(width: usize, geometry: Geometry) -> Occupancy {
        let reach = REACH as isize;
        let area = std::array::from_fn(|row| {
            let dy = row as isize - reach;
            let near = |&dx: &isize| geometry.distance((dx, dy)) <= CANDIDATE_DISTANCE;
            let mut run = (-reach..=reach).filter(near);
            let low = run.next().unwrap_or(0);
            (low, run.next_back().unwrap_or(low))
        });
        Occupancy {
            columns: (1 << width) - 1,
            stones: [0; ROWS],
            taken: [0; ROWS],
            same_runs: area.iter().all(|&run| run == area[0]),
            area,
        }
    }

    fn bit(pos: Pos) -> (usize, RowMask) {
        (pos.y() + REACH, 1 << pos.x())
    }

    /// Marks `pos` taken, by a stone if `stone`, else by a wall.
    pub(crate) fn place(&mut self, pos: Pos, stone: bool) {
        let (row, bit) = Self::bit(pos);
        self.taken[row] |= bit;
        if stone {
            self.stones[row] |= bit;
        }
    }

    /// Clears the stone on `pos`.
    pub(crate) fn lift(&mut self, pos: Pos) {
        let (row, bit) = Self::bit(pos);
        self.taken[row] &= !bit;
        self.stones[row] &= !bit;
    }

    /// The candidate columns of row `y`: empty, within reach of a stone.
    /// A stone `dy` rows from a cell reaches it when the cell lies in the
    /// stone's area row `-dy` (the area is symmetric), hence the reversed
    /// runs.
    #[inline]
    pub(crate) fn candidate_row(&self, y: usize) -> RowMask {
        let rows = &self.stones[y..y + AREA_ROWS];
        let near = if self.same_runs {
            spread(rows.iter().fold(0, |all, &row| all | row), self.area[0])
        } else {
            rows.iter()
                .zip(self.area.iter().rev())
                .fold(0, |near, (&row, &run)| near | spread(row, run))
        };
        near & self.columns & !self.taken[y + REACH]
    }

    pub(crate) fn is_candidate(&self, pos: Pos) -> bool {
        self.candidate_row(pos.y()) & (1 << pos.x()) != 0
    }

    /// The candidates of rows `0..height`, row by row, appended to `out`.
    pub(crate) fn collect_candidates(&self, height: usize, out: &mut Vec<Pos>) {
        for y in 0..height {
            out.extend(set_bits(self.candidate_row(y)).map(|x| Pos::new(x, y)));
        }
    }

    #[cfg(test)]
    fn candidates(&self, height: usize) -> Vec<Pos> {
        let mut cells = Vec::new();
        self.collect_candidates(height, &mut cells);
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The candidates of a board holding `stones`, by the definition.
    fn by_definition(width: usize, height: usize, geometry: Geometry, stones: &[Pos]) -> Vec<Pos> {
        let near = |p: Pos, s: Pos| {
            let d = (
                s.x() as isize - p.x() as isize,
                s.y() as isize - p.y() as isize,
            );
            geometry.distance(d) <= CANDIDATE_DISTANCE
        };
        (0..height)
            .flat_map(|y| (0..width).map(move |x| Pos::new(x, y)))
            .filter(|p| !stones.contains(p) && stones.iter().any(|&s| near(*p, s)))
            .collect()
    }

    #[test]
    fn candidates_are_the_empty_cells_within_reach_in_every_geometry() {
        // Stones at the edges and corners too, where the spreading must stop.
        let (width, height) = (32, 7);
        let stones = [(0, 0), (31, 6), (5, 3), (6, 4), (30, 0), (0, 6), (17, 2)]
            .map(|(x, y)| Pos::new(x, y));
        for geometry in Geometry::ALL {
            let mut occupancy = Occupancy::new(width, geometry);
            for &stone in &stones {
                occupancy.place(stone, true);
            }
            let found = occupancy.candidates(height);
            assert_eq!(found, by_definition(width, height, geometry, &stones));
            for &stone in &stones {
                assert!(!occupancy.is_candidate(stone));
            }
        }
    }

    #[test]
    fn walls_are_never_candidates_and_make_none() {
        let mut occupancy = Occupancy::new(9, Geometry::Square);
        occupancy.place(Pos::new(4, 4), false);
        assert!(occupancy.candidates(9).is_empty());
        occupancy.place(Pos::new(4, 5), true);
        assert!(!occupancy.is_candidate(Pos::new(4, 4)));
        assert!(occupancy.is_candidate(Pos::new(4, 3)));
        occupancy.lift(Pos::new(4, 5));
        assert!(occupancy.candidates(9).is_empty());
    }
}
