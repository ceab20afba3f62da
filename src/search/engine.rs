//! `WuziSearcher`: the engine the protocol plays with. Settles forced moves at
//! once, tries a VCF, then runs iterative deepening with aspiration windows on
//! the main thread and Lazy-SMP helpers sharing the transposition table.

use super::position::Position;
use super::time::Stability;
use super::tt::TranspositionTable;
use super::vcf::MAX_FOURS;
use super::vct::{VctSolver, MAX_THREATS};
use super::worker::{is_mate, Node, NodeKind, Shared, Worker, MAX_PLY};
use super::{
    mate_in, CandidateRange, EngineOptions, IterationInfo, Limits, Score, SearchEvent,
    SearchResult, Searcher, MATE,
};
use crate::board::{Board, Pos, Threat};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Memory kept back from `max_memory` for code, stacks and per-thread
/// tables. The process takes about 13 MiB besides its table, 18 MiB with
/// eight threads; the quarter that `table_bytes` leaves unused covers the
/// rest from a grant of 24 MiB up.
const RESERVED_BYTES: u64 = 16 << 20;
/// Table size when the manager sets no memory limit.
const UNLIMITED_TABLE_BYTES: u64 = 256 << 20;
/// VCF nodes tried before the main search.
const ROOT_VCF_BUDGET: u64 = 20_000;
/// VCT nodes tried before the main search.
const ROOT_VCT_BUDGET: u64 = 30_000;
/// The root solvers stop after 1/SOLVER_SHARE of the soft target.
const SOLVER_SHARE: u32 = 6;
/// Half-width of the first aspiration window.
const ASPIRATION: Score = 40;
/// Deepest iteration when nothing else limits the search.
const DEPTH_CAP: u32 = (MAX_PLY as u32) - 16;
/// A best move unchanged over this many iterations, at a steady score, is
/// settled (see `Stability`).
const SETTLED_ITERATIONS: usize = 4;
/// The most the score may move between iterations two plies apart (scores
/// swing between odd and even depths, so neighbours are not compared) for
/// the move to count as settled.
const STEADY_SCORE: Score = 40;
/// A fall of more than this between iterations two plies apart earns the
/// move more time.
const FALLING_SCORE: Score = 60;

pub struct WuziSearcher {
    tt: TranspositionTable,
    /// The table size asked for, to notice when a new setting changes it.
    table_bytes: u64,
    threads: usize,
    /// The cells the search considers (`INFO caution_factor`).
    candidate_range: CandidateRange,
    /// Whether each new table's pages are faulted in on a thread of their
    /// own (`TranspositionTable::warm_in_background`): for a process that
    /// plays, not for tools that want a search independent of the clock.
    warm_tables: bool,
}

/// The transposition table's share of the engine's memory: three quarters of
/// what the reserve leaves, so 36 MiB of c-gomoku-cli's 64 MiB. A match
/// clock's searches of 1–3 M nodes a move overfill a smaller table, and
/// with the table on 2 MiB pages its size no longer costs speed.
fn table_bytes(memory_bytes: u64) -> u64 {
    if memory_bytes == 0 {
        return UNLIMITED_TABLE_BYTES;
    }
    (memory_bytes.saturating_sub(RESERVED_BYTES) / 4 * 3).max(1 << 20)
}

impl Default for WuziSearcher {
    fn default() -> Self {
        WuziSearcher::new(&EngineOptions::default())
    }
}

impl WuziSearcher {
    pub fn new(options: &EngineOptions) -> WuziSearcher {
        let bytes = table_bytes(options.memory_bytes);
        WuziSearcher {
            tt: TranspositionTable::new(bytes),
            table_bytes: bytes,
            threads: options.threads.max(1),
            candidate_range: CandidateRange::default(),
            warm_tables: false,
        }
    }

    /// A searcher whose tables fault their pages in in the background, so
    /// that a fresh process's first moves are not spent on page faults.
    /// The table then grows between searches as it is written, so how much
    /// of it a search uses depends on the clock.
    pub fn warming(options: &EngineOptions) -> WuziSearcher {
        let mut searcher = WuziSearcher::new(options);
        searcher.warm_tables = true;
        searcher.tt.warm_in_background();
        searcher
    }

