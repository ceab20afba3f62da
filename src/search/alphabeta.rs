//! One search thread: principal-variation alpha-beta over threat-pruned moves,
//! with the shared transposition table, killers and history.

use super::position::{is_four, CellInfo, Position};
use super::pruning::{stale_table_reduction, Selectivity, MOVE_COUNT_DEPTH, RAZOR_DEPTH};
use super::tactics::{Tactics, Threats, INTERIOR_DEFENCE_DEPTH};
use super::tt::{Bound, Entry, TranspositionTable};
use super::vcf::VcfSolver;
use super::{mate_in, mated_in, Limits, Score, MATE, MATE_BOUND};
use crate::board::{Pos, Threat, CELL_COUNT};
use crate::eval::evaluate;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub const MAX_PLY: usize = 96;
const INFINITY: Score = MATE + 1;
/// Nodes between clock reads and node-count publications.
const CHECK_INTERVAL: u64 = 256;
/// Fours a leaf's VCF may play (its node budget is the rule's).
const LEAF_VCF_FOURS: u32 = 8;
/// Internal iterative reduction from this depth on.
const IIR_DEPTH: i32 = 5;
/// Singular extension: from this depth on, a table move whose score no
/// other move comes within the rule's singular margin per ply of is searched
/// a ply deeper.
const SINGULAR_DEPTH: i32 = 6;

/// What all threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// Set by the caller (protocol) to stop.
    pub stop: &'a AtomicBool,
    /// Set by the main thread when a limit is hit or the search is done.
    pub abort: AtomicBool,
    /// Nodes of all threads, published every `CHECK_INTERVAL`.
    pub nodes: AtomicU64,
    pub limits: &'a Limits,
}

impl Shared<'_> {
    pub fn stopping(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }
}

/// A position whose result is known without searching.
pub enum Node {
    /// The side to move wins by force in the given plies with this move.
    Won(Score, Pos),
    /// The side to move loses by force; the move is the best try, if any.
    Lost(Score, Option<Pos>),
}

/// What a node is expected to do, from its place in the tree: a PV node
/// searches with an open window; a cut node is expected to fail high (it
/// refutes its parent's move), an all node to fail low (every move of it is
/// refuted).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    /// The kind of the node's first child, searched with the node's window.
    fn first_child(self) -> NodeKind {
        match self {
            NodeKind::Pv => NodeKind::Pv,
            NodeKind::Cut => NodeKind::All,
            NodeKind::All => NodeKind::Cut,
        }
    }

    /// The kind of a later child searched again at full depth with a null
    /// window, after its reduced search beat alpha.
    fn researched_child(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::All,
            _ => NodeKind::Cut,
        }
    }
}

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

#[derive(Copy, Clone, Debug)]
pub struct Scored {
    pub info: CellInfo,
    pub key: i32,
}

pub struct Worker<'a> {
    pub position: Position,
    pub(super) shared: &'a Shared<'a>,
    /// Only the main thread checks the clock and limits.
    pub(super) main: bool,
    /// The pruning numbers of the position's rule.
    pub(super) selectivity: &'static Selectivity,
    pub nodes: u64,
    pub(super) published: u64,
    pub(super) next_clock_check: u64,
    pub seldepth: u32,
    pub(super) killers: Vec<[Option<Pos>; 2]>,
    pub(super) history: Vec<i32>,
    pub pv: Vec<Vec<Pos>>,
    pub(super) moves: Vec<Vec<Scored>>,
    /// `order`'s working space: the packed sort keys, and the list being
    /// rebuilt in their order.
    pub(super) order_keys: Vec<u64>,
    pub(super) ordered: Vec<Scored>,
    pub(super) cells: Vec<Pos>,
    /// Cells on the lines of the opponent's four-threes, marked with
    /// `line_stamp` (so the marks need no clearing between nodes).
    pub(super) line_marks: Vec<u32>,
    pub(super) line_stamp: u32,
    /// The points where we would have to block the fours of the opponent's
    /// four-threes, from `mark_four_three_lines`.
    pub(super) four_three_blocks: Vec<Pos>,
    /// The static score of each ply's node, where one was taken.
    pub(super) static_evals: Vec<Option<Score>>,
    /// The table move a singular-extension search at this ply leaves out.
    pub(super) singular_excluded: Vec<Option<Pos>>,
    pub vcf: VcfSolver,
    /// The best root move of the current iteration whose search finished,
    /// with its score.
    pub root_best: Option<(Pos, Score)>,
    /// The root move to search first (the last iteration's best), ahead of
    /// the table's move, which a helper thread may have overwritten.
    pub root_first: Option<Pos>,
    /// The root moves that answer the opponent's VCF (all of them when it
    /// has none), once known.
    pub(super) root_answers: Option<Vec<Pos>>,
    /// Told of each root move as its search starts (the main thread's
    /// realtime reporting); `None` on helpers.
    pub on_root_move: Option<&'a mut dyn FnMut(Pos)>,
    /// The root moves in the order the iterations so far left them
    /// (`root_order.rs`).
    pub(super) root_order: Vec<Pos>,
}

