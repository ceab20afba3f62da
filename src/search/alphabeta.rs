//! One search thread's search: principal-variation alpha-beta over
//! threat-pruned moves, with the whole-node cuts, the singular check, the
//! late-move reductions and the horizon's VCF. The thread's state is in
//! `worker.rs`.

use super::position::{is_four, CellInfo};
use super::pruning::{stale_table_reduction, MOVE_COUNT_DEPTH, RAZOR_DEPTH};
use super::tactics::{Tactics, Threats, INTERIOR_DEFENCE_DEPTH};
use super::tt::{Bound, Entry};
use super::worker::{is_mate, is_quiet, Node, NodeKind, Scored, Worker, MAX_PLY};
use super::{mate_in, mated_in, Score, MATE, MATE_BOUND};
use crate::board::{Pos, Threat};
use crate::eval::evaluate;

const INFINITY: Score = MATE + 1;
/// Fours a leaf's VCF may play (its node budget is the rule's).
const LEAF_VCF_FOURS: u32 = 8;
/// Internal iterative reduction from this depth on.
const IIR_DEPTH: i32 = 5;
/// Singular extension: from this depth on, a table move whose score no
/// other move comes within the rule's singular margin per ply of is searched
/// a ply deeper.
const SINGULAR_DEPTH: i32 = 6;

/// What the singular-extension check concluded.
enum Singular {
    /// No other move comes near the table move: it is searched a ply deeper.
    Extend(Pos),
    /// Another move clears the reduced bound too, and the table's score
    /// stands at or above beta: the table move is searched a ply shallower,
    /// since this node is likely to fail high whichever move does it.
    Reduce(Pos),
    /// Two moves clear a bound at or above beta: the node fails high.
    Cut(Score),
    No,
}

