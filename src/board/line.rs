//! Line keys: what a cell sees along one direction. A key packs the ten
//! neighbours at steps -5..=-1 and 1..=5 (the cell itself is left out), two
//! bits each, so placing or lifting one stone changes one key of each cell it
//! can see with a single xor. The four nearest neighbours each way fill the
//! low sixteen bits and the fifth ones the four above, so that a rule blind
//! to the fifth neighbours (freestyle) reads its table with the key's low half.
//!
//! Five steps each way is exactly what the rules need: a five through the cell
//! spans at most four steps on either side, and the fifth step decides whether
//! it is an overline or blocked (caro).

use super::types::{Cell, Color};

/// How far a key sees along its line, on each side.
pub const REACH: isize = 5;
/// Number of distinct keys.
pub const KEY_COUNT: usize = 1 << (4 * REACH);

/// The neighbours of one cell along one direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct LineKey(pub u32);

/// Two-bit code of a cell inside a key.
pub const fn cell_code(cell: Cell) -> u32 {
    match cell {
        Cell::Empty => 0,
        Cell::Stone(Color::Black) => 1,
        Cell::Stone(Color::White) => 2,
        Cell::Wall => 3,
    }
}

impl LineKey {
    /// Bit position of the neighbour `step` cells away (step in ±1..=±5):
    /// steps -4..=-1 and 1..=4 in order from bit 0, then -5 and 5.
    const fn shift(step: isize) -> u32 {
        let slot = match step {
            -5 => 8,
            5 => 9,
            _ if step < 0 => step + 4,
            _ => step + 3,
        };
        2 * slot as u32
    }

    /// The bits to xor into a key when `cell` appears or disappears `step`
    /// cells away (an empty cell has code 0, so the xor toggles it).
    pub const fn toggle(step: isize, cell: Cell) -> u32 {
        Self::bits(step, cell_code(cell))
    }

    /// The same from the cell's two-bit code.
    #[inline(always)]
    pub const fn bits(step: isize, code: u32) -> u32 {
        code << Self::shift(step)
    }

    pub fn neighbour(self, step: isize) -> Cell {
        match (self.0 >> Self::shift(step)) & 3 {
            0 => Cell::Empty,
            1 => Cell::Stone(Color::Black),
            2 => Cell::Stone(Color::White),
            _ => Cell::Wall,
        }
    }

    /// The same key with a stone of `color` on the empty neighbour `step`.
    pub fn with_stone(self, step: isize, color: Color) -> LineKey {
        debug_assert_eq!(self.neighbour(step), Cell::Empty);
        LineKey(self.0 | Self::toggle(step, Cell::Stone(color)))
    }

    /// The same key with every neighbour past the first wall on each side
    /// made a wall too. A line ends at a wall, so nothing past one changes a
    /// pattern, and keys that differ only there share their patterns.
    ///
    /// Built once per rule for every key, so without a loop: in the key's
    /// layout the near steps of the negative side run from -4 in the lowest
    /// bits up to -1, those of the positive side from 1 up to 4, and the
    /// fifth steps lie above both; a wall then spreads to the lower bits on
    /// the negative side, the higher ones on the positive side, and to that
    /// side's fifth step.
    pub fn walled_past_first_wall(self) -> LineKey {
        const LOW_BIT_OF_EACH_CELL: u32 = 0x5_5555;
        const NEAR_BEFORE: u32 = 0x55 << LineKey::shift(-4);
        const NEAR_AFTER: u32 = 0x55 << LineKey::shift(1);
        // One bit (the low one of the two) on every wall.
        let walls = self.0 & (self.0 >> 1) & LOW_BIT_OF_EACH_CELL;
        let mut before = walls & NEAR_BEFORE;
        before |= before >> 2;
        before |= before >> 4;
        let mut after = walls & NEAR_AFTER;
        after |= after << 2;
        after |= after << 4;
        after &= NEAR_AFTER;
        let fifth = ((walls & NEAR_BEFORE != 0) as u32) << Self::shift(-5)
            | ((walls & NEAR_AFTER != 0) as u32) << Self::shift(5);
        // A low bit times three sets both bits of its cell: a wall.
        LineKey(self.0 | ((before | after | fifth) * 3))
    }

