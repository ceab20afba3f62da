//! Threat-space defence: when the side not to move could win by continuous
//! fours if we passed, only the moves that stop that VCF are worth searching.
//!
//! A VCF is stopped by a stone on one of its points (each four it makes needs
//! both its own point and the five point behind it), by a four of ours that
//! takes the tempo, or by a threat of ours that turns one of the forced
//! blocks into a four of ours. Those candidates are checked by solving the
//! VCF again after the move; the moves after which it still wins are dropped.
//!
//! Each check is a separate VCF search of up to `verify` nodes, and a root
//! may have dozens of candidates, so the whole check reads the clock: past
//! the deadline the unverified candidates are judged by the cheap rule alone
//! (the VCF's own points and our fours stay), never by searching.

use super::position::{is_four, Position};
use super::vcf::VcfSolver;
use super::worker::Scored;
use crate::board::{Color, Pos, Threat};
use std::time::Instant;

/// The limits of one defence check.
#[derive(Copy, Clone, Debug)]
pub struct DefenceBudget {
    /// VCF nodes to look for the opponent's win if we passed.
    pub probe: u64,
    /// VCF nodes to confirm it still wins after each candidate answer.
    pub verify: u64,
    /// Longest VCF looked for, in fours.
    pub fours: u32,
    /// When to stop searching (the move's hard limit); `None` for no clock.
    pub deadline: Option<Instant>,
}

