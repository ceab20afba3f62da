//! The search's working copy of the board: the board itself, the candidate
//! area (empty cells near stones), and per-cell threat analysis for both
//! colours.

use crate::board::{Board, Color, Pos, Rule, CELL_COUNT, STRIDE};
use crate::eval::shape::{combine, may_be_forbidden};
use crate::eval::{cell_value, ShapeReader, Threat};

/// Cells within this Chebyshev distance of a stone are candidates.
const CANDIDATE_RADIUS: isize = 2;

/// What a stone on one empty cell would do, for each colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CellInfo {
    pub pos: Pos,
    pub threat: [Threat; 2],
    pub value: [i32; 2],
}

#[derive(Clone)]
pub struct Position {
    pub board: Board,
    /// Stones within `CANDIDATE_RADIUS` of each cell.
    near: Vec<u8>,
    reader: ShapeReader,
}

impl Position {
    pub fn new(board: &Board) -> Position {
        let mut position = Position {
            board: board.clone(),
            near: vec![0; CELL_COUNT],
            reader: ShapeReader::new(board.rule()),
        };
        for &stone in board.history() {
            position.touch(stone, 1);
        }
        position
    }

    fn touch(&mut self, pos: Pos, delta: i8) {
        for dy in -CANDIDATE_RADIUS..=CANDIDATE_RADIUS {
            for dx in -CANDIDATE_RADIUS..=CANDIDATE_RADIUS {
                let index = (pos.index() as isize + dy * STRIDE as isize + dx) as usize;
                if let Some(count) = self.near.get_mut(index) {
                    *count = count.wrapping_add_signed(delta);
                }
            }
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    pub fn make(&mut self, pos: Pos) {
        self.board.make(pos);
        self.touch(pos, 1);
    }

    pub fn unmake(&mut self) {
        if let Some(pos) = self.board.last_move() {
            self.board.unmake();
            self.touch(pos, -1);
        }
    }

    /// Empty cells near the stones; on an empty board, the centre.
    pub fn candidates(&self, out: &mut Vec<Pos>) {
        out.clear();
        if self.board.stone_count() == 0 {
            let centre = Pos::new(self.board.width() / 2, self.board.height() / 2);
            if self.board.is_empty(centre) {
                out.push(centre);
                return;
            }
        }
        for y in 0..self.board.height() {
            for x in 0..self.board.width() {
                let pos = Pos::new(x, y);
                if self.near[pos.index()] > 0 && self.board.is_empty(pos) {
                    out.push(pos);
                }
            }
        }
        if out.is_empty() {
            // Stones only on blocked points, or a board of walls: any empty cell.
            out.extend(self.board.empty_cells());
        }
    }

    /// Both colours' threats and worths for a stone on the empty cell `pos`.
    pub fn analyse(&self, pos: Pos) -> CellInfo {
        let shapes = self.reader.cell(&self.board, pos).shapes;
        let mut threat = [combine(&shapes[0]), combine(&shapes[1])];
        if self.board.rule() == Rule::Renju
            && may_be_forbidden(&shapes[0])
            && self.board.forbidden(pos).is_some()
        {
            threat[0] = Threat::Forbidden;
        }
        CellInfo {
            pos,
            threat,
            value: [
                cell_value(&shapes[0], threat[0]),
                cell_value(&shapes[1], threat[1]),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_follow_make_and_unmake() {
        let board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut position = Position::new(&board);
        let mut cells = Vec::new();
        position.candidates(&mut cells);
        assert_eq!(cells, vec![Pos::new(7, 7)]);
        position.make(Pos::new(7, 7));
        position.candidates(&mut cells);
        assert_eq!(cells.len(), 24);
        position.make(Pos::new(0, 0));
        position.candidates(&mut cells);
        assert_eq!(cells.len(), 24 + 8);
        position.unmake();
        position.candidates(&mut cells);
        assert_eq!(cells.len(), 24);
    }
}
