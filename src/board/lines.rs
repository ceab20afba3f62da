//! The incremental line state: for every cell and direction its line key and
//! both colours' patterns, for every empty cell both colours' threats, counts
//! of empty cells by threat and by pair class. Placing or lifting a stone
//! touches only the cells that can see it.
//!
//! The hot path is written for speed: the cells a stone can see all lie in a
//! fixed window of the cell array around it, and each geometry's directions
//! are compile-time constants there, so every neighbour is a constant offset
//! into that window (no bounds checks, no loop over directions at run time).

use super::geometry::{Geometry, HEX_DELTAS, SQUARE_DELTAS};
use super::line::{cell_code, LineKey, REACH};
use super::occupancy::set_bits;
use super::pair::PairClass;
use super::pattern::{Pattern, PatternLookup, PatternTable};
use super::threat::{patterns_of_code, Threat, ThreatTable};
use super::types::{Cell, Color, Pos, Rule, CELL_COUNT, MAX_SIZE, STRIDE};
use std::sync::OnceLock;

/// Most directions any geometry has.
pub const MAX_DIRECTIONS: usize = 4;

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

/// Every cell a stone can see lies at most this far from it in the cell
/// array (`REACH` steps along a diagonal, the longest step of any geometry).
const WINDOW_RADIUS: usize = REACH as usize * (STRIDE + 1);
/// The cells from `WINDOW_RADIUS` before a stone to as far after it, and
/// on to a power of two, so that an offset into the window masked with
/// `WINDOW - 1` is provably in range.
const WINDOW: usize = (2 * WINDOW_RADIUS + 1).next_power_of_two();

// The window around the last on-board cell still ends inside the slots.
const _: () =
    assert!(Pos::new(MAX_SIZE - 1, MAX_SIZE - 1).index() - WINDOW_RADIUS + WINDOW <= SLOTS);

/// How many cells see one stone: `REACH` each way along every direction.
const SEEN_CELLS: usize = 2 * REACH as usize * MAX_DIRECTIONS;

/// A cell's patterns, threats and pair classes: everything about it that a
/// stone nearby can change apart from its keys. One aligned word, so that
/// saving and restoring it is a single move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[repr(C, align(8))]
struct Summary {
    /// Nibble `dir` of the low half holds Black's pattern along direction
    /// `dir`, the same nibble of the high half White's: each half is then
    /// directly its colour's index into the cell table. Zero (all `None`)
    /// while the cell is occupied. One word rather than an array, so that a
    /// part written is never read back through a wider load (that stalls the
    /// hot path).
    patterns: u32,
    /// Per colour, what the patterns make; `None` and `NOTHING` while the
    /// cell is occupied. Kept rather than looked up again, because the
    /// counts need the entry a change replaces.
    entries: [CellEntry; 2],
}

/// What one cell knows about its lines.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct CellLines {
    keys: [LineKey; MAX_DIRECTIONS],
    summary: Summary,
    /// All ones while the cell is empty, zero while it is occupied: the
    /// hot path masks the patterns it looks up with it rather than branch.
    empty_mask: u32,
}

impl CellLines {
    fn is_empty(&self) -> bool {
        self.empty_mask != 0
    }
}

/// What placing a stone changed, so that lifting it again (the search's
/// unmake) restores the state instead of recomputing it.
#[derive(Clone)]
struct Undo {
    pos: Pos,
    counts: ThreatCounts,
    pair_counts: PairCounts,
    /// The stone's own cell before it was placed.
    own: Summary,
    /// The marks in the sets of four points that placing the stone flipped.
    four_flips: FourFlips,
    /// The empty cells that see the stone, as offsets into the window
    /// around it, and their summaries before it was placed: the first
    /// `changed_count` are those whose patterns it changed (occupied cells
    /// and unchanged ones need nothing restored).
    offsets: [u16; CHANGE_SLOTS],
    summaries: [Summary; CHANGE_SLOTS],
    changed_count: usize,
    /// Per colour, the offsets of the cells whose patterns for that colour
    /// the stone changed: only those need that colour's entry again. A
    /// stone seldom changes both colours' patterns of one cell (about one
    /// cell in ten), so this halves the work of listing both.
    changed_for: [[u16; CHANGE_SLOTS]; 2],
}

