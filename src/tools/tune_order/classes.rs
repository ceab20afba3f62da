//! `tune-order fit --classes`: how well the ordering key would predict the
//! labelled moves as a table over each cell's line patterns in every
//! direction taken together (`cell_class`: the unordered set, 715 classes),
//! one table for the side to move's stone and one for the opponent's, plus
//! the combined threats as before. The linear key sums one weight per
//! pattern; a table can say that two open twos across each other are worth
//! more than twice one. Whether that predicts better is what this measures
//! (docs/evaluation.md: it does not, by about a point of top-1).
//!
//! The fit starts from the rule's linear key spread over the classes (each
//! class worth the sum of its patterns' weights), so before any step it
//! ranks every move as the shipped key does, and pulls each class weight
//! back toward that start (`--l2`), so a class seen in few positions stays
//! near what its patterns say.

use super::{
    fit_temperature, mean_cross_entropy, ordered_moves, params_of, rank_among, shares_within,
    softmax, Label, RANKS_REPORTED,
};
use super::{OWN_THREAT as LINEAR_OWN_THREAT, THEIR_PATTERN, THEIR_THREAT as LINEAR_THEIR_THREAT};
use crate::board::{Board, Color, Pattern, Pos, Rule, Threat};
use crate::eval::{cell_patterns, order_weights, EvalSet};
use crate::tools::cell_class::{cell_class, class_patterns, CELL_CLASSES, NOTHING};
use crate::tools::fitting::minimise;
use std::fmt::Write as _;

pub const CLASS_PARAMS: usize = 2 * CELL_CLASSES + 2 * Threat::COUNT;
const THEIR_CLASS: usize = CELL_CLASSES;
const OWN_THREAT: usize = 2 * CELL_CLASSES;
const THEIR_THREAT: usize = OWN_THREAT + Threat::COUNT;

/// A candidate's four terms: its own class, the opponent's class there,
/// and both combined threats, each an index into the parameters.
type Terms = [u16; 4];

/// A labelled position: each candidate's terms and which one was chosen.
pub struct ClassSample {
    candidates: Vec<Terms>,
    best: usize,
}

/// The class of `color`'s patterns on `pos` (none on a forbidden point).
fn class_of(board: &Board, pos: Pos, color: Color, threat: Threat) -> usize {
    let patterns: Vec<Pattern> = cell_patterns(board, pos, color, threat).collect();
    cell_class(&patterns)
}

/// The terms of a move on the empty cell `pos` for the side to move.
fn terms(board: &Board, pos: Pos) -> Terms {
    let me = board.side_to_move();
    let them = me.opponent();
    let (own, their) = (board.threat(pos, me), board.threat(pos, them));
    [
        class_of(board, pos, me, own) as u16,
        (THEIR_CLASS + class_of(board, pos, them, their)) as u16,
        (OWN_THREAT + own.index()) as u16,
        (THEIR_THREAT + their.index()) as u16,
    ]
}

impl Label {
    fn class_sample(&self) -> Option<(Board, ClassSample)> {
        let mut board = Board::new(self.width, self.height, self.rule).ok()?;
        for &m in &self.moves {
            board.play(m).ok()?;
        }
        let moves = ordered_moves(&board)?;
        let best = moves.iter().position(|&m| m == self.best)?;
        let candidates = moves.iter().map(|&m| terms(&board, m)).collect();
        Some((board, ClassSample { candidates, best }))
    }
}

/// The linear key of `rule` spread over the classes.
pub fn start_of(rule: Rule) -> Vec<f64> {
    let linear = params_of(order_weights(rule));
    let mut w = vec![0.0; CLASS_PARAMS];
    for (class, patterns) in class_patterns().iter().enumerate() {
        w[class] = patterns.iter().map(|&p| linear[p as usize]).sum();
        w[THEIR_CLASS + class] = patterns
            .iter()
            .map(|&p| linear[THEIR_PATTERN + p as usize])
            .sum();
    }
    let threats = |from: usize| &linear[from..from + Threat::COUNT];
    w[OWN_THREAT..THEIR_THREAT].copy_from_slice(threats(LINEAR_OWN_THREAT));
    w[THEIR_THREAT..].copy_from_slice(threats(LINEAR_THEIR_THREAT));
    w
}