    /// The same line with Black's and White's stones exchanged.
    pub fn colors_swapped(self) -> LineKey {
        // A stone's two bits differ (01 or 10): flip both of those.
        let stones = (self.0 ^ (self.0 >> 1)) & 0x5_5555;
        LineKey(self.0 ^ (stones * 3))
    }

    /// Every neighbour step, nearest first on each side.
    pub const STEPS: [isize; 2 * REACH as usize] = [-1, 1, -2, 2, -3, 3, -4, 4, -5, 5];

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_has_its_own_two_bits() {
        let mut seen = 0u32;
        for step in LineKey::STEPS {
            let bits = LineKey::toggle(step, Cell::Wall);
            assert_eq!(seen & bits, 0, "step {step} overlaps");
            seen |= bits;
        }
        assert_eq!(seen as usize, KEY_COUNT - 1);
    }

    #[test]
    fn the_four_nearest_neighbours_fill_the_low_half() {
        let near: u32 = [-4, -3, -2, -1, 1, 2, 3, 4]
            .into_iter()
            .map(|step| LineKey::toggle(step, Cell::Wall))
            .sum();
        assert_eq!(near, 0xFFFF);
    }

    #[test]
    fn swapping_colours_exchanges_stones_and_keeps_the_rest() {
        let key = LineKey::default()
            .with_stone(-3, Color::White)
            .with_stone(5, Color::Black);
        let key = LineKey(key.0 | LineKey::toggle(1, Cell::Wall));
        let swapped = key.colors_swapped();
        assert_eq!(swapped.neighbour(-3), Cell::Stone(Color::Black));
        assert_eq!(swapped.neighbour(5), Cell::Stone(Color::White));
        assert_eq!(swapped.neighbour(1), Cell::Wall);
        assert_eq!(swapped.neighbour(2), Cell::Empty);
        assert_eq!(swapped.colors_swapped(), key);
    }

    #[test]
    fn past_the_first_wall_everything_is_wall() {
        let key = LineKey::default()
            .with_stone(-1, Color::Black)
            .with_stone(-3, Color::White)
            .with_stone(4, Color::Black);
        let key = LineKey(key.0 | LineKey::toggle(-2, Cell::Wall) | LineKey::toggle(3, Cell::Wall));
        let walled = key.walled_past_first_wall();
        let expected = [
            (-1, Cell::Stone(Color::Black)),
            (-2, Cell::Wall),
            (-3, Cell::Wall),
            (-4, Cell::Wall),
            (-5, Cell::Wall),
            (1, Cell::Empty),
            (2, Cell::Empty),
            (3, Cell::Wall),
            (4, Cell::Wall),
            (5, Cell::Wall),
        ];
        for (step, cell) in expected {
            assert_eq!(walled.neighbour(step), cell, "step {step}");
        }
        assert_eq!(walled.walled_past_first_wall(), walled);
        assert_eq!(
            LineKey::default().walled_past_first_wall(),
            LineKey::default()
        );
    }

    #[test]
    fn walling_past_the_first_wall_follows_its_definition_on_every_key() {
        // Step outward on each side; after the first wall, wall everything.
        let by_definition = |key: LineKey| {
            let mut walled = key;
            for side in [-1, 1] {
                let first_wall = (1..=REACH).find(|&d| key.neighbour(side * d) == Cell::Wall);
                for distance in first_wall.map_or(REACH + 1, |d| d + 1)..=REACH {
                    walled = LineKey(walled.0 | LineKey::toggle(side * distance, Cell::Wall));
                }
            }
            walled
        };
        for key in (0..KEY_COUNT as u32).map(LineKey) {
            assert_eq!(
                key.walled_past_first_wall(),
                by_definition(key),
                "{:020b}",
                key.0
            );
        }
    }

    #[test]
    fn a_stone_reads_back_where_it_was_put() {
        let key = LineKey::default()
            .with_stone(-3, Color::White)
            .with_stone(5, Color::Black);
        assert_eq!(key.neighbour(-3), Cell::Stone(Color::White));
        assert_eq!(key.neighbour(5), Cell::Stone(Color::Black));
        assert_eq!(key.neighbour(3), Cell::Empty);
    }
}
