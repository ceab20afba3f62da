//! The incremental line state: for every cell and direction its line key and
//! both colours' patterns, for every empty cell both colours' threats, counts
//! of empty cells by threat, and how many stones lie near each cell. Placing or
//! lifting a stone touches only the cells that can see it.

use super::geometry::{delta, Geometry};
use super::line::{cell_code, LineKey, REACH};
use super::pattern::{Pattern, PatternEntries, PatternTable};
use super::threat::{Threat, ThreatEntries, ThreatTable};
use super::types::{Cell, Color, Pos, Rule, CELL_COUNT};
use std::sync::OnceLock;

/// Most directions any geometry has.
pub const MAX_DIRECTIONS: usize = 4;
/// Distance within which a stone makes an empty cell a move candidate.
pub const CANDIDATE_DISTANCE: usize = 2;

/// Slots in the per-cell arrays: `CELL_COUNT` rounded up to a power of two,
/// so that an index masked with `SLOT_MASK` is provably in range and the hot
/// loops carry no bounds checks (the extra slots are never used).
const SLOTS: usize = CELL_COUNT.next_power_of_two();
const SLOT_MASK: usize = SLOTS - 1;

/// Where a cell's state lives (see `SLOTS`).
#[inline(always)]
fn slot(pos: Pos) -> usize {
    pos.index() & SLOT_MASK
}

/// Words of a bit set over the slots.
const SET_WORDS: usize = SLOTS / 64;

/// What placing a stone changed, so that lifting it again (the search's
/// unmake) restores the state instead of recomputing it.
#[derive(Clone)]
struct Undo {
    pos: Pos,
    counts: [[u16; Threat::COUNT]; 2],
    /// Where this stone's entries start in `LineState::saved_cells`.
    first_saved: usize,
}

/// A cell's patterns and threats as they were before a stone was placed.
#[derive(Copy, Clone)]
struct SavedCell {
    pos: Pos,
    patterns: u32,
    threats: [Threat; 2],
}

impl Default for SavedCell {
    fn default() -> SavedCell {
        SavedCell {
            pos: Pos::from_index(0),
            patterns: 0,
            threats: [Threat::None; 2],
        }
    }
}

/// What one cell knows about its lines.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct CellLines {
    keys: [LineKey; MAX_DIRECTIONS],
    /// Nibble `dir` of the low half holds Black's pattern along direction
    /// `dir`, the same nibble of the high half White's: each half is then
    /// directly its colour's index into the threat table. Zero (all `None`)
    /// while the cell is occupied. One word rather than an array, so that a
    /// part written is never read back through a wider load (that stalls the
    /// hot path).
    patterns: u32,
    /// Per colour; `None` while the cell is occupied.
    threats: [Threat; 2],
    /// Kept here too, so the hot path reads one place per cell.
    empty: bool,
}

