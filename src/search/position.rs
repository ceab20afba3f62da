//! The search's working copy of the board, and the per-cell view of it that
//! move generation and the solvers share: both colours' threats and worths.

use super::CandidateRange;
use crate::board::{Board, Color, Pos, Rule, Threat};
use crate::eval::OrderKey;

/// What a stone on one empty cell would do, for each colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CellInfo {
    pub pos: Pos,
    pub threat: [Threat; 2],
    /// Worth of the cell to the side to move, by colour: for its own, what
    /// its stone would make (`cell_value`); for the opponent's, taking the
    /// cell from it (`block_value`). Their sum is the ordering key.
    pub value: [i32; 2],
}

/// A four of any kind: the opponent must answer at one point or lose.
pub fn is_four(threat: Threat) -> bool {
    threat >= Threat::Four
}

/// A four that blocking one point cannot stop.
pub fn wins_by_force(threat: Threat) -> bool {
    matches!(threat, Threat::OpenFour | Threat::DoubleFour)
}

/// Whether `color` has a cell where it would make such a four.
pub fn threatens_unstoppable_four(board: &Board, color: Color) -> bool {
    let counted =
        board.threat_count(color, Threat::OpenFour) + board.threat_count(color, Threat::DoubleFour);
    counted > 0 && (!renju_black(board, color) || board.any_four(color, wins_by_force))
}

/// Whether `color` has a cell where it would make a four and an open three
/// at once (for Black in renju, one that is not forbidden).
pub fn threatens_four_three(board: &Board, color: Color) -> bool {
    board.threat_count(color, Threat::FourThree) > 0
        && (!renju_black(board, color) || board.any_four(color, |t| t == Threat::FourThree))
}

/// Black in renju, whose counted fours may be forbidden points.
pub fn renju_black(board: &Board, color: Color) -> bool {
    board.rule() == Rule::Renju && color == Color::Black
}

#[derive(Clone)]
pub struct Position {
    pub board: Board,
    /// Which empty cells `candidates` lists (`INFO caution_factor`).
    pub range: CandidateRange,
}

