//! The threats a node must answer, read from the board's threat counts
//! before any move is searched: decided positions, forced replies, wins that
//! need no search, and the move lists that answer the opponent's threats
//! (the blocks of an open three, the stones that break a four-three, the
//! moves that stop a VCF).

use super::answers::LINE_REACH;
use super::defence::{keep_refutations, DefenceBudget};
use super::position::{
    is_four, renju_black, threatens_four_three, threatens_unstoppable_four, wins_by_force,
};
use super::worker::{Node, Scored, Worker};
use super::{mate_in, mated_in};
use crate::board::{Color, Pos, Rule, Threat};
use crate::eval::OrderKey;

/// Interior nodes this deep look for the opponent's VCF before searching.
/// Nearer the horizon the probe costs more than it saves: the leaf's own
/// VCF and the next ply's threat counts catch most of what it would find.
/// In long threat sequences probes from depth 5 took a third of the nodes
/// and more (docs/search.md).
pub(super) const INTERIOR_DEFENCE_DEPTH: i32 = 8;
/// The check for the opponent's VCF at an interior node: small, as it runs
/// at every node of that depth where the opponent can make a four.
const INTERIOR_DEFENCE: DefenceBudget = DefenceBudget {
    probe: 300,
    verify: 100,
    fours: 12,
    deadline: None,
};
/// The check for the opponent's VCF at the root.
const ROOT_DEFENCE: DefenceBudget = DefenceBudget {
    probe: 5_000,
    verify: 1_000,
    fours: 20,
    deadline: None,
};

/// What the threat counts say about a node.
pub(super) enum Tactics {
    Decided(Node),
    /// The opponent threatens five at this one point: the only move.
    Forced(Pos),
    /// Nothing forced: what the opponent threatens.
    Open(Threats),
}

/// The opponent's threats a node must answer.
#[derive(Copy, Clone, Debug, Default)]
pub struct Threats {
    /// An open four (or a double four) next move: only blocks and our own
    /// fours are worth searching.
    pub four: bool,
    /// A four-three next move: only stones on its lines and our own fours
    /// are worth searching.
    pub four_three: bool,
}

impl Threats {
    pub(super) fn any(self) -> bool {
        self.four || self.four_three
    }
}

impl<'a> Worker<'a> {
    /// The first cell not in `excluded` where `color` has `at_least` this
    /// threat (confirmed by the board, so never a forbidden point).
    pub(super) fn find(&mut self, color: Color, at_least: Threat, excluded: &[Pos]) -> Option<Pos> {
        self.position.cells_with(color, at_least, &mut self.cells);
        self.cells.iter().copied().find(|p| !excluded.contains(p))
    }

    /// Recognises decided and forced positions from the board's threat
    /// counts, before any move list is built.
    pub(super) fn tactics(&mut self, ply: usize, excluded: &[Pos]) -> Tactics {
        let me = self.position.side_to_move();
        let them = me.opponent();
        let board = &self.position.board;
        let ply = ply as u32;
        if board.threat_count(me, Threat::Five) > 0 {
            if let Some(five) = self.find(me, Threat::Five, excluded) {
                return Tactics::Decided(Node::Won(mate_in(ply + 1), five));
            }
        }
        let board = &self.position.board;
        match board.threat_count(them, Threat::Five) {
            0 => {}
            1 => {
                let block = self.find(them, Threat::Five, &[]);
                return match block {
                    Some(b) if self.position.board.is_legal(b) && !excluded.contains(&b) => {
                        Tactics::Forced(b)
                    }
                    _ => Tactics::Decided(Node::Lost(mated_in(ply + 2), block)),
                };
            }
            _ => {
                let block = self.find(them, Threat::Five, &[]);
                return Tactics::Decided(Node::Lost(mated_in(ply + 2), block));
            }
        }
        if threatens_unstoppable_four(&self.position.board, me) {
            self.position
                .cells_with(me, Threat::DoubleFour, &mut self.cells);
            let board = &self.position.board;
            let winning = self
                .cells
                .iter()
                .copied()
                .find(|&p| !excluded.contains(&p) && wins_by_force(board.threat(p, me)));
            if let Some(four) = winning {
                return Tactics::Decided(Node::Won(mate_in(ply + 3), four));
            }
        }
        let threats = Threats {
            four: threatens_unstoppable_four(board, them),
            four_three: threatens_four_three(board, them),
        };
        if let Some(win) = self.static_win(ply, excluded) {
            return Tactics::Decided(win);
        }
        Tactics::Open(threats)
    }