#[derive(Clone)]
pub(crate) struct LineState {
    deltas: &'static [isize],
    /// The cells within `CANDIDATE_DISTANCE` (the cell itself included), as
    /// offsets, and the same area as runs along rows: (offset of the first
    /// cell, one byte of 1 per cell of the run).
    near_deltas: Vec<isize>,
    near_rows: Vec<(isize, u64)>,
    pattern_table: &'static PatternTable,
    threat_tables: [&'static ThreatTable; 2],
    cells: Box<[CellLines; SLOTS]>,
    /// Per colour, how many empty cells have each threat.
    counts: [[u16; Threat::COUNT]; 2],
    /// Per colour, one bit per cell where that colour has `Threat::Four` or
    /// better, so that the few such cells are found without a board scan.
    fours: [[u64; SET_WORDS]; 2],
    /// Stones within `CANDIDATE_DISTANCE` of each cell, itself included.
    near: Vec<u8>,
    /// One record per stone placed since the last wall or out-of-order
    /// lift, the latest last, and the cells they saved.
    undo: Vec<Undo>,
    saved_cells: Vec<SavedCell>,
}

fn threat_table(renju_black: bool) -> &'static ThreatTable {
    static TABLES: [OnceLock<ThreatTable>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[renju_black as usize].get_or_init(|| ThreatTable::build(renju_black))
}

/// Sets or clears the cell's bit in a colour's set of four points, without a
/// branch.
#[inline(always)]
fn mark_four(fours: &mut [[u64; SET_WORDS]; 2], pos: Pos, color: Color, threat: Threat) {
    let (word, bit) = (slot(pos) / 64, 1u64 << (slot(pos) % 64));
    let set = &mut fours[color.index()][word];
    *set = (*set & !bit) | (bit * (threat >= Threat::Four) as u64);
}

/// One colour's four pattern nibbles (its threat-table index).
#[inline(always)]
fn pattern_code(patterns: u32, color: Color) -> u16 {
    (patterns >> (16 * color.index())) as u16
}

/// A table byte (Black's pattern low, White's high) spread into the
/// `CellLines::patterns` layout for direction `dir`.
#[inline(always)]
fn spread(packed: u8, dir: usize) -> u32 {
    let packed = packed as u32;
    ((packed & 0x0F) | ((packed & 0xF0) << 12)) << (4 * dir)
}

impl LineState {
    /// The state of `cells` computed from scratch.
    pub(crate) fn new(
        rule: Rule,
        geometry: Geometry,
        on_board: &[Pos],
        cells: &[Cell],
    ) -> LineState {
        let reach = CANDIDATE_DISTANCE as isize;
        let near = |dx: isize, dy: isize| geometry.distance((dx, dy)) <= CANDIDATE_DISTANCE;
        let near_deltas = (-reach..=reach)
            .flat_map(|dy| (-reach..=reach).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| near(dx, dy))
            .map(delta)
            .collect();
        // Each geometry's area is one unbroken run per row.
        let near_rows = (-reach..=reach)
            .map(|dy| {
                let run: Vec<isize> = (-reach..=reach).filter(|&dx| near(dx, dy)).collect();
                let ones = u64::MAX >> (64 - 8 * run.len());
                (delta((run[0], dy)), ones & 0x0101_0101_0101_0101)
            })
            .collect();
        let mut state = LineState {
            deltas: geometry.deltas(),
            near_deltas,
            near_rows,
            pattern_table: PatternTable::of(rule),
            threat_tables: [threat_table(rule == Rule::Renju), threat_table(false)],
            cells: vec![CellLines::default(); SLOTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("the vector has SLOTS cells")),
            counts: [[0; Threat::COUNT]; 2],
            fours: [[0; SET_WORDS]; 2],
            near: vec![0; CELL_COUNT],
            undo: Vec::new(),
            saved_cells: Vec::new(),
        };
        for &pos in on_board {
            state.recount_cell(cells, pos);
        }
        state
    }

    /// Sets one on-board cell's keys, patterns, threats and nearness from the
    /// cells around it, and counts its threats.
    fn recount_cell(&mut self, cells: &[Cell], pos: Pos) {
        let mut lines = CellLines::default();
        for (dir, &delta) in self.deltas.iter().enumerate() {
            for step in LineKey::STEPS {
                lines.keys[dir].0 ^= LineKey::toggle(step, cells[pos.offset(delta, step).index()]);
            }
        }
        self.cells[slot(pos)] = lines;
        self.near[pos.index()] = self
            .near_deltas
            .iter()
            .filter(|&&d| matches!(cells[pos.offset(d, 1).index()], Cell::Stone(_)))
            .count() as u8;
        if cells[pos.index()] == Cell::Empty {
            self.classify_empty_cell(pos);
        }
    }