/// Room for every cell that sees a stone, rounded up to a power of two so
/// that an index masked with `CHANGE_SLOTS - 1` is provably in range.
const CHANGE_SLOTS: usize = SEEN_CELLS.next_power_of_two();

impl Default for Undo {
    fn default() -> Undo {
        Undo {
            pos: Pos::from_index(0),
            counts: [[0; THREAT_SLOTS]; 2],
            pair_counts: [[0; PAIR_SLOTS]; 2],
            own: Summary::default(),
            four_flips: FourFlips::default(),
            offsets: [0; CHANGE_SLOTS],
            summaries: [Summary::default(); CHANGE_SLOTS],
            changed_count: 0,
            changed_for: [[0; CHANGE_SLOTS]; 2],
        }
    }
}

/// Where the cell `step` cells along `delta` (negative: against it) from a
/// stone lies in the window around the stone.
#[inline(always)]
const fn window_offset(delta: isize, step: isize) -> usize {
    (WINDOW_RADIUS as isize + delta * step) as usize
}

#[derive(Clone)]
pub(crate) struct LineState {
    geometry: Geometry,
    pattern_table: &'static PatternTable,
    /// Per colour, what a cell's pattern codes make.
    cell_tables: [&'static CellEntries; 2],
    cells: Box<[CellLines; SLOTS]>,
    /// Per colour, how many empty cells have each threat.
    counts: ThreatCounts,
    /// Per colour, how many empty cells have each pair class.
    pair_counts: PairCounts,
    /// Per colour, one bit per cell where that colour has `Threat::Four` or
    /// better, so that the few such cells are found without a board scan.
    fours: FourSets,
    /// One record per stone placed since the last wall or out-of-order
    /// lift, the latest last: the first `undo_depth` are in use. Records are
    /// reused rather than dropped, and there is always one more, which a
    /// wall or an out-of-order lift uses as scratch.
    undo: Vec<Undo>,
    undo_depth: usize,
}

/// Per colour, empty cells by `Threat::index`, and by `PairClass::index`.
/// Both have room for a power of two of entries, so that a masked index
/// needs no bounds check on the hot path (the extra entries stay zero).
type ThreatCounts = [[u16; THREAT_SLOTS]; 2];
type PairCounts = [[u16; PAIR_SLOTS]; 2];
const THREAT_SLOTS: usize = Threat::COUNT.next_power_of_two();
const PAIR_SLOTS: usize = PairClass::COUNT.next_power_of_two();

/// The count of `threat` in one colour's `ThreatCounts`.
#[inline(always)]
fn threat_count_mut(counts: &mut [u16; THREAT_SLOTS], threat: Threat) -> &mut u16 {
    &mut counts[threat.index() & (THREAT_SLOTS - 1)]
}

/// The count of `pair` in one colour's `PairCounts`.
#[inline(always)]
fn pair_count_mut(counts: &mut [u16; PAIR_SLOTS], pair: PairClass) -> &mut u16 {
    &mut counts[pair.index() & (PAIR_SLOTS - 1)]
}

/// What four pattern codes (one colour's `Summary::patterns` half) make
/// for that colour: the threat and the pair class side by side, so that one
/// load reads both.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[repr(C, align(2))]
struct CellEntry {
    threat: Threat,
    pair: PairClass,
}

type CellEntries = [CellEntry; 1 << 16];

/// The entries of one way of combining patterns (Black's in renju, or any
/// other colour and rule), built once per process.
fn cell_table(renju_black: bool) -> &'static CellEntries {
    static TABLES: [OnceLock<Box<CellEntries>>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[renju_black as usize].get_or_init(|| {
        let threats = ThreatTable::build(renju_black);
        let entries: Vec<CellEntry> = (0..1 << 16)
            .map(|code| CellEntry {
                threat: threats.entries()[code],
                pair: PairClass::of_cell(&patterns_of_code(code), renju_black),
            })
            .collect();
        entries
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("the vector has one entry per code"))
    })
}

/// Per colour, one bit per cell slot.
type FourSets = [[u64; SET_WORDS]; 2];

/// Most marks one stone can flip: both colours' of every cell that sees it
/// and of its own.
const MAX_FOUR_FLIPS: usize = 2 * (SEEN_CELLS + 1);

