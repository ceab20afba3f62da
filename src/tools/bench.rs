//! `pbrain-wuzi bench [depth]`: searches a fixed set of positions to a fixed
//! depth on one thread and prints the node count per position, the total, a
//! signature of the whole run (equal across runs of one build, changed by any
//! change to what the search does) and the speed.
//!
//! `pbrain-wuzi bench time <ms> [threads]`: searches each position for a fixed
//! time instead and prints the depth each one reached.

use crate::board::{Board, Pos, Rule};
use crate::search::{EngineOptions, Limits, Searcher, TimeBudget, WuziSearcher};
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

/// Reads `h8`-style board notation (column letter, row from 1).
pub fn parse_move(text: &str) -> Option<Pos> {
    let mut chars = text.chars();
    let column = chars.next()?.to_ascii_lowercase();
    if !column.is_ascii_lowercase() {
        return None;
    }
    let row: usize = chars.as_str().parse().ok()?;
    let x = column as usize - 'a' as usize;
    (row >= 1 && x < crate::board::MAX_SIZE && row <= crate::board::MAX_SIZE)
        .then(|| Pos::new(x, row - 1))
}

impl BenchPosition {
    pub fn board(&self) -> Option<Board> {
        let mut board = Board::new(self.size, self.size, self.rule).ok()?;
        for text in self.moves.split_whitespace() {
            board.play(parse_move(text)?).ok()?;
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
            let result = searcher.search(&board, &limits, &AtomicBool::new(false), &mut |_| {});
            BenchLine {
                depth: result.depth,
                nodes: result.nodes,
                best_move: result.best_move,
                score: result.score,
                seconds: started.elapsed().as_secs_f64(),
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

/// `bench time <ms> [threads]`: the depth each position reaches in the time.
fn timed(args: &[String]) -> ExitCode {
    let number = |i: usize, default: u64| args.get(i).map_or(Ok(default), |a| a.parse::<u64>());
    let (Ok(ms), Ok(threads)) = (number(0, 1000), number(1, 1)) else {
        println!("ERROR usage: pbrain-wuzi bench time <ms> [threads]");
        return ExitCode::FAILURE;
    };
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
    let mut depths: Vec<u32> = lines.iter().map(|l| l.depth).collect();
    for (i, line) in lines.iter().enumerate() {
        let mv = line.best_move.map_or("none".to_string(), |p| p.to_string());
        println!(
            "position {:>2}: depth {:>2} nodes {:>9} move {:>4} score {:>6} time {:.3}s",
            i + 1,
            line.depth,
            line.nodes,
            mv,
            line.score,
            line.seconds
        );
    }
    depths.sort_unstable();
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let seconds: f64 = lines.iter().map(|l| l.seconds).sum();
    println!("median depth {}", depths[depths.len() / 2]);
    println!("nodes/s {:.0}", nodes as f64 / seconds.max(1e-9));
    ExitCode::SUCCESS
}

pub fn main(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("time") => return timed(&args[1..]),
        Some("board") => return super::board_bench::main(&args[1..]),
        _ => {}
    }
    let depth = match args.first().map(|a| a.parse::<u32>()) {
        None => DEFAULT_DEPTH,
        Some(Ok(d)) if d >= 1 => d,
        _ => {
            println!("ERROR usage: pbrain-wuzi bench [depth >= 1] | bench time MS | bench board");
            return ExitCode::FAILURE;
        }
    };
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
        let pos = parse_move("h8").unwrap();
        assert_eq!((pos.x(), pos.y()), (7, 7));
        assert_eq!(pos.to_string(), "h8");
        assert!(parse_move("8h").is_none());
        assert!(parse_move("h0").is_none());
    }

    #[test]
    fn a_shallow_bench_is_deterministic() {
        let first = signature(&run(2));
        let second = signature(&run(2));
        assert_eq!(first, second);
    }
}
