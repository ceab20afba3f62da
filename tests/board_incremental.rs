//! Property tests: after random sequences of moves and take-backs, every piece
//! of the board's incremental state (line keys, patterns, threats, threat
//! and pair-class counts, candidate area, hash) equals a recount from the stones alone, for
//! every rule and both geometries.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use wuzi::board::{Board, Color, Geometry, PairClass, Pattern, Pos, Rule, Threat};

fn random_empty(board: &Board, rng: &mut SmallRng) -> Option<Pos> {
    let empty: Vec<Pos> = board.empty_cells().collect();
    // Mostly near the stones, where the patterns are interesting.
    let near: Vec<Pos> = board.candidates().collect();
    let pool = if !near.is_empty() && rng.gen_bool(0.8) {
        near
    } else {
        empty
    };
    (!pool.is_empty()).then(|| pool[rng.gen_range(0..pool.len())])
}

/// Checks what a recount cannot: the stored threats agree with the scanning
/// win test, and occupied cells carry nothing.
fn check_threats_against_scans(board: &Board) {
    for pos in board.cells() {
        for color in [Color::Black, Color::White] {
            let threat = board.threat(pos, color);
            if board.is_empty(pos) {
                assert_eq!(
                    threat == Threat::Five,
                    board.is_win(pos, color),
                    "{pos:?} {color:?} {threat:?}\n{board:?}"
                );
            } else {
                assert_eq!(threat, Threat::None, "occupied {pos:?}");
            }
        }
    }
    // The lists of threatened cells agree with the threats (Black's renju
    // list holds unconfirmed double-threes, which `threat` settles).
    for color in [Color::Black, Color::White] {
        if board.rule() == Rule::Renju && color == Color::Black {
            continue;
        }
        for at_least in [
            Threat::Three,
            Threat::Four,
            Threat::DoubleFour,
            Threat::Five,
        ] {
            let listed: Vec<Pos> = board.cells_with_threat(color, at_least).collect();
            let scanned: Vec<Pos> = board
                .empty_cells()
                .filter(|&p| board.threat(p, color) >= at_least)
                .collect();
            assert_eq!(listed, scanned, "{color:?} {at_least:?}\n{board:?}");
        }
    }
}

/// Checks the cells the search answers an open-four threat from: every
/// candidate where either colour makes a four is listed, in the
/// candidates' order, and nothing else but Black's forbidden fours.
fn check_four_points_against_a_scan(board: &Board) {
    let mut listed = Vec::new();
    board.collect_four_points(&mut listed);
    let candidates: Vec<Pos> = board.candidates().collect();
    let four = |p: Pos, color: Color| board.threat(p, color) >= Threat::Four;
    let scanned: Vec<Pos> = candidates
        .iter()
        .copied()
        .filter(|&p| four(p, Color::Black) || four(p, Color::White))
        .collect();
    let kept: Vec<Pos> = listed
        .iter()
        .copied()
        .filter(|&p| four(p, Color::Black) || four(p, Color::White))
        .collect();
    assert_eq!(kept, scanned, "{board:?}");
    for &p in &listed {
        assert!(candidates.contains(&p), "{p:?} is no candidate\n{board:?}");
        let forbidden = board.threat(p, Color::Black) == Threat::Forbidden;
        assert!(
            four(p, Color::Black) || four(p, Color::White) || forbidden,
            "{p:?}\n{board:?}"
        );
    }
}

/// Checks the pair-class counts against a scan of the cells' patterns
/// through the public API (the recount shares the board's update code; this
/// does not): forbidden points (overline, double four) have no class.
fn check_pair_counts_against_a_scan(board: &Board) {
    for color in [Color::Black, Color::White] {
        let mut scanned = [0usize; PairClass::COUNT];
        for pos in board.empty_cells() {
            let patterns: Vec<Pattern> = (0..board.geometry().deltas().len())
                .map(|dir| board.pattern(pos, color, dir))
                .collect();
            let renju_black = board.rule() == Rule::Renju && color == Color::Black;
            scanned[PairClass::of_cell(&patterns, renju_black).index()] += 1;
        }
        let kept: Vec<usize> = PairClass::all()
            .map(|class| board.pair_count(color, class))
            .collect();
        assert_eq!(kept, scanned, "{color:?}\n{board:?}");
    }
}

fn exercise(rule: Rule, geometry: Geometry, width: usize, height: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut board = Board::with_geometry(width, height, rule, geometry).unwrap();
    for _ in 0..rng.gen_range(0..3) {
        let wall = Pos::new(rng.gen_range(0..width), rng.gen_range(0..height));
        let _ = board.place_wall(wall);
    }
    for step in 0..160 {
        let roll = rng.gen_range(0..100);
        if roll < 2 {
            // A wall mid-game: the stones under it come off by recomputation.
            if let Some(pos) = random_empty(&board, &mut rng) {
                board.place_wall(pos).unwrap();
            }
        } else if roll < 60 {
            if let Some(pos) = random_empty(&board, &mut rng) {
                board.make(pos);
            }
        } else if roll < 70 {
            if let Some(pos) = random_empty(&board, &mut rng) {
                let color = if rng.gen_bool(0.5) {
                    Color::Black
                } else {
                    Color::White
                };
                board.place(pos, color).unwrap();
            }
        } else if roll < 82 {
            board.unmake();
        } else if roll < 90 {
            board.undo();
        } else if !board.history().is_empty() {
            let stone = board.history()[rng.gen_range(0..board.history().len())];
            board.remove(stone).unwrap();
        }
        if let Err(differences) = board.verify_incremental_state() {
            panic!("{rule:?} {geometry:?} seed {seed} step {step}:\n{differences}\n{board:?}");
        }
        if step % 16 == 0 {
            check_threats_against_scans(&board);
            check_pair_counts_against_a_scan(&board);
            check_four_points_against_a_scan(&board);
        }
    }
}

#[test]
fn incremental_state_equals_a_recount_for_every_rule_and_geometry() {
    for rule in Rule::ALL {
        for geometry in Geometry::ALL {
            for (seed, (width, height)) in [(15, 15), (7, 5), (9, 13), (20, 20)]
                .into_iter()
                .enumerate()
            {
                exercise(rule, geometry, width, height, seed as u64 * 31 + 7);
            }
        }
    }
}
