//! VCT (victory by continuous threats): the attacker plays only fours and
//! threes, the defender every answer that could matter (the points that stop
//! the threat, and fours of its own). Wider than VCF, so it runs at the root
//! on a node budget.

use super::position::{is_four, threatens_unstoppable_four, wins_by_force, Position};
use super::vcf::VcfSolver;
use crate::board::{Pos, Threat};
use crate::eval::OrderKey;
use std::collections::HashMap;
use std::time::Instant;

/// Attacker moves tried, fours and threes together.
pub const MAX_THREATS: u32 = 10;
/// VCF nodes an attacker node may spend looking for a four-only finish.
const INNER_VCF_BUDGET: u64 = 200;
/// Threat moves tried per attacker node, strongest first.
const THREAT_WIDTH: usize = 12;
/// Work (threat nodes plus inner VCF nodes) between deadline checks.
const CLOCK_INTERVAL: u64 = 128;

#[derive(Default)]
pub struct VctSolver {
    vcf: VcfSolver,
    /// Positions (by hash) proven not to be won within a number of threats.
    refuted: HashMap<u64, u32>,
    nodes: u64,
    /// Threat nodes and inner VCF nodes: what the clock checks are spaced by,
    /// since one threat node may run hundreds of VCF nodes.
    work: u64,
    next_clock_check: u64,
    budget: u64,
    deadline: Option<Instant>,
    out_of_budget: bool,
    cells: Vec<Pos>,
    /// The threats to try at every attacker node of the current line, and
    /// the answers at every defender node, each node's above its parent's:
    /// one buffer each for the whole search, not a vector per node.
    threats: Vec<(Pos, Threat, i32)>,
    defences: Vec<(Pos, i32)>,
}

impl VctSolver {
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The first move of a win by continuous threats for the side to move,
    /// with the line that proves it, if one is found within `budget` nodes
    /// and before `deadline`.
    pub fn solve(
        &mut self,
        position: &mut Position,
        max_threats: u32,
        budget: u64,
        deadline: Option<Instant>,
    ) -> Option<Vec<Pos>> {
        self.nodes = 0;
        self.work = 0;
        self.next_clock_check = CLOCK_INTERVAL;
        self.budget = budget;
        self.deadline = deadline;
        self.out_of_budget = false;
        self.refuted.clear();
        let mut line = Vec::new();
        (1..=max_threats)
            .find(|&threats| {
                line.clear();
                !self.out_of_budget && self.attack(position, threats, &mut line)
            })
            .map(|_| line)
    }