    /// A four-three or a double three of the side to move that wins by force
    /// because the opponent has no four to interpose: the four (or either
    /// three) must be answered, and the line left standing becomes an open
    /// four. Not for Black in renju, whose open four may be forbidden.
    fn static_win(&mut self, ply: u32, excluded: &[Pos]) -> Option<Node> {
        let me = self.position.side_to_move();
        let board = &self.position.board;
        let renju_black = board.rule() == Rule::Renju && me == Color::Black;
        if renju_black || board.threat_count_at_least(me.opponent(), Threat::Four) > 0 {
            return None;
        }
        for wins in [Threat::FourThree, Threat::DoubleThree] {
            if self.position.board.threat_count(me, wins) == 0 {
                continue;
            }
            self.position.cells_with(me, wins, &mut self.cells);
            let board = &self.position.board;
            let winning = self
                .cells
                .iter()
                .copied()
                .find(|&p| !excluded.contains(&p) && board.threat(p, me) == wins);
            if let Some(cell) = winning {
                return Some(Node::Won(mate_in(ply + 5), cell));
            }
        }
        None
    }

    /// Analyses every candidate and keeps the moves worth searching in
    /// `self.moves[ply]`: against an open-four threat only the blocks that
    /// hold and our own fours, against a four-three only our own fours and
    /// the stones on its lines that stop it, else every legal candidate.
    /// `Lost` if nothing helps.
    pub fn generate(&mut self, ply: usize, excluded: &[Pos], threats: Threats) -> Option<Node> {
        let they_threaten_four = threats.four;
        let on_their_lines = threats.four_three && !threats.four;
        self.clear_deferred_answers(ply);
        if on_their_lines {
            self.mark_four_three_lines();
        }
        let stamp = self.line_stamp;
        let mover = self.position.side_to_move();
        let (me, them) = (mover.index(), mover.opponent().index());
        if they_threaten_four {
            // Only our fours and the blocks of theirs are kept below, and
            // the board lists those cells in the candidates' order.
            self.cells.clear();
            self.position.board.collect_four_points(&mut self.cells);
        } else {
            self.position.candidates(&mut self.cells);
        }
        let list = &mut self.moves[ply];
        list.clear();
        let order_key = OrderKey::of(&self.position.board);
        for &pos in &self.cells {
            if excluded.contains(&pos) {
                continue;
            }
            // The threats decide whether the cell is kept; its worth is
            // weighed only if it is.
            let board = &self.position.board;
            let my_threat = board.threat(pos, mover);
            if my_threat == Threat::Forbidden {
                continue;
            }
            if they_threaten_four
                && !is_four(my_threat)
                && !is_four(board.threat(pos, mover.opponent()))
            {
                continue;
            }
            if on_their_lines && !is_four(my_threat) && self.line_marks[pos.index()] != stamp {
                continue;
            }
            let info = self.position.analyse_with(&order_key, pos);
            let key = info.value[me] + info.value[them];
            list.push(Scored { info, key });
        }
        // In renju White also answers Black's three on the points Black
        // itself may not play, where a white stone still stops the straight
        // four.
        if they_threaten_four {
            self.keep_blocks_that_hold(ply);
            if self.position.board.rule() == Rule::Renju {
                self.add_forbidden_blocks(ply, excluded, &order_key);
            }
        } else if on_their_lines && ply == 0 {
            self.keep_four_three_answers(ply);
        } else if on_their_lines && !self.defer_four_three_answers(ply) {
            self.moves[ply].clear();
        }
        let list = &self.moves[ply];
        if list.is_empty() && they_threaten_four {
            return Some(Node::Lost(mated_in(ply as u32 + 4), None));
        }
        if list.is_empty() && on_their_lines {
            // No stone reaches the four-three's lines: search everything
            // rather than trust the shortcut with the result.
            return self.generate(ply, excluded, Threats::default());
        }
        if list.is_empty() && !they_threaten_four {
            return self.generate_beyond_candidates(ply, excluded);
        }
        None
    }

