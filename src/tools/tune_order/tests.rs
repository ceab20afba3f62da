use super::label::{played_labels, wander, WANDER_WIDTH};
use super::*;
use crate::board::Geometry;
use crate::eval::{block_value, cell_value};
use crate::tools::records::parse_record;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Random candidates in the ranges real positions show (four
/// directions, patterns up to an open three, threats up to a double
/// three), each labelled by a draw from `softmax(key / t)` under `truth`.
fn synthetic(truth: &[f64; PARAMS], t: f64, count: usize, seed: u64) -> Vec<Sample> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let patterns = [0usize, 2, 3, 4, 5];
    let threats = [1usize, 2, 3, 4, 5, 6];
    let mut p = Vec::new();
    (0..count)
        .map(|_| {
            let candidates = (0..rng.gen_range(10..40))
                .map(|_| {
                    let mut terms = Vec::new();
                    for _ in 0..4 {
                        terms.push(patterns[rng.gen_range(0..patterns.len())] as u8);
                        let their = patterns[rng.gen_range(0..patterns.len())];
                        terms.push((THEIR_PATTERN + their) as u8);
                    }
                    terms.push((OWN_THREAT + threats[rng.gen_range(0..threats.len())]) as u8);
                    terms.push((THEIR_THREAT + threats[rng.gen_range(0..threats.len())]) as u8);
                    Candidate { terms }
                })
                .collect();
            let mut sample = Sample {
                candidates,
                best: 0,
            };
            probabilities(&sample, truth, t, &mut p);
            sample.best = drawn_index(&p, rng.gen());
            sample
        })
        .collect()
}

/// The index that `u`, uniform in [0, 1), draws from the probabilities `p`.
pub(super) fn drawn_index(p: &[f64], mut u: f64) -> usize {
    p.iter()
        .position(|&q| {
            u -= q;
            u < 0.0
        })
        .unwrap_or(p.len() - 1)
}

fn truth() -> [f64; PARAMS] {
    let mut w = [0.0; PARAMS];
    for (p, v) in [(2, 10.0), (3, 30.0), (4, 25.0), (5, 90.0)] {
        w[p] = v;
    }
    for (p, v) in [(2, 5.0), (3, 20.0), (4, 12.0), (5, 60.0)] {
        w[THEIR_PATTERN + p] = v;
    }
    for (t, v) in [(2, 0.0), (3, 10.0), (4, 15.0), (5, 40.0), (6, 150.0)] {
        w[OWN_THREAT + t] = v;
    }
    for (t, v) in [(2, 5.0), (3, -10.0), (4, 20.0), (5, 30.0), (6, 80.0)] {
        w[THEIR_THREAT + t] = v;
    }
    w
}

#[test]
fn the_fit_recovers_the_weights_that_drew_the_labels() {
    let truth = truth();
    let t = 20.0;
    let samples = synthetic(&truth, t, 4000, 3);
    let free = tunable(&samples, 30);
    // Anchors and unused terms stay fixed; every other used term is free.
    assert!(!free[Pattern::None as usize] && !free[OWN_THREAT + Threat::None.index()]);
    assert!(!free[Pattern::Four as usize] && free[Pattern::OpenThree as usize]);
    let start = [0.0; PARAMS];
    let fitted = fit_weights(&samples, &start, t, &free, 1000);
    for k in (0..PARAMS).filter(|&k| free[k]) {
        let error = (fitted[k] - truth[k]).abs();
        assert!(
            error <= 0.1 * truth[k].abs() + 4.0,
            "parameter {k}: fitted {:.1}, true {}",
            fitted[k],
            truth[k]
        );
    }
    assert!(cross_entropy(&samples, &fitted, t) < cross_entropy(&samples, &start, t));
    // The temperature of the true weights is found again too.
    let found = fit_temperature(&samples, &truth);
    assert!((found - t).abs() < 0.1 * t, "T {found:.2}");
}

#[test]
fn the_rank_counts_better_keys_and_earlier_ties() {
    let mut w = [0.0; PARAMS];
    w[3] = 10.0;
    let cell = |terms: Vec<u8>| Candidate { terms };
    let sample = Sample {
        candidates: vec![
            cell(vec![3]),
            cell(vec![2]),
            cell(vec![3, 3]),
            cell(vec![3]),
        ],
        best: 3,
    };
    // Keys 10, 0, 20, 10: one better, one tie before it.
    assert_eq!(rank(&sample, &w), 2);
    assert_eq!(rank(&Sample { best: 2, ..sample }, &w), 0);
}