    /// Patterns and threats of a cell that has just become (or is) empty.
    fn classify_empty_cell(&mut self, pos: Pos) {
        let lines = &mut self.cells[slot(pos)];
        lines.empty = true;
        lines.patterns = (0..self.deltas.len())
            .map(|dir| spread(self.pattern_table.packed(lines.keys[dir]), dir))
            .sum();
        for color in [Color::Black, Color::White] {
            let threat = self.threat_tables[color.index()].get(pattern_code(lines.patterns, color));
            lines.threats[color.index()] = threat;
            self.counts[color.index()][threat.index()] += 1;
            mark_four(&mut self.fours, pos, color, threat);
        }
    }

    /// Puts `cell` (a stone or a wall) on the empty `pos`.
    pub(crate) fn place(&mut self, pos: Pos, cell: Cell) {
        let is_stone = matches!(cell, Cell::Stone(_));
        let lines = self.cells[slot(pos)];
        if is_stone {
            self.undo.push(Undo {
                pos,
                counts: self.counts,
                first_saved: self.saved_cells.len(),
            });
            self.saved_cells.push(SavedCell {
                pos,
                patterns: lines.patterns,
                threats: lines.threats,
            });
        } else {
            // Walls stay for good, and change what lifting any earlier
            // stone would have to restore.
            self.forget_undo();
        }
        let lines = &mut self.cells[slot(pos)];
        lines.empty = false;
        for color in [Color::Black, Color::White] {
            self.counts[color.index()][lines.threats[color.index()].index()] -= 1;
        }
        for color in [Color::Black, Color::White] {
            mark_four(&mut self.fours, pos, color, Threat::None);
        }
        lines.patterns = 0;
        lines.threats = [Threat::None; 2];
        self.toggle(pos, cell, is_stone);
        if is_stone {
            self.add_near(pos, 1);
        }
    }

    /// Takes the stone `cell` off `pos`. The last stone placed comes off by
    /// restoring what its placement changed (the search's unmake); any
    /// other is recomputed.
    pub(crate) fn lift(&mut self, pos: Pos, cell: Cell) {
        match self.undo.pop() {
            Some(undo) if undo.pos == pos => self.restore(pos, cell, undo),
            _ => {
                self.forget_undo();
                self.toggle(pos, cell, false);
                self.classify_empty_cell(pos);
            }
        }
        self.add_near(pos, -1);
    }

    /// Drops every undo record: the state no longer follows from them.
    fn forget_undo(&mut self) {
        self.undo.clear();
        self.saved_cells.clear();
    }

    /// Undoes the placement of the stone `cell` on `pos` that `undo` records.
    /// The keys are toggled back; patterns, threats and counts are copied
    /// back as they were before the stone.
    fn restore(&mut self, pos: Pos, cell: Cell, undo: Undo) {
        match self.deltas.len() {
            3 => self.toggle_keys::<3>(pos, cell),
            _ => self.toggle_keys::<MAX_DIRECTIONS>(pos, cell),
        }
        self.counts = undo.counts;
        for index in undo.first_saved..self.saved_cells.len() {
            let saved = self.saved_cells[index];
            let lines = &mut self.cells[slot(saved.pos)];
            lines.patterns = saved.patterns;
            lines.threats = saved.threats;
            for color in [Color::Black, Color::White] {
                mark_four(
                    &mut self.fours,
                    saved.pos,
                    color,
                    saved.threats[color.index()],
                );
            }
        }
        self.saved_cells.truncate(undo.first_saved);
        self.cells[slot(pos)].empty = true;
    }

    /// Toggles `cell` on `pos` in the keys of every cell that sees it, and
    /// nothing else.
    #[inline(always)]
    fn toggle_keys<const DIRECTIONS: usize>(&mut self, pos: Pos, cell: Cell) {
        let deltas: [isize; DIRECTIONS] = std::array::from_fn(|dir| self.deltas[dir]);
        let code = cell_code(cell);
        for (dir, &delta) in deltas.iter().enumerate() {
            let (mut ahead, mut behind) = (pos, pos);
            for step in 1..=REACH {
                ahead = ahead.offset(delta, 1);
                behind = behind.offset(delta, -1);
                self.cells[slot(ahead)].keys[dir].0 ^= LineKey::bits(-step, code);
                self.cells[slot(behind)].keys[dir].0 ^= LineKey::bits(step, code);
            }
        }
    }

