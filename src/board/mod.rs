//! The board: stones, move history, Zobrist hash, the win rules, line
//! patterns kept up to date incrementally, and renju's forbidden points.
//! Knows nothing about search or the protocol.
//!
//! Contract used by the other layers (keep it stable, extend it freely):
//! construction with a size and a rule, checked `play`/`place`/`undo`/`remove`
//! for the session, unchecked `make`/`unmake` for the search, `is_win`,
//! `forbidden`, `hash`.
//!
//! # What the search reads (all O(1) unless noted)
//!
//! - `threat(pos, color) -> Threat`: what playing the empty cell `pos` makes
//!   for `color`, all lines together (`Five`, `OpenFour`, `DoubleFour`,
//!   `FourThree`, `Four`, `DoubleThree`, `OpenThree`, `Three`, `OpenTwo`,
//!   `Two`, `None`, and `Forbidden` for Black's forbidden points in renju).
//! - `pattern(pos, color, dir) -> Pattern`: the same for one line, `dir`
//!   indexing `geometry().directions()`.
//! - `threat_count(color, threat)`, `threat_count_at_least(color, threat)`:
//!   how many empty cells have that threat, e.g. "does White have a five
//!   point" is `threat_count(White, Threat::Five) > 0`.
//! - `pair_count(color, class)`, `pair_counts(color)`: how many empty cells have that
//!   `PairClass` (their two best lines, as the evaluation counts them).
//! - `cells_with_threat(color, at_least)`: those cells, row by row (from a
//!   kept set for `Four` and better, a board scan below that);
//!   `collect_cells_with_threat` appends them to a vector the caller reuses.
//! - `candidates()` / `is_candidate(pos)`: empty cells within two steps of a
//!   stone (`collect_candidates` as above).
//! - `is_legal(pos)`: empty and, for Black in renju, not forbidden. The
//!   search must only play legal moves.
//!
//! Every `make` updates the line keys of the cells that see the stone (five
//! each way in each direction), their patterns and threats and the counts,
//! saving in an undo record what the keys do not tell; `unmake` toggles the
//! keys back and copies the rest back from the record (a stone lifted out of
//! order is recomputed instead). Renju adds one step: an overline or double
//! four is read off the patterns, while a candidate double-three is settled
//! by the recursive judge in `renju.rs` and the verdict cached by position
//! hash.
//!
//! Module map: `types` (colours, cells, positions, rules), `geometry`
//! (directions as data), `line` (line keys), `pattern` (line patterns and
//! their tables), `threat` (cell threats), `pair` (cells' two best lines),
//! `lines` (the incremental state),
//! `renju` (the exact forbidden-point judge), `zobrist` (hash keys).

mod geometry;
mod line;
mod lines;
mod occupancy;
mod pair;
mod pattern;
mod renju;
mod threat;
mod types;
mod zobrist;

pub use geometry::Geometry;
pub use pair::PairClass;
pub use pattern::Pattern;
pub use threat::Threat;
pub use types::{Cell, Color, Pos, Rule, CELL_COUNT, MAX_SIZE, MIN_SIZE, PADDING, STRIDE};

use std::fmt;

/// Builds the line-pattern and threat tables of every rule now, so that no
/// move pays for them later (a rule's tables take tens of milliseconds, and
/// a manager may change the rule just before the first move). Tables are
/// built once per process; calling this again costs nothing.
pub fn prepare_tables() {
    // Renju first (its tables are the dearest), freestyle last: START
    // builds that one anyway, while a manager's next words are `INFO rule`.
    let rules = [
        Rule::Renju,
        Rule::Standard,
        Rule::Caro,
        Rule::CaroExact,
        Rule::Freestyle,
    ];
    for rule in rules {
        for geometry in [Geometry::Square, Geometry::Hex] {
            // Building a board pulls in every table its rule and geometry use.
            let _ = Board::with_geometry(MIN_SIZE, MIN_SIZE, rule, geometry);
        }
    }
}