    /// The result for a win a solver proved, unless its first move is excluded.
    fn proven(
        board: &Board,
        line: Option<Vec<Pos>>,
        limits: &Limits,
        nodes: u64,
    ) -> Option<SearchResult> {
        let line = line?;
        let first = *line.first()?;
        if limits.excluded.contains(&first) {
            return None;
        }
        let mut result = Self::decided(
            board,
            &limits.excluded,
            Some(first),
            mate_in(line.len() as u32),
            nodes,
        );
        result.pv = line;
        Some(result)
    }

    fn decided(
        board: &Board,
        excluded: &[Pos],
        mv: Option<Pos>,
        score: Score,
        nodes: u64,
    ) -> SearchResult {
        SearchResult {
            best_move: mv.or_else(|| fallback_move(board, excluded)),
            score,
            depth: 1,
            nodes,
            pv: mv.into_iter().collect(),
        }
    }
}

/// A legal move not in `excluded` when the search has none to offer (a lost
/// position, or every candidate excluded): the most natural try, a block of
/// the opponent's strongest threat, else a point near the stones.
fn fallback_move(board: &Board, excluded: &[Pos]) -> Option<Pos> {
    let them = board.side_to_move().opponent();
    let allowed = |p: &Pos| board.is_legal(*p) && !excluded.contains(p);
    [Threat::Five, Threat::Four, Threat::OpenThree]
        .into_iter()
        .find_map(|t| board.cells_with_threat(them, t).find(allowed))
        .or_else(|| board.candidates().find(allowed))
        .or_else(|| board.empty_cells().find(allowed))
}

/// The best line of one thread's completed iteration.
struct Completed {
    depth: u32,
    score: Score,
    pv: Vec<Pos>,
}

/// Iterative deepening on one thread. `report` sees each completed iteration
/// (the main thread reports it; helpers pass a no-op).
fn iterate(
    worker: &mut Worker,
    shared: &Shared,
    max_depth: u32,
    helper: usize,
    report: &mut dyn FnMut(&Completed, &Worker),
) -> Option<Completed> {
    let mut last: Option<Completed> = None;
    let mut depth = 1 + (helper % 2) as u32;
    while depth <= max_depth {
        worker.root_best = None;
        worker.root_first = last.as_ref().and_then(|l| l.pv.first().copied());
        let previous = last.as_ref().map_or(0, |l| l.score);
        let mut window = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= 4 && !is_mate(previous) {
            (previous - window, previous + window)
        } else {
            (-MATE - 1, MATE + 1)
        };
        let score = loop {
            // The previous best goes first, and after a fail-high the move
            // that failed high: a later move only becomes the best by beating it.
            worker.root_first = worker.root_best.map(|(mv, _)| mv).or(worker.root_first);
            let score = worker.search(depth as i32, 0, alpha, beta, NodeKind::Pv);
            if shared.stopping() {
                break None;
            }
            if score <= alpha && alpha > -MATE - 1 {
                alpha = (alpha - window).max(-MATE - 1);
            } else if score >= beta && beta < MATE + 1 {
                beta = (beta + window).min(MATE + 1);
            } else {
                break Some(score);
            }
            window *= 3;
        };
        let Some(score) = score else {
            if let Some(partial) = unfinished(worker, depth) {
                last = Some(partial);
            }
            break;
        };
        let completed = Completed {
            depth,
            score,
            pv: worker.pv[0].clone(),
        };
        report(&completed, worker);
        let proven = is_mate(score) && (MATE - score.abs()) as u32 <= depth;
        last = Some(completed);
        if proven {
            break;
        }
        depth += 1;
    }
    worker.publish_nodes();
    last
}

/// What an iteration the clock cut short already knows: the best root move
/// whose search at this depth finished, if any. The previous best is searched
/// first, so a move is best here only by beating it at the same depth (a
/// fail-high inside the aspiration window counts too: it beat the previous
/// best, which scored below that window's top). Its score is a bound at the
/// new depth rather than exact, which is fine for choosing the move.
fn unfinished(worker: &Worker, depth: u32) -> Option<Completed> {
    let (mv, score) = worker.root_best?;
    let pv = match worker.pv[0].first() {
        Some(&first) if first == mv => worker.pv[0].clone(),
        _ => vec![mv],
    };
    Some(Completed {
        depth: depth - 1,
        score,
        pv,
    })
}

