//! In-process self-play: the full search against a depth-limited one, from the
//! bench openings with colours alternated. Too slow for every `cargo test`
//! run, so it is ignored by default:
//!
//! `cargo test --release --test tactics_selfplay -- --ignored --nocapture`
//!
//! Both sides are limited by nodes or depth (never time), so a run is
//! reproducible.

use std::sync::atomic::AtomicBool;
use wuzi::board::{Board, Color};
use wuzi::search::{EngineOptions, Limits, Searcher, WuziSearcher};
use wuzi::tools::bench::POSITIONS;

#[derive(Debug, PartialEq)]
enum Outcome {
    Win(Color),
    Draw,
}

fn play(opening: &Board, engines: [&mut WuziSearcher; 2], limits: [&Limits; 2]) -> Outcome {
    let mut board = opening.clone();
    let [black, white] = engines;
    black.clear();
    white.clear();
    loop {
        if board.is_full() {
            return Outcome::Draw;
        }
        let color = board.side_to_move();
        let (engine, limits) = match color {
            Color::Black => (&mut *black, limits[0]),
            Color::White => (&mut *white, limits[1]),
        };
        let result = engine.search(&board, limits, &AtomicBool::new(false), &mut |_| {});
        let Some(mv) = result.best_move.filter(|&p| board.is_legal(p)) else {
            // No move, or an illegal one: a loss for the side to move.
            return Outcome::Win(color.opponent());
        };
        board.play(mv).expect("legal move");
        if board.winner().is_some() {
            return Outcome::Win(color);
        }
    }
}

#[test]
#[ignore]
fn full_search_beats_a_depth_limited_one() {
    let options = EngineOptions {
        memory_bytes: 64 << 20,
        threads: 1,
    };
    let mut strong = WuziSearcher::new(&options);
    let mut weak = WuziSearcher::new(&options);
    let strong_limits = Limits {
        nodes: Some(40_000),
        ..Limits::default()
    };
    let weak_limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let (mut points, mut games) = (0.0, 0);
    for position in &POSITIONS {
        let opening = position.board().expect("opening");
        for strong_is_black in [true, false] {
            let outcome = if strong_is_black {
                play(
                    &opening,
                    [&mut strong, &mut weak],
                    [&strong_limits, &weak_limits],
                )
            } else {
                play(
                    &opening,
                    [&mut weak, &mut strong],
                    [&weak_limits, &strong_limits],
                )
            };
            let strong_color = if strong_is_black {
                Color::Black
            } else {
                Color::White
            };
            points += match outcome {
                Outcome::Win(c) if c == strong_color => 1.0,
                Outcome::Draw => 0.5,
                Outcome::Win(_) => 0.0,
            };
            games += 1;
            println!(
                "{:?} {}x{} strong as {strong_color:?}: {outcome:?}",
                position.rule, position.size, position.size
            );
        }
    }
    println!("full search scored {points}/{games}");
    assert!(
        points * 2.0 > games as f64,
        "the full search should score over half"
    );
}