    /// Renju, Black to move with every candidate forbidden (late in a
    /// game, when the board is nearly full): Black may still play further
    /// out, and the cells it may play there become the move list. Where it
    /// may play nowhere, it has to take a forbidden point and loses, which
    /// its opponent can aim for; scored as a draw, Black walked into such
    /// endings. A full board, or a list emptied by `excluded` alone, stays
    /// a draw for the caller.
    fn generate_beyond_candidates(&mut self, ply: usize, excluded: &[Pos]) -> Option<Node> {
        let mover = self.position.side_to_move();
        if !renju_black(&self.position.board, mover) {
            return None;
        }
        let order_key = OrderKey::of(&self.position.board);
        let (me, them) = (mover.index(), mover.opponent().index());
        let mut list = std::mem::take(&mut self.moves[ply]);
        let mut any_legal = false;
        let mut any_empty = false;
        let board = &self.position.board;
        for pos in board.empty_cells() {
            any_empty = true;
            if board.threat(pos, mover) == Threat::Forbidden {
                continue;
            }
            any_legal = true;
            if !excluded.contains(&pos) {
                let info = self.position.analyse_with(&order_key, pos);
                let key = info.value[me] + info.value[them];
                list.push(Scored { info, key });
            }
        }
        self.moves[ply] = list;
        (any_empty && !any_legal).then(|| Node::Lost(mated_in(ply as u32 + 2), None))
    }

    /// Renju, White against Black's open three: adds the blocks on points
    /// Black may not play (`Position::forbidden_blocks`).
    fn add_forbidden_blocks(&mut self, ply: usize, excluded: &[Pos], order_key: &OrderKey) {
        let mut blocks = std::mem::take(&mut self.cells);
        self.position.forbidden_blocks(&mut blocks);
        let (me, them) = (Color::White.index(), Color::Black.index());
        for &pos in &blocks {
            let listed = self.moves[ply].iter().any(|m| m.info.pos == pos);
            if excluded.contains(&pos) || listed {
                continue;
            }
            let info = self.position.analyse_with(order_key, pos);
            let key = info.value[me] + info.value[them];
            self.moves[ply].push(Scored { info, key });
        }
        self.cells = blocks;
    }

