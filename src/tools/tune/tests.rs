use super::*;
use crate::board::Color;
use crate::tools::teacher::PROVEN;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Random feature vectors in the ranges real positions show, and
/// results that are exactly the model's probabilities under `truth`.
fn synthetic(truth: &[f64; PARAMS], k: f64, count: usize, seed: u64) -> Vec<Sample> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut x = Vec::new();
            for t in [2, 3, 4, 5, 7] {
                x.push((t, rng.gen_range(0..12) as f64));
                x.push((Threat::COUNT + t, -(rng.gen_range(0..12) as f64)));
            }
            for p in candidates_used() {
                x.push((p, rng.gen_range(0..8) as f64));
            }
            x.push((INITIATIVE, rng.gen_bool(0.1) as u8 as f64));
            x.push((TEMPO, 1.0));
            x.retain(|&(_, v)| v != 0.0);
            let mut sample = Sample {
                x,
                result: 0.0,
                searched: None,
            };
            sample.result = sigmoid(sample.score(truth), k);
            sample
        })
        .collect()
}

/// Features beyond the threats that the synthetic data uses: own
/// open-two lines, their closed-three lines, own (open two, open two)
/// cells, their (four, three) cells.
fn candidates_used() -> [usize; 4] {
    [
        LINES + Pattern::OpenTwo as usize,
        LINES + Pattern::COUNT + Pattern::Three as usize,
        OWN_PAIRS + PairClass::of_levels(2, 2).index(),
        OWN_PAIRS + PairClass::COUNT + PairClass::of_levels(5, 3).index(),
    ]
}

fn truth() -> [f64; PARAMS] {
    let mut w = [0.0; PARAMS];
    for (p, v) in candidates_used().into_iter().zip([3.0, -5.0, 12.0, 40.0]) {
        w[p] = v;
    }
    let own = [(2, 4.0), (3, 15.0), (4, 9.0), (5, 60.0), (7, 30.0)];
    let their = [(2, 6.0), (3, 11.0), (4, 14.0), (5, 80.0), (7, 25.0)];
    for (t, v) in own {
        w[t] = v;
    }
    for (t, v) in their {
        w[Threat::COUNT + t] = v;
    }
    w[INITIATIVE] = 700.0;
    w[TEMPO] = 35.0;
    w
}

#[test]
fn the_fit_recovers_known_weights_from_a_wrong_start() {
    let truth = truth();
    let samples = synthetic(&truth, 250.0, 4000, 7);
    let both = Candidates {
        pairs: true,
        lines: true,
        cells: false,
    };
    let free = tunable(&samples, 30, both);
    // Unused features stay fixed; every used one is free.
    assert!(!free[Threat::OpenFour.index()] && free[Threat::OpenThree.index()]);
    assert!(candidates_used().iter().all(|&p| free[p]));
    // Without the candidates, their weights stay where they are.
    let plain = tunable(&samples, 30, Candidates::parse("none").unwrap());
    assert!(candidates_used().iter().all(|&p| !plain[p]));
    let start = [10.0; PARAMS];
    let fitted = fit_weights(&samples, &start, 250.0, &free, 3000);
    for p in (0..PARAMS).filter(|&p| free[p]) {
        let error = (fitted[p] - truth[p]).abs();
        assert!(
            error <= 0.02 * truth[p].abs() + 1.0,
            "parameter {p}: fitted {:.2}, true {}",
            fitted[p],
            truth[p]
        );
    }
    assert!(mean_squared_error(&samples, &fitted, 250.0) < 1e-5);
    assert_eq!(fitted[Threat::OpenFour.index()], 10.0);
}

#[test]
fn a_blended_label_mixes_the_search_score_and_the_result() {
    let sample = |result: f64, searched: Option<f64>| Sample {
        x: Vec::new(),
        result,
        searched,
    };
    let mut samples = vec![
        sample(1.0, Some(0.0)),
        sample(0.0, Some(400.0)),
        sample(0.5, None),
    ];
    blend_labels(&mut samples, 400.0, 0.25);
    // An even search against a win; a search well ahead against a loss.
    assert!((samples[0].result - (0.25 * 0.5 + 0.75)).abs() < 1e-12);
    let ahead = 1.0 / (1.0 + (-1.0f64).exp());
    assert!((samples[1].result - 0.25 * ahead).abs() < 1e-12);
    // Unsearched: the result alone.
    assert_eq!(samples[2].result, 0.5);
}

