//! Renju's forbidden points for Black, decided exactly as the RIF rules define
//! them. The definitions, in the order they are applied to a black stone at P:
//!
//! 1. If P makes an exact five in any line, the move is legal (it wins).
//! 2. Six or more black stones in a row through P: **overline**.
//! 3. Two or more fours through P: **double-four**. A *four* is a line where one
//!    more stone makes an exact five; a straight four `.XXXX.` is one four, but
//!    `X.XXX.X`, `XX.XX.XX` and `XXX.X.XXX` are two fours on one line.
//! 4. Two or more threes through P: **double-three**. A line (that is not a
//!    four) is a *three* if some empty point q on it turns it into a straight
//!    four through P, where q makes no five and q is not itself forbidden on the
//!    board that already holds P. That last condition is what makes the test
//!    recursive.
//!
//! The judge reads the board's cells and lays its hypothetical stones on top of
//! them, so deciding a point never copies or changes the board.

use super::types::{Cell, Color, Pos};
use super::Forbidden;
use std::sync::atomic::{AtomicU64, Ordering};

/// Decides forbidden points for Black on one position.
pub(crate) struct Judge<'a> {
    cells: &'a [Cell],
    deltas: &'a [isize],
    /// Black stones assumed on top of `cells` while the recursion explores.
    assumed: Vec<Pos>,
}

impl<'a> Judge<'a> {
    pub(crate) fn new(cells: &'a [Cell], deltas: &'a [isize]) -> Judge<'a> {
        Judge {
            cells,
            deltas,
            assumed: Vec::with_capacity(8),
        }
    }

    fn is_black(&self, pos: Pos) -> bool {
        self.cells[pos.index()] == Cell::Stone(Color::Black) || self.assumed.contains(&pos)
    }

    fn is_empty(&self, pos: Pos) -> bool {
        self.cells[pos.index()] == Cell::Empty && !self.assumed.contains(&pos)
    }

    /// How many black stones follow `pos` along `delta * sign`. The walls
    /// around the board end every such row.
    fn black_steps(&self, pos: Pos, delta: isize, sign: isize) -> isize {
        let mut steps = 0;
        while self.is_black(pos.offset(delta * sign, steps + 1)) {
            steps += 1;
        }
        steps
    }

    /// Length of the black row through `pos` along `delta`, counting `pos`
    /// itself as black.
    fn row_length(&self, pos: Pos, delta: isize) -> usize {
        (1 + self.black_steps(pos, delta, 1) + self.black_steps(pos, delta, -1)) as usize
    }

    fn makes_exact_five(&self, pos: Pos) -> bool {
        self.deltas.iter().any(|&d| self.row_length(pos, d) == 5)
    }

    /// The forbidden kind of a black stone at the empty point `pos`, if any.
    pub(crate) fn forbidden(&mut self, pos: Pos) -> Option<Forbidden> {
        if !self.is_empty(pos) || self.makes_exact_five(pos) {
            return None;
        }
        if self.deltas.iter().any(|&d| self.row_length(pos, d) > 5) {
            return Some(Forbidden::Overline);
        }
        self.assumed.push(pos);
        let verdict = self.judge_placed(pos);
        self.assumed.pop();
        verdict
    }

    /// Counts fours and threes of the stone just assumed at `pos`.
    fn judge_placed(&mut self, pos: Pos) -> Option<Forbidden> {
        let deltas = self.deltas;
        let fours: Vec<usize> = deltas.iter().map(|&d| self.fours(pos, d)).collect();
        if fours.iter().sum::<usize>() >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        let mut threes = 0;
        for (&d, &four_count) in deltas.iter().zip(&fours) {
            if four_count == 0 && self.is_three(pos, d) {
                threes += 1;
                if threes == 2 {
                    return Some(Forbidden::DoubleThree);
                }
            }
        }
        None
    }

    /// The points on the line through `pos` (itself black) that complete an
    /// exact five containing `pos`. There is at most one on each side.
    fn five_completions(&self, pos: Pos, delta: isize) -> [Option<isize>; 2] {
        let mut found = [None; 2];
        for (side, sign) in [-1isize, 1].into_iter().enumerate() {
            // The first non-black point on this side is the only candidate: any
            // further point would leave a gap between it and `pos`.
            let step = self.black_steps(pos, delta, sign) + 1;
            let point = pos.offset(delta * sign, step);
            if step <= 4 && self.is_empty(point) && self.row_length(point, delta) == 5 {
                found[side] = Some(step * sign);
            }
        }
        found
    }

    /// How many fours the line through `pos` holds: 0, 1, or 2 for the
    /// one-line double fours. The two ends of a straight four are one four.
    fn fours(&self, pos: Pos, delta: isize) -> usize {
        match self.five_completions(pos, delta) {
            [Some(left), Some(right)] if right - left == 5 => 1,
            found => found.iter().flatten().count(),
        }
    }

    /// Whether the line through `pos` (itself black) is a three: one more stone
    /// on some point q makes a straight four through `pos`, and q is a point
    /// Black may actually play that does not already win.
    fn is_three(&mut self, pos: Pos, delta: isize) -> bool {
        for step in (-3isize..=3).filter(|&s| s != 0) {
            let extension = pos.offset(delta, step);
            if !self.is_empty(extension) {
                continue;
            }
            self.assumed.push(extension);
            let straight = self.is_straight_four(pos, delta);
            self.assumed.pop();
            if straight && !self.makes_exact_five(extension) && self.forbidden(extension).is_none()
            {
                return true;
            }
        }
        false
    }

    /// Whether `pos` lies in exactly four black stones in a row whose both ends
    /// are empty and would each make an exact five.
    fn is_straight_four(&self, pos: Pos, delta: isize) -> bool {
        if self.row_length(pos, delta) != 4 {
            return false;
        }
        let edge = |sign: isize| pos.offset(delta * sign, self.black_steps(pos, delta, sign) + 1);
        [edge(-1), edge(1)]
            .into_iter()
            .all(|end| self.is_empty(end) && self.row_length(end, delta) == 5)
    }
}

