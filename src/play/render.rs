//! The board as rows of labelled cells, shared by the terminal (which colours
//! them) and by plain text (tests, and what the tests compare).
//!
//! Columns are letters and rows numbers from the top, as the rest of wuzi
//! writes moves (`h8` is column h, eighth row from the top). A cell is three
//! characters: ` X ` Black, ` O ` White, `[X]` the last move, ` * ` a point
//! forbidden to Black, ` ? ` the hint, ` . ` empty; with numbers on, stones
//! show their move number instead. On the hex board every row is shifted
//! half a cell to the right of the one above, so that each cell's six
//! neighbours touch it.

use crate::board::{Board, Cell, Color, Geometry, Pos};

/// What a cell shows, for the terminal's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    Empty,
    Stone(Color),
    LastStone(Color),
    Forbidden,
    Hint,
    Wall,
}

/// What is marked on the board besides the stones.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    pub forbidden: Vec<Pos>,
    pub hint: Option<Pos>,
    pub numbers: bool,
}

/// One drawn row: its indent, the label and the cells.
#[derive(Clone, Debug)]
pub struct DrawnRow {
    pub label: String,
    pub indent: usize,
    pub cells: Vec<(String, CellKind, Pos)>,
}

pub const CELL_WIDTH: usize = 3;
const LABEL_WIDTH: usize = 3;

/// The column letter line.
pub fn column_header(board: &Board) -> String {
    let mut header = " ".repeat(LABEL_WIDTH);
    for x in 0..board.width() {
        header.push_str(&format!(" {} ", (b'a' + x as u8) as char));
    }
    header.trim_end().to_string()
}

pub fn rows(board: &Board, marks: &Marks) -> Vec<DrawnRow> {
    let numbers: std::collections::HashMap<Pos, usize> = board
        .history()
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, i + 1))
        .collect();
    let last = board.last_move();
    (0..board.height())
        .map(|y| {
            let cells = (0..board.width())
                .map(|x| {
                    let pos = Pos::new(x, y);
                    let (text, kind) = match board.cell(pos) {
                        Cell::Stone(color) => {
                            let mark = if color == Color::Black { 'X' } else { 'O' };
                            let kind = if last == Some(pos) {
                                CellKind::LastStone(color)
                            } else {
                                CellKind::Stone(color)
                            };
                            let text = match (marks.numbers, kind) {
                                (true, _) => format!("{:^3}", numbers.get(&pos).unwrap_or(&0)),
                                (false, CellKind::LastStone(_)) => format!("[{mark}]"),
                                _ => format!(" {mark} "),
                            };
                            (text, kind)
                        }
                        Cell::Wall => (" # ".to_string(), CellKind::Wall),
                        Cell::Empty if marks.hint == Some(pos) => {
                            (" ? ".to_string(), CellKind::Hint)
                        }
                        Cell::Empty if marks.forbidden.contains(&pos) => {
                            (" * ".to_string(), CellKind::Forbidden)
                        }
                        Cell::Empty => (" . ".to_string(), CellKind::Empty),
                    };
                    (text, kind, pos)
                })
                .collect();
            DrawnRow {
                label: format!("{:>2} ", y + 1),
                indent: match board.geometry() {
                    Geometry::Square => 0,
                    Geometry::Hex => y * CELL_WIDTH / 2,
                },
                cells,
            }
        })
        .collect()
}

/// The board as plain text, one line a row, the column letters on top.
pub fn board_text(board: &Board, marks: &Marks) -> String {
    let mut text = column_header(board) + "\n";
    for row in rows(board, marks) {
        let mut line = row.label.clone() + &" ".repeat(row.indent);
        for (cell, _, _) in &row.cells {
            line.push_str(cell);
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}
