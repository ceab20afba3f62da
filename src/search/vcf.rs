//! VCF (victory by continuous fours): the attacker plays only fours, so each
//! defence is forced and the tree stays narrow however deep it goes.
//!
//! Renju is respected by the threat analysis: Black's forbidden points are
//! never Black's fours, and a defence White must make on a point forbidden to
//! a black defender cannot be made, which wins for White.

use super::position::Position;
use super::position::{is_four, wins_by_force};
use crate::board::Threat;
use crate::board::{Color, Pos, Rule};
use crate::eval::OrderKey;
use std::time::Instant;

/// Positions proven to hold no VCF, direct-mapped by hash.
const FAIL_TABLE_SIZE: usize = 1 << 16;
/// Longest attack tried, in attacker moves.
pub const MAX_FOURS: u32 = 40;

pub struct VcfSolver {
    /// Hash with the searched depth in its low byte; 0 when unused.
    failed: Vec<u64>,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    cells: Vec<Pos>,
    /// The fours to try at every node of the current line, each node's
    /// above its parent's: one buffer for the whole search, not a vector
    /// per node.
    tries: Vec<(Pos, i32)>,
}

/// Mixed into the hash when White attacks.
const WHITE_ATTACKS: u64 = 0x9E37_79B9_7F4A_7C15;
/// Nodes between deadline checks.
const CLOCK_INTERVAL: u64 = 128;

impl Default for VcfSolver {
    fn default() -> Self {
        VcfSolver {
            failed: vec![0; FAIL_TABLE_SIZE],
            nodes: 0,
            budget: 0,
            deadline: None,
            cells: Vec::new(),
            tries: Vec::new(),
        }
    }
}

/// The attacker's options at one VCF node.
enum Attack {
    /// The attacker wins with this move (a five, or a four no block stops).
    Wins(Pos),
    /// The attacker must answer the defender's four here, and it is a four too.
    ForcedFour(Pos),
    /// Fours to try, strongest first: pushed on `VcfSolver::tries`.
    Fours,
    /// No continuation.
    Fails,
}

