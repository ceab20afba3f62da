//! `pbrain-wuzi bench [depth]`: searches a fixed set of positions to a fixed
//! depth on one thread and prints the node count per position, the total, a
//! signature of the whole run (equal across runs of one build, changed by any
//! change to what the search does) and the speed. Then the shape of each
//! search: the depth and selective depth reached, the effective branching
//! factor and the growth of the last iterations (see [`ebf`] and
//! [`growth`]), and their summaries over all positions.
//!
//! `pbrain-wuzi bench time <ms> [threads]`: searches each position for a fixed
//! time instead and prints the depth, selective depth and branching factor
//! each one reached, and their medians.
//!
//! Every figure comes from the search's iteration reports
//! ([`SearchEvent::Iteration`]): the nodes counted up to the end of the last
//! completed iteration, not those of an iteration the clock cut short.

use crate::board::{Board, Pos, Rule};
use crate::search::{EngineOptions, Limits, SearchEvent, Searcher, TimeBudget, WuziSearcher};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 8;

/// A bench position: board size, rule, and the moves from the empty board
/// (Black first) in board notation.
pub struct BenchPosition {
    pub size: usize,
    pub rule: Rule,
    pub moves: &'static str,
}

pub const POSITIONS: [BenchPosition; 8] = [
    BenchPosition {
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8 i9 i8 g8 j7 h9",
    },
    BenchPosition {
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8 h9 i9 g7 j10 k11 i7 i8 g9",
    },
    BenchPosition {
        size: 20,
        rule: Rule::Freestyle,
        moves: "j10 k11 k10 i10 l9 j11 k12",
    },
    BenchPosition {
        size: 20,
        rule: Rule::Freestyle,
        moves: "j10 j11 k9 i12 l8 m7 k10 h13",
    },
    BenchPosition {
        size: 15,
        rule: Rule::Standard,
        moves: "h8 i7 g9 f10 i9 h9 j8",
    },
    BenchPosition {
        size: 15,
        rule: Rule::Standard,
        moves: "h8 h7 j8 i9 g6 f5",
    },
    BenchPosition {
        size: 15,
        rule: Rule::Renju,
        moves: "h8 i9 j8 i7 i8 g8 j10",
    },
    BenchPosition {
        size: 15,
        rule: Rule::Renju,
        moves: "h8 h9 j10 i8 g8 j7 f8 i10",
    },
];

impl BenchPosition {
    pub fn board(&self) -> Option<Board> {
        let mut board = Board::new(self.size, self.size, self.rule).ok()?;
        for text in self.moves.split_whitespace() {
            board.play(Pos::from_notation(text)?).ok()?;
        }
        Some(board)
    }
}

/// One position's outcome.
pub struct BenchLine {
    pub depth: u32,
    pub nodes: u64,
    pub best_move: Option<Pos>,
    pub score: i32,
    pub seconds: f64,
    /// The completed iterations, in order: (depth, nodes from the start of
    /// the search to the end of that iteration).
    pub iterations: Vec<(u32, u64)>,
    /// The selective depth the last completed iteration reported.
    pub seldepth: u32,
}

impl BenchLine {
    /// [`ebf`] of the last completed iteration.
    pub fn ebf(&self) -> Option<f64> {
        let &(depth, nodes) = self.iterations.last()?;
        ebf(depth, nodes)
    }

    /// [`growth`] over the last [`GROWTH_SPAN`] iterations.
    pub fn growth(&self) -> Option<f64> {
        growth(&self.iterations, GROWTH_SPAN)
    }

    /// The depth of the last completed iteration (0 if none completed: the
    /// root solvers decided the position, or the clock stopped the first).
    pub fn completed_depth(&self) -> u32 {
        self.iterations.last().map_or(0, |&(depth, _)| depth)
    }
}

/// Iterations [`growth`] is taken over.
pub const GROWTH_SPAN: usize = 3;

/// The effective branching factor of a search that completed `depth` plies
/// with `nodes` nodes in all: `nodes^(1/depth)`, the branching factor of a
/// uniform tree of that depth and size. Iterative deepening, the root
/// solvers and the quiescence are all in `nodes`, so this is the figure that
/// tells what a search costs per ply of nominal depth (Rapfi's 511k nodes at
/// depth 18 give 2.07; 225k nodes at depth 9 give 3.93). `None` for depth 0
/// or no nodes.
pub fn ebf(depth: u32, nodes: u64) -> Option<f64> {
    (depth > 0 && nodes > 0).then(|| (nodes as f64).powf(1.0 / depth as f64))
}