impl Position {
    pub fn new(board: &Board) -> Position {
        Position {
            board: board.clone(),
            range: CandidateRange::default(),
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// The hash once the side to move has played `pos`.
    pub fn hash_after(&self, pos: Pos) -> u64 {
        self.board.hash_after(pos)
    }

    pub fn make(&mut self, pos: Pos) {
        self.board.make(pos);
    }

    /// Places a stone of `color` on the empty cell `pos`, whoever is to move
    /// (a solver asking what one side could do if the other passed).
    pub fn place(&mut self, pos: Pos, color: Color) {
        let placed = self.board.place(pos, color);
        debug_assert!(placed.is_ok());
    }

    pub fn unmake(&mut self) {
        self.board.unmake();
    }

    /// Empty cells near the stones; on an empty board, the centre; on a board
    /// whose stones have no empty neighbour, every empty cell.
    pub fn candidates(&self, out: &mut Vec<Pos>) {
        out.clear();
        self.board.collect_candidates(out);
        if self.range != CandidateRange::Square2 && !out.is_empty() {
            self.widen(out);
        }
        if out.is_empty() {
            let centre = Pos::new(self.board.width() / 2, self.board.height() / 2);
            if self.board.stone_count() == 0 && self.board.is_empty(centre) {
                out.push(centre);
            } else {
                out.extend(self.board.empty_cells());
            }
        }
    }

    /// Adds to `out` (the cells within two steps of a stone) the further
    /// cells `self.range` asks for.
    fn widen(&self, out: &mut Vec<Pos>) {
        let board = &self.board;
        if self.range == CandidateRange::FullBoard {
            out.clear();
            out.extend(board.empty_cells());
            return;
        }
        let (square, line) = match self.range {
            CandidateRange::Square2Line3 => (2, 3),
            CandidateRange::Square3 => (3, 3),
            CandidateRange::Square3Line4 => (3, 4),
            _ => (4, 4),
        };
        let geometry = board.geometry();
        let width = board.width();
        let mut listed = vec![false; width * board.height()];
        for p in out.iter() {
            listed[p.y() * width + p.x()] = true;
        }
        let on_a_line = |dx: isize, dy: isize| {
            geometry
                .directions()
                .iter()
                .any(|&(lx, ly)| dx * ly == dy * lx)
        };
        for &stone in board.history() {
            for dy in -line..=line {
                for dx in -line..=line {
                    let steps = geometry.distance((dx, dy)) as isize;
                    let reached = steps <= square || (steps <= line && on_a_line(dx, dy));
                    let x = stone.x() as i64 + dx as i64;
                    let y = stone.y() as i64 + dy as i64;
                    let Some(p) = board.pos(x, y).filter(|_| reached) else {
                        continue;
                    };
                    if board.is_empty(p) && !listed[p.y() * width + p.x()] {
                        listed[p.y() * width + p.x()] = true;
                        out.push(p);
                    }
                }
            }
        }
    }

    /// Both colours' threats and worths for a stone on the empty cell `pos`.
    pub fn analyse(&self, pos: Pos) -> CellInfo {
        self.analyse_with(&OrderKey::of(&self.board), pos)
    }

    /// `analyse` with the board's ordering key already at hand, for the
    /// loops that weigh many cells (inlined into them: it runs for every
    /// candidate of every node).
    #[inline(always)]
    pub fn analyse_with(&self, key: &OrderKey, pos: Pos) -> CellInfo {
        let board = &self.board;
        let threat = [
            board.threat(pos, Color::Black),
            board.threat(pos, Color::White),
        ];
        let me = self.side_to_move();
        let worth = |color: Color| {
            let threat = threat[color.index()];
            match color == me {
                true => key.own(board, pos, color, threat),
                false => key.their(board, pos, color, threat),
            }
        };
        CellInfo {
            pos,
            threat,
            value: [worth(Color::Black), worth(Color::White)],
        }
    }

    /// Renju, White to move against Black's open three: the cells on the
    /// lines through Black's straight-four points where Black may not play,
    /// yet a white stone takes one of those fours away. Such a cell is no
    /// four point of Black's, so blocks read from Black's four points miss
    /// it: the far end of a split three, when Black may not take it.
    pub fn forbidden_blocks(&mut self, out: &mut Vec<Pos>) {
        out.clear();
        if !renju_black(&self.board, self.side_to_move().opponent()) {
            return;
        }
        let straight_fours = |board: &Board| board.fours_where(Color::Black, wins_by_force).count();
        let points: Vec<Pos> = self
            .board
            .fours_where(Color::Black, wins_by_force)
            .collect();
        let before = points.len();
        for &point in &points {
            for &delta in self.board.geometry().deltas() {
                for steps in (-4..=4).filter(|&s| s != 0) {
                    let cell = point.offset(delta, steps);
                    let board = &self.board;
                    if !board.is_empty(cell)
                        || out.contains(&cell)
                        || board.threat(cell, Color::Black) != Threat::Forbidden
                    {
                        continue;
                    }
                    self.board.make(cell);
                    let left = straight_fours(&self.board);
                    self.board.unmake();
                    if left < before {
                        out.push(cell);
                    }
                }
            }
        }
    }

    /// Cells where `color` has `at_least` this threat (`Forbidden` excluded).
    pub fn cells_with(&self, color: Color, at_least: Threat, out: &mut Vec<Pos>) {
        out.clear();
        self.board.collect_cells_with_threat(color, at_least, out);
        // Only Black's renju double-threes, and its fours that come with two
        // open threes, can read lower once settled (as forbidden, or as one
        // three).
        if renju_black(&self.board, color) && at_least > Threat::Forbidden {
            out.retain(|&p| self.board.threat(p, color) >= at_least);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_blocks_a_split_three_at_the_end_black_may_not_take() {
        // Black's split three on row 7 makes its straight four only at
        // (6,7); of its ends, (9,7) is a four with two open threes for
        // Black (up the column, along the diagonal): forbidden, so no four
        // point of Black's, yet White's stone there stops the straight four.
        let board = Board::from_diagram(
            "
            O . O . O . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . X . . . . .
            . . . . . . . . . X . . . . .
            . . . . . X . X X . . . . . .
            . . . . . . . . . . X . . . .
            . . . . . . . . . . . X . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            O . O . O . . . . . . . . . .
            ",
            Rule::Renju,
            crate::board::Geometry::Square,
        )
        .unwrap();
        let end = Pos::new(9, 7);
        assert_eq!(board.threat(end, Color::Black), Threat::Forbidden);
        let mut position = Position::new(&board);
        assert!(threatens_unstoppable_four(&position.board, Color::Black));
        let mut blocks = Vec::new();
        position.forbidden_blocks(&mut blocks);
        assert_eq!(blocks, vec![end]);
        position.make(end);
        assert!(!threatens_unstoppable_four(&position.board, Color::Black));
    }

    #[test]
    fn the_hash_after_a_move_is_the_hash_once_it_is_made() {
        let board = Board::new(15, 15, Rule::Renju).unwrap();
        let mut position = Position::new(&board);
        for pos in [
            Pos::new(7, 7),
            Pos::new(8, 8),
            Pos::new(6, 8),
            Pos::new(0, 14),
        ] {
            let predicted = position.hash_after(pos);
            assert_ne!(predicted, position.hash());
            position.make(pos);
            assert_eq!(position.hash(), predicted);
        }
    }

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
        position.unmake();
        position.candidates(&mut cells);
        assert_eq!(cells, vec![Pos::new(7, 7)]);
    }

    #[test]
    fn the_candidate_range_widens_with_caution() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        board.play(Pos::new(7, 7)).unwrap();
        let mut position = Position::new(&board);
        let mut count = |range: CandidateRange| {
            position.range = range;
            let mut cells = Vec::new();
            position.candidates(&mut cells);
            let unique: std::collections::HashSet<_> = cells.iter().collect();
            assert_eq!(unique.len(), cells.len(), "{range:?}");
            assert!(cells.iter().all(|&p| board.is_empty(p)));
            cells.len()
        };
        // One stone: 24 cells within two steps; the lines add 8 cells three
        // steps away, the squares 48 and 80 cells in all.
        assert_eq!(count(CandidateRange::Square2), 24);
        assert_eq!(count(CandidateRange::Square2Line3), 32);
        assert_eq!(count(CandidateRange::Square3), 48);
        assert_eq!(count(CandidateRange::Square3Line4), 56);
        assert_eq!(count(CandidateRange::Square4), 80);
        assert_eq!(count(CandidateRange::FullBoard), 224);
        assert_eq!(CandidateRange::from_caution(-3), CandidateRange::Square2);
        assert_eq!(CandidateRange::from_caution(0), CandidateRange::Square2);
        assert_eq!(CandidateRange::from_caution(2), CandidateRange::Square3);
        assert_eq!(CandidateRange::from_caution(9), CandidateRange::FullBoard);
    }
}