/// Marks flipped in the sets of four points, each as `color * SLOTS + slot`.
#[derive(Clone)]
struct FourFlips {
    flips: [u16; MAX_FOUR_FLIPS],
    count: usize,
}

impl Default for FourFlips {
    fn default() -> FourFlips {
        FourFlips {
            flips: [0; MAX_FOUR_FLIPS],
            count: 0,
        }
    }
}

/// The cells of a bit set over the slots, given word by word, in index
/// order.
fn cells_of_set(words: impl Iterator<Item = u64>) -> impl Iterator<Item = Pos> {
    words
        .enumerate()
        .flat_map(|(word, bits)| set_bits(bits).map(move |bit| Pos::from_index(word * 64 + bit)))
}

/// Flips one mark (`color * SLOTS + slot`) in the sets of four points.
fn flip_four(fours: &mut FourSets, flip: usize) {
    let (color, slot) = (flip / SLOTS, flip % SLOTS);
    fours[color][slot / 64] ^= 1 << (slot % 64);
}

impl FourFlips {
    /// Flips the mark of the cell at `index` in `color`'s set, and notes it.
    /// Rare: few cells have fours.
    #[cold]
    #[inline(never)]
    fn flip(&mut self, fours: &mut FourSets, index: usize, color: Color) {
        let flip = color.index() * SLOTS + (index & SLOT_MASK);
        flip_four(fours, flip);
        if let Some(noted) = self.flips.get_mut(self.count) {
            *noted = flip as u16;
            self.count += 1;
        }
    }

    /// Flips back every mark noted.
    fn undo(&self, fours: &mut FourSets) {
        for &flip in &self.flips[..self.count] {
            flip_four(fours, flip as usize);
        }
    }
}

/// One colour's four pattern nibbles (its threat-table index).
#[inline(always)]
fn pattern_code(patterns: u32, color: Color) -> u16 {
    (patterns >> (16 * color.index())) as u16
}

/// A table byte (Black's pattern low, White's high) spread into the
/// `Summary::patterns` layout for direction `dir`.
#[inline(always)]
fn spread(packed: u8, dir: usize) -> u32 {
    // One product places a copy of the byte at nibble `dir` and another
    // twelve bits higher, which puts its high nibble (White's) at nibble
    // `4 + dir`; the copies do not overlap, so nothing carries.
    let copies = packed as u32 * (0x1001 << (4 * dir));
    copies & (0x000F_000F << (4 * dir))
}

/// `patterns` (as `Summary::patterns`) with those along `dir` replaced by
/// `packed` (from the table).
#[inline(always)]
fn with_pattern(patterns: u32, packed: u8, dir: usize) -> u32 {
    (patterns & !spread(0xFF, dir)) | spread(packed, dir)
}

/// The counts and the sets of four points, which every change of a cell's
/// entries updates, and where the flips of those sets are noted.
struct ThreatBook<'a> {
    counts: &'a mut ThreatCounts,
    pair_counts: &'a mut PairCounts,
    fours: &'a mut FourSets,
    flips: &'a mut FourFlips,
}

impl ThreatBook<'_> {
    /// Counts the empty cell at `index` under `entry` for `color`.
    #[inline(always)]
    fn add(&mut self, index: usize, color: Color, entry: CellEntry) {
        *threat_count_mut(&mut self.counts[color.index()], entry.threat) += 1;
        *pair_count_mut(&mut self.pair_counts[color.index()], entry.pair) += 1;
        if entry.threat >= Threat::Four {
            self.flips.flip(self.fours, index, color);
        }
    }

    /// Takes the cell at `index`, counted under `entry` for `color`, out
    /// of the counts.
    #[inline(always)]
    fn remove(&mut self, index: usize, color: Color, entry: CellEntry) {
        *threat_count_mut(&mut self.counts[color.index()], entry.threat) -= 1;
        *pair_count_mut(&mut self.pair_counts[color.index()], entry.pair) -= 1;
        if entry.threat >= Threat::Four {
            self.flips.flip(self.fours, index, color);
        }
    }

    /// Moves the cell at `index` from the counts of `old` to those of `new`.
    #[inline(always)]
    fn replace(&mut self, index: usize, color: Color, old: CellEntry, new: CellEntry) {
        let c = color.index();
        *threat_count_mut(&mut self.counts[c], old.threat) -= 1;
        *threat_count_mut(&mut self.counts[c], new.threat) += 1;
        *pair_count_mut(&mut self.pair_counts[c], old.pair) -= 1;
        *pair_count_mut(&mut self.pair_counts[c], new.pair) += 1;
        if (old.threat >= Threat::Four) != (new.threat >= Threat::Four) {
            self.flips.flip(self.fours, index, color);
        }
    }

    /// Recomputes `color`'s entry of an empty cell from its patterns, and
    /// moves it between that colour's counts.
    #[inline(always)]
    fn update(&mut self, table: &CellEntries, summary: &mut Summary, index: usize, color: Color) {
        let c = color.index();
        let entry = table[pattern_code(summary.patterns, color) as usize];
        let old = std::mem::replace(&mut summary.entries[c], entry);
        self.replace(index, color, old, entry);
    }
}