impl<'a> Worker<'a> {
    pub fn new(position: Position, shared: &'a Shared<'a>, main: bool) -> Worker<'a> {
        Worker {
            selectivity: Selectivity::of(position.board.rule(), position.board.geometry()),
            position,
            shared,
            main,
            nodes: 0,
            published: 0,
            next_clock_check: 0,
            seldepth: 0,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; CELL_COUNT * 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            moves: vec![Vec::new(); MAX_PLY + 2],
            order_keys: Vec::new(),
            ordered: Vec::new(),
            cells: Vec::new(),
            line_marks: vec![0; CELL_COUNT],
            line_stamp: 0,
            four_three_blocks: Vec::new(),
            static_evals: vec![None; MAX_PLY + 2],
            singular_excluded: vec![None; MAX_PLY + 2],
            vcf: VcfSolver::default(),
            root_best: None,
            root_first: None,
            root_answers: None,
            on_root_move: None,
            root_order: Vec::new(),
        }
    }

    /// Counts a node and, every so often, checks the limits.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        let limits = self.shared.limits;
        let count_every_node = self.main && limits.nodes.is_some();
        if self.nodes - self.published >= CHECK_INTERVAL || count_every_node {
            let fresh = self.nodes - self.published;
            self.published = self.nodes;
            let total = self.shared.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh;
            if self.main {
                let over_nodes = limits.nodes.is_some_and(|n| total >= n);
                let mut over_time = false;
                if self.nodes >= self.next_clock_check {
                    self.next_clock_check = self.nodes + CHECK_INTERVAL;
                    over_time = limits.time.is_some_and(|t| t.start.elapsed() >= t.hard);
                }
                if over_nodes || over_time {
                    self.shared.abort.store(true, Ordering::Relaxed);
                }
            }
        }
        self.shared.stopping()
    }

    /// Nodes counted but not yet added to the shared total.
    pub fn unpublished(&self) -> u64 {
        self.nodes - self.published
    }

    /// The root's moves after `generate(0, ..)`, best-ordered first.
    pub fn root_moves(&mut self) -> Vec<Pos> {
        self.order(0, None, usize::MAX);
        self.moves[0].iter().map(|m| m.info.pos).collect()
    }

    pub fn publish_nodes(&mut self) {
        let fresh = self.nodes - self.published;
        self.published = self.nodes;
        self.shared.nodes.fetch_add(fresh, Ordering::Relaxed);
    }

    /// Orders the first `keep` of `self.moves[ply]` best first: the table's
    /// move, then by key, ties in generation order. The rest follow them,
    /// unordered.
    pub(super) fn order(&mut self, ply: usize, tt_move: Option<Pos>, keep: usize) {
        let color = self.position.side_to_move().index();
        let killers = self.killers[ply];
        let history = &self.history;
        self.order_keys.clear();
        for (index, m) in self.moves[ply].iter_mut().enumerate() {
            let pos = m.info.pos;
            m.key = if Some(pos) == tt_move {
                i32::MAX
            } else {
                let killer = match killers.contains(&Some(pos)) {
                    true => self.selectivity.killer_bonus,
                    false => 0,
                };
                m.info.value[color]
                    + m.info.value[1 - color]
                    + killer
                    + history[color * CELL_COUNT + pos.index()].min(1000) / 8
            };
            // Ascending packed keys are descending move keys, ties by index:
            // the order a stable sort gives, from an unstable sort of plain
            // integers, and only the kept ones need sorting.
            let rank = (i64::from(i32::MAX) - i64::from(m.key)) as u64;
            self.order_keys.push(rank << 32 | index as u64);
        }
        let keys = &mut self.order_keys;
        if keep < keys.len() {
            if keep > 0 {
                keys.select_nth_unstable(keep - 1);
            }
            keys[..keep].sort_unstable();
        } else {
            keys.sort_unstable();
        }
        let moves = &self.moves[ply];
        self.ordered.clear();
        self.ordered.extend(
            keys.iter()
                .map(|&k| moves[(k & u64::from(u32::MAX)) as usize]),
        );
        std::mem::swap(&mut self.moves[ply], &mut self.ordered);
    }

    fn reward(&mut self, ply: usize, pos: Pos, depth: i32) {
        let color = self.position.side_to_move().index();
        let slot = &mut self.history[color * CELL_COUNT + pos.index()];
        *slot = (*slot + depth * depth).min(1 << 20);
        let killers = &mut self.killers[ply];
        if killers[0] != Some(pos) {
            killers[1] = killers[0];
            killers[0] = Some(pos);
        }
    }

    /// Lowers the history of the quiet moves searched before a quiet cut-off
    /// move: they were tried first and did not refute.
    fn punish(&mut self, tried: &[Scored], depth: i32) {
        let color = self.position.side_to_move().index();
        for m in tried {
            if is_quiet(&m.info) {
                let slot = &mut self.history[color * CELL_COUNT + m.info.pos.index()];
                *slot = (*slot - depth * depth).max(-(1 << 20));
            }
        }
    }

    fn set_pv(&mut self, ply: usize, mv: Pos) {
        let child = std::mem::take(&mut self.pv[ply + 1]);
        self.pv[ply].clear();
        self.pv[ply].push(mv);
        self.pv[ply].extend_from_slice(&child);
        self.pv[ply + 1] = child;
    }

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
        self.order(ply, first, limit);
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
        let quiet_limit = self.selectivity.move_count_limit(depth, improving);
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
        for i in 0..moves.len() {
            // The moves past the branch limit are searched only when every
            // move before them lost: a node that pruned its way to a loss
            // would hand its parent a win that is not there, and the parent
            // would play for it.
            if i >= limit {
                if best > -MATE_BOUND {
                    break;
                }
                if i == limit {
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

/// A move that makes no three or better for either side.
fn is_quiet(info: &CellInfo) -> bool {
    info.threat[0] < Threat::OpenThree && info.threat[1] < Threat::OpenThree
}

/// Whether a score is a proven win or loss.
pub fn is_mate(score: Score) -> bool {
    score.abs() > MATE_BOUND
}

/// Runs `test` on a main worker of its own over `board`, with a small
/// table and no limits.
#[cfg(test)]
pub(super) fn with_worker<R>(
    board: &crate::board::Board,
    test: impl FnOnce(&mut Worker) -> R,
) -> R {
    use std::sync::atomic::AtomicBool;
    let tt = super::tt::TranspositionTable::new(1 << 20);
    let (stop, limits) = (AtomicBool::new(false), super::Limits::default());
    let shared = Shared {
        tt: &tt,
        stop: &stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        limits: &limits,
    };
    test(&mut Worker::new(Position::new(board), &shared, true))
}

#[cfg(test)]
mod tests {
    use super::{evaluate, is_mate, with_worker, NodeKind};
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

    #[test]
    fn node_kinds_alternate_down_the_tree() {
        // A PV node's first child is on the PV; below a non-PV node cut and
        // all nodes alternate, and a later move's child is expected to cut.
        assert_eq!(NodeKind::Pv.first_child(), NodeKind::Pv);
        assert_eq!(NodeKind::Cut.first_child(), NodeKind::All);
        assert_eq!(NodeKind::All.first_child(), NodeKind::Cut);
        // A reduced move that beat alpha is searched again as the opposite
        // of what the node expects of itself.
        assert_eq!(NodeKind::Cut.researched_child(), NodeKind::All);
        assert_eq!(NodeKind::All.researched_child(), NodeKind::Cut);
        assert_eq!(NodeKind::Pv.researched_child(), NodeKind::Cut);
    }
}