/// Why a board could not be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    UnsupportedSize { width: usize, height: usize },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::UnsupportedSize { width, height } => write!(
                f,
                "unsupported board size {width}x{height} (each side must be {MIN_SIZE}..={MAX_SIZE})"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// Why a move was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveError {
    OffBoard,
    Occupied,
    NotAStone,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::OffBoard => "point is off the board",
            MoveError::Occupied => "point is occupied",
            MoveError::NotAStone => "there is no stone on that point",
        })
    }
}

impl std::error::Error for MoveError {}

/// The kind of a renju forbidden point, in the order the RIF rules report them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    Overline,
    DoubleFour,
    DoubleThree,
}

#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    geometry: Geometry,
    cells: Vec<Cell>,
    history: Vec<Pos>,
    stones: [usize; 2],
    /// The same stones (and walls) as bit masks, for the candidates.
    occupancy: occupancy::Occupancy,
    hash: u64,
    /// Boxed so that a `Board` stays small to move around.
    lines: Box<lines::LineState>,
    forbidden_cache: renju::VerdictCache,
}

impl Board {
    /// An empty square board.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        Board::with_geometry(width, height, rule, Geometry::Square)
    }

    /// An empty board whose lines follow `geometry`.
    pub fn with_geometry(
        width: usize,
        height: usize,
        rule: Rule,
        geometry: Geometry,
    ) -> Result<Board, BoardError> {
        let size_ok = |n: usize| (MIN_SIZE..=MAX_SIZE).contains(&n);
        if !size_ok(width) || !size_ok(height) {
            return Err(BoardError::UnsupportedSize { width, height });
        }
        let mut cells = vec![Cell::Wall; CELL_COUNT];
        for y in 0..height {
            for x in 0..width {
                cells[Pos::new(x, y).index()] = Cell::Empty;
            }
        }
        let on_board: Vec<Pos> = (0..height)
            .flat_map(|y| (0..width).map(move |x| Pos::new(x, y)))
            .collect();
        Ok(Board {
            width,
            height,
            rule,
            geometry,
            lines: Box::new(lines::LineState::new(rule, geometry, &on_board, &cells)),
            cells,
            history: Vec::with_capacity(width * height),
            stones: [0, 0],
            occupancy: occupancy::Occupancy::new(width, geometry),
            hash: 0,
            forbidden_cache: renju::VerdictCache::default(),
        })
    }

    /// A board drawn as rows of `X` (black), `O` (white), `#` (wall) and
    /// `.` (empty), separated by spaces or not; the size is the drawing's.
    /// Any other non-space character reads as empty, so tests may mark
    /// points of interest. The stones are placed row by row.
    pub fn from_diagram(text: &str, rule: Rule, geometry: Geometry) -> Result<Board, String> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|line| {
                line.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<char>>()
            })
            .filter(|row| !row.is_empty())
            .collect();
        let width = rows.first().map_or(0, Vec::len);
        if rows.iter().any(|row| row.len() != width) {
            return Err("rows of different lengths".to_string());
        }
        let mut board =
            Board::with_geometry(width, rows.len(), rule, geometry).map_err(|e| e.to_string())?;
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let pos = Pos::new(x, y);
                let placed = match c {
                    'X' | 'x' => board.place(pos, Color::Black),
                    'O' | 'o' => board.place(pos, Color::White),
                    '#' => board.place_wall(pos),
                    _ => Ok(()),
                };
                placed.map_err(|e| format!("{pos:?}: {e}"))?;
            }
        }
        Ok(board)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The on-board cell at (x, y), or `None` if the point is off the board.
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        let on_board = (0..self.width as i64).contains(&x) && (0..self.height as i64).contains(&y);
        on_board.then(|| Pos::new(x as usize, y as usize))
    }

    pub fn cell(&self, pos: Pos) -> Cell {
        self.cells[pos.index()]
    }

    pub fn is_empty(&self, pos: Pos) -> bool {
        self.cell(pos) == Cell::Empty
    }

    /// Black moves when both colours have the same number of stones.
    pub fn side_to_move(&self) -> Color {
        if self.stones[0] <= self.stones[1] {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// Stones in the order they were placed.
    pub fn history(&self) -> &[Pos] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().copied()
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash once the side to move has played `pos`, without playing it.
    pub fn hash_after(&self, pos: Pos) -> u64 {
        self.hash ^ zobrist::key(self.side_to_move(), pos)
    }

    /// Every on-board cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    pub fn empty_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells().filter(move |&p| self.is_empty(p))
    }

    pub fn is_full(&self) -> bool {
        self.empty_cells().next().is_none()
    }

    /// Places a stone of the side to move, after checking the point.
    pub fn play(&mut self, pos: Pos) -> Result<(), MoveError> {
        self.place(pos, self.side_to_move())
    }

    /// Places a stone of an explicit colour (used to set up positions).
    pub fn place(&mut self, pos: Pos, color: Color) -> Result<(), MoveError> {
        self.check_empty(pos)?;
        self.put(pos, color);
        Ok(())
    }

    /// Marks an empty point as blocked for both players (`BOARD` field 3).
    pub fn place_wall(&mut self, pos: Pos) -> Result<(), MoveError> {
        self.check_empty(pos)?;
        self.cells[pos.index()] = Cell::Wall;
        self.lines.place(pos, Cell::Wall);
        self.occupancy.place(pos, false);
        // The hash ignores walls, so verdicts cached before this one may be stale.
        self.forbidden_cache.clear();
        Ok(())
    }

    /// Places a stone of the side to move without checks: the search's hot path.
    pub fn make(&mut self, pos: Pos) {
        debug_assert!(self.is_empty(pos));
        self.put(pos, self.side_to_move());
    }

    /// Takes back the last stone placed.
    pub fn unmake(&mut self) {
        self.undo();
    }

    /// Takes back the last stone placed and returns where it was.
    pub fn undo(&mut self) -> Option<Pos> {
        let pos = self.history.pop()?;
        self.lift(pos);
        Some(pos)
    }

    /// Takes back the stone at `pos`, wherever it stands in the history.
    pub fn remove(&mut self, pos: Pos) -> Result<(), MoveError> {
        let index = self
            .history
            .iter()
            .rposition(|&p| p == pos)
            .ok_or(MoveError::NotAStone)?;
        self.history.remove(index);
        self.lift(pos);
        Ok(())
    }

    fn check_empty(&self, pos: Pos) -> Result<(), MoveError> {
        if pos.x() >= self.width || pos.y() >= self.height {
            return Err(MoveError::OffBoard);
        }
        match self.cell(pos) {
            Cell::Empty => Ok(()),
            _ => Err(MoveError::Occupied),
        }
    }

    fn put(&mut self, pos: Pos, color: Color) {
        self.cells[pos.index()] = Cell::Stone(color);
        self.lines.place(pos, Cell::Stone(color));
        self.occupancy.place(pos, true);
        self.stones[color.index()] += 1;
        self.hash ^= zobrist::key(color, pos);
        self.history.push(pos);
    }

    fn lift(&mut self, pos: Pos) {
        if let Cell::Stone(color) = self.cell(pos) {
            self.cells[pos.index()] = Cell::Empty;
            self.lines.lift(pos, Cell::Stone(color));
            self.occupancy.lift(pos);
            self.stones[color.index()] -= 1;
            self.hash ^= zobrist::key(color, pos);
        }
    }

    /// Length of the unbroken run of `color` through `pos` along (dx, dy),
    /// counting `pos` itself as `color`, and whether each end is an enemy stone.
    fn run_through(&self, pos: Pos, color: Color, delta: isize) -> (usize, [bool; 2]) {
        let mut length = 1;
        let mut enemy_ends = [false; 2];
        for (side, sign) in [1isize, -1].into_iter().enumerate() {
            let mut step = 1;
            loop {
                match self.cell(pos.offset(delta * sign, step)) {
                    Cell::Stone(c) if c == color => length += 1,
                    Cell::Stone(_) => {
                        enemy_ends[side] = true;
                        break;
                    }
                    _ => break,
                }
                step += 1;
            }
        }
        (length, enemy_ends)
    }

    /// Whether a stone of `color` on `pos` (empty, or already holding that
    /// colour) completes a winning line under the board's rule.
    pub fn is_win(&self, pos: Pos, color: Color) -> bool {
        self.geometry.deltas().iter().any(|&delta| {
            let (length, enemy_ends) = self.run_through(pos, color, delta);
            self.rule
                .is_winning_row(color, length, enemy_ends[0] && enemy_ends[1])
        })
    }

    /// The winner, if the last stone placed completed a winning line.
    pub fn winner(&self) -> Option<Color> {
        let pos = self.last_move()?;
        match self.cell(pos) {
            Cell::Stone(color) if self.is_win(pos, color) => Some(color),
            _ => None,
        }
    }

    /// Whether Black may not play `pos` under renju. Always `None` for other
    /// rules and for occupied points; does not depend on whose turn it is.
    pub fn forbidden(&self, pos: Pos) -> Option<Forbidden> {
        if self.rule != Rule::Renju || !self.is_empty(pos) {
            return None;
        }
        // The line patterns decide overlines and double fours exactly, and
        // name every candidate double-three; only those need the recursion.
        match self.lines.threat(pos, Color::Black) {
            Threat::Forbidden if self.has_pattern(pos, Color::Black, Pattern::Overline) => {
                Some(Forbidden::Overline)
            }
            Threat::Forbidden => Some(Forbidden::DoubleFour),
            Threat::DoubleThree => self.judge_double_three(pos),
            Threat::FourThree | Threat::OpenFour if self.four_double_three(pos) => {
                self.judge_double_three(pos)
            }
            _ => None,
        }
    }

    fn has_pattern(&self, pos: Pos, color: Color, pattern: Pattern) -> bool {
        (0..self.geometry.deltas().len()).any(|dir| self.lines.pattern(pos, color, dir) == pattern)
    }

    /// Whether Black's four on `pos` comes with two open threes: a double
    /// three the recursive rule must judge, kept among the fours.
    fn four_double_three(&self, pos: Pos) -> bool {
        (0..self.geometry.deltas().len())
            .filter(|&dir| self.lines.pattern(pos, Color::Black, dir) == Pattern::OpenThree)
            .count()
            >= 2
    }

    /// The recursive verdict on a candidate double-three, cached by position.
    fn judge_double_three(&self, pos: Pos) -> Option<Forbidden> {
        if let Some(verdict) = self.forbidden_cache.get(self.hash, pos) {
            return verdict;
        }
        let verdict = renju::Judge::new(&self.cells, self.geometry.deltas()).forbidden(pos);
        self.forbidden_cache.put(self.hash, pos, verdict);
        verdict
    }

    /// Every point Black may not play, row by row. Empty unless the rule is
    /// renju. Does not depend on whose turn it is.
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        self.empty_cells()
            .filter(|&p| self.forbidden(p).is_some())
            .collect()
    }

    /// Every direction's `pattern` at once, as codes (`Pattern::from_code`):
    /// nibble `dir` holds direction `dir`'s; the nibbles past the geometry's
    /// directions hold nothing of meaning.
    pub fn pattern_codes(&self, pos: Pos, color: Color) -> u16 {
        self.lines.pattern_codes(pos, color)
    }

    /// What the line through the empty cell `pos` along direction `dir` (an
    /// index into `geometry().directions()`) becomes if `color` plays there.
    /// `Pattern::None` for occupied cells.
    pub fn pattern(&self, pos: Pos, color: Color, dir: usize) -> Pattern {
        self.lines.pattern(pos, color, dir)
    }

    /// What playing the empty cell `pos` makes for `color`, all lines
    /// together; `Threat::None` for occupied cells. For Black in renju a
    /// candidate double-three is settled by the recursive rule: it reads
    /// `Forbidden` if it is one, and as the threes that remain if not.
    /// Move generation reads two of these per candidate: the common case is
    /// kept small enough to inline, the renju verdict apart.
    #[inline]
    pub fn threat(&self, pos: Pos, color: Color) -> Threat {
        let stored = self.lines.threat(pos, color);
        let unsettled = matches!(
            stored,
            Threat::DoubleThree | Threat::FourThree | Threat::OpenFour
        );
        if !unsettled || self.rule != Rule::Renju || color != Color::Black {
            return stored;
        }
        match stored {
            Threat::DoubleThree => self.settle_double_three(pos),
            four => self.settle_four(pos, four),
        }
    }

    /// `threat` of a four of Black's in renju: forbidden when it comes with
    /// two open threes that the recursive rule confirms.
    #[inline(never)]
    fn settle_four(&self, pos: Pos, four: Threat) -> Threat {
        match self.four_double_three(pos) && self.judge_double_three(pos).is_some() {
            true => Threat::Forbidden,
            false => four,
        }
    }

    /// `threat` of a candidate double-three of Black's in renju.
    #[inline(never)]
    fn settle_double_three(&self, pos: Pos) -> Threat {
        if self.forbidden(pos).is_some() {
            return Threat::Forbidden;
        }
        let directions = self.geometry.deltas().len();
        let mut patterns = [Pattern::None; lines::MAX_DIRECTIONS];
        for (dir, pattern) in patterns[..directions].iter_mut().enumerate() {
            *pattern = self.lines.pattern(pos, Color::Black, dir);
        }
        match Threat::combine(&patterns[..directions], false) {
            Threat::DoubleThree => Threat::OpenThree,
            legal => legal,
        }
    }

    /// How many empty cells have exactly `threat` for `color`, in O(1). These
    /// are the line-pattern threats: for Black in renju, `DoubleThree` counts
    /// candidates the recursive rule may still find legal, `FourThree` and
    /// `OpenFour` may count fours it forbids (a four with two open threes),
    /// and `Forbidden` counts the overline and double-four points.
    pub fn threat_count(&self, color: Color, threat: Threat) -> usize {
        self.lines.count(color, threat)
    }

    /// How many empty cells have the pair class `class` for `color`, in
    /// O(1). Black's forbidden points in renju (overline, double four) are
    /// `PairClass::NOTHING`.
    pub fn pair_count(&self, color: Color, class: PairClass) -> usize {
        self.lines.pair_count(color, class)
    }

    /// Every class's count for `color` at once, by `PairClass::index`.
    pub fn pair_counts(&self, color: Color) -> &[u16; PairClass::COUNT] {
        self.lines.pair_counts(color)
    }

    /// How many empty cells have `threat` or better for `color`.
    pub fn threat_count_at_least(&self, color: Color, threat: Threat) -> usize {
        Threat::ALL[threat.index()..]
            .iter()
            .map(|&t| self.lines.count(color, t))
            .sum()
    }

    /// The empty cells whose line-pattern threat for `color` is `at_least`
    /// or better, row by row.
    pub fn cells_with_threat(
        &self,
        color: Color,
        at_least: Threat,
    ) -> impl Iterator<Item = Pos> + '_ {
        let mut cells = Vec::new();
        self.collect_cells_with_threat(color, at_least, &mut cells);
        cells.into_iter()
    }

    /// The empty cells where `color` has a four or better whose `threat`
    /// (settled by the renju rule) passes `keep`: the exact form of a count
    /// of fours, which for Black in renju may hold forbidden points.
    pub fn fours_where<'a>(
        &'a self,
        color: Color,
        keep: impl Fn(Threat) -> bool + 'a,
    ) -> impl Iterator<Item = Pos> + 'a {
        self.lines
            .cells_with_four(color)
            .filter(move |&pos| self.is_empty(pos) && keep(self.threat(pos, color)))
    }

    /// Whether `fours_where` finds any.
    pub fn any_four(&self, color: Color, keep: impl Fn(Threat) -> bool) -> bool {
        self.fours_where(color, keep).next().is_some()
    }

    /// `cells_with_threat`, appended to `out`: the search's form, which
    /// reuses one vector.
    pub fn collect_cells_with_threat(&self, color: Color, at_least: Threat, out: &mut Vec<Pos>) {
        // The counts tell at once how many cells there are to find (the
        // search stops at the last), and the cells with fours are kept in a
        // set: only weaker threats need a scan of the board.
        let mut left = self.threat_count_at_least(color, at_least);
        if left == 0 {
            return;
        }
        let mut found = |pos: Pos| {
            if self.is_empty(pos) && self.lines.threat(pos, color) >= at_least {
                out.push(pos);
                left -= 1;
            }
            left == 0
        };
        if at_least >= Threat::Four {
            for pos in self.lines.cells_with_four(color) {
                if found(pos) {
                    return;
                }
            }
            return;
        }
        for y in 0..self.height {
            let row = self.lines.threat_row(y, self.width, color, at_least);
            for x in occupancy::set_bits(row) {
                if found(Pos::new(x, y)) {
                    return;
                }
            }
        }
    }

    /// The empty cells where either colour has a four or better by its
    /// line patterns, row by row (appended to `out`): the candidates that
    /// make or block a four, found without a scan of the board, since every
    /// four point lies within two steps of a stone.
    pub fn collect_four_points(&self, out: &mut Vec<Pos>) {
        out.extend(
            self.lines
                .cells_with_four_of_either()
                .filter(|&pos| self.is_empty(pos)),
        );
    }

    /// The empty cells within two steps of a stone (along the geometry),
    /// row by row: where moves are worth considering.
    pub fn candidates(&self) -> impl Iterator<Item = Pos> + '_ {
        let mut cells = Vec::new();
        self.collect_candidates(&mut cells);
        cells.into_iter()
    }

    /// `candidates`, appended to `out`.
    pub fn collect_candidates(&self, out: &mut Vec<Pos>) {
        self.occupancy.collect_candidates(self.height, out);
    }

    pub fn is_candidate(&self, pos: Pos) -> bool {
        // Checked empty first: padding cells have no row or column.
        self.is_empty(pos) && self.occupancy.is_candidate(pos)
    }

    /// Compares every piece of incremental state with a recount from the
    /// stones alone; `Err` lists the differences. A test aid (it is slow).
    pub fn verify_incremental_state(&self) -> Result<(), String> {
        let on_board: Vec<Pos> = self.cells().collect();
        let mut walls_and_stones = vec![Cell::Wall; CELL_COUNT];
        for &pos in &on_board {
            walls_and_stones[pos.index()] = self.cells[pos.index()];
        }
        let fresh = lines::LineState::new(self.rule, self.geometry, &on_board, &walls_and_stones);
        let mut differences = self.lines.differences(&fresh, &on_board);
        let mut occupancy = occupancy::Occupancy::new(self.width, self.geometry);
        for &pos in &on_board {
            match self.cell(pos) {
                Cell::Empty => {}
                cell => occupancy.place(pos, cell != Cell::Wall),
            }
        }
        if occupancy != self.occupancy {
            differences.push("the stone and wall masks differ from the recount".to_string());
        }
        let hash = self
            .history
            .iter()
            .fold(0, |hash, &pos| match self.cell(pos) {
                Cell::Stone(color) => hash ^ zobrist::key(color, pos),
                _ => hash,
            });
        if hash != self.hash {
            differences.push(format!("hash {:x}, recounted {hash:x}", self.hash));
        }
        let stones = [Color::Black, Color::White].map(|c| {
            on_board
                .iter()
                .filter(|&&p| self.cell(p) == Cell::Stone(c))
                .count()
        });
        if stones != self.stones || stones[0] + stones[1] != self.history.len() {
            differences.push(format!(
                "stone counts {:?}, recounted {stones:?}",
                self.stones
            ));
        }
        if differences.is_empty() {
            Ok(())
        } else {
            Err(differences.join("\n"))
        }
    }

    /// Whether the side to move may play `pos`: empty and not forbidden.
    pub fn is_legal(&self, pos: Pos) -> bool {
        self.is_empty(pos)
            && !(self.rule == Rule::Renju
                && self.side_to_move() == Color::Black
                && self.forbidden(pos).is_some())
    }
}

impl fmt::Debug for Board {
    /// Draws the board: `X` black, `O` white, `#` blocked, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            let row: Vec<&str> = (0..self.width)
                .map(|x| match self.cell(Pos::new(x, y)) {
                    Cell::Empty => ".",
                    Cell::Stone(Color::Black) => "X",
                    Cell::Stone(Color::White) => "O",
                    Cell::Wall => "#",
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
}