/// Runs `$body` with `$step` bound to each neighbour step in turn (those of
/// `LineKey::STEPS`), written out one by one so that every step is a
/// constant the compiler folds into offsets and shifts: a loop over the
/// steps is not unrolled, and then pays for indices and bounds checks.
macro_rules! for_each_step {
    ($step:ident => $body:block) => {
        for_each_step!(@each $step $body; -1 1 -2 2 -3 3 -4 4 -5 5)
    };
    (@each $step:ident $body:block; $($value:literal)*) => {
        $({
            let $step: isize = $value;
            $body
        })*
    };
}

/// The cells around `first + WINDOW_RADIUS` (a stone) that can see it.
#[inline(always)]
fn window(cells: &mut [CellLines; SLOTS], first: usize) -> &mut [CellLines; WINDOW] {
    (&mut cells[first..first + WINDOW])
        .try_into()
        .unwrap_or_else(|_| unreachable!("the slice has WINDOW cells"))
}

/// Work done on each line through a stone. `DIR` indexes the geometry's
/// directions, `DELTA` is that direction's step in the cell array and
/// `PATTERN_REACH` the farthest step at which a stone can change a pattern
/// (beyond it, only the keys change). All three are constants, so every
/// neighbour is a constant offset into the window around the stone.
trait LineVisitor {
    fn line<const DIR: usize, const DELTA: isize, const PATTERN_REACH: isize>(&mut self);
}

/// Calls `visitor` on every line of `geometry`, with its directions as
/// constants.
#[inline(always)]
fn visit_lines(geometry: Geometry, pattern_reach: isize, visitor: &mut impl LineVisitor) {
    #[inline(always)]
    fn with_reach<const PATTERN_REACH: isize>(geometry: Geometry, visitor: &mut impl LineVisitor) {
        match geometry {
            Geometry::Square => {
                visitor.line::<0, { SQUARE_DELTAS[0] }, PATTERN_REACH>();
                visitor.line::<1, { SQUARE_DELTAS[1] }, PATTERN_REACH>();
                visitor.line::<2, { SQUARE_DELTAS[2] }, PATTERN_REACH>();
                visitor.line::<3, { SQUARE_DELTAS[3] }, PATTERN_REACH>();
            }
            Geometry::Hex => {
                visitor.line::<0, { HEX_DELTAS[0] }, PATTERN_REACH>();
                visitor.line::<1, { HEX_DELTAS[1] }, PATTERN_REACH>();
                visitor.line::<2, { HEX_DELTAS[2] }, PATTERN_REACH>();
            }
        }
    }
    match pattern_reach {
        4 => with_reach::<4>(geometry, visitor),
        _ => with_reach::<REACH>(geometry, visitor),
    }
}

/// A stone placed or lifted by recomputation: keys toggled, patterns
/// looked up again, the changed cells listed with their summaries before,
/// and listed again per colour whose patterns changed. Only scalars and
/// references, so that the compiler keeps it in registers.
///
/// The stone's code is a run-time value on purpose: as a constant, the
/// compiler narrows each key's xor to the one byte it changes, and the
/// four-byte read of that key that follows (here, or in the next make) then
/// waits for the byte to reach the cache instead of being forwarded (about
/// a third slower overall, with fewer instructions).
struct Toggle<'a> {
    window: &'a mut [CellLines; WINDOW],
    undo: &'a mut Undo,
    patterns: PatternLookup<'a>,
    code: u32,
    changed_count: usize,
    /// Per colour, the length of `Undo::changed_for`.
    changed_for_count: [usize; 2],
}