fn key(terms: &Terms, w: &[f64]) -> f64 {
    terms.iter().map(|&t| w[t as usize]).sum()
}

fn probabilities(sample: &ClassSample, w: &[f64], t: f64, out: &mut Vec<f64>) {
    out.clear();
    out.extend(sample.candidates.iter().map(|c| key(c, w) / t));
    softmax(out);
}

fn cross_entropy(samples: &[ClassSample], w: &[f64], t: f64) -> f64 {
    mean_cross_entropy(samples, |s, p| {
        probabilities(s, w, t, p);
        s.best
    })
}

fn rank(sample: &ClassSample, w: &[f64]) -> usize {
    let keys: Vec<f64> = sample.candidates.iter().map(|c| key(c, w)).collect();
    rank_among(&keys, sample.best)
}

fn report(name: &str, samples: &[ClassSample], w: &[f64], t: f64) -> String {
    let ranks: Vec<usize> = samples.iter().map(|s| rank(s, w)).collect();
    let shares: Vec<String> = RANKS_REPORTED
        .iter()
        .zip(shares_within(&ranks))
        .map(|(n, share)| format!("top-{n} {:.1}%", 100.0 * share))
        .collect();
    format!(
        "// {name}: cross-entropy {:.4}, {}\n",
        cross_entropy(samples, w, t),
        shares.join(", ")
    )
}

/// Minimises the cross-entropy of `train` plus `l2` times the squared
/// distance from `start`, over the weights seen in at least `min_count`
/// samples (the empty classes and the `None` threats held as anchors), with
/// `T` held; the weights rounded to integers.
fn fit_samples(
    train: &[ClassSample],
    start: &[f64],
    t: f64,
    min_count: usize,
    l2: f64,
    iterations: usize,
) -> Vec<f64> {
    let anchors = [
        NOTHING,
        THEIR_CLASS + NOTHING,
        OWN_THREAT + Threat::None.index(),
        THEIR_THREAT + Threat::None.index(),
    ];
    let mut seen = vec![0usize; CLASS_PARAMS];
    for s in train {
        let mut here = vec![false; CLASS_PARAMS];
        for c in &s.candidates {
            for &term in c {
                here[term as usize] = true;
            }
        }
        for (count, present) in seen.iter_mut().zip(here) {
            *count += present as usize;
        }
    }
    let free: [bool; CLASS_PARAMS] =
        std::array::from_fn(|p| !anchors.contains(&p) && seen[p] >= min_count);
    let start: [f64; CLASS_PARAMS] = std::array::from_fn(|p| start[p]);
    let mut p = Vec::new();
    minimise(&start, &free, 4.0, iterations, |w| {
        let mut gradient = [0.0; CLASS_PARAMS];
        for s in train {
            probabilities(s, w, t, &mut p);
            for (i, c) in s.candidates.iter().enumerate() {
                let slope = p[i] - if i == s.best { 1.0 } else { 0.0 };
                for &term in c {
                    gradient[term as usize] += slope;
                }
            }
        }
        let n = t * train.len() as f64;
        std::array::from_fn(|k| gradient[k] / n + 2.0 * l2 * (w[k] - start[k]))
    })
    .map(f64::round)
    .to_vec()
}

