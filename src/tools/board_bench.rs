//! `pbrain-wuzi bench board`: micro-benchmarks of the board's hot paths,
//! reported as median ns per operation over many short rounds (short rounds
//! keep the median clear of the moments another process holds the core):
//!
//! - `make+unmake`: one stone placed and taken back with the full incremental
//!   pattern update, over every candidate cell of middle-game positions;
//! - `forbidden scan`: `forbidden_points()` on middle-game 15x15 renju
//!   positions, with the recursive verdicts cached (as a search sees them) and
//!   on a fresh board (nothing cached; the copy is timed and subtracted).
//!
//! The positions are the realistic ones of `tests/data/renju-forbidden.txt`
//! with 30 to 50 stones. `cargo bench --bench board` runs the same.
//!
//! `pbrain-wuzi bench board --make-unmake-rounds N [RULE]` runs only N
//! untimed rounds of make+unmake (RULE `freestyle` or `renju`, freestyle if
//! left out), for instruction counts under `valgrind --tool=callgrind`: the
//! difference between two round counts, divided by the extra operations it
//! prints, is the cost of one make+unmake, free of the set-up.

use crate::board::{Board, Color, Pos, Rule};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

/// The vectors whose realistic section gives the positions.
const VECTORS: &str = include_str!("../../tests/data/renju-forbidden.txt");

fn middle_game_positions(rule: Rule) -> Vec<Board> {
    let realistic = VECTORS.split("===== 4.").nth(1).unwrap_or("");
    let points = |list: &str| -> Vec<Pos> {
        list.split_whitespace()
            .filter_map(|xy| {
                let (x, y) = xy.split_once(',')?;
                Some(Pos::new(x.parse().ok()?, y.parse().ok()?))
            })
            .collect()
    };
    realistic
        .lines()
        .filter_map(|line| {
            let mut fields = line.split('|');
            let black = points(fields.next()?.strip_prefix("B:")?);
            let white = points(fields.next()?.strip_prefix("W:")?);
            (30..=50)
                .contains(&(black.len() + white.len()))
                .then_some((black, white))
        })
        .take(40)
        .filter_map(|(black, white)| {
            let mut board = Board::new(15, 15, rule).ok()?;
            for (stones, color) in [(black, Color::Black), (white, Color::White)] {
                for p in stones {
                    board.place(p, color).ok()?;
                }
            }
            Some(board)
        })
        .collect()
}

/// Median over many short rounds of the time per operation of `run(item)`,
/// which performs `ops(item)` operations.
fn median_ns<T>(items: &mut [T], ops: impl Fn(&T) -> usize, mut run: impl FnMut(&mut T)) -> f64 {
    const ROUNDS: usize = 25;
    let mut samples = Vec::with_capacity(ROUNDS * items.len());
    for _ in 0..ROUNDS {
        for item in items.iter_mut() {
            let start = Instant::now();
            run(item);
            samples.push(start.elapsed().as_nanos() as f64 / ops(item).max(1) as f64);
        }
    }
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(0.0)
}

/// The middle-game positions, each with its candidate moves.
fn with_candidates(rule: Rule) -> Vec<(Board, Vec<Pos>)> {
    middle_game_positions(rule)
        .into_iter()
        .map(|board| {
            let moves = board.candidates().collect();
            (board, moves)
        })
        .collect()
}

/// Every candidate of one position placed and taken back.
fn make_unmake_all((board, moves): &mut (Board, Vec<Pos>)) {
    for &pos in moves.iter() {
        board.make(black_box(pos));
        board.unmake();
    }
}

/// The same make+unmake loop, untimed, for an instruction counter.
fn make_unmake_rounds(rounds: usize, rule: Rule) {
    let mut positions = with_candidates(rule);
    let mut ops = 0;
    for _ in 0..rounds {
        for position in positions.iter_mut() {
            make_unmake_all(position);
            ops += position.1.len();
        }
    }
    println!("{ops} make+unmake ({rule:?})");
}

/// `cargo bench --bench board [-- --make-unmake-rounds N [renju]]`: cargo
/// passes its own flags (`--bench`) too, so unknown words are skipped.
pub fn main(args: &[String]) -> ExitCode {
    let rounds = args
        .iter()
        .position(|a| a == "--make-unmake-rounds")
        .map(|at| {
            let rounds = args.get(at + 1).and_then(|n| n.parse().ok()).unwrap_or(1);
            let rule = match args.get(at + 2).map(String::as_str) {
                Some("renju") => Rule::Renju,
                _ => Rule::Freestyle,
            };
            (rounds, rule)
        });
    run(rounds);
    ExitCode::SUCCESS
}

/// The timed benchmarks, or `rounds` untimed make+unmake rounds of a rule.
pub fn run(rounds: Option<(usize, Rule)>) {
    if let Some((rounds, rule)) = rounds {
        make_unmake_rounds(rounds, rule);
        return;
    }
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut positions = with_candidates(rule);
        let moves: usize = positions.iter().map(|(_, m)| m.len()).sum();
        let count = positions.len();
        let ns = median_ns(&mut positions, |(_, m)| m.len(), make_unmake_all);
        println!("make+unmake ({rule:?}): {ns:.1} ns ({count} positions, {moves} moves)");
    }

    let mut boards = middle_game_positions(Rule::Renju);
    let forbidden: usize = boards.iter().map(|b| b.forbidden_points().len()).sum();
    let n = boards.len();
    let cached = median_ns(
        &mut boards,
        |_| 1,
        |board| {
            black_box(board.forbidden_points());
        },
    );
    let copy = median_ns(
        &mut boards,
        |_| 1,
        |board| {
            black_box(board.clone());
        },
    );
    let fresh = median_ns(
        &mut boards,
        |_| 1,
        |board| {
            black_box(board.clone().forbidden_points());
        },
    );
    println!(
        "forbidden scan (15x15 renju, {n} positions, {forbidden} forbidden points): \
         {:.2} us cached, {:.2} us uncached (board copy {:.2} us subtracted)",
        cached / 1000.0,
        (fresh - copy) / 1000.0,
        copy / 1000.0
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_positions_are_the_forty_middle_games() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let positions = middle_game_positions(rule);
            assert_eq!(positions.len(), 40);
            for board in &positions {
                assert!((30..=50).contains(&board.history().len()));
            }
        }
    }
}