impl LineVisitor for Toggle<'_> {
    #[inline(always)]
    fn line<const DIR: usize, const DELTA: isize, const PATTERN_REACH: isize>(&mut self) {
        for_each_step!(step => {
            let at = window_offset(DELTA, step);
            let lines = &mut self.window[at];
            // The stone lies `-step` cells from the cell `step` from it.
            lines.keys[DIR].0 ^= LineKey::bits(-step, self.code);
            if step.abs() <= PATTERN_REACH {
                // Noted at the end of the list, which only grows if the
                // patterns did change: no branch on the lookup.
                let end = self.changed_count & (CHANGE_SLOTS - 1);
                self.undo.offsets[end] = at as u16;
                self.undo.summaries[end] = lines.summary;
                let before = lines.summary.patterns;
                // Occupied cells are looked up too, and their patterns kept
                // at zero by the mask (so never noted as changed): a branch
                // on emptiness mispredicts about ten times a make, which
                // costs more than the dozen extra lookups.
                let packed = self.patterns.packed::<PATTERN_REACH>(lines.keys[DIR]);
                let after = with_pattern(before, packed, DIR) & lines.empty_mask;
                lines.summary.patterns = after;
                let changed = before ^ after;
                self.changed_count += (changed != 0) as usize;
                for color in [Color::Black, Color::White] {
                    let count = &mut self.changed_for_count[color.index()];
                    self.undo.changed_for[color.index()][*count & (CHANGE_SLOTS - 1)] = at as u16;
                    *count += (pattern_code(changed, color) != 0) as usize;
                }
            }
        });
    }
}

/// The last stone placed lifted by restoring its undo record: this part
/// toggles the keys back (the code at run time, as in `Toggle`).
struct Restore<'a> {
    window: &'a mut [CellLines; WINDOW],
    code: u32,
}

impl LineVisitor for Restore<'_> {
    #[inline(always)]
    fn line<const DIR: usize, const DELTA: isize, const PATTERN_REACH: isize>(&mut self) {
        for_each_step!(step => {
            self.window[window_offset(DELTA, step)].keys[DIR].0 ^= LineKey::bits(-step, self.code);
        });
    }
}

impl LineState {
    /// The state of `cells` computed from scratch.
    pub(crate) fn new(
        rule: Rule,
        geometry: Geometry,
        on_board: &[Pos],
        cells: &[Cell],
    ) -> LineState {
        let mut state = LineState {
            geometry,
            pattern_table: PatternTable::of(rule),
            cell_tables: [cell_table(rule == Rule::Renju), cell_table(false)],
            pair_counts: [[0; PAIR_SLOTS]; 2],
            cells: vec![CellLines::default(); SLOTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("the vector has SLOTS cells")),
            counts: [[0; THREAT_SLOTS]; 2],
            fours: [[0; SET_WORDS]; 2],
            undo: vec![Undo::default()],
            undo_depth: 0,
        };
        for &pos in on_board {
            state.recount_cell(cells, pos);
        }
        state
    }

    /// Sets one on-board cell's keys, patterns and threats from the cells
    /// around it, and counts its threats.
    fn recount_cell(&mut self, cells: &[Cell], pos: Pos) {
        let mut lines = CellLines::default();
        for (dir, &delta) in self.geometry.deltas().iter().enumerate() {
            for step in LineKey::STEPS {
                lines.keys[dir].0 ^= LineKey::toggle(step, cells[pos.offset(delta, step).index()]);
            }
        }
        self.cells[slot(pos)] = lines;
        if cells[pos.index()] == Cell::Empty {
            self.classify_empty_cell(pos);
        }
    }