    fn spent(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.out_of_budget = true;
        }
        self.work += 1;
        if self.work >= self.next_clock_check {
            self.next_clock_check = self.work + CLOCK_INTERVAL;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.out_of_budget = true;
            }
        }
        self.out_of_budget
    }

    /// Attacker to move: is there a threat every defence of which still loses?
    fn attack(&mut self, position: &mut Position, threats_left: u32, line: &mut Vec<Pos>) -> bool {
        if self.spent() {
            return false;
        }
        let me = position.side_to_move();
        let them = me.opponent();
        let board = &position.board;
        if board.threat_count(me, Threat::Five) > 0 {
            position.cells_with(me, Threat::Five, &mut self.cells);
            if let Some(&five) = self.cells.first() {
                line.push(five);
                return true;
            }
        }
        position.cells_with(them, Threat::Five, &mut self.cells);
        match self.cells.as_slice() {
            [] => {}
            [block] => {
                // Our block must keep the attack going: answer, then defend again.
                let block = *block;
                if !position.board.is_legal(block) || threats_left == 0 {
                    return false;
                }
                position.make(block);
                line.push(block);
                let won = self.defend(position, threats_left, line);
                position.unmake();
                if !won {
                    line.pop();
                }
                return won;
            }
            _ => return false,
        }
        position.cells_with(me, Threat::OpenThree, &mut self.cells);
        let unstoppable = self
            .cells
            .iter()
            .rev()
            .find(|&&pos| wins_by_force(board.threat(pos, me)));
        if let Some(&pos) = unstoppable {
            line.push(pos);
            return true;
        }
        if threats_left == 0 {
            return false;
        }
        if let Some(refuted_to) = self.refuted.get(&position.hash()) {
            if *refuted_to >= threats_left {
                return false;
            }
        }
        let fours = self
            .vcf
            .solve(position, threats_left.min(12), INNER_VCF_BUDGET);
        self.work += self.vcf.nodes();
        if let Some(fours) = fours {
            line.extend(fours);
            return true;
        }
        // A three of ours would be too slow when they threaten an open
        // four: they make it first.
        let board = &position.board;
        let they_threaten_four = threatens_unstoppable_four(board, them);
        let start = self.threats.len();
        let order_key = OrderKey::of(board);
        for &pos in &self.cells {
            let threat = board.threat(pos, me);
            if !they_threaten_four || is_four(threat) {
                let value = order_key.own(board, pos, me, threat);
                self.threats.push((pos, threat, value));
            }
        }
        self.threats[start..].sort_by_key(|m| std::cmp::Reverse((m.1, m.2)));
        self.threats
            .truncate(start + (self.threats.len() - start).min(THREAT_WIDTH));
        let won = self.try_threats(position, threats_left, line, start);
        self.threats.truncate(start);
        won
    }

    /// Plays the threats `self.threats[start..]` in turn, each answered by
    /// every defence; remembers the position as refuted when none wins.
    fn try_threats(
        &mut self,
        position: &mut Position,
        threats_left: u32,
        line: &mut Vec<Pos>,
        start: usize,
    ) -> bool {
        for index in start..self.threats.len() {
            let threat = self.threats[index].0;
            position.make(threat);
            line.push(threat);
            let won = self.defend(position, threats_left - 1, line);
            position.unmake();
            if won {
                return true;
            }
            line.pop();
            if self.out_of_budget {
                return false;
            }
        }
        if !self.out_of_budget {
            self.refuted.insert(position.hash(), threats_left);
        }
        false
    }

    /// Defender to move after a threat: does every answer still lose?
    fn defend(&mut self, position: &mut Position, threats_left: u32, line: &mut Vec<Pos>) -> bool {
        if self.spent() {
            return false;
        }
        let me = position.side_to_move();
        let attacker = me.opponent();
        let board = &position.board;
        if board.threat_count(me, Threat::Five) > 0 {
            return false;
        }
        let attacker_threatens_four = threatens_unstoppable_four(board, attacker);
        position.cells_with(attacker, Threat::Five, &mut self.cells);
        let start = self.defences.len();
        match self.cells.as_slice() {
            [] if !attacker_threatens_four => return false,
            [] => {
                // Every block of the open four, and every four of ours.
                let order_key = OrderKey::of(board);
                for color in [attacker, me] {
                    position.cells_with(color, Threat::Four, &mut self.cells);
                    for &pos in &self.cells {
                        let known = self.defences[start..].iter().any(|d| d.0 == pos);
                        if board.is_legal(pos) && !known {
                            let info = position.analyse_with(&order_key, pos);
                            let worth = info.value[me.index()] + info.value[attacker.index()];
                            self.defences.push((pos, worth));
                        }
                    }
                }
                // In renju a point Black may not play is no four point of
                // Black's, yet White's stone there may block its three.
                position.forbidden_blocks(&mut self.cells);
                for &pos in &self.cells {
                    if !self.defences[start..].iter().any(|d| d.0 == pos) {
                        let info = position.analyse_with(&order_key, pos);
                        let worth = info.value[me.index()] + info.value[attacker.index()];
                        self.defences.push((pos, worth));
                    }
                }
                self.defences[start..].sort_by_key(|d| std::cmp::Reverse(d.1));
            }
            // The only answer to a five is to take its point.
            &[block] if board.is_legal(block) => self.defences.push((block, 0)),
            _ => return true,
        }
        if self.defences.len() == start {
            return true;
        }
        let won = self.answer_all(position, threats_left, line, start);
        self.defences.truncate(start);
        won
    }

    /// Whether the attacker wins after each of `self.defences[start..]`; if
    /// so, `line` gets the first defence and the attacker's win against it.
    fn answer_all(
        &mut self,
        position: &mut Position,
        threats_left: u32,
        line: &mut Vec<Pos>,
        start: usize,
    ) -> bool {
        let before = line.len();
        for index in start..self.defences.len() {
            let defence = self.defences[index].0;
            // The first defence's refutation stays in `line`; the others'
            // are dropped once they are known to lose.
            let mark = line.len();
            position.make(defence);
            line.push(defence);
            let won = self.attack(position, threats_left, line);
            position.unmake();
            if !won {
                line.truncate(before);
                return false;
            }
            if index > start {
                line.truncate(mark);
            }
        }
        true
    }
}