/// How fast the last iterations grew: the geometric mean, over the last
/// `span` steps of the iterations, of nodes(d) / nodes(d-1), with nodes(d)
/// the nodes from the start of the search to the end of iteration d; that
/// is `(nodes(D) / nodes(D-k))^(1/k)` for the last depth D, k steps back (a
/// depth an iteration skipped counts as a step). It shows what one more ply
/// costs now, which [`ebf`] averages with the cheap first plies. `None`
/// with fewer than two iterations.
pub fn growth(iterations: &[(u32, u64)], span: usize) -> Option<f64> {
    let &(last_depth, last_nodes) = iterations.last()?;
    let back = iterations.len().saturating_sub(span.max(1) + 1);
    let (first_depth, first_nodes) = iterations[back];
    let steps = last_depth.checked_sub(first_depth).filter(|&s| s > 0)?;
    (first_nodes > 0).then(|| (last_nodes as f64 / first_nodes as f64).powf(1.0 / steps as f64))
}

/// The geometric mean of the values that exist.
pub fn geometric_mean(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let logs: Vec<f64> = values.into_iter().flatten().map(f64::ln).collect();
    (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
}

/// The median (the upper one of an even count).
pub fn median(values: &mut [u32]) -> Option<u32> {
    values.sort_unstable();
    values.get(values.len() / 2).copied()
}

fn figure(value: Option<f64>) -> String {
    value.map_or("-".to_string(), |v| format!("{v:.2}"))
}

/// The shape of each search and of all of them: depth, selective depth,
/// [`ebf`] and [`growth`].
fn print_shape(lines: &[BenchLine]) {
    for (i, line) in lines.iter().enumerate() {
        println!(
            "position {:>2} shape: depth {:>2} seldepth {:>2} ebf {:>5} growth {:>5}",
            i + 1,
            line.completed_depth(),
            line.seldepth,
            figure(line.ebf()),
            figure(line.growth())
        );
    }
    print_shape_summary(lines);
}

/// The median depth and seldepth, and the geometric means of ebf and growth,
/// over the bench's searches.
fn print_shape_summary(lines: &[BenchLine]) {
    let mut depths: Vec<u32> = lines.iter().map(BenchLine::completed_depth).collect();
    let mut seldepths: Vec<u32> = lines.iter().map(|l| l.seldepth).collect();
    println!(
        "median depth {} seldepth {}",
        median(&mut depths).unwrap_or(0),
        median(&mut seldepths).unwrap_or(0)
    );
    println!(
        "ebf {} growth {} (geometric means over the positions)",
        figure(geometric_mean(lines.iter().map(BenchLine::ebf))),
        figure(geometric_mean(lines.iter().map(BenchLine::growth)))
    );
}

/// Searches every bench position to `depth` with a fresh table.
pub fn run(depth: u32) -> Vec<BenchLine> {
    run_with(
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        1,
    )
}

fn run_with(limits: Limits, threads: usize) -> Vec<BenchLine> {
    let mut searcher = WuziSearcher::new(&EngineOptions {
        memory_bytes: 128 << 20,
        threads,
    });
    POSITIONS
        .iter()
        .filter_map(|p| p.board())
        .map(|board| {
            searcher.clear();
            let mut limits = limits.clone();
            if let Some(time) = limits.time.as_mut() {
                time.start = Instant::now();
            }
            let started = Instant::now();
            let mut iterations = Vec::new();
            let mut seldepth = 0;
            let result = searcher.search(&board, &limits, &AtomicBool::new(false), &mut |event| {
                if let SearchEvent::Iteration(info) = event {
                    iterations.push((info.depth, info.nodes));
                    seldepth = info.seldepth;
                }
            });
            BenchLine {
                depth: result.depth,
                nodes: result.nodes,
                best_move: result.best_move,
                score: result.score,
                seconds: started.elapsed().as_secs_f64(),
                iterations,
                seldepth,
            }
        })
        .collect()
}

/// FNV-1a over every position's node count and move.
pub fn signature(lines: &[BenchLine]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for line in lines {
        let mv = line.best_move.map_or(0, |p| p.index() as u64);
        for word in [line.nodes, mv] {
            for byte in word.to_le_bytes() {
                hash = (hash ^ byte as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    hash
}

/// `pbrain-wuzi bench [DEPTH] | bench time [MS] [THREADS] | bench board`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    mode: Option<BenchMode>,
    /// Depth each of the fixed positions is searched to
    #[arg(default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
}

#[derive(clap::Subcommand, Debug)]
enum BenchMode {
    /// The depth each position reaches in a time
    Time {
        /// Milliseconds a position
        #[arg(default_value_t = 1000)]
        ms: u64,
        /// Search threads
        #[arg(default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
    },
    /// The board alone: make+unmake and the forbidden-point scan (= cargo bench --bench board)
    Board {
        /// Untimed make+unmake rounds instead (for callgrind)
        #[arg(long, value_name = "N")]
        make_unmake_rounds: Option<u64>,
        /// The rule of those rounds
        #[arg(value_parser = super::cli::parse_rule, default_value = "freestyle")]
        rule: Rule,
    },
}

/// `bench time <ms> [threads]`: the depth each position reaches in the time.
fn timed(ms: u64, threads: u64) -> ExitCode {
    let budget = Duration::from_millis(ms);
    let limits = Limits {
        time: Some(TimeBudget {
            start: Instant::now(),
            soft: budget,
            hard: budget,
        }),
        ..Limits::default()
    };
    let lines = run_with(limits, threads.max(1) as usize);
    for (i, line) in lines.iter().enumerate() {
        let mv = line.best_move.map_or("none".to_string(), |p| p.to_string());
        println!(
            "position {:>2}: depth {:>2} seldepth {:>2} ebf {:>5} nodes {:>9} move {:>4} score {:>6} time {:.3}s",
            i + 1,
            line.completed_depth(),
            line.seldepth,
            figure(line.ebf()),
            line.nodes,
            mv,
            line.score,
            line.seconds
        );
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let seconds: f64 = lines.iter().map(|l| l.seconds).sum();
    print_shape_summary(&lines);
    println!("nodes/s {:.0}", nodes as f64 / seconds.max(1e-9));
    ExitCode::SUCCESS
}

pub fn main(args: BenchArgs) -> ExitCode {
    match args.mode {
        Some(BenchMode::Time { ms, threads }) => return timed(ms, threads),
        Some(BenchMode::Board {
            make_unmake_rounds,
            rule,
        }) => {
            super::board_bench::run(make_unmake_rounds.map(|rounds| (rounds as usize, rule)));
            return ExitCode::SUCCESS;
        }
        None => {}
    }
    let depth = args.depth;
    let lines = run(depth);
    for (i, (line, position)) in lines.iter().zip(POSITIONS.iter()).enumerate() {
        let mv = line.best_move.map_or("none".to_string(), |p| p.to_string());
        println!(
            "position {:>2} {:?} {}x{}: nodes {:>10} move {:>4} score {:>6} time {:.3}s",
            i + 1,
            position.rule,
            position.size,
            position.size,
            line.nodes,
            mv,
            line.score,
            line.seconds
        );
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let seconds: f64 = lines.iter().map(|l| l.seconds).sum();
    println!("depth {depth}");
    println!("total nodes {nodes}");
    println!("signature {:016x}", signature(&lines));
    println!("nodes/s {:.0}", nodes as f64 / seconds.max(1e-9));
    print_shape(&lines);
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_sets_up() {
        for position in &POSITIONS {
            let board = position.board().expect("bench position is legal");
            assert!(board.winner().is_none());
        }
    }

    #[test]
    fn notation_round_trips() {
        let pos = Pos::from_notation("h8").unwrap();
        assert_eq!((pos.x(), pos.y()), (7, 7));
        assert_eq!(pos.to_string(), "h8");
        assert!(Pos::from_notation("8h").is_none());
        assert!(Pos::from_notation("h0").is_none());
    }

    #[test]
    fn branching_factors_follow_their_definitions() {
        // nodes^(1/depth): the figures for Rapfi and wuzi.
        assert!((ebf(18, 511_000).unwrap() - 2.0756).abs() < 0.0001);
        assert!((ebf(9, 225_000).unwrap() - 3.9327).abs() < 0.0001);
        assert_eq!(ebf(4, 81), Some(3.0));
        assert_eq!(ebf(0, 100), None);
        assert_eq!(ebf(3, 0), None);
        // A tree that doubles every ply, then triples.
        let iterations = [(1, 10), (2, 20), (3, 40), (4, 80), (5, 240), (6, 720)];
        assert!((growth(&iterations, 2).unwrap() - 3.0).abs() < 1e-9);
        let three = growth(&iterations, 3).unwrap();
        assert!((three - (720.0f64 / 40.0).powf(1.0 / 3.0)).abs() < 1e-9);
        // Fewer iterations than the span: from the first one.
        assert!((growth(&iterations[..3], 5).unwrap() - 2.0).abs() < 1e-9);
        // A skipped depth counts as a step.
        assert!((growth(&[(2, 10), (4, 90)], 3).unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(growth(&iterations[..1], 3), None);
        assert_eq!(growth(&[], 3), None);
        let mean = geometric_mean([Some(2.0), None, Some(8.0)]).unwrap();
        assert!((mean - 4.0).abs() < 1e-9);
        assert_eq!(geometric_mean([None]), None);
        assert_eq!(median(&mut [9, 7, 8, 10]), Some(9));
        assert_eq!(median(&mut []), None);
    }

    #[test]
    fn a_shallow_bench_reports_its_iterations() {
        let lines = run(3);
        // A position the root solvers decide has no iteration.
        assert!(lines.iter().filter(|l| !l.iterations.is_empty()).count() >= 6);
        for line in lines.iter().filter(|l| !l.iterations.is_empty()) {
            let depths: Vec<u32> = line.iterations.iter().map(|&(d, _)| d).collect();
            assert_eq!(depths.last(), Some(&line.depth), "{depths:?}");
            assert!(line
                .iterations
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
            assert!(line.seldepth >= line.completed_depth().min(1));
        }
    }

    #[test]
    fn a_shallow_bench_is_deterministic() {
        let first = signature(&run(2));
        let second = signature(&run(2));
        assert_eq!(first, second);
    }
}