const POSITION: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . X X . . . . .
    . . . O . O . . .
    . . . . X . . . .
    . . . . . . O . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    ";

#[test]
fn the_key_from_the_terms_is_the_engines_key() {
    let board = Board::from_diagram(POSITION, Rule::Freestyle, Geometry::Square).unwrap();
    let me = board.side_to_move();
    let them = me.opponent();
    let moves = ordered_moves(&board).unwrap();
    assert!(moves.len() > 10);
    let w = params_of(order_weights(Rule::Freestyle));
    for pos in moves {
        let engine = cell_value(&board, pos, me, board.threat(pos, me))
            + block_value(&board, pos, them, board.threat(pos, them));
        assert_eq!(
            Candidate::of(&board, pos).key(&w),
            engine as f64,
            "at {pos}"
        );
    }
}

#[test]
fn a_wander_plays_well_ordered_moves_and_leaves_an_open_position() {
    let start = Board::from_diagram(POSITION, Rule::Freestyle, Geometry::Square).unwrap();
    let w = params_of(order_weights(Rule::Freestyle));
    let mut rng = SmallRng::seed_from_u64(5);
    let mut wandered = 0;
    for _ in 0..20 {
        let mut board = start.clone();
        let Some(played) = wander(&mut board, 3, &mut rng) else {
            // Ended where the ordering does not decide: taken back.
            assert_eq!(board.history(), start.history());
            continue;
        };
        wandered += 1;
        assert!((1..=3).contains(&played.len()));
        assert_eq!(board.stone_count(), start.stone_count() + played.len());
        assert!(ordered_moves(&board).is_some());
        // The first move is among the best-ordered of the start.
        let mut keys: Vec<f64> = ordered_moves(&start)
            .unwrap()
            .iter()
            .map(|&m| Candidate::of(&start, m).key(&w))
            .collect();
        keys.sort_by(|a, b| b.total_cmp(a));
        let first = Candidate::of(&start, played[0]).key(&w);
        assert!(first >= keys[WANDER_WIDTH - 1]);
    }
    assert!(wandered >= 10, "{wandered} of 20");
}

#[test]
fn played_labels_are_the_engine_moves_where_the_ordering_decides() {
    // Three opening stones, then engine moves on the row of f7, g7, h7:
    // White's i8 answers an open three and White's d8 a four, so
    // neither is labelled; the other engine moves are.
    let sgf = "(;FF[4]GM[4]SZ[15]RU[0];B[gg]C[opening move];W[hh]C[opening move];\
               B[fg]C[opening move];W[ai]C[12ms];B[hg]C[9ms];W[ig]C[10ms];\
               B[eg]C[8ms];W[dg]C[7ms];B[gh]C[11ms])";
    let record = parse_record(sgf).unwrap();
    let mut seen = 0;
    let labels = played_labels(7, &record, Rule::Freestyle, 1, &mut seen);
    let indices: Vec<usize> = labels.iter().map(|l| l.moves.len()).collect();
    assert_eq!(indices, [3, 4, 6, 8]);
    for label in &labels {
        assert_eq!((label.game, label.width, label.height), (7, 15, 15));
        let index = label.moves.len();
        assert_eq!(record.moves[index].pos, label.best);
        let before: Vec<Pos> = record.moves[..index].iter().map(|m| m.pos).collect();
        assert_eq!(label.moves, before);
    }
    assert_eq!(seen, 4);
    // Every second one, counting on from where `seen` stands.
    let mut seen_every = 1;
    let halves = played_labels(7, &record, Rule::Freestyle, 2, &mut seen_every);
    let indices: Vec<usize> = halves.iter().map(|l| l.moves.len()).collect();
    assert_eq!(indices, [3, 6]);
}

#[test]
fn a_label_line_round_trips_and_rebuilds_its_position() {
    let label = Label {
        game: 4,
        rule: Rule::Renju,
        width: 15,
        height: 15,
        best: Pos::new(8, 6),
        moves: vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 6)],
    };
    let line = label.to_line();
    assert_eq!(line, "4 4 15 15 8,6 7,7 8,8 6,6");
    assert_eq!(Label::parse(&line).unwrap(), label);
    let (board, sample) = label.sample().unwrap();
    assert_eq!(board.stone_count(), 3);
    assert_eq!(
        sample.candidates[sample.best],
        Candidate::of(&board, label.best)
    );
    assert!(Label::parse("4 4 15 15 8,6 7,7 15,3").is_err());
    assert!(Label::parse("4 4 15").is_err());
}