impl Worker<'_> {
    /// Negamax principal-variation search. `ply` counts from the root.
    pub fn search(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        kind: NodeKind,
    ) -> Score {
        let pv_node = kind == NodeKind::Pv;
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 {
            alpha = alpha.max(mated_in(ply as u32));
            beta = beta.min(mate_in(ply as u32 + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let key = self.position.hash();
        let entry = self.shared.tt.probe(key, ply as u32);
        if let Some(e) = entry {
            let usable = e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
            if usable && ply > 0 && !pv_node && self.singular_excluded[ply].is_none() {
                return e.score;
            }
        }
        let singular_slot = self.singular_excluded[ply].map(|p| [p]);
        let excluded: &[Pos] = match (ply, singular_slot.as_ref()) {
            (0, _) => &self.shared.limits.excluded,
            (_, Some(slot)) => slot,
            _ => &[],
        };
        let decided = |node: Node, pv: &mut Vec<Pos>| match node {
            Node::Won(score, mv) => {
                pv.push(mv);
                score
            }
            Node::Lost(score, mv) => {
                pv.extend(mv);
                score
            }
        };
        let mut threats = Threats::default();
        let forced = match self.tactics(ply, excluded) {
            Tactics::Decided(node) => return decided(node, &mut self.pv[ply]),
            Tactics::Forced(block) => {
                let info = self.position.analyse(block);
                self.moves[ply].clear();
                self.moves[ply].push(Scored { info, key: 0 });
                true
            }
            Tactics::Open(open) => {
                if depth <= 0 || ply >= MAX_PLY - 1 {
                    let eval = evaluate(&self.position.board);
                    return self.leaf(ply, eval, beta);
                }
                threats = open;
                false
            }
        };
        let defending = forced || threats.any();
        // The static score, where the node is quiet enough for it to mean
        // something, and whether it rose since our previous move.
        let static_eval = (!defending).then(|| evaluate(&self.position.board));
        self.static_evals[ply] = static_eval;
        let improving = match (static_eval, ply.checked_sub(2)) {
            (Some(now), Some(before)) => self.static_evals[before].is_none_or(|b| now > b),
            _ => true,
        };
        if let Some(eval) = static_eval {
            if ply > 0 && !pv_node && !is_mate(alpha) && !is_mate(beta) && !self.they_double_three()
            {
                let cuts = self.selectivity;
                if depth <= cuts.reverse_futility_depth
                    && eval - cuts.reverse_futility_margin(depth, improving) >= beta
                {
                    return eval;
                }
                if depth <= RAZOR_DEPTH && eval + cuts.razor_margin(depth) <= alpha {
                    let score = self.leaf(ply, eval, alpha + 1);
                    if score <= alpha {
                        return score;
                    }
                }
            }
        }
        let probcut_allowed =
            !pv_node && ply > 0 && !is_mate(alpha) && self.singular_excluded[ply].is_none();
        if let Some(eval) = static_eval.filter(|_| probcut_allowed) {
            let entry = entry.as_ref();
            if let Some(score) = self.probcut(ply, depth, beta, eval, entry) {
                return score;
            }
        }
        // The table move's depth adjustment, from the singular check.
        let singular_move = match entry {
            Some(e) if !forced && !threats.any() && ply > 0 && depth >= SINGULAR_DEPTH => {
                match self.singular(ply, depth, beta, &e, kind) {
                    Singular::Extend(mv) => Some((mv, 1)),
                    Singular::Reduce(mv) => Some((mv, -1)),
                    Singular::Cut(score) => return score,
                    Singular::No => None,
                }
            }
            _ => None,
        };
        if !forced {
            if let Some(node) = self.generate(ply, excluded, threats) {
                return decided(node, &mut self.pv[ply]);
            }
            if ply == 0 && !threats.four {
                self.keep_root_answers();
            } else if !threats.any() && depth >= INTERIOR_DEFENCE_DEPTH {
                self.keep_interior_answers(ply);
            }
        }
        if self.moves[ply].is_empty() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.position.board);
        }
        let table_move = entry.and_then(|e| e.best_move);
        // A deep node the table knows nothing of is searched a ply shallower:
        // its ordering is a guess, and the next iteration comes back to it
        // with a move from the table. A PV node whose table entry is stale
        // (searched well short of this depth, with or without a move) gives
        // up depth likewise.
        let depth = if !forced && table_move.is_none() && depth >= IIR_DEPTH {
            depth - 1
        } else if let Some(e) = entry.filter(|_| pv_node && ply > 0 && !forced) {
            depth - stale_table_reduction(depth, e.depth)
        } else {
            depth
        };
        let next_depth = if forced { depth } else { depth - 1 };
        let first = if ply == 0 {
            self.root_first.or(table_move)
        } else {
            table_move
        };
        let limit = match ply {
            0 => usize::MAX,
            _ => self.selectivity.branch_limit(depth, pv_node),
        };
        // A node whose answers to a four-three are told apart in the loop
        // orders them all: the kept ones come in that order, and the first
        // `limit` of them need not be among the first `limit` moves.
        let deferred = !forced && self.answers_deferred(ply);
        self.order(ply, first, if deferred { usize::MAX } else { limit });
        if ply == 0 {
            self.order_root(first);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // Near the horizon, when even a good quiet move leaves us far below
        // alpha, only the threats are worth a look.
        let futility_margin = self.selectivity.futility_margin(depth);
        let futile = !pv_node
            && !defending
            && !is_mate(alpha)
            && static_eval
                .zip(futility_margin)
                .is_some_and(|(eval, margin)| eval + margin <= alpha);
        let prune_late_quiet = !pv_node && !defending && ply > 0 && depth <= MOVE_COUNT_DEPTH;
        let quiet_limit = match prune_late_quiet {
            true => self.selectivity.move_count_limit(depth, improving),
            false => usize::MAX,
        };
        // A node expected to fail high whose static score already clears
        // beta by a margin growing with depth: one good move will do, so its
        // moves are searched a ply shallower, all but its threats (an open
        // three or better): reducing those too lost the attacker's winning
        // lines in four positions of the forced-wins suite. Renju's
        // selectivity has no such margin: there the games did not show a
        // gain.
        let mover = self.position.side_to_move().index();
        let fail_high = kind == NodeKind::Cut
            && !forced
            && static_eval
                .zip(self.selectivity.fail_high_margin(depth))
                .is_some_and(|(eval, margin)| eval >= beta + margin);
        // `i` counts the moves kept: a deferred answer that does not hold
        // is skipped as if it had never been listed, and the kept ones are
        // gathered at the front, so that `moves[..i]` are those tried.
        let mut kept = 0;
        for index in 0..moves.len() {
            if deferred {
                let m = &moves[index];
                let mine = m.info.threat[mover];
                if !self.deferred_answer_holds(ply, m.info.pos, mine) {
                    continue;
                }
            }
            moves.swap(kept, index);
            let i = kept;
            kept += 1;
            // The moves past the branch limit are searched only when every
            // move before them lost: a node that pruned its way to a loss
            // would hand its parent a win that is not there, and the parent
            // would play for it.
            if i >= limit {
                if best > -MATE_BOUND {
                    break;
                }
                if i == limit && !deferred {
                    moves[limit..].sort_by_key(|m| std::cmp::Reverse(m.key));
                }
            }
            let m = &moves[i];
            let mv = m.info.pos;
            let quiet = is_quiet(&m.info);
            // An open three or better for the mover: a possible start of a
            // threat sequence, which the reductions below spare.
            let attacking = m.info.threat[mover] >= Threat::OpenThree;
            if quiet
                && i > 0
                && (futile || (prune_late_quiet && i >= quiet_limit))
                && best > -MATE_BOUND
            {
                continue;
            }
            if ply == 0 {
                if let Some(hook) = self.on_root_move.as_mut() {
                    hook(mv);
                }
            }
            // The child probes the table first thing; the make below takes
            // long enough to hide the load.
            self.shared.tt.prefetch(self.position.hash_after(mv));
            self.position.make(mv);
            let singular_change = singular_move
                .filter(|&(m, _)| m == mv)
                .map_or(0, |(_, d)| d);
            let next_depth = next_depth + singular_change - i32::from(fail_high && !attacking);
            let score = if i == 0 {
                -self.search(next_depth, ply + 1, -beta, -alpha, kind.first_child())
            } else {
                // A root move that makes an open three or better may start a
                // threat sequence: reduced as a late move, a renju win in 19
                // that Rapfi saw in 300 ms stayed hidden at 3 s, so renju
                // searches it at full depth (docs/search.md).
                let spared = ply == 0 && attacking && self.selectivity.root_threes_unreduced;
                let reduction = if forced || spared {
                    0
                } else {
                    self.reduction(depth, i, &m.info, pv_node, improving)
                        .min(next_depth - 1)
                        .max(0)
                };
                let reduced = next_depth - reduction;
                let mut s = -self.search(reduced, ply + 1, -alpha - 1, -alpha, NodeKind::Cut);
                if s > alpha && reduction > 0 {
                    let kind = kind.researched_child();
                    s = -self.search(next_depth, ply + 1, -alpha - 1, -alpha, kind);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.search(next_depth, ply + 1, -beta, -alpha, NodeKind::Pv);
                }
                s
            };
            self.position.unmake();
            if self.shared.stopping() {
                self.moves[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                        self.promote_root_move(mv);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward(ply, mv, depth);
                            self.punish(&moves[..i], depth);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.singular_excluded[ply].is_none() {
            self.shared
                .tt
                .store(key, ply as u32, best_move, best, depth.max(0), bound);
        }
        best
    }

    /// Whether the table's move stands alone: a reduced search of the node
    /// without it, against a bound a little under the table's score. When
    /// every other move fails low, the table move is worth a ply more (the
    /// only good move of a forcing line); when another move also clears the
    /// bound and that bound is at or above beta, the node fails high without
    /// a full search (two refutations, not one); when another move clears it
    /// and the table's score is at or above beta, the table move is searched
    /// a ply shallower (the node will likely fail high anyway).
    fn singular(
        &mut self,
        ply: usize,
        depth: i32,
        beta: Score,
        entry: &Entry,
        kind: NodeKind,
    ) -> Singular {
        let Some(table_move) = entry.best_move else {
            return Singular::No;
        };
        if entry.bound == Bound::Upper || entry.depth < depth - 3 || is_mate(entry.score) {
            return Singular::No;
        }
        let singular_beta = entry.score - self.selectivity.singular_margin * depth;
        self.singular_excluded[ply] = Some(table_move);
        let score = self.search(
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            match kind {
                NodeKind::Pv => NodeKind::All,
                other => other,
            },
        );
        self.singular_excluded[ply] = None;
        // The search of this node reuses the ply's buffers from here on.
        self.pv[ply].clear();
        if self.shared.stopping() {
            Singular::No
        } else if score < singular_beta {
            Singular::Extend(table_move)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if entry.score >= beta {
            Singular::Reduce(table_move)
        } else {
            Singular::No
        }
    }

    /// Plies taken off the search of the `rank`-th move (from 0) of a node
    /// at `depth`: the full reduction for a quiet move, one less for a move
    /// that makes or blocks a three, none for a four or the block of one.
    fn reduction(
        &self,
        depth: i32,
        rank: usize,
        info: &CellInfo,
        pv_node: bool,
        improving: bool,
    ) -> i32 {
        let base = self.selectivity.late_move_reduction(depth, rank);
        if base == 0 || info.threat.iter().any(|&t| is_four(t)) {
            return 0;
        }
        let adjusted = base + i32::from(!pv_node && !improving) - i32::from(pv_node);
        if is_quiet(info) {
            adjusted
        } else {
            adjusted - 1
        }
    }

    /// The score at the horizon: the static evaluation `eval`, or a win
    /// when a short VCF for the side to move finds one. A static score
    /// already at `beta` stands (on the square board): a win would fail high
    /// just the same, so the VCF is not tried (about half the leaves, where
    /// it spent as many nodes as the rest of the search).
    fn leaf(&mut self, ply: usize, eval: Score, beta: Score) -> Score {
        if eval >= beta && self.selectivity.leaf_stands_pat {
            return eval;
        }
        let me = self.position.side_to_move();
        if self.position.board.threat_count_at_least(me, Threat::Four) > 0 {
            let budget = self.selectivity.leaf_vcf_budget;
            let found = self.vcf.solve(&mut self.position, LEAF_VCF_FOURS, budget);
            self.nodes += self.vcf.nodes();
            if let Some(line) = found {
                return mate_in((ply + line.len()) as u32);
            }
        }
        eval
    }
}

#[cfg(test)]
mod tests {
    use super::super::worker::with_worker;
    use super::{evaluate, is_mate};
    use crate::board::{Board, Geometry, Rule};

    #[test]
    fn the_horizon_stands_pat_at_beta_and_looks_for_a_vcf_below_it() {
        // Black to move makes a double four on h8 (row 7, column 7): a win
        // that the horizon's VCF finds, but only looks for when the static
        // score alone does not already reach beta.
        let board = Board::from_diagram(
            "
            O . . . . . . . . . . . . . O
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . O . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . X . . . . . . .
            . . . O X X X . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            O . . . . . . . . . . . . . O
            ",
            Rule::Freestyle,
            Geometry::Square,
        )
        .unwrap();
        let eval = evaluate(&board);
        assert!(!is_mate(eval));
        with_worker(&board, |worker| {
            assert_eq!(worker.leaf(0, eval, eval), eval);
            assert_eq!(worker.nodes, 0, "no VCF was searched");
            let score = worker.leaf(0, eval, eval + 1);
            assert!(score > 0 && is_mate(score), "a win, not {score}");
            assert!(worker.nodes > 0);
        });
    }
}