#[test]
fn the_scale_is_recovered_with_the_true_weights() {
    let truth = truth();
    for k in [120.0, 400.0] {
        let samples = synthetic(&truth, k, 2000, 11);
        let fitted = fit_scale(&scored(&samples, &truth));
        assert!((fitted - k).abs() < 0.01 * k, "K {k}: fitted {fitted:.2}");
    }
}

#[test]
fn the_flattened_weights_round_trip_and_score_as_the_engines_table_does() {
    let hand = &WEIGHTS.eval[EvalSet::Gomoku.index()];
    assert_eq!(&weights_of(&params_of(hand)), hand);
    let board = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . X X . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . . . O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        Rule::Freestyle,
        crate::board::Geometry::Square,
    )
    .unwrap();
    // The engine adds its network to the table's score; the fit scores
    // the table alone.
    let features = Features::of(&board);
    let sample = Sample::new(&features, 0.5);
    assert_eq!(
        sample.score(&params_of(hand)) as i32 + crate::eval::network_score(&features),
        crate::eval::evaluate(&board)
    );
}

/// Black makes five on row 8 while White plays on row 1; the record's first
/// three stones are the opening.
const ROW8_FIVE: &str = "(;GM[4]SZ[15]RU[0];B[hh]C[opening move];W[aa]C[opening move];\
     B[ih]C[opening move];W[ba]C[5ms];B[jh]C[5ms];W[ca]C[5ms];B[kh]C[5ms];\
     W[da]C[5ms];B[lh]C[5ms])";

#[test]
fn a_game_gives_quiet_positions_with_the_result_for_the_side_to_move() {
    let record = parse_record(ROW8_FIVE).unwrap();
    // The teacher's score printed before moves 4 to 7 (move numbers
    // from 1, the opening counted).
    let teacher: HashMap<usize, f64> = [(4, 10.0), (5, -20.0), (6, 30.0), (7, 99.0)].into();
    let samples = game_samples(
        Rule::Freestyle,
        15,
        15,
        &record.moves,
        None,
        Some(&teacher),
        Candidates::default(),
    )
    .unwrap();
    // The positions before plies 4..9 (the engine moves). Kept: before
    // ply 4 (White to move), 5 (Black), 6 (White, facing the open three
    // h8 i8 j8). Dropped: before ply 7 Black can make an open four
    // (decided), before plies 8 and 9 a four stands on the board.
    let results: Vec<f64> = samples.set_samples.iter().map(|(_, s)| s.result).collect();
    assert_eq!(results, vec![0.0, 1.0, 0.0]);
    let taught: Vec<Option<f64>> = samples
        .set_samples
        .iter()
        .map(|(_, s)| s.searched)
        .collect();
    assert_eq!(taught, vec![Some(10.0), Some(-20.0), Some(30.0)]);
    assert!(samples
        .set_samples
        .iter()
        .all(|(set, _)| *set == EvalSet::Gomoku));
}

#[test]
fn the_teachers_scores_become_training_labels_on_wuzis_scale() {
    // The teacher's scores predict the results exactly at its scale 300
    // (but for one game that White won from a good position); wuzi's
    // scale is 600, so a teacher's 300 is wuzi's 600.
    let sample = |teacher: f64, result: f64| Sample {
        x: vec![(TEMPO, 1.0)],
        result,
        searched: Some(teacher),
    };
    let truth = |score: f64| sigmoid(score, 300.0);
    let mut train: Vec<Sample> = [-900.0, -300.0, 0.0, 300.0, 900.0]
        .iter()
        .map(|&t| sample(t, truth(t)))
        .collect();
    train.push(sample(PROVEN, 1.0));
    let mut data = vec![SetData {
        train,
        holdout: vec![sample(300.0, 1.0)],
    }];
    let results: Vec<f64> = data[0].train.iter().map(|s| s.result).collect();
    let report = teach(&mut data, 600.0, 0.25).unwrap();
    assert!(report.contains("its K 300.0"), "{report}");
    let d = &data[0];
    assert!((d.train[3].searched.unwrap() - 600.0).abs() < 1.0);
    for (s, old) in d.train.iter().zip(results) {
        let expected = 0.25 * sigmoid(s.searched.unwrap(), 600.0) + 0.75 * old;
        assert!((s.result - expected).abs() < 1e-12);
    }
    assert_eq!(d.train[5].result, 1.0);
    // Held out: the result stands.
    assert_eq!(d.holdout[0].result, 1.0);
    let mut untaught = vec![SetData::default()];
    assert!(teach(&mut untaught, 600.0, 0.5).is_err());
}

