//! `pbrain-wuzi tune --net DIR`: fits the evaluation's network
//! (`eval::net`) to the game results, on top of the linear tables, which
//! stay as they are: the network learns what the tables leave over.
//!
//! Same data and loss as the linear fit (the squared error of
//! `sigmoid(score / K)` against the result), by mini-batch Adam over shuffled
//! samples; the epoch with the lowest held-out error is kept, so that the
//! network stops before it learns the training games by heart.

use crate::eval::net::{file_stem, squash, Net, HIDDEN, INPUTS};
use crate::eval::{EvalSet, EVAL_LIMIT};
use crate::tools::tune::{sigmoid, Sample, SetData, PARAMS, TEMPO};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::fmt::Write as _;
use std::path::Path;

/// How a network is fitted.
#[derive(Clone, Debug)]
pub struct NetFit {
    /// The sigmoid's scale, as fitted for the linear tables.
    pub k: f64,
    pub epochs: usize,
    pub seed: u64,
    /// Start from these weights (a network already fitted, to be refined
    /// on other games) instead of small random ones.
    pub start: Option<Net>,
}

/// One position as the fit reads it: the linear score, the network's
/// non-zero inputs (already squashed) and the result.
struct NetSample {
    linear: f64,
    inputs: Vec<(usize, f64)>,
    result: f64,
}

impl NetSample {
    fn of(sample: &Sample, linear: &[f64; PARAMS]) -> NetSample {
        let inputs = sample
            .x
            .iter()
            .filter(|&&(p, _)| p < TEMPO)
            .map(|&(p, x)| (p, f64::from(squash(x.abs() as u16))))
            .collect();
        NetSample {
            linear: sample.raw(linear),
            inputs,
            result: sample.result,
        }
    }
}

/// The network's weights while fitting, in f64.
#[derive(Clone)]
struct Weights {
    input: Vec<[f64; HIDDEN]>,
    bias: [f64; HIDDEN],
    output: [f64; HIDDEN],
}

impl Weights {
    fn random(rng: &mut SmallRng) -> Weights {
        Weights {
            input: (0..INPUTS)
                .map(|_| std::array::from_fn(|_| rng.gen_range(-0.3..0.3)))
                .collect(),
            bias: [0.0; HIDDEN],
            output: [0.0; HIDDEN],
        }
    }

    fn of(net: &Net) -> Weights {
        Weights {
            input: net.input.iter().map(|r| r.map(f64::from)).collect(),
            bias: net.bias.map(f64::from),
            output: net.output.map(f64::from),
        }
    }

    fn zero() -> Weights {
        Weights {
            input: vec![[0.0; HIDDEN]; INPUTS],
            bias: [0.0; HIDDEN],
            output: [0.0; HIDDEN],
        }
    }

    fn hidden(&self, s: &NetSample) -> [f64; HIDDEN] {
        let mut hidden = self.bias;
        for &(i, x) in &s.inputs {
            for (h, w) in hidden.iter_mut().zip(&self.input[i]) {
                *h += x * w;
            }
        }
        hidden
    }

    fn raw(&self, s: &NetSample, hidden: &[f64; HIDDEN]) -> f64 {
        let net: f64 = hidden
            .iter()
            .zip(&self.output)
            .map(|(h, v)| h.max(0.0) * v)
            .sum();
        s.linear + net
    }

    /// Every weight, as one list (for Adam).
    fn flat_mut(&mut self) -> impl Iterator<Item = &mut f64> {
        self.input
            .iter_mut()
            .flatten()
            .chain(&mut self.bias)
            .chain(&mut self.output)
    }

    fn net(&self) -> Net {
        let f32s = |row: &[f64; HIDDEN]| row.map(|w| w as f32);
        Net {
            input: self.input.iter().map(f32s).collect(),
            bias: f32s(&self.bias),
            output: f32s(&self.output),
        }
    }
}