    /// Adds or removes `cell` on `pos` in the keys of every cell that sees
    /// it, refreshes the patterns of those that are empty, then the threats
    /// and counts of those whose patterns changed. With `keep`, the
    /// patterns and threats those had before are saved for `restore`.
    ///
    /// The two passes avoid branching on a freshly looked-up pattern: such
    /// branches are hard to predict, and each miss costs the whole lookup.
    #[inline]
    fn toggle(&mut self, pos: Pos, cell: Cell, keep: bool) {
        // One copy per direction count, so that count is a constant.
        match self.deltas.len() {
            3 => self.toggle_along::<3>(pos, cell, keep),
            _ => self.toggle_along::<MAX_DIRECTIONS>(pos, cell, keep),
        }
    }

    #[inline(always)]
    fn toggle_along<const DIRECTIONS: usize>(&mut self, pos: Pos, cell: Cell, keep: bool) {
        let deltas: [isize; DIRECTIONS] = std::array::from_fn(|dir| self.deltas[dir]);
        // The tables are read through locals: through `self` the compiler
        // would reload their addresses after every store to a cell.
        let patterns = self.pattern_table.entries();
        let threats = self.threat_tables.map(ThreatTable::entries);
        let reach = self.pattern_table.reach();
        let code = cell_code(cell);
        let mut changed = [SavedCell::default(); 2 * REACH as usize * MAX_DIRECTIONS];
        let mut changed_count = 0;
        for (dir, &delta) in deltas.iter().enumerate() {
            let (mut ahead, mut behind) = (pos, pos);
            for step in 1..=REACH {
                ahead = ahead.offset(delta, 1);
                behind = behind.offset(delta, -1);
                // `pos` lies `step` cells behind the cell ahead, and ahead of
                // the cell behind.
                for (seen_from, bits) in [
                    (ahead, LineKey::bits(-step, code)),
                    (behind, LineKey::bits(step, code)),
                ] {
                    let lines = &mut self.cells[slot(seen_from)];
                    lines.keys[dir].0 ^= bits;
                    if step <= reach {
                        changed[changed_count] = SavedCell {
                            pos: seen_from,
                            patterns: lines.patterns,
                            threats: lines.threats,
                        };
                        changed_count += self.refresh_pattern(patterns, seen_from, dir) as usize;
                    }
                }
            }
        }
        let changed = &changed[..changed_count];
        for saved in changed {
            self.update_threats(threats, saved.pos);
        }
        if keep {
            self.saved_cells.extend_from_slice(changed);
        }
    }

    /// Looks the pattern of `pos` along `dir` up again, if `pos` is empty.
    /// Returns whether it changed.
    #[inline(always)]
    fn refresh_pattern(&mut self, patterns: &PatternEntries, pos: Pos, dir: usize) -> bool {
        let lines = &mut self.cells[slot(pos)];
        // Occupied cells keep their zero patterns: the lookup is masked out.
        let empty_mask = (lines.empty as u32).wrapping_neg();
        let packed = spread(PatternTable::lookup(patterns, lines.keys[dir]), dir);
        let changed = ((lines.patterns & spread(0xFF, dir)) ^ packed) & empty_mask;
        lines.patterns ^= changed;
        changed != 0
    }

    /// Recomputes both threats of an empty cell and moves it between counts.
    #[inline(always)]
    fn update_threats(&mut self, tables: [&ThreatEntries; 2], pos: Pos) {
        let lines = &mut self.cells[slot(pos)];
        for color in [Color::Black, Color::White] {
            let code = pattern_code(lines.patterns, color);
            let threat = tables[color.index()][code as usize];
            let old = std::mem::replace(&mut lines.threats[color.index()], threat);
            self.counts[color.index()][old.index()] -= 1;
            self.counts[color.index()][threat.index()] += 1;
            mark_four(&mut self.fours, pos, color, threat);
        }
    }