/// Fits the class tables to `labels` and reports the labelled moves'
/// cross-entropy and ranks before and after, fitted and held out.
pub fn fit_classes(
    labels: &[Label],
    rule: crate::board::Rule,
    holdout: usize,
    iterations: usize,
    min_count: usize,
    l2: f64,
) -> Result<String, String> {
    let (mut train, mut held, mut held_by_set) = (Vec::new(), Vec::new(), Vec::new());
    held_by_set.resize_with(EvalSet::COUNT, Vec::new);
    let mut linear_train = Vec::new();
    for label in labels {
        let (Some((board, sample)), Some((_, linear))) = (label.class_sample(), label.sample())
        else {
            continue;
        };
        if holdout > 0 && label.game % holdout == 0 {
            let set = EvalSet::of(board.rule(), board.side_to_move());
            held_by_set[set.index()].push(ClassSample {
                candidates: sample.candidates.clone(),
                best: sample.best,
            });
            held.push(sample);
        } else {
            train.push(sample);
            linear_train.push(linear);
        }
    }
    if train.is_empty() {
        return Err("no usable labelled positions".into());
    }
    let start = start_of(rule);
    let t = fit_temperature(&linear_train, &params_of(order_weights(rule)));
    let fitted = fit_samples(&train, &start, t, min_count, l2, iterations);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// classes: {} positions (+{} held out), {} class weights moved; T = {t:.1}, l2 {l2}",
        train.len(),
        held.len(),
        (0..2 * CELL_CLASSES)
            .filter(|&p| fitted[p] != start[p])
            .count()
    );
    out += &report("fitted, before", &train, &start, t);
    out += &report("fitted, after", &train, &fitted, t);
    out += &report("held out, before", &held, &start, t);
    out += &report("held out, after", &held, &fitted, t);
    for set in EvalSet::ALL {
        let samples = &held_by_set[set.index()];
        if !samples.is_empty() {
            out += &report(&format!("held out {set:?}, before"), samples, &start, t);
            out += &report(&format!("held out {set:?}, after"), samples, &fitted, t);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::tune_order::tests::drawn_index;
    use crate::tools::tune_order::Candidate;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The linear key spread over the classes keys every cell of a real
    /// position exactly as the linear key does.
    #[test]
    fn the_start_table_equals_the_linear_key_on_every_cell() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let start = start_of(rule);
            let linear = params_of(order_weights(rule));
            let mut board = Board::new(15, 15, rule).unwrap();
            for (x, y) in [
                (7, 7),
                (8, 8),
                (7, 8),
                (6, 6),
                (9, 7),
                (8, 6),
                (5, 9),
                (9, 9),
            ] {
                board.play(Pos::new(x, y)).unwrap();
            }
            let moves = ordered_moves(&board).unwrap();
            let distinct: std::collections::HashSet<Terms> =
                moves.iter().map(|&m| terms(&board, m)).collect();
            assert!(distinct.len() > 10, "{} distinct cells", distinct.len());
            for m in moves {
                let linear_key = Candidate::of(&board, m).key(&linear);
                assert_eq!(key(&terms(&board, m), &start), linear_key, "{m:?}");
            }
        }
    }

    /// Labels drawn from a key that prices one class far above the sum of
    /// its patterns: the fit finds that class and lowers the held-out
    /// cross-entropy.
    #[test]
    fn the_fit_learns_a_class_the_linear_key_underprices() {
        let start = start_of(Rule::Freestyle);
        let special = cell_class(&[Pattern::OpenTwo, Pattern::OpenTwo]);
        let mut truth = start.clone();
        truth[special] += 120.0;
        let t = 25.0;
        // Classes of twos and threes only, whose linear keys are close.
        let common: Vec<usize> = class_patterns()
            .iter()
            .enumerate()
            .filter(|(c, ps)| *c != special && ps.iter().all(|&p| p <= Pattern::Three))
            .map(|(c, _)| c)
            .collect();
        let mut rng = SmallRng::seed_from_u64(7);
        let mut draw = |count: usize| -> Vec<ClassSample> {
            let mut p = Vec::new();
            (0..count)
                .map(|_| {
                    let candidates: Vec<Terms> = (0..30)
                        .map(|_| {
                            let own = match rng.gen_range(0..6) {
                                0 => special,
                                _ => common[rng.gen_range(0..common.len())],
                            };
                            let their = common[rng.gen_range(0..common.len())];
                            [
                                own as u16,
                                (THEIR_CLASS + their) as u16,
                                OWN_THREAT as u16 + 1,
                                THEIR_THREAT as u16 + 1,
                            ]
                        })
                        .collect();
                    let mut sample = ClassSample {
                        candidates,
                        best: 0,
                    };
                    probabilities(&sample, &truth, t, &mut p);
                    sample.best = drawn_index(&p, rng.gen());
                    sample
                })
                .collect()
        };
        let (train, held) = (draw(1500), draw(500));
        let fitted = fit_samples(&train, &start, t, 5, 1e-7, 800);
        assert!(
            (fitted[special] - truth[special]).abs() < 30.0,
            "{} → {}, truth {}",
            start[special],
            fitted[special],
            truth[special]
        );
        let (before, after) = (
            cross_entropy(&held, &start, t),
            cross_entropy(&held, &fitted, t),
        );
        assert!(after < before - 0.05, "held out {before} → {after}");
    }
}
