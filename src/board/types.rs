//! Small value types shared by every layer: colours, cells, positions, rules.

use std::fmt;

/// Largest board side we support (Gomocup uses 15 and 20; Yixin-Board up to 22).
pub const MAX_SIZE: usize = 32;
/// Smallest board side we support.
pub const MIN_SIZE: usize = 5;
/// Sentinel cells on each side of the playing area, so that a scan of four cells
/// each way from any on-board cell never leaves the array.
pub const PADDING: usize = 5;
/// Row stride of the padded cell array. Fixed, so a `Pos` means the same cell on
/// every board size and can be computed without a board at hand.
pub const STRIDE: usize = MAX_SIZE + 2 * PADDING;
/// Number of cells in the padded array.
pub const CELL_COUNT: usize = STRIDE * STRIDE;

/// A player's colour. Black moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// What occupies one cell of the padded array.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Stone(Color),
    /// A point nobody may use: the padding around the board, or a point a manager
    /// marked as blocked (`BOARD` field 3).
    Wall,
}

/// A cell of the board, stored as its index in the padded array.
///
/// `x` is the column (left to right) and `y` the row (top to bottom), both
/// 0-based, as the pbrain protocol writes them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(u16);

impl Pos {
    /// The cell at column `x`, row `y`. Both must be below `MAX_SIZE`.
    pub const fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos(((y + PADDING) * STRIDE + x + PADDING) as u16)
    }

    pub const fn from_index(index: usize) -> Pos {
        Pos(index as u16)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE - PADDING
    }

    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE - PADDING
    }

    /// The cell `steps` cells away along the padded-array offset `delta`.
    pub fn offset(self, delta: isize, steps: isize) -> Pos {
        Pos((self.0 as isize + delta * steps) as u16)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

impl Pos {
    /// Reads board notation, the inverse of `Display`: column letter then
    /// row number counted from 1 (`h8`); `None` for anything else.
    pub fn from_notation(text: &str) -> Option<Pos> {
        let mut chars = text.chars();
        let column = chars.next()?.to_ascii_lowercase();
        if !column.is_ascii_lowercase() {
            return None;
        }
        let row: usize = chars.as_str().parse().ok()?;
        let x = column as usize - 'a' as usize;
        (row >= 1 && x < MAX_SIZE && row <= MAX_SIZE).then(|| Pos::new(x, row - 1))
    }
}

impl fmt::Display for Pos {
    /// Board notation: column letter then row number counted from 1, e.g. `h8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = (b'a' + self.x() as u8) as char;
        write!(f, "{}{}", column, self.y() + 1)
    }
}

/// The winning rule of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins, for both colours; an overline wins for nobody.
    Standard,
    /// Black needs exactly five and has forbidden moves; White wins with five or more.
    Renju,
    /// Five or more wins unless the five is blocked at both ends by enemy stones.
    Caro,
    /// Exactly five that is not blocked at both ends by enemy stones.
    CaroExact,
}

impl Rule {
    /// Whether an unbroken row of `length` stones of `color` wins, given
    /// whether both cells just beyond its ends hold enemy stones (the board
    /// edge and walls do not count as enemy stones).
    pub fn is_winning_row(self, color: Color, length: usize, blocked_both_ends: bool) -> bool {
        match self {
            Rule::Freestyle => length >= 5,
            Rule::Standard => length == 5,
            Rule::Renju => length == 5 || (length > 5 && color == Color::White),
            Rule::Caro => length > 5 || (length == 5 && !blocked_both_ends),
            Rule::CaroExact => length == 5 && !blocked_both_ends,
        }
    }

    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];
}