    /// The cells where `color` has a four or better, in index (row) order.
    pub(crate) fn cells_with_four(&self, color: Color) -> impl Iterator<Item = Pos> + '_ {
        self.fours[color.index()]
            .iter()
            .enumerate()
            .flat_map(|(word, &bits)| {
                let mut rest = bits;
                std::iter::from_fn(move || {
                    (rest != 0).then(|| {
                        let bit = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        Pos::from_index(word * 64 + bit)
                    })
                })
            })
    }

    /// Adds one to (or takes one from) the nearness of every cell near
    /// `pos`, eight cells of a row at a time. No count ever reaches 256, so
    /// no byte carries into the next.
    fn add_near(&mut self, pos: Pos, change: i8) {
        for &(start, ones) in &self.near_rows {
            let at = pos.offset(start, 1).index();
            let Some(bytes) = self.near.get_mut(at..at + 8) else {
                continue;
            };
            let counts = u64::from_le_bytes(bytes.try_into().unwrap_or_default());
            let counts = if change > 0 {
                counts.wrapping_add(ones)
            } else {
                counts.wrapping_sub(ones)
            };
            bytes.copy_from_slice(&counts.to_le_bytes());
        }
    }

    pub(crate) fn pattern(&self, pos: Pos, color: Color, dir: usize) -> Pattern {
        let code = self.cells[slot(pos)].patterns >> (16 * color.index() + 4 * dir);
        Pattern::from_code((code & 15) as u8)
    }

    pub(crate) fn threat(&self, pos: Pos, color: Color) -> Threat {
        self.cells[slot(pos)].threats[color.index()]
    }

    pub(crate) fn count(&self, color: Color, threat: Threat) -> usize {
        self.counts[color.index()][threat.index()] as usize
    }

    pub(crate) fn stones_near(&self, pos: Pos) -> usize {
        self.near[pos.index()] as usize
    }

    /// Differences between this state and one recounted from scratch, on the
    /// on-board cells (the padding is never read).
    pub(crate) fn differences(&self, fresh: &LineState, on_board: &[Pos]) -> Vec<String> {
        let mut found = Vec::new();
        for &pos in on_board {
            let (here, there) = (&self.cells[slot(pos)], &fresh.cells[slot(pos)]);
            if here != there {
                found.push(format!("cell {pos:?}: kept {here:?}, recounted {there:?}"));
            }
            if self.near[pos.index()] != fresh.near[pos.index()] {
                found.push(format!(
                    "cell {pos:?}: {} stones near, recounted {}",
                    self.near[pos.index()],
                    fresh.near[pos.index()]
                ));
            }
        }
        if self.fours != fresh.fours {
            found.push("the sets of four points differ from the recount".to_string());
        }
        if self.counts != fresh.counts {
            found.push(format!(
                "counts {:?}, recounted {:?}",
                self.counts, fresh.counts
            ));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recount_notices_every_kind_of_drift() {
        let board = crate::board::Board::from_diagram(
            ". . . . . .
             . X X . . .
             . . O . . .
             . . . . . .
             . . . . . .",
            Rule::Freestyle,
            Geometry::Square,
        )
        .unwrap();
        let on_board: Vec<Pos> = board.cells().collect();
        let kept = &board.lines;
        assert!(kept.differences(kept, &on_board).is_empty());

        let probe = Pos::new(3, 1);
        let mut drifted = kept.clone();
        drifted.cells[slot(probe)].keys[0].0 ^= 1;
        assert_eq!(kept.differences(&drifted, &on_board).len(), 1);
        let mut drifted = kept.clone();
        drifted.near[probe.index()] += 1;
        assert_eq!(kept.differences(&drifted, &on_board).len(), 1);
        let mut drifted = kept.clone();
        drifted.counts[0][Threat::Five.index()] += 1;
        assert_eq!(kept.differences(&drifted, &on_board).len(), 1);
    }
}