/// Verdicts of the recursive rule, remembered per (position hash, point) in
/// a small direct-mapped table. Lossy and lock-free, so a shared board can
/// fill it from `&self`.
pub(crate) struct VerdictCache {
    slots: Box<[AtomicU64]>,
}

const CACHE_SLOTS: usize = 1 << 12;
/// The low bit of a slot holds the verdict: set if forbidden.
const FORBIDDEN_BIT: u64 = 1;

impl Default for VerdictCache {
    fn default() -> VerdictCache {
        VerdictCache {
            slots: (0..CACHE_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Clone for VerdictCache {
    /// A copy starts empty: verdicts are cheap to find again.
    fn clone(&self) -> VerdictCache {
        VerdictCache::default()
    }
}

impl VerdictCache {
    fn tag(hash: u64, pos: Pos) -> u64 {
        (hash ^ (pos.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) & !FORBIDDEN_BIT
    }

    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> 52) as usize % CACHE_SLOTS]
    }

    /// The remembered verdict; only double-threes are ever stored.
    pub(crate) fn get(&self, hash: u64, pos: Pos) -> Option<Option<Forbidden>> {
        let tag = Self::tag(hash, pos);
        let entry = self.slot(tag).load(Ordering::Relaxed);
        (entry & !FORBIDDEN_BIT == tag && tag != 0)
            .then(|| (entry & FORBIDDEN_BIT != 0).then_some(Forbidden::DoubleThree))
    }

    pub(crate) fn put(&self, hash: u64, pos: Pos, verdict: Option<Forbidden>) {
        debug_assert!(matches!(verdict, None | Some(Forbidden::DoubleThree)));
        let tag = Self::tag(hash, pos);
        let bit = if verdict.is_some() { FORBIDDEN_BIT } else { 0 };
        self.slot(tag).store(tag | bit, Ordering::Relaxed);
    }

    pub(crate) fn clear(&self) {
        for slot in self.slots.iter() {
            slot.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Geometry, Rule};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The board answers from its line patterns and runs the recursion only
    /// on candidate double-threes; that must agree with the judge run on
    /// every empty point, through random crowded games.
    #[test]
    fn pattern_shortcut_agrees_with_the_full_judge() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut checked_forbidden = 0;
        for game in 0..16 {
            let geometry = Geometry::ALL[game % 2];
            let mut board = Board::with_geometry(15, 15, Rule::Renju, geometry).unwrap();
            for _ in 0..70 {
                let near: Vec<Pos> = board.candidates().collect();
                let pos = if near.is_empty() {
                    Pos::new(7, 7)
                } else {
                    near[rng.gen_range(0..near.len())]
                };
                board.make(pos);
                let mut judge = Judge::new(&board.cells, board.geometry.deltas());
                for p in board.empty_cells() {
                    let exact = judge.forbidden(p);
                    assert_eq!(board.forbidden(p), exact, "{geometry:?} {p:?}\n{board:?}");
                    checked_forbidden += exact.is_some() as usize;
                }
            }
        }
        assert!(
            checked_forbidden > 100,
            "only {checked_forbidden} forbidden points met"
        );
    }
}
