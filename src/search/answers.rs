//! The answers to an opponent's four-three. Only stones on its lines can
//! stop it (`mark_four_three_lines`), and of those only the ones after which
//! the opponent has no four-three and no unstoppable four left, or whose
//! three makes our forced block a four of ours. That test plays the stone,
//! so below the root it runs as the move loop reaches each move
//! (`defer_four_three_answers`): the moves after a cut-off, and those past
//! the branch limit, are never played for it.

use super::position::{is_four, threatens_four_three, threatens_unstoppable_four};
use super::worker::{packed_index, packed_order, Worker};
use crate::board::{Pattern, Pos, Threat};

/// How far along each line from an opponent's four-three point a stone can
/// still change one of the lines that make it.
pub(super) const LINE_REACH: isize = 5;

/// One ply's answers to a four-three, checked as the move loop reaches
/// them: the points where we would have to block the opponent's fours, and
/// the moves checked so far with their verdicts.
#[derive(Clone, Default)]
pub(super) struct DeferredAnswers {
    active: bool,
    blocks: Vec<Pos>,
    checked: Vec<(Pos, bool)>,
}

impl Worker<'_> {
    /// Marks the cells whose stone can answer the opponent's four-threes:
    /// every cell within `LINE_REACH` along the lines of a four-three
    /// point's four and three (a stone anywhere else leaves both as they
    /// are), and the cells near the point where we would have to block the
    /// four that make a three of ours, so that the forced block becomes a
    /// four of ours and takes the tempo back.
    pub(super) fn mark_four_three_lines(&mut self) {
        let me = self.position.side_to_move();
        let them = me.opponent();
        self.position
            .cells_with(them, Threat::FourThree, &mut self.cells);
        self.line_stamp = self.line_stamp.wrapping_add(1);
        if self.line_stamp == 0 {
            self.line_marks.fill(0);
            self.line_stamp = 1;
        }
        let stamp = self.line_stamp;
        let points = std::mem::take(&mut self.cells);
        // The buffer is the worker's, kept between nodes: a node facing a
        // four-three allocates nothing.
        let mut blocks = std::mem::take(&mut self.four_three_blocks);
        blocks.clear();
        for &point in &points {
            if self.position.board.threat(point, them) != Threat::FourThree {
                continue;
            }
            self.line_marks[point.index()] = stamp;
            let board = &self.position.board;
            let threat_lines = (0..board.geometry().deltas().len())
                .filter(|&dir| {
                    let pattern = board.pattern(point, them, dir);
                    pattern.four_count() > 0 || pattern == Pattern::OpenThree
                })
                .fold(0u8, |lines, dir| lines | 1 << dir);
            self.mark_lines(point, stamp, |dir| threat_lines & 1 << dir != 0, |_| true);
            self.position.place(point, them);
            self.position
                .board
                .collect_cells_with_threat(them, Threat::Five, &mut blocks);
            self.position.unmake();
        }
        for &block in &blocks {
            self.mark_lines(block, stamp, |_| true, |threat| threat >= Threat::Three);
        }
        self.four_three_blocks = blocks;
        self.cells = points;
    }

    /// Marks the empty cells within `LINE_REACH` of `centre` along the lines
    /// whose direction passes `on_line`, where the side to move's threat
    /// passes `keep`.
    fn mark_lines(
        &mut self,
        centre: Pos,
        stamp: u32,
        on_line: impl Fn(usize) -> bool,
        keep: impl Fn(Threat) -> bool,
    ) {
        let board = &self.position.board;
        let me = board.side_to_move();
        for (dir, &delta) in board.geometry().deltas().iter().enumerate() {
            if !on_line(dir) {
                continue;
            }
            for steps in (-LINE_REACH..=LINE_REACH).filter(|&s| s != 0) {
                let cell = centre.offset(delta, steps);
                if board.is_empty(cell) && keep(board.threat(cell, me)) {
                    self.line_marks[cell.index()] = stamp;
                }
            }
        }
    }

    /// Whether our stone on `pos`, where we have `mine`, stops the
    /// opponent's four-three: a four of ours; a stone after which the
    /// opponent has no four-three and no unstoppable four left; or a three
    /// of ours beside a point where we must block its four, after which
    /// that block is a four of ours (it takes the tempo back). `blocks` are
    /// those points. A stone elsewhere on its lines blocks nothing, and
    /// ranked among the answers it pushed the real ones into the
    /// reductions: a threat sequence the search had to prove through such
    /// moves took many times the nodes (docs/search.md).
    fn stops_four_three(&mut self, pos: Pos, mine: Threat, blocks: &[Pos]) -> bool {
        if is_four(mine) {
            return true;
        }
        let mover = self.position.side_to_move();
        let them = mover.opponent();
        let deltas = self.position.board.geometry().deltas();
        let beside_a_block = blocks.iter().any(|&block| {
            deltas.iter().any(|&delta| {
                (1..=LINE_REACH)
                    .any(|s| block.offset(delta, s) == pos || block.offset(delta, -s) == pos)
            })
        });
        let counter = mine >= Threat::Three && beside_a_block;
        self.position.make(pos);
        let board = &self.position.board;
        let stopped =
            !threatens_unstoppable_four(board, them) && !threatens_four_three(board, them);
        let takes_tempo = counter
            && blocks
                .iter()
                .any(|&b| board.is_empty(b) && is_four(board.threat(b, mover)));
        self.position.unmake();
        stopped || takes_tempo
    }

    /// Keeps of `self.moves[ply]` only the answers to the four-three.
    pub(super) fn keep_four_three_answers(&mut self, ply: usize) {
        let mover = self.position.side_to_move().index();
        let blocks = std::mem::take(&mut self.four_three_blocks);
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.retain(|m| self.stops_four_three(m.info.pos, m.info.threat[mover], &blocks));
        self.moves[ply] = list;
        self.four_three_blocks = blocks;
    }

    /// Leaves the four-three's answers among `self.moves[ply]` to be told
    /// apart as the move loop reaches them (`deferred_answer_holds`), once
    /// one is known to exist: checked best key first, as the loop will try
    /// them, until one holds. Returns whether one does; if none does, the
    /// list holds no answer at all and nothing is deferred.
    pub(super) fn defer_four_three_answers(&mut self, ply: usize) -> bool {
        let mover = self.position.side_to_move().index();
        let mut deferred = std::mem::take(&mut self.deferred_answers[ply]);
        deferred.blocks.clear();
        deferred.blocks.extend_from_slice(&self.four_three_blocks);
        deferred.checked.clear();
        // `order`'s buffer, free until the node orders its moves.
        let by_key = &mut self.order_keys;
        by_key.clear();
        by_key.extend(
            self.moves[ply]
                .iter()
                .enumerate()
                .map(|(index, m)| packed_order(m.key, index)),
        );
        by_key.sort_unstable();
        let mut found = false;
        for k in 0..self.order_keys.len() {
            let m = self.moves[ply][packed_index(self.order_keys[k])];
            let holds = self.stops_four_three(m.info.pos, m.info.threat[mover], &deferred.blocks);
            deferred.checked.push((m.info.pos, holds));
            if holds {
                found = true;
                break;
            }
        }
        deferred.active = found;
        self.deferred_answers[ply] = deferred;
        found
    }

    /// Whether the moves at `ply` are still to be checked as answers to a
    /// four-three.
    pub(super) fn answers_deferred(&self, ply: usize) -> bool {
        self.deferred_answers[ply].active
    }

    /// Forgets what `defer_four_three_answers` left for `ply`.
    pub(super) fn clear_deferred_answers(&mut self, ply: usize) {
        self.deferred_answers[ply].active = false;
    }

    /// Whether our stone on `pos`, where we have `mine`, answers the
    /// four-three deferred at `ply`.
    pub(super) fn deferred_answer_holds(&mut self, ply: usize, pos: Pos, mine: Threat) -> bool {
        let mut deferred = std::mem::take(&mut self.deferred_answers[ply]);
        let known = deferred.checked.iter().find(|c| c.0 == pos).map(|c| c.1);
        let holds = known.unwrap_or_else(|| {
            let holds = self.stops_four_three(pos, mine, &deferred.blocks);
            deferred.checked.push((pos, holds));
            holds
        });
        self.deferred_answers[ply] = deferred;
        holds
    }
}