impl VcfSolver {
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A winning sequence of fours for the side to move in `position` (the
    /// attacker's moves and the forced defences, alternating), found within
    /// `budget` nodes, or `None`.
    pub fn solve(
        &mut self,
        position: &mut Position,
        max_fours: u32,
        budget: u64,
    ) -> Option<Vec<Pos>> {
        self.solve_until(position, max_fours, budget, None)
    }

    /// `solve`, giving up at `deadline` too.
    pub fn solve_until(
        &mut self,
        position: &mut Position,
        max_fours: u32,
        budget: u64,
        deadline: Option<Instant>,
    ) -> Option<Vec<Pos>> {
        let attacker = position.side_to_move();
        self.solve_for(position, attacker, max_fours, budget, deadline)
    }

    /// `solve_until` for `attacker`, whoever is to move: with the side not to
    /// move, it asks what the opponent threatens if we passed.
    pub fn solve_for(
        &mut self,
        position: &mut Position,
        attacker: Color,
        max_fours: u32,
        budget: u64,
        deadline: Option<Instant>,
    ) -> Option<Vec<Pos>> {
        self.nodes = 0;
        self.budget = budget;
        self.deadline = deadline;
        let mut line = Vec::new();
        self.attack(position, attacker, max_fours, &mut line)
            .then_some(line)
    }

    /// The failure-table key: the stones (the hash), the attacker (the same
    /// stones make different problems for each colour) and the fours left.
    fn fail_key(hash: u64, attacker: Color, fours_left: u32) -> u64 {
        let hash = match attacker {
            Color::Black => hash,
            Color::White => hash ^ WHITE_ATTACKS,
        };
        (hash & !0xFF) | fours_left.min(255) as u64 | 1 << 7
    }

    fn options(&mut self, position: &Position, me: Color) -> Attack {
        let them = me.opponent();
        let board = &position.board;
        if board.threat_count(me, Threat::Five) > 0 {
            position.cells_with(me, Threat::Five, &mut self.cells);
            if let Some(&five) = self.cells.first() {
                return Attack::Wins(five);
            }
        }
        if board.threat_count_at_least(me, Threat::Four) == 0 {
            return Attack::Fails;
        }
        match board.threat_count(them, Threat::Five) {
            0 => {}
            1 => {
                // Our stronger threats wait: the defender's five comes first.
                position.cells_with(them, Threat::Five, &mut self.cells);
                let Some(&block) = self.cells.first() else {
                    return Attack::Fails;
                };
                return match board.threat(block, me) {
                    t if wins_by_force(t) => Attack::Wins(block),
                    t if is_four(t) => Attack::ForcedFour(block),
                    _ => Attack::Fails,
                };
            }
            _ => return Attack::Fails,
        }
        position.cells_with(me, Threat::Four, &mut self.cells);
        let start = self.tries.len();
        let order_key = OrderKey::of(board);
        for &pos in &self.cells {
            let threat = board.threat(pos, me);
            if wins_by_force(threat) {
                return Attack::Wins(pos);
            }
            let value = order_key.own(board, pos, me, threat) + threat.index() as i32 * 1000;
            self.tries.push((pos, value));
        }
        let fours = &mut self.tries[start..];
        if fours.is_empty() {
            return Attack::Fails;
        }
        fours.sort_by_key(|f| -f.1);
        Attack::Fours
    }

    /// Whether the four just played leaves the attacker nothing once it is
    /// blocked: its five point is its only cell of a four or better, and a
    /// defender's stone only ever takes threats away. Not for Black in
    /// renju, where a white stone can lift a forbidden point and so give
    /// Black a four it did not have.
    fn ends_at_block(&self, position: &Position, me: Color) -> bool {
        let board = &position.board;
        board.threat_count_at_least(me, Threat::Four) == 1
            && !(board.rule() == Rule::Renju && me == Color::Black)
    }

    /// The point where the stone just played on `four` would make five.
    /// The attacker had no five before this stone, so its fives now lie on
    /// the lines through `four`: when there is one, the count finds it.
    fn five_point(&mut self, position: &Position, four: Pos, color: Color) -> Option<Pos> {
        let board = &position.board;
        match board.threat_count(color, Threat::Five) {
            0 => return None,
            1 => {
                position.cells_with(color, Threat::Five, &mut self.cells);
                return self.cells.first().copied();
            }
            _ => {}
        }
        // Several (a double four): the first along the lines, as the
        // defender's choice of block is part of the tree.
        board.geometry().deltas().iter().find_map(|&delta| {
            (-4..=4)
                .filter(|&s| s != 0)
                .map(|s| four.offset(delta, s))
                .find(|&p| board.is_empty(p) && board.threat(p, color) == Threat::Five)
        })
    }

    /// Counts one attack node and reports whether the budget (and the
    /// clock) still allow searching it.
    fn enter_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_INTERVAL)
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.budget = 0;
        }
        self.nodes <= self.budget
    }

    fn attack(
        &mut self,
        position: &mut Position,
        me: Color,
        fours_left: u32,
        line: &mut Vec<Pos>,
    ) -> bool {
        if !self.enter_node() {
            return false;
        }
        let start = self.tries.len();
        let won = match self.options(position, me) {
            Attack::Wins(pos) => {
                line.push(pos);
                true
            }
            Attack::Fails => false,
            _ if fours_left == 0 => false,
            Attack::ForcedFour(pos) => {
                self.tries.push((pos, 0));
                self.try_fours(position, me, fours_left, line, start)
            }
            Attack::Fours => self.try_fours(position, me, fours_left, line, start),
        };
        self.tries.truncate(start);
        won
    }

    /// Tries the fours `self.tries[start..]` in turn, each with its forced
    /// block, remembering the position as failed when none wins.
    fn try_fours(
        &mut self,
        position: &mut Position,
        me: Color,
        fours_left: u32,
        line: &mut Vec<Pos>,
        start: usize,
    ) -> bool {
        let key = Self::fail_key(position.hash(), me, fours_left);
        let slot = (key >> 8) as usize & (FAIL_TABLE_SIZE - 1);
        let stored = self.failed[slot];
        if stored & !0xFF == key & !0xFF && (stored & 0x7F) >= (key & 0x7F) && stored != 0 {
            return false;
        }
        for index in start..self.tries.len() {
            let four = self.tries[index].0;
            position.place(four, me);
            let Some(block) = self.five_point(position, four, me) else {
                position.unmake();
                continue;
            };
            line.push(four);
            let defender_cannot_block = position.board.rule() == Rule::Renju
                && me == Color::White
                && position.board.forbidden(block).is_some();
            if defender_cannot_block {
                position.unmake();
                return true;
            }
            if self.ends_at_block(position, me) {
                // The node after the block would find no four and fail:
                // counted as it would be, without placing the block.
                let within_budget = self.enter_node();
                position.unmake();
                line.pop();
                if !within_budget {
                    return false;
                }
                continue;
            }
            position.place(block, me.opponent());
            line.push(block);
            let won = self.attack(position, me, fours_left - 1, line);
            position.unmake();
            position.unmake();
            if won {
                return true;
            }
            line.truncate(line.len() - 2);
            if self.nodes > self.budget {
                return false;
            }
        }
        if self.nodes <= self.budget {
            self.failed[slot] = key;
        }
        false
    }
}