    /// Patterns and threats of a cell that has just become (or is) empty.
    fn classify_empty_cell(&mut self, pos: Pos) {
        let tables = self.cell_tables;
        let lines = &mut self.cells[slot(pos)];
        let patterns = (0..self.geometry.deltas().len())
            .map(|dir| spread(self.pattern_table.packed(lines.keys[dir]), dir))
            .sum();
        lines.summary.patterns = patterns;
        lines.empty_mask = !0;
        let mut book = ThreatBook {
            counts: &mut self.counts,
            pair_counts: &mut self.pair_counts,
            fours: &mut self.fours,
            // Nothing will take these flips back.
            flips: &mut FourFlips::default(),
        };
        for color in [Color::Black, Color::White] {
            let entry = tables[color.index()][pattern_code(patterns, color) as usize];
            lines.summary.entries[color.index()] = entry;
            book.add(pos.index(), color, entry);
        }
    }

    /// Puts `cell` (a stone or a wall) on the empty `pos`.
    pub(crate) fn place(&mut self, pos: Pos, cell: Cell) {
        let is_stone = matches!(cell, Cell::Stone(_));
        if !is_stone {
            // Walls stay for good, and change what lifting any earlier
            // stone would have to restore.
            self.forget_undo();
        }
        if self.undo.len() == self.undo_depth + 1 {
            self.undo.push(Undo::default());
        }
        let record = self.undo_depth;
        let own = &mut self.cells[slot(pos)];
        let undo = &mut self.undo[record];
        undo.pos = pos;
        undo.counts = self.counts;
        undo.pair_counts = self.pair_counts;
        undo.own = own.summary;
        undo.four_flips.count = 0;
        let mut book = ThreatBook {
            counts: &mut self.counts,
            pair_counts: &mut self.pair_counts,
            fours: &mut self.fours,
            flips: &mut undo.four_flips,
        };
        // An occupied cell is not counted at all.
        for color in [Color::Black, Color::White] {
            book.remove(pos.index(), color, own.summary.entries[color.index()]);
        }
        own.summary = Summary::default();
        own.empty_mask = 0;
        self.toggle(pos, cell, record);
        if is_stone {
            self.undo_depth += 1;
        }
    }

    /// Takes the stone `cell` off `pos`. The last stone placed comes off by
    /// restoring what its placement changed (the search's unmake); any
    /// other is recomputed.
    pub(crate) fn lift(&mut self, pos: Pos, cell: Cell) {
        let last = self.undo_depth.checked_sub(1);
        match last {
            Some(record) if self.undo[record].pos == pos => {
                self.undo_depth = record;
                self.restore(pos, cell, record);
            }
            _ => {
                self.forget_undo();
                self.undo[0].four_flips.count = 0;
                self.toggle(pos, cell, 0);
                self.classify_empty_cell(pos);
            }
        }
    }

    /// Drops every undo record: the state no longer follows from them.
    fn forget_undo(&mut self) {
        self.undo_depth = 0;
    }

    /// Toggles `cell` on `pos` in the keys of every cell that sees it,
    /// refreshes the patterns of those that are empty, then the threats and
    /// counts of those whose patterns changed. The summaries they had
    /// before are saved in the undo record `record`.
    ///
    /// Two passes: patterns first, then, for each colour, the threat and
    /// pair class of the cells whose patterns for that colour changed.
    /// Branching on each freshly looked-up pattern instead would mispredict
    /// often, and each miss costs the whole lookup.
    fn toggle(&mut self, pos: Pos, cell: Cell, record: usize) {
        let tables = self.cell_tables;
        let first = pos.index() - WINDOW_RADIUS;
        let mut stroke = Toggle {
            window: window(&mut self.cells, first),
            undo: &mut self.undo[record],
            patterns: self.pattern_table.lookup(),
            code: cell_code(cell),
            changed_count: 0,
            changed_for_count: [0; 2],
        };
        visit_lines(self.geometry, self.pattern_table.reach(), &mut stroke);
        let Undo {
            changed_for,
            four_flips,
            changed_count,
            ..
        } = stroke.undo;
        *changed_count = stroke.changed_count;
        let mut book = ThreatBook {
            counts: &mut self.counts,
            pair_counts: &mut self.pair_counts,
            fours: &mut self.fours,
            flips: four_flips,
        };
        for color in [Color::Black, Color::White] {
            let c = color.index();
            for &at in &changed_for[c][..stroke.changed_for_count[c]] {
                let at = at as usize & (WINDOW - 1);
                book.update(tables[c], &mut stroke.window[at].summary, first + at, color);
            }
        }
    }

