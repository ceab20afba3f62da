//! One search thread's state: the shared limits and table, the per-ply
//! buffers, killers and history, and the bookkeeping around a node (node
//! counting, move ordering, the principal variation). The search itself is
//! in `alphabeta.rs`.

use super::answers::DeferredAnswers;
use super::position::{CellInfo, Position};
use super::pruning::Selectivity;
use super::tt::TranspositionTable;
use super::vcf::VcfSolver;
use super::{Limits, Score, MATE_BOUND};
use crate::board::{Pos, Threat, CELL_COUNT};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub const MAX_PLY: usize = 96;
/// Nodes between clock reads and node-count publications.
const CHECK_INTERVAL: u64 = 256;

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
    pub(super) fn first_child(self) -> NodeKind {
        match self {
            NodeKind::Pv => NodeKind::Pv,
            NodeKind::Cut => NodeKind::All,
            NodeKind::All => NodeKind::Cut,
        }
    }

    /// The kind of a later child searched again at full depth with a null
    /// window, after its reduced search beat alpha.
    pub(super) fn researched_child(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::All,
            _ => NodeKind::Cut,
        }
    }
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
    /// Per ply, the answers to a four-three left to the move loop.
    pub(super) deferred_answers: Vec<DeferredAnswers>,
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
            deferred_answers: vec![DeferredAnswers::default(); MAX_PLY + 2],
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
    pub(super) fn tick(&mut self) -> bool {
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
            self.order_keys.push(packed_order(m.key, index));
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
        self.ordered
            .extend(keys.iter().map(|&k| moves[packed_index(k)]));
        std::mem::swap(&mut self.moves[ply], &mut self.ordered);
    }

    pub(super) fn reward(&mut self, ply: usize, pos: Pos, depth: i32) {
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
    pub(super) fn punish(&mut self, tried: &[Scored], depth: i32) {
        let color = self.position.side_to_move().index();
        for m in tried {
            if is_quiet(&m.info) {
                let slot = &mut self.history[color * CELL_COUNT + m.info.pos.index()];
                *slot = (*slot - depth * depth).max(-(1 << 20));
            }
        }
    }

    pub(super) fn set_pv(&mut self, ply: usize, mv: Pos) {
        let child = std::mem::take(&mut self.pv[ply + 1]);
        self.pv[ply].clear();
        self.pv[ply].push(mv);
        self.pv[ply].extend_from_slice(&child);
        self.pv[ply + 1] = child;
    }
}

/// A move's key and its index in the list packed so that ascending packed
/// keys are descending move keys, ties by index: the order a stable sort
/// gives, from an unstable sort of plain integers.
pub(super) fn packed_order(key: i32, index: usize) -> u64 {
    let rank = (i64::from(i32::MAX) - i64::from(key)) as u64;
    rank << 32 | index as u64
}

/// The list index of a key from `packed_order`.
pub(super) fn packed_index(packed: u64) -> usize {
    (packed & u64::from(u32::MAX)) as usize
}

/// A move that makes no three or better for either side.
pub(super) fn is_quiet(info: &CellInfo) -> bool {
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
    use super::NodeKind;

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
