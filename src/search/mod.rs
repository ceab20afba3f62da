//! Search: what the protocol layer asks of a thinking engine, and the engines
//! that answer. The search never prints; it reports through a callback.
//!
//! Owns iterative deepening, alpha-beta, VCF/VCT, the transposition table and
//! time management (`time`). `Score` and the mate scores come from
//! `eval::score` and are re-exported here.

mod alphabeta;
mod answers;
pub mod balance;
mod defence;
mod engine;
mod one_ply;
mod position;
mod probcut;
mod pruning;
mod root_order;
pub mod swap2;
mod tactics;
pub mod time;
mod tt;
mod vcf;
mod vct;
mod worker;

pub use engine::WuziSearcher;
pub use one_ply::OnePlySearcher;

pub use crate::eval::score::{mate_in, mated_in, Score, MATE, MATE_BOUND};

use crate::board::{Board, Pos};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// When a search must stop. Every field that is `None` does not limit.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub time: Option<TimeBudget>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Root moves the search must not play (multi-PV, `YXBLOCK`).
    pub excluded: Vec<Pos>,
}

/// A time budget for one move, measured from `start`.
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    pub start: Instant,
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop at once after this, whatever the search is doing.
    pub hard: Duration,
}

/// Settings that outlive a single search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Bytes the whole engine may use; the transposition table gets its share.
    pub memory_bytes: u64,
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            memory_bytes: 350 << 20,
            threads: 1,
        }
    }
}

/// Which empty cells the search considers (Yixin-Board's
/// `INFO caution_factor 0..5`, the ranges Rapfi maps it to): cells within
/// two steps of a stone (the default, `caution_factor 0`), also those three
/// steps along a line, within three steps, also four along a line, within
/// four steps, or the whole board. Wider is slower and misses less.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CandidateRange {
    #[default]
    Square2,
    Square2Line3,
    Square3,
    Square3Line4,
    Square4,
    FullBoard,
}

impl CandidateRange {
    /// The range for a `caution_factor` (clamped to 0..5).
    pub fn from_caution(factor: i64) -> CandidateRange {
        match factor {
            i64::MIN..=0 => CandidateRange::Square2,
            1 => CandidateRange::Square2Line3,
            2 => CandidateRange::Square3,
            3 => CandidateRange::Square3Line4,
            4 => CandidateRange::Square4,
            _ => CandidateRange::FullBoard,
        }
    }
}

/// One completed iteration of iterative deepening.
#[derive(Clone, Debug)]
pub struct IterationInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
}

/// Progress reports a search makes while it runs.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    Iteration(IterationInfo),
    /// The root move now being searched (for realtime GUI hints).
    RootMove(Pos),
    /// A new best root move.
    BestMove(Pos),
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the board has no legal move.
    pub best_move: Option<Pos>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Pos>,
}

/// A thinking engine. The protocol layer runs it on a worker thread and may
/// set `stop` at any moment; the search must then return its best move so far
/// promptly (within a few milliseconds).
pub trait Searcher: Send {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchEvent),
    ) -> SearchResult;

    /// Forget everything learned so far (`YXHASHCLEAR`).
    fn clear(&mut self);

    /// Apply memory and thread settings.
    fn configure(&mut self, options: &EngineOptions);

    /// The cells later searches consider (`INFO caution_factor`). Searchers
    /// with a fixed range ignore it.
    fn set_candidate_range(&mut self, _range: CandidateRange) {}
}

/// The engine the protocol layer plays with.
pub fn new_searcher() -> Box<dyn Searcher> {
    Box::new(WuziSearcher::default())
}

/// The engine of a process that plays games: as `new_searcher`, with its
/// table faulted in in the background (`WuziSearcher::warming`), so that
/// the first moves are not spent on page faults. Tools that want the same
/// search at every run use `new_searcher`.
pub fn new_playing_searcher() -> Box<dyn Searcher> {
    Box::new(WuziSearcher::warming(&EngineOptions::default()))
}