#[test]
fn candidate_features_count_lines_and_pairs_from_the_board() {
    // Black (to move) has one horizontal two; White has one diagonal
    // two far away. No cell sees both colours' stones.
    let board = Board::from_diagram(
        "
        . . . . . . . . . . . . . .
        . . . . . . . . . . . . . .
        . . X X . . . . . . . . . .
        . . . . . . . . . . . . . .
        . . . . . . . . . . . . . .
        . . . . . . . . . . . . . .
        . . . . . . . . . . . . . .
        . . . . . . . . . . . . . .
        . . . . . . . . . . . O . .
        . . . . . . . . . . . . O .
        . . . . . . . . . . . . . .
        . . . . . . . . . . . . . .
        ",
        Rule::Freestyle,
        crate::board::Geometry::Square,
    )
    .unwrap();
    let mut sample = Sample::new(&Features::of(&board), 0.5);
    sample.add_lines(&board);
    let value = |p: usize| {
        sample
            .x
            .iter()
            .find(|&&(q, _)| q == p)
            .map_or(0.0, |&(_, v)| v)
    };
    let their = Pattern::COUNT;
    // Black's open threes: b3, e3, f3 (a3 only makes a closed three at
    // the edge). White's: the cells before its two diagonally up-left,
    // j8 and k9; beyond it n11's four would end at the edge.
    assert_eq!(value(LINES + Pattern::OpenThree as usize), 3.0);
    assert_eq!(value(LINES + their + Pattern::OpenThree as usize), -2.0);
    // Lines and pairs count the same cells: a cell with any line has
    // one pair class above nothing, and at least one line.
    let lines: f64 = (LINES..CELLS)
        .filter(|p| (p - LINES) % Pattern::COUNT != Pattern::None as usize)
        .map(|p| value(p).abs())
        .sum();
    let pairs: f64 = (OWN_PAIRS..INITIATIVE)
        .filter(|p| (p - OWN_PAIRS) % PairClass::COUNT != PairClass::NOTHING.index())
        .map(|p| value(p).abs())
        .sum();
    assert!(
        lines >= pairs && pairs > 0.0,
        "lines {lines}, pairs {pairs}"
    );
    // Each open-three cell of Black's row is (open three, nothing) or
    // (open three, two) with the other stone across; none makes two
    // threes, and the opponent's count is negative.
    let own = |a, b| value(OWN_PAIRS + PairClass::of_levels(a, b).index());
    assert_eq!(own(4, 0) + own(4, 1) + own(4, 2), 3.0);
    assert_eq!(own(4, 4) + own(4, 3), 0.0);
    let white = board.pair_count(Color::White, PairClass::of_levels(4, 0)) as f64;
    assert_eq!(
        value(OWN_PAIRS + PairClass::COUNT + PairClass::of_levels(4, 0).index()),
        -white
    );
}

#[test]
fn a_given_scale_is_used_and_a_bad_one_refused() {
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: TuneArgs,
    }
    let dir = std::env::temp_dir().join(format!("wuzi-tune-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game-0001.sgf"), ROW8_FIVE).unwrap();
    let tune = |extra: &[&str]| {
        let fixed = [
            "tune",
            "--holdout",
            "0",
            "--features",
            "none",
            "--iterations",
            "5",
        ];
        let path = dir.to_string_lossy().into_owned();
        let argv = fixed
            .iter()
            .chain(extra)
            .map(|a| a.to_string())
            .chain([path]);
        run(<Cli as clap::Parser>::try_parse_from(argv).unwrap().args)
    };
    let given = tune(&["--scale", "555"]).unwrap();
    assert!(given.contains("// K = 555.0 (given;"), "{given}");
    let fitted = tune(&[]).unwrap();
    assert!(
        fitted.contains("(fitted with the current weights)"),
        "{fitted}"
    );
    for bad in ["0", "-400", "NaN"] {
        let refused = tune(&[&format!("--scale={bad}")]).unwrap_err();
        assert!(refused.contains("--scale"), "{bad}: {refused}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