    /// Against an open-four threat, keeps our fours and only the blocks
    /// that can hold. A cell where the opponent would make a four is not
    /// always a block: on another of its lines it changes nothing, and two
    /// cells from an open three with room on both sides it leaves the
    /// other side's open four. Searching such a move spends a ply on a loss
    /// and, ranked among the blocks, pushes the real ones into the
    /// reductions. Cheap tests first: a cell off every line through the
    /// opponent's open-four points goes; one of those points stays; the
    /// few cells left between are played, and kept only if the opponent
    /// has no open four or double four left to make. Against 83efbc1, in
    /// freestyle 15: +27 ± 33 at `max_node=30000`, +25 ± 33 at 100 ms; in
    /// renju 15 at 100 ms −15 ± 33 and −17 ± 33 (420 games each), so not
    /// in renju.
    fn keep_blocks_that_hold(&mut self, ply: usize) {
        let mover = self.position.side_to_move();
        let them = mover.opponent();
        let mut points = std::mem::take(&mut self.cells);
        self.position
            .cells_with(them, Threat::DoubleFour, &mut points);
        let board = &self.position.board;
        points.retain(|&p| wins_by_force(board.threat(p, them)));
        let deltas = board.geometry().deltas();
        // A stone off every line on which a point makes its fours leaves
        // that point's fours as they are, so it holds only if it lies on
        // such a line of every point. Black's in renju are held to the
        // looser test (a line of any point, in any direction), since a
        // white stone may settle a black point's forbidden shape either way.
        let every_point = !renju_black(board, them);
        // Per point, the directions to look along: those of its fours (all
        // of them under the looser test, or past the first few points).
        let mut four_lines = [0xFFu8; 8];
        for (lines, &point) in four_lines.iter_mut().zip(&points) {
            if every_point {
                *lines = (0..deltas.len())
                    .filter(|&dir| board.pattern(point, them, dir).four_count() > 0)
                    .fold(0, |lines, dir| lines | 1 << dir);
            }
        }
        let on_the_line = |(index, &point): (usize, &Pos), cell: Pos| {
            let lines = four_lines.get(index).copied().unwrap_or(0xFF);
            deltas.iter().enumerate().any(|(dir, &delta)| {
                lines & 1 << dir != 0
                    && (1..LINE_REACH)
                        .any(|s| point.offset(delta, s) == cell || point.offset(delta, -s) == cell)
            })
        };
        let on_their_lines = |cell: Pos| {
            let mut each = points.iter().enumerate();
            match every_point {
                true => !points.is_empty() && each.all(|p| on_the_line(p, cell)),
                false => each.any(|p| on_the_line(p, cell)),
            }
        };
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.retain(|m| {
            let [mine, theirs] = [m.info.threat[mover.index()], m.info.threat[them.index()]];
            if is_four(mine) || wins_by_force(theirs) {
                return true;
            }
            if !on_their_lines(m.info.pos) {
                return false;
            }
            self.position.make(m.info.pos);
            let holds = !threatens_unstoppable_four(&self.position.board, them);
            self.position.unmake();
            holds
        });
        self.moves[ply] = list;
        self.cells = points;
    }

    /// Everything the root needs before searching: a decided result, or the
    /// moves in `self.moves[0]`.
    pub fn prepare_root(&mut self, excluded: &[Pos]) -> Option<Node> {
        match self.tactics(0, excluded) {
            Tactics::Decided(node) => Some(node),
            Tactics::Forced(block) => {
                let info = self.position.analyse(block);
                self.moves[0].clear();
                self.moves[0].push(Scored { info, key: 0 });
                None
            }
            Tactics::Open(threats) => {
                let lost = self.generate(0, excluded, threats);
                if lost.is_none() && !threats.four {
                    self.keep_root_answers();
                }
                lost
            }
        }
    }

    /// Narrows the root's moves to the answers to the opponent's VCF, if the
    /// opponent has one. Worked out once per search, then remembered.
    pub(super) fn keep_root_answers(&mut self) {
        let mut moves = std::mem::take(&mut self.moves[0]);
        match &self.root_answers {
            Some(answers) => moves.retain(|m| answers.contains(&m.info.pos)),
            None => {
                // Every thread bounds the check by the hard limit: the main
                // thread waits for its helpers before answering.
                let budget = DefenceBudget {
                    deadline: self.shared.limits.time.map(|t| t.start + t.hard),
                    ..ROOT_DEFENCE
                };
                self.nodes +=
                    keep_refutations(&mut self.position, &mut self.vcf, &mut moves, budget);
                self.root_answers = Some(moves.iter().map(|m| m.info.pos).collect());
            }
        }
        self.moves[0] = moves;
    }