impl DefenceBudget {
    fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Drops from `moves` (the side to move's candidates) those that leave the
/// opponent a VCF. Returns the VCF nodes spent. When the opponent has no VCF
/// (within the probe budget) the list is left alone; when no candidate stops
/// it, the list keeps the VCF's own points and our fours, the best tries of
/// a lost position.
pub fn keep_refutations(
    position: &mut Position,
    vcf: &mut VcfSolver,
    moves: &mut Vec<Scored>,
    budget: DefenceBudget,
) -> u64 {
    let me = position.side_to_move();
    let them = me.opponent();
    if position.board.threat_count_at_least(them, Threat::Four) == 0 {
        return 0;
    }
    let found = vcf.solve_for(position, them, budget.fours, budget.probe, budget.deadline);
    let mut nodes = vcf.nodes();
    let Some(mut line) = found else {
        return nodes;
    };
    add_last_five_points(position, &mut line, them);
    let us = me.index();
    let mut stops = Vec::with_capacity(moves.len());
    for m in moves.iter() {
        let pos = m.info.pos;
        let stop = if is_four(m.info.threat[us]) {
            true
        } else if budget.expired() {
            // No time to verify: the VCF's own points are the likeliest stops.
            line.contains(&pos)
        } else if line.contains(&pos) || m.info.threat[us] >= Threat::Three {
            position.make(pos);
            let found = vcf.solve_until(position, budget.fours, budget.verify, budget.deadline);
            // A check the clock cut short proves nothing: keep the move.
            let still_wins = found.is_some();
            nodes += vcf.nodes();
            position.unmake();
            !still_wins
        } else {
            false
        };
        stops.push(stop);
    }
    if stops.iter().any(|&s| s) {
        let mut flags = stops.into_iter();
        moves.retain(|_| flags.next().unwrap_or(false));
    } else if moves
        .iter()
        .any(|m| is_four(m.info.threat[us]) || line.contains(&m.info.pos))
    {
        moves.retain(|m| is_four(m.info.threat[us]) || line.contains(&m.info.pos));
    }
    nodes
}

/// Adds to `line` (the opponent's VCF: its fours and our forced blocks)
/// the five points its last four leaves. That four is an open four or a
/// double four, with two five points that no move of the line takes, and a
/// stone of ours on either of them, played in time, stops the VCF: the ends
/// of the straight four that its last three would become.
fn add_last_five_points(position: &mut Position, line: &mut Vec<Pos>, them: Color) {
    let mut color = them;
    let mut placed = 0;
    for &pos in line.iter() {
        if position.board.place(pos, color).is_err() {
            break;
        }
        placed += 1;
        color = color.opponent();
    }
    let mut fives = Vec::new();
    if placed == line.len() {
        position.cells_with(them, Threat::Five, &mut fives);
    }
    debug_assert_eq!(placed, line.len(), "a VCF line plays on empty points");
    for _ in 0..placed {
        position.unmake();
    }
    fives.retain(|p| !line.contains(p));
    line.extend(fives);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Geometry, Rule};
    use crate::search::position::CellInfo;

    /// O to move. X, not to move, wins by fours if O passes: (8,7) makes a
    /// four and an open three, O must block at (9,7), and the three becomes
    /// an open four. Nothing of X's is an open four or double four yet.
    const X_THREATENS_A_FOUR_THREE: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . O . . . . . . . . . O . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . . X . . . . . .
        . . . . O X X X . . . . . O .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . O . .
        . . . . . . . . . . . . . . .
        . X . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ";

    fn candidates(position: &Position) -> Vec<Scored> {
        let mut cells = Vec::new();
        position.candidates(&mut cells);
        cells
            .into_iter()
            .map(|pos| Scored {
                info: position.analyse(pos),
                key: 0,
            })
            .collect()
    }

    fn kept(moves: &[Scored]) -> Vec<Pos> {
        moves.iter().map(|m| m.info.pos).collect()
    }

    #[test]
    fn only_the_answers_to_the_four_three_are_kept() {
        let board =
            Board::from_diagram(X_THREATENS_A_FOUR_THREE, Rule::Freestyle, Geometry::Square)
                .unwrap();
        assert_eq!(board.side_to_move(), Color::White);
        let mut position = Position::new(&board);
        let mut vcf = VcfSolver::default();
        let mut moves = candidates(&position);
        let before = moves.len();
        let budget = DefenceBudget {
            probe: 1_000,
            verify: 1_000,
            fours: 10,
            deadline: None,
        };
        keep_refutations(&mut position, &mut vcf, &mut moves, budget);
        let kept = kept(&moves);
        // The four-three point, the five point behind the four, and the two
        // points that close the three on the side the four leaves open.
        let answers = [
            Pos::new(8, 7),
            Pos::new(9, 7),
            Pos::new(8, 4),
            Pos::new(8, 8),
        ];
        // (8,4) and (8,8) are the ends of the straight four that the three
        // becomes, and no move of the VCF line takes the second of them.
        let mut kept_sorted = kept.clone();
        kept_sorted.sort_by_key(|p| p.index());
        let mut all = answers.to_vec();
        all.sort_by_key(|p| p.index());
        assert_eq!(kept_sorted, all);
        assert!(before > 20);
        // The board is unchanged by the probes.
        assert_eq!(position.hash(), board.hash());
    }

    #[test]
    fn nothing_is_dropped_when_the_opponent_has_no_vcf() {
        let mut board =
            Board::from_diagram(X_THREATENS_A_FOUR_THREE, Rule::Freestyle, Geometry::Square)
                .unwrap();
        board.play(Pos::new(8, 7)).unwrap();
        board.play(Pos::new(1, 1)).unwrap();
        // O to move again; X's four-three point is taken, so X has a three
        // and a dead three but no VCF.
        let mut position = Position::new(&board);
        let mut moves = candidates(&position);
        let all: Vec<CellInfo> = moves.iter().map(|m| m.info).collect();
        let budget = DefenceBudget {
            probe: 1_000,
            verify: 1_000,
            fours: 10,
            deadline: None,
        };
        keep_refutations(&mut position, &mut VcfSolver::default(), &mut moves, budget);
        assert_eq!(moves.iter().map(|m| m.info).collect::<Vec<_>>(), all);
    }

    #[test]
    fn a_passed_deadline_skips_the_checks_but_keeps_the_vcf_points() {
        let board =
            Board::from_diagram(X_THREATENS_A_FOUR_THREE, Rule::Freestyle, Geometry::Square)
                .unwrap();
        let mut position = Position::new(&board);
        let mut vcf = VcfSolver::default();
        let budget = DefenceBudget {
            probe: 1_000,
            verify: 1_000,
            fours: 10,
            deadline: None,
        };
        let mut checked = candidates(&position);
        let checked_nodes = keep_refutations(&mut position, &mut vcf, &mut checked, budget);
        let mut hurried = candidates(&position);
        let late = DefenceBudget {
            deadline: Some(Instant::now()),
            ..budget
        };
        let hurried_nodes = keep_refutations(&mut position, &mut vcf, &mut hurried, late);
        // The probe may still finish (it reads the clock every 128 nodes),
        // but no candidate is searched again after the deadline (here the
        // probe takes 2 nodes and the checks 7 more).
        assert!(
            hurried_nodes < checked_nodes,
            "{hurried_nodes} vs {checked_nodes}"
        );
        let hurried = kept(&hurried);
        assert!(hurried.contains(&Pos::new(8, 7)) && hurried.contains(&Pos::new(9, 7)));
        assert_eq!(position.hash(), board.hash());
    }
}
