//! The search finds five points by lookup (`board.threat(p, c) == Five`)
//! instead of the scanning win test (`board.is_win`). This checks the two
//! agree on every empty cell, for both colours, on crowded random positions
//! of every rule and both geometries: stones are dropped in short runs along
//! the lines so that fours, fives, overlines and fives blocked at both ends
//! (caro) are common, which sparse random play rarely makes.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use wuzi::board::{Board, Color, Geometry, Pos, Rule, Threat};

/// How often each answer came up, so the test can tell it saw both.
#[derive(Default)]
struct Tally {
    fives: usize,
    not_fives: usize,
}

fn check_every_empty_cell(board: &Board, tally: &mut Tally) {
    for pos in board.empty_cells() {
        for color in [Color::Black, Color::White] {
            let by_lookup = board.threat(pos, color) == Threat::Five;
            assert_eq!(
                by_lookup,
                board.is_win(pos, color),
                "{:?} {pos:?} {color:?}\n{board:?}",
                board.rule()
            );
            match by_lookup {
                true => tally.fives += 1,
                false => tally.not_fives += 1,
            }
        }
    }
}

/// Drops a run of up to five stones of one colour from a random empty cell
/// along a random direction, stopping at the first occupied or off-board
/// point.
fn drop_run(board: &mut Board, rng: &mut SmallRng) {
    let (width, height) = (board.width(), board.height());
    let (x, y) = (rng.gen_range(0..width), rng.gen_range(0..height));
    let directions = board.geometry().directions();
    let (dx, dy) = directions[rng.gen_range(0..directions.len())];
    let color = if rng.gen_bool(0.5) {
        Color::Black
    } else {
        Color::White
    };
    for step in 0..rng.gen_range(1..=5) {
        let cell = board.pos(x as i64 + dx as i64 * step, y as i64 + dy as i64 * step);
        match cell {
            Some(pos) if board.is_empty(pos) => board.place(pos, color).unwrap(),
            _ => break,
        }
    }
}

fn exercise(rule: Rule, geometry: Geometry, size: usize, seed: u64, tally: &mut Tally) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut board = Board::with_geometry(size, size, rule, geometry).unwrap();
    if rng.gen_bool(0.5) {
        let wall = Pos::new(rng.gen_range(0..size), rng.gen_range(0..size));
        board.place_wall(wall).unwrap();
    }
    // Up to about half the board: crowded, yet with empty cells left.
    while board.stone_count() < size * size / 2 {
        drop_run(&mut board, &mut rng);
        check_every_empty_cell(&board, tally);
    }
}

#[test]
fn a_five_by_lookup_is_a_five_by_scan_for_every_rule_and_geometry() {
    for rule in Rule::ALL {
        for geometry in Geometry::ALL {
            let mut tally = Tally::default();
            for (seed, size) in [9, 11, 15].into_iter().enumerate() {
                exercise(rule, geometry, size, seed as u64 * 97 + 3, &mut tally);
            }
            assert!(
                tally.fives > 100 && tally.not_fives > 100,
                "{rule:?} {geometry:?}: too few cases of one kind ({} fives, {} not)",
                tally.fives,
                tally.not_fives
            );
        }
    }
}