    /// Narrows an interior node's moves to the answers to the opponent's
    /// VCF, if a small search finds one: a quiet move there loses, however
    /// good it looks, and the search would only see it plies later.
    pub(super) fn keep_interior_answers(&mut self, ply: usize) {
        let them = self.position.side_to_move().opponent();
        if self
            .position
            .board
            .threat_count_at_least(them, Threat::Four)
            == 0
        {
            return;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.nodes += keep_refutations(
            &mut self.position,
            &mut self.vcf,
            &mut moves,
            INTERIOR_DEFENCE,
        );
        self.moves[ply] = moves;
    }

    /// Whether the opponent could make a double three next move (not counted
    /// for Black in renju, where it is usually forbidden): the static score
    /// does not see that coming.
    pub(super) fn they_double_three(&self) -> bool {
        let board = &self.position.board;
        let them = board.side_to_move().opponent();
        let renju_black = board.rule() == Rule::Renju && them == Color::Black;
        !renju_black && board.threat_count(them, Threat::DoubleThree) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::worker::with_worker;
    use super::*;
    use crate::board::{Board, Geometry};

    /// The moves the side to move searches in `drawing` (Black to move when
    /// the stones are even).
    fn searched_moves(drawing: &str) -> Vec<Pos> {
        let board = Board::from_diagram(drawing, Rule::Freestyle, Geometry::Square).unwrap();
        with_worker(&board, |worker| {
            let Tactics::Open(threats) = worker.tactics(1, &[]) else {
                panic!("nothing is decided or forced here");
            };
            assert!(threats.four, "White threatens an open four");
            assert!(worker.generate(1, &[], threats).is_none());
            worker.moves[1].iter().map(|m| m.info.pos).collect()
        })
    }

    #[test]
    fn a_four_three_is_answered_by_the_moves_that_stop_it() {
        // White's (8,7) makes a four on row 7 (five point (9,7)) and an open
        // three down column 8. Black stops it on (8,7) or (9,7), or at
        // either end of the column next to the three ((8,4), (8,8)); one
        // step further out the three still opens. (9,6), (9,8) and (9,11)
        // make threes of Black's own down column 9 after which Black's
        // forced block on (9,7) is a four, so White's four-three no longer
        // wins; (9,12) makes a three too, but the block on (9,7) stays
        // short of a four. The other stones on the four-three's lines
        // change nothing.
        let board = Board::from_diagram(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . X .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . O . . . . . .
            . . . . . . . . O . . . . . .
            . . . . X O O O . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . X . . . . .
            . . . . . . . . . X . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . X . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            ",
            Rule::Freestyle,
            Geometry::Square,
        )
        .unwrap();
        let expected = vec![(8, 4), (8, 7), (8, 8), (9, 6), (9, 7), (9, 8), (9, 11)];
        // At the root the list is narrowed at once; below it the move loop
        // checks each move as it reaches it, and must keep the same ones.
        for ply in [0, 1] {
            let moves = with_worker(&board, |worker| {
                let Tactics::Open(threats) = worker.tactics(ply, &[]) else {
                    panic!("nothing is decided or forced here");
                };
                assert!(threats.four_three && !threats.four);
                assert!(worker.generate(ply, &[], threats).is_none());
                assert_eq!(worker.answers_deferred(ply), ply > 0);
                let mover = worker.position.side_to_move().index();
                let listed = worker.moves[ply].clone();
                listed
                    .iter()
                    .filter(|m| {
                        !worker.answers_deferred(ply)
                            || worker.deferred_answer_holds(ply, m.info.pos, m.info.threat[mover])
                    })
                    .map(|m| m.info.pos)
                    .collect::<Vec<_>>()
            });
            let mut cells: Vec<(usize, usize)> = moves.iter().map(|p| (p.x(), p.y())).collect();
            cells.sort();
            assert_eq!(cells, expected, "ply {ply}");
        }
    }

    #[test]
    fn an_open_three_is_answered_by_its_blocks_not_by_other_four_points() {
        // White's open three on row 7 (columns 5-7), with two free cells on
        // each side: only the cells next to it hold (after a stone two cells
        // away, White's other side still makes an open four). White's closed
        // three on column 12 (rows 2-4, blocked above) has four points of
        // its own, which block nothing.
        let moves = searched_moves(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . X . .
            . . . . . . . . . . . . O . .
            . . . . . . . . . . . . O . .
            . . . . . . . . . . . . O . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . O O O . . . . . . .
            . . . . . . . . . . . . . . .
            . . . X . . . X . . . . . . .
            . . . . . . X . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            ",
        );
        let mut cells: Vec<(usize, usize)> = moves.iter().map(|p| (p.x(), p.y())).collect();
        cells.sort();
        assert_eq!(cells, vec![(4, 7), (8, 7)]);
    }
}