/// How settled the answer is after the iterations `best` (best move and
/// score per completed iteration, the latest last).
fn stability(best: &[(Pos, Score)]) -> Stability {
    let Some(&(latest, score)) = best.last() else {
        return Stability::Normal;
    };
    if best.len() >= 2 && best[best.len() - 2].0 != latest {
        return Stability::Changed;
    }
    // A score falling between iterations two plies apart is a threat the
    // shallower search missed: worth the time of a changed move.
    if best.len() >= 3 && score < best[best.len() - 3].1 - FALLING_SCORE && !is_mate(score) {
        return Stability::Changed;
    }
    let recent = &best[best.len().saturating_sub(SETTLED_ITERATIONS)..];
    let same_move = recent.len() == SETTLED_ITERATIONS && recent.iter().all(|b| b.0 == latest);
    let steady = best.len() >= 3 && (score - best[best.len() - 3].1).abs() <= STEADY_SCORE;
    if same_move && steady {
        Stability::Settled
    } else {
        Stability::Normal
    }
}

impl Searcher for WuziSearcher {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchEvent),
    ) -> SearchResult {
        if limits.time.is_none() {
            // Off the clock, the same search every time: the whole table.
            self.tt.finish_warming();
        }
        self.tt.new_search();
        let start = limits.time.map_or_else(Instant::now, |t| t.start);
        let shared = Shared {
            tt: &self.tt,
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            limits,
        };
        let report = RefCell::new(report);
        let mut announce_root_move = |mv: Pos| (report.borrow_mut())(&SearchEvent::RootMove(mv));
        let mut root = Position::new(board);
        root.range = self.candidate_range;
        let mut main = Worker::new(root.clone(), &shared, true);

        match main.prepare_root(&limits.excluded) {
            Some(Node::Won(score, mv)) => {
                return Self::decided(board, &limits.excluded, Some(mv), score, 1)
            }
            Some(Node::Lost(score, mv)) => {
                // The natural try may be a point Black may not play (a
                // five it cannot block): then any legal move.
                let mv = mv.filter(|p| !limits.excluded.contains(p) && board.is_legal(*p));
                return Self::decided(board, &limits.excluded, mv, score, 1);
            }
            None => {}
        }
        let root_moves: Vec<Pos> = main.root_moves();
        match root_moves.as_slice() {
            [] => {
                return Self::decided(board, &limits.excluded, None, 0, 1);
            }
            [only] => {
                // Forced: answer at once, with a score from one ply below.
                main.position.make(*only);
                let score = -main.search(0, 1, -MATE - 1, MATE + 1, NodeKind::All);
                main.position.unmake();
                return Self::decided(board, &limits.excluded, Some(*only), score, main.nodes);
            }
            _ => {}
        }
        let solver_deadline = limits
            .time
            .map(|t| t.start + t.soft.min(t.hard) / SOLVER_SHARE);
        let vcf = main.vcf.solve_until(
            &mut main.position,
            MAX_FOURS,
            ROOT_VCF_BUDGET,
            solver_deadline,
        );
        let mut solver_nodes = main.vcf.nodes();
        if let Some(result) = Self::proven(board, vcf, limits, solver_nodes) {
            return result;
        }
        let vct_budget = limits
            .nodes
            .map_or(ROOT_VCT_BUDGET, |n| (n / 4).min(ROOT_VCT_BUDGET));
        let mut vct = VctSolver::default();
        let found = vct.solve(&mut main.position, MAX_THREATS, vct_budget, solver_deadline);
        solver_nodes += vct.nodes();
        if let Some(result) = Self::proven(board, found, limits, solver_nodes) {
            return result;
        }
        shared.nodes.fetch_add(solver_nodes, Ordering::Relaxed);

        main.on_root_move = Some(&mut announce_root_move);
        let max_depth = limits.depth.unwrap_or(DEPTH_CAP).clamp(1, DEPTH_CAP);
        let mut best: Option<Completed> = None;
        let mut last_best_move = None;
        std::thread::scope(|scope| {
            for helper in 1..self.threads {
                let shared = &shared;
                let position = root.clone();
                scope.spawn(move || {
                    let mut worker = Worker::new(position, shared, false);
                    iterate(&mut worker, shared, DEPTH_CAP, helper, &mut |_, _| {});
                });
            }
            // The root checks and solvers above are not an iteration: the
            // first iteration's time is counted from here.
            let mut previous_elapsed = start.elapsed();
            let mut iteration_bests: Vec<(Pos, Score)> = Vec::new();
            let mut on_iteration = |done: &Completed, worker: &Worker| {
                let nodes = shared.nodes.load(Ordering::Relaxed) + worker.unpublished();
                let mut report = report.borrow_mut();
                report(&SearchEvent::Iteration(IterationInfo {
                    depth: done.depth,
                    seldepth: worker.seldepth,
                    score: done.score,
                    nodes,
                    elapsed: start.elapsed(),
                    pv: done.pv.clone(),
                }));
                if let Some(&mv) = done.pv.first() {
                    if last_best_move != Some(mv) {
                        last_best_move = Some(mv);
                        report(&SearchEvent::BestMove(mv));
                    }
                }
                if let Some(&mv) = done.pv.first() {
                    iteration_bests.push((mv, done.score));
                }
                let elapsed = start.elapsed();
                let last_iteration = elapsed.saturating_sub(previous_elapsed);
                previous_elapsed = elapsed;
                if let Some(time) = limits.time {
                    let settled = stability(&iteration_bests);
                    if !time.allows_next_iteration(elapsed, last_iteration, settled) {
                        shared.abort.store(true, Ordering::Relaxed);
                    }
                }
            };
            best = iterate(&mut main, &shared, max_depth, 0, &mut on_iteration);
            shared.abort.store(true, Ordering::Relaxed);
        });

        let nodes = shared.nodes.load(Ordering::Relaxed);
        match best {
            Some(done) if !done.pv.is_empty() => SearchResult {
                best_move: done.pv.first().copied(),
                score: done.score,
                depth: done.depth,
                nodes,
                pv: done.pv,
            },
            _ => {
                // Stopped before the first iteration finished: the best-ordered move.
                let mv = root_moves.first().copied();
                SearchResult {
                    best_move: mv,
                    score: 0,
                    depth: 0,
                    nodes,
                    pv: mv.into_iter().collect(),
                }
            }
        }
    }

    fn clear(&mut self) {
        self.tt.clear();
    }

    fn configure(&mut self, options: &EngineOptions) {
        let bytes = table_bytes(options.memory_bytes);
        if bytes != self.table_bytes {
            // Free the old table first so both never coexist.
            self.tt = TranspositionTable::new(1);
            self.tt = TranspositionTable::new(bytes);
            if self.warm_tables {
                self.tt.warm_in_background();
            }
            self.table_bytes = bytes;
        }
        self.threads = options.threads.max(1);
    }

    fn set_candidate_range(&mut self, range: CandidateRange) {
        if range != self.candidate_range {
            // Scores stored under another range are not comparable.
            self.candidate_range = range;
            self.tt.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, Rule};

    fn opening() -> Board {
        Board::from_diagram(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . X O . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . O . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            ",
            Rule::Freestyle,
            Geometry::Square,
        )
        .unwrap()
    }

    fn small(threads: usize) -> WuziSearcher {
        WuziSearcher::new(&EngineOptions {
            memory_bytes: 40 << 20,
            threads,
        })
    }

    #[test]
    fn helpers_share_the_work_and_a_legal_move_comes_back() {
        let board = opening();
        let limits = Limits {
            nodes: Some(30_000),
            ..Limits::default()
        };
        let mut events = 0;
        let result = small(3).search(&board, &limits, &AtomicBool::new(false), &mut |_| {
            events += 1
        });
        let mv = result.best_move.expect("a move");
        assert!(board.is_legal(mv));
        assert!(result.depth >= 2 && events > 0);
    }

    #[test]
    fn a_stop_before_the_start_still_gives_a_move() {
        let board = opening();
        let result = small(2).search(
            &board,
            &Limits::default(),
            &AtomicBool::new(true),
            &mut |_| {},
        );
        assert!(board.is_legal(result.best_move.expect("a move")));
    }

    #[test]
    fn the_depth_limit_is_kept_and_iterations_are_reported_in_order() {
        let board = opening();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let mut depths = Vec::new();
        let result = small(1).search(&board, &limits, &AtomicBool::new(false), &mut |e| {
            if let SearchEvent::Iteration(info) = e {
                depths.push(info.depth);
            }
        });
        assert_eq!(result.depth, 4);
        assert_eq!(depths, vec![1, 2, 3, 4]);
    }

    #[test]
    fn root_moves_are_announced_as_they_are_searched() {
        let board = opening();
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut root_moves = Vec::new();
        let mut best_moves = Vec::new();
        let result = small(1).search(&board, &limits, &AtomicBool::new(false), &mut |e| match e {
            SearchEvent::RootMove(p) => root_moves.push(*p),
            SearchEvent::BestMove(p) => best_moves.push(*p),
            SearchEvent::Iteration(_) => {}
        });
        let best = result.best_move.expect("a move");
        assert!(root_moves.iter().all(|&p| board.is_legal(p)));
        // Every iteration searches several root moves, the chosen one among them.
        assert!(root_moves.len() > 3 && root_moves.contains(&best));
        assert_eq!(best_moves.last(), Some(&best));
    }

    #[test]
    fn excluded_moves_are_not_played() {
        let board = opening();
        let first = small(1)
            .search(
                &board,
                &Limits {
                    depth: Some(3),
                    ..Limits::default()
                },
                &AtomicBool::new(false),
                &mut |_| {},
            )
            .best_move
            .unwrap();
        let limits = Limits {
            depth: Some(3),
            excluded: vec![first],
            ..Limits::default()
        };
        let second = small(1).search(&board, &limits, &AtomicBool::new(false), &mut |_| {});
        assert_ne!(second.best_move, Some(first));
    }

    #[test]
    fn the_table_share_leaves_room_for_the_rest() {
        let bytes = table_bytes(350 << 20);
        assert!(bytes < 350 << 20 && bytes > 100 << 20);
        assert_eq!(table_bytes(64 << 20), 36 << 20);
        assert!(table_bytes(1) >= 1 << 20);
    }

    /// The bench's third position (20x20: j10 k11 k10 i10 l9 j11 k12), where
    /// the root VCT runs through its whole node budget before any iteration.
    fn busy_solvers() -> Board {
        let mut board = Board::new(20, 20, Rule::Freestyle).unwrap();
        for (x, y) in [
            (9, 9),
            (10, 10),
            (10, 9),
            (8, 9),
            (11, 8),
            (9, 10),
            (10, 11),
        ] {
            board.play(Pos::new(x, y)).unwrap();
        }
        board
    }

    #[test]
    fn a_passed_deadline_gives_a_legal_move_after_few_nodes() {
        let board = busy_solvers();
        let stop = AtomicBool::new(false);
        let shallow = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let unhurried = small(1).search(&board, &shallow, &stop, &mut |_| {});
        let long_ago = Instant::now() - std::time::Duration::from_secs(10);
        let expired = Limits {
            time: Some(crate::search::TimeBudget {
                start: long_ago,
                soft: std::time::Duration::from_millis(900),
                hard: std::time::Duration::from_millis(1_000),
            }),
            ..Limits::default()
        };
        let hurried = small(1).search(&board, &expired, &stop, &mut |_| {});
        assert!(board.is_legal(hurried.best_move.expect("a move")));
        assert!(hurried.depth <= 1);
        // Every phase reads the clock within a few hundred nodes.
        assert!(unhurried.nodes > 10_000, "{}", unhurried.nodes);
        assert!(hurried.nodes < 1_000, "{}", hurried.nodes);
    }

    #[test]
    fn stability_reads_the_best_moves_and_scores() {
        let a = Pos::new(7, 7);
        let b = Pos::new(8, 8);
        assert_eq!(stability(&[]), Stability::Normal);
        assert_eq!(stability(&[(a, 10), (b, 20)]), Stability::Changed);
        // Scores swing between odd and even depths; two plies apart they
        // are steady.
        let steady = [(a, 10), (a, 200), (a, 30), (a, 190)];
        assert_eq!(stability(&steady), Stability::Settled);
        assert_eq!(stability(&steady[..3]), Stability::Normal);
        let drifting = [(a, 10), (a, 200), (a, 30), (a, 300)];
        assert_eq!(stability(&drifting), Stability::Normal);
        let came_back = [(b, 10), (a, 200), (a, 30), (a, 190)];
        assert_eq!(stability(&came_back), Stability::Normal);
        let falling = [(a, 10), (a, 200), (a, -80)];
        assert_eq!(stability(&falling), Stability::Changed);
        let slipping = [(a, 10), (a, 200), (a, -40)];
        assert_eq!(stability(&slipping), Stability::Normal);
    }
}
