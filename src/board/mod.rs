//! The board: stones, move history, Zobrist hash, the win rules and renju's
//! forbidden points. Knows nothing about search or the protocol.
//!
//! Contract used by the other layers (keep it stable, extend it freely):
//! construction with a size and a rule, checked `play`/`place`/`undo`/`remove`
//! for the session, unchecked `make`/`unmake` for the search, `is_win`,
//! `forbidden`, `hash`.

mod geometry;
mod renju;
mod types;
mod zobrist;

pub use geometry::Geometry;
pub use types::{Cell, Color, Pos, Rule, CELL_COUNT, MAX_SIZE, MIN_SIZE, PADDING, STRIDE};

use std::fmt;

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
    hash: u64,
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
        Ok(Board {
            width,
            height,
            rule,
            geometry,
            cells,
            history: Vec::with_capacity(width * height),
            stones: [0, 0],
            hash: 0,
        })
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
        self.stones[color.index()] += 1;
        self.hash ^= zobrist::key(color, pos);
        self.history.push(pos);
    }

    fn lift(&mut self, pos: Pos) {
        if let Cell::Stone(color) = self.cell(pos) {
            self.cells[pos.index()] = Cell::Empty;
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
            let both_blocked = enemy_ends[0] && enemy_ends[1];
            match self.rule {
                Rule::Freestyle => length >= 5,
                Rule::Standard => length == 5,
                Rule::Renju => length == 5 || (length > 5 && color == Color::White),
                Rule::Caro => length > 5 || (length == 5 && !both_blocked),
                Rule::CaroExact => length == 5 && !both_blocked,
            }
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
    /// rules, for White, and for occupied points.
    pub fn forbidden(&self, pos: Pos) -> Option<Forbidden> {
        if self.rule != Rule::Renju || !self.is_empty(pos) {
            return None;
        }
        renju::Judge::new(&self.cells, self.geometry.deltas()).forbidden(pos)
    }

    /// Every point Black may not play, row by row. Empty unless the rule is
    /// renju. Does not depend on whose turn it is.
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let mut judge = renju::Judge::new(&self.cells, self.geometry.deltas());
        self.empty_cells()
            .filter(|&p| judge.forbidden(p).is_some())
            .collect()
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