    /// Undoes the placement of the stone `cell` on `pos` that the undo
    /// record `record` holds: the keys are toggled back; patterns, threats
    /// and counts are copied back as they were before the stone.
    fn restore(&mut self, pos: Pos, cell: Cell, record: usize) {
        let undo = &self.undo[record];
        let around = window(&mut self.cells, pos.index() - WINDOW_RADIUS);
        let mut stroke = Restore {
            window: &mut *around,
            code: cell_code(cell),
        };
        visit_lines(self.geometry, self.pattern_table.reach(), &mut stroke);
        let changed = undo.changed_count;
        for (&at, &summary) in undo.offsets[..changed].iter().zip(&undo.summaries) {
            around[at as usize & (WINDOW - 1)].summary = summary;
        }
        let own = &mut around[WINDOW_RADIUS];
        own.summary = undo.own;
        own.empty_mask = !0;
        self.counts = undo.counts;
        self.pair_counts = undo.pair_counts;
        undo.four_flips.undo(&mut self.fours);
    }

    /// The cells where `color` has a four or better, in index (row) order.
    pub(crate) fn cells_with_four(&self, color: Color) -> impl Iterator<Item = Pos> + '_ {
        cells_of_set(self.fours[color.index()].iter().copied())
    }

    /// The cells where either colour has a four or better, in index (row)
    /// order.
    pub(crate) fn cells_with_four_of_either(&self) -> impl Iterator<Item = Pos> + '_ {
        let [black, white] = &self.fours;
        cells_of_set(black.iter().zip(white).map(|(&b, &w)| b | w))
    }

    /// `color`'s patterns on `pos` at once: nibble `dir` holds the code of
    /// its pattern along direction `dir`.
    pub(crate) fn pattern_codes(&self, pos: Pos, color: Color) -> u16 {
        (self.cells[slot(pos)].summary.patterns >> (16 * color.index())) as u16
    }

    pub(crate) fn pattern(&self, pos: Pos, color: Color, dir: usize) -> Pattern {
        let code = self.cells[slot(pos)].summary.patterns >> (16 * color.index() + 4 * dir);
        Pattern::from_code((code & 15) as u8)
    }

    pub(crate) fn threat(&self, pos: Pos, color: Color) -> Threat {
        self.cells[slot(pos)].summary.entries[color.index()].threat
    }

    /// The empty cells of columns `0..width` of row `y` whose threat for
    /// `color` is `at_least` or better, as a mask (bit `x` for column `x`):
    /// a scan without branches.
    pub(crate) fn threat_row(&self, y: usize, width: usize, color: Color, at_least: Threat) -> u64 {
        let first = slot(Pos::new(0, y));
        let row = self.cells.get(first..first + width).unwrap_or_default();
        row.iter().enumerate().fold(0, |mask, (x, lines)| {
            let threat = lines.summary.entries[color.index()].threat;
            let hit = lines.is_empty() & (threat >= at_least);
            mask | (hit as u64) << x
        })
    }

    pub(crate) fn count(&self, color: Color, threat: Threat) -> usize {
        self.counts[color.index()][threat.index()] as usize
    }

    pub(crate) fn pair_count(&self, color: Color, class: PairClass) -> usize {
        self.pair_counts[color.index()][class.index()] as usize
    }

    pub(crate) fn pair_counts(&self, color: Color) -> &[u16; PairClass::COUNT] {
        self.pair_counts[color.index()][..PairClass::COUNT]
            .try_into()
            .unwrap_or_else(|_| unreachable!("the counts have room for every class"))
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
        if self.pair_counts != fresh.pair_counts {
            found.push(format!(
                "pair counts {:?}, recounted {:?}",
                self.pair_counts, fresh.pair_counts
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
        drifted.counts[0][Threat::Five.index()] += 1;
        assert_eq!(kept.differences(&drifted, &on_board).len(), 1);
        let mut drifted = kept.clone();
        drifted.pair_counts[1][PairClass::of_levels(2, 2).index()] += 1;
        assert_eq!(kept.differences(&drifted, &on_board).len(), 1);
    }
}