fn error(samples: &[NetSample], w: &Weights, k: f64) -> f64 {
    let limit = EVAL_LIMIT as f64;
    let total: f64 = samples
        .iter()
        .map(|s| {
            let raw = w.raw(s, &w.hidden(s)).clamp(-limit, limit);
            (sigmoid(raw, k) - s.result).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Adds one sample's gradient to `g`.
fn accumulate(s: &NetSample, w: &Weights, k: f64, g: &mut Weights) {
    let hidden = w.hidden(s);
    let raw = w.raw(s, &hidden);
    if raw.abs() >= EVAL_LIMIT as f64 {
        return; // clamped: the weights do not move the score
    }
    let p = sigmoid(raw, k);
    let slope = 2.0 * (p - s.result) * p * (1.0 - p) / k;
    for (unit, &h) in hidden.iter().enumerate() {
        if h <= 0.0 {
            continue;
        }
        g.output[unit] += slope * h;
        let back = slope * w.output[unit];
        g.bias[unit] += back;
        for &(i, x) in &s.inputs {
            g.input[i][unit] += back * x;
        }
    }
}

/// Adam over the flattened weights, with a step per weight's layer: the
/// output weights are centi-stones, the others act on squashed counts.
struct Adam {
    first: Vec<f64>,
    second: Vec<f64>,
    steps: i32,
}

impl Adam {
    fn update(&mut self, w: &mut Weights, g: &mut Weights, scale: f64, rate: f64) {
        const BETA1: f64 = 0.9;
        const BETA2: f64 = 0.999;
        self.steps += 1;
        let outputs_from = INPUTS * HIDDEN + HIDDEN;
        let (c1, c2) = (1.0 - BETA1.powi(self.steps), 1.0 - BETA2.powi(self.steps));
        for (n, (w, g)) in w.flat_mut().zip(g.flat_mut()).enumerate() {
            let gradient = *g * scale;
            *g = 0.0;
            self.first[n] = BETA1 * self.first[n] + (1.0 - BETA1) * gradient;
            self.second[n] = BETA2 * self.second[n] + (1.0 - BETA2) * gradient * gradient;
            let step = if n >= outputs_from {
                rate
            } else {
                rate / 100.0
            };
            *w -= step * (self.first[n] / c1) / ((self.second[n] / c2).sqrt() + 1e-12);
        }
    }
}

impl NetFit {
    /// Fits a network to `train` on top of the linear weights `linear`,
    /// keeping the epoch best on `holdout`; returns it with a report line.
    pub fn run(
        &self,
        train: &[Sample],
        holdout: &[Sample],
        linear: &[f64; PARAMS],
    ) -> (Net, String) {
        const BATCH: usize = 256;
        const FIRST_RATE: f64 = 1.0;
        let train: Vec<NetSample> = train.iter().map(|s| NetSample::of(s, linear)).collect();
        let holdout: Vec<NetSample> = holdout.iter().map(|s| NetSample::of(s, linear)).collect();
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut w = match &self.start {
            Some(net) => Weights::of(net),
            None => Weights::random(&mut rng),
        };
        let mut g = Weights::zero();
        let size = INPUTS * HIDDEN + 2 * HIDDEN;
        let mut adam = Adam {
            first: vec![0.0; size],
            second: vec![0.0; size],
            steps: 0,
        };
        let before = error(&holdout, &Weights::zero(), self.k);
        // A start that no epoch improves on is kept as it is (epoch 0).
        let start_error = match self.start {
            Some(_) => error(&holdout, &w, self.k),
            None => f64::INFINITY,
        };
        let (mut best, mut best_error, mut best_epoch) = (w.clone(), start_error, 0);
        let mut order: Vec<usize> = (0..train.len()).collect();
        for epoch in 0..self.epochs {
            order.shuffle(&mut rng);
            let rate = FIRST_RATE * (1.0 - 0.95 * epoch as f64 / self.epochs.max(1) as f64);
            for batch in order.chunks(BATCH) {
                for &i in batch {
                    accumulate(&train[i], &w, self.k, &mut g);
                }
                adam.update(&mut w, &mut g, 1.0 / batch.len() as f64, rate);
            }
            let held = error(&holdout, &w, self.k);
            if held < best_error {
                (best, best_error, best_epoch) = (w.clone(), held, epoch + 1);
            }
        }
        let from = match self.start {
            Some(_) => format!(", the start {start_error:.5}"),
            None => String::new(),
        };
        let report = format!(
            "network: held out {before:.5}{from} -> {best_error:.5} (epoch {best_epoch} of {}), train {:.5} -> {:.5}",
            self.epochs,
            error(&train, &Weights::zero(), self.k),
            error(&train, &best, self.k),
        );
        (best.net(), report)
    }
}

/// `--net DIR`: fits each table set's network and writes it to
/// `DIR/<set>.txt`, with the command line that made it.
pub(crate) fn fit_networks(
    data: &[SetData],
    starts: &[[f64; PARAMS]],
    k: f64,
    epochs: usize,
    start: Option<Net>,
    dir: &Path,
) -> Result<String, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let command: Vec<String> = std::iter::once("pbrain-wuzi".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let mut out = String::new();
    for set in EvalSet::ALL {
        let d = &data[set.index()];
        if d.train.len() < 200 {
            continue;
        }
        let fit = NetFit {
            k,
            epochs,
            seed: 1,
            start: start.clone(),
        };
        let (net, report) = fit.run(&d.train, &d.holdout, &starts[set.index()]);
        let line = format!(
            "{set:?}: {} positions (+{} held out), K {k:.1}; {report}",
            d.train.len(),
            d.holdout.len()
        );
        let header = format!("{}\n{line}", command.join(" "));
        let file = dir.join(format!("{}.txt", file_stem(set)));
        std::fs::write(&file, net.to_text(&header))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        let _ = writeln!(out, "// {line}; written to {}", file.display());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions whose result depends on two inputs together (an "and" no
    /// sum of the inputs alone can say), with a linear part that knows
    /// nothing.
    fn interacting(count: usize, seed: u64) -> Vec<Sample> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let a: u16 = rng.gen_range(0..2);
                let b: u16 = rng.gen_range(0..2);
                let result = if a == 1 && b == 1 { 0.9 } else { 0.3 };
                let mut x = vec![(TEMPO, 1.0)];
                x.extend(
                    [(4, f64::from(a)), (30, f64::from(b))]
                        .into_iter()
                        .filter(|p| p.1 != 0.0),
                );
                Sample {
                    x,
                    result,
                    searched: None,
                }
            })
            .collect()
    }

    /// The held-out error of `net` on `samples`, with no linear part and K 400.
    fn error_of(net: &Net, samples: &[Sample]) -> f64 {
        let linear = [0.0; PARAMS];
        let samples: Vec<NetSample> = samples.iter().map(|s| NetSample::of(s, &linear)).collect();
        error(&samples, &Weights::of(net), 400.0)
    }

    #[test]
    fn the_network_learns_what_a_sum_of_counts_cannot() {
        let train = interacting(4000, 1);
        let holdout = interacting(1000, 2);
        let linear = [0.0; PARAMS];
        let fit = NetFit {
            k: 400.0,
            epochs: 40,
            seed: 3,
            start: None,
        };
        let (net, report) = fit.run(&train, &holdout, &linear);
        // The best a constant can do: results 0.9 a quarter of the time and
        // 0.3 otherwise, predicted 0.45: error 0.0675. The network should
        // get near zero.
        let held = error_of(&net, &holdout);
        assert!(held < 0.01, "held-out error {held}: {report}");
    }

    #[test]
    fn a_refinement_starts_from_the_network_it_is_given() {
        let train = interacting(2000, 4);
        let holdout = interacting(500, 5);
        let linear = [0.0; PARAMS];
        let first = NetFit {
            k: 400.0,
            epochs: 10,
            seed: 6,
            start: None,
        };
        let (net, _) = first.run(&train, &holdout, &linear);
        let start_error = error_of(&net, &holdout);
        // No epoch at all: the start comes back unchanged.
        let kept = NetFit {
            epochs: 0,
            start: Some(net.clone()),
            ..first.clone()
        };
        assert_eq!(kept.run(&train, &holdout, &linear).0, net);
        // More epochs never end worse on the held-out games than the start.
        let refined = NetFit {
            epochs: 5,
            start: Some(net),
            ..first
        };
        let (better, report) = refined.run(&train, &holdout, &linear);
        let held = error_of(&better, &holdout);
        assert!(held <= start_error, "{held} > {start_error}: {report}");
    }
}
