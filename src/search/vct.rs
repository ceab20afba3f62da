//! VCT (victory by continuous threats): the attacker plays only fours and
//! threes, the defender every answer that could matter (the points that stop
//! the threat, and fours of its own). Wider than VCF, so it runs at the root
//! on a node budget.

use super::position::{is_four, wins_by_force, Position};
use super::vcf::VcfSolver;
use crate::board::{Pos, Threat};
use crate::eval::cell_value;
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
        let their_fives = self.cells.clone();
        let unstoppable_count =
            |c| board.threat_count(c, Threat::OpenFour) + board.threat_count(c, Threat::DoubleFour);
        let they_threaten_four = unstoppable_count(them) > 0;
        let mut unstoppable = None;
        let mut moves = Vec::new();
        position.cells_with(me, Threat::OpenThree, &mut self.cells);
        for &pos in &self.cells {
            let threat = board.threat(pos, me);
            if wins_by_force(threat) {
                unstoppable = Some(pos);
            }
            moves.push((pos, threat, cell_value(board, pos, me, threat)));
        }
        match their_fives.as_slice() {
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
        if let Some(pos) = unstoppable {
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
        if they_threaten_four {
            // A three of ours would be too slow: they make an open four first.
            moves.retain(|m| is_four(m.1));
        }
        moves.sort_by_key(|m| std::cmp::Reverse((m.1, m.2)));
        moves.truncate(THREAT_WIDTH);
        for (threat, _, _) in moves {
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
        position.cells_with(attacker, Threat::Five, &mut self.cells);
        let attacker_fives = self.cells.clone();
        let attacker_threatens_four = board.threat_count(attacker, Threat::OpenFour)
            + board.threat_count(attacker, Threat::DoubleFour)
            > 0;
        let mut defences: Vec<(Pos, i32)> = Vec::new();
        for color in [attacker, me] {
            position.cells_with(color, Threat::Four, &mut self.cells);
            for &pos in &self.cells {
                if board.is_legal(pos) && !defences.iter().any(|d| d.0 == pos) {
                    let info = position.analyse(pos);
                    let worth = info.value[me.index()] + info.value[attacker.index()];
                    defences.push((pos, worth));
                }
            }
        }
        match attacker_fives.as_slice() {
            [] if !attacker_threatens_four => return false,
            [] => {}
            [block] => {
                let block = *block;
                defences.retain(|d| d.0 == block);
            }
            _ => return true,
        }
        if defences.is_empty() {
            return true;
        }
        defences.sort_by_key(|d| std::cmp::Reverse(d.1));
        let mut refutation_line = Vec::new();
        for (i, (defence, _)) in defences.iter().enumerate() {
            position.make(*defence);
            let mut continuation = vec![*defence];
            let won = self.attack(position, threats_left, &mut continuation);
            position.unmake();
            if !won {
                return false;
            }
            if i == 0 {
                refutation_line = continuation;
            }
        }
        line.extend(refutation_line);
        true
    }
}
