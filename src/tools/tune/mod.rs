//! `pbrain-wuzi tune RECORDS...`: fits the evaluation's weights to game
//! results by the Texel method, and prints the fitted `Weights::eval` table
//! as Rust source, ready to paste into `src/eval/mod.rs`.
//!
//! The score is linear in the board's threat counts (`eval::Features`), so
//! the fit is a logistic regression: minimise the mean squared error between
//! `sigmoid(score / K)` and the game's result (1, ½, 0 for the side to move)
//! over quiet positions. `K` is fitted first with the current weights and
//! then held, so that the fitted weights keep the current units (centi-stones
//! against the mate scores). Each `EvalSet` is fitted on its own positions by
//! full-batch gradient descent (Adam).
//!
//! The fit scores with the tables alone, without the network that the
//! engine adds (`eval::net`): refit the tables first, then the network on
//! top of them (`--net DIR`, in `tune_net`).

mod source;

use crate::board::{Board, PairClass, Pattern, Rule, Threat};
use crate::eval::net::Net;
use crate::eval::{EvalSet, EvalWeights, Features, EVAL_LIMIT, WEIGHTS};
use crate::tools::cell_class::{self, CELL_CLASSES};
use crate::tools::fit_data::{
    is_quiet, opening_length, record_files, result_for, winner_of, Resolver,
};
use crate::tools::fitting::{golden_section, minimise};
use crate::tools::records::{parse_record, RecordedMove};
use crate::tools::teacher::TeacherFiles;
use crate::tools::tune_choice::{load_choices, ChoiceFit};
use crate::tools::tune_net::fit_networks;
use source::{candidate_source, rust_source};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Parameters of one `EvalWeights`, flattened: own cells, their cells (by
/// threat), own pairs, their pairs (by pair class), initiative, tempo; then
/// the candidate features' weights (see `Candidates`), which the engine
/// does not read.
const OWN_PAIRS: usize = 2 * Threat::COUNT;
const INITIATIVE: usize = OWN_PAIRS + 2 * PairClass::COUNT;
pub(crate) const TEMPO: usize = INITIATIVE + 1;
pub const BASE_PARAMS: usize = TEMPO + 1;
/// Own then their (empty cell, direction) pairs by the line's `Pattern`.
const LINES: usize = BASE_PARAMS;
/// Own then their empty cells by class (`cell_class::cell_class`).
const CELLS: usize = LINES + 2 * Pattern::COUNT;
pub const PARAMS: usize = CELLS + 2 * CELL_CLASSES;

/// Which features a fit may move besides the threat counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Candidates {
    /// The pair-class counts (the engine reads them).
    pub pairs: bool,
    /// Cells' line patterns by direction: tried, not in the engine; from a
    /// board scan per position.
    pub lines: bool,
    /// Empty cells by the unordered set of their line patterns over every
    /// direction (`cell_class`): tried, not in the engine; from a board scan
    /// per position.
    pub cells: bool,
}

impl Default for Candidates {
    fn default() -> Candidates {
        Candidates {
            pairs: true,
            lines: false,
            cells: false,
        }
    }
}

impl Candidates {
    fn parse(list: &str) -> Result<Candidates, String> {
        let mut candidates = Candidates {
            pairs: false,
            lines: false,
            cells: false,
        };
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "lines" => candidates.lines = true,
                "cells" => candidates.cells = true,
                "pairs" => candidates.pairs = true,
                "none" => {}
                _ => return Err(format!("--features: unknown feature '{name}'")),
            }
        }
        Ok(candidates)
    }

    /// Whether parameter `p` belongs to a feature this fit uses.
    fn uses(self, p: usize) -> bool {
        match p {
            _ if (OWN_PAIRS..INITIATIVE).contains(&p) => self.pairs,
            _ if p >= CELLS => self.cells,
            _ if p >= LINES => self.lines,
            _ => true,
        }
    }
}

/// One position: its non-zero features as the weights multiply them
/// (parameter index, value; the opponent's counted negative), and the
/// result of the game for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub x: Vec<(usize, f64)>,
    pub result: f64,
    /// The score of a search of the position, side to move's view, where
    /// one was run: wuzi's own (`--resolve-nodes`) or the teacher's
    /// (`--teacher-weight`, read from the games' messages and rescaled to
    /// wuzi's units once both scales are fitted).
    pub searched: Option<f64>,
}

impl Sample {
    pub fn new(features: &Features, result: f64) -> Sample {
        let mut x = Vec::new();
        for t in 0..Threat::COUNT {
            x.push((t, features.own_cells[t] as f64));
            x.push((Threat::COUNT + t, -(features.their_cells[t] as f64)));
        }
        for c in 0..PairClass::COUNT {
            x.push((OWN_PAIRS + c, features.own_pairs[c] as f64));
            x.push((
                OWN_PAIRS + PairClass::COUNT + c,
                -(features.their_pairs[c] as f64),
            ));
        }
        x.push((INITIATIVE, if features.initiative { 1.0 } else { 0.0 }));
        x.push((TEMPO, 1.0));
        x.retain(|&(_, v)| v != 0.0);
        Sample {
            x,
            result,
            searched: None,
        }
    }

    /// Adds the line features of `board` (a from-scratch scan of its empty
    /// cells; slow, for fitting only): per colour, (cell, direction) pairs
    /// by the line's pattern, none on a point forbidden to Black.
    pub fn add_lines(&mut self, board: &Board) {
        let mut counts = [0.0; 2 * Pattern::COUNT];
        cell_class::visit_empty_cells(board, |side, patterns| {
            let sign = if side == 0 { 1.0 } else { -1.0 };
            for &p in patterns {
                counts[side * Pattern::COUNT + p as usize] += sign;
            }
        });
        self.x
            .extend((LINES..CELLS).zip(counts).filter(|&(_, v)| v != 0.0));
    }

    /// Adds the cell-class features of `board` (a from-scratch scan; slow,
    /// for fitting only).
    pub fn add_cells(&mut self, board: &Board) {
        let counts = cell_class::counts(board);
        let (own, their) = (counts[0].iter(), counts[1].iter().map(|&c| -c));
        self.x.extend(
            (CELLS..PARAMS)
                .zip(own.copied().chain(their))
                .filter(|&(_, v)| v != 0.0),
        );
    }

    /// The linear score under `w`, before clamping.
    pub(crate) fn raw(&self, w: &[f64; PARAMS]) -> f64 {
        self.x.iter().map(|&(p, x)| x * w[p]).sum()
    }

    /// The evaluation's score, clamped as `eval::evaluate` clamps it.
    fn score(&self, w: &[f64; PARAMS]) -> f64 {
        self.raw(w).clamp(-(EVAL_LIMIT as f64), EVAL_LIMIT as f64)
    }
}

pub fn params_of(weights: &EvalWeights) -> [f64; PARAMS] {
    let mut w = [0.0; PARAMS];
    for t in 0..Threat::COUNT {
        w[t] = weights.own_cells[t] as f64;
        w[Threat::COUNT + t] = weights.their_cells[t] as f64;
    }
    for c in 0..PairClass::COUNT {
        w[OWN_PAIRS + c] = weights.own_pairs[c] as f64;
        w[OWN_PAIRS + PairClass::COUNT + c] = weights.their_pairs[c] as f64;
    }
    w[INITIATIVE] = weights.initiative as f64;
    w[TEMPO] = weights.tempo as f64;
    w
}

pub fn weights_of(w: &[f64; PARAMS]) -> EvalWeights {
    let round = |v: f64| v.round() as i32;
    EvalWeights {
        own_cells: std::array::from_fn(|t| round(w[t])),
        their_cells: std::array::from_fn(|t| round(w[Threat::COUNT + t])),
        own_pairs: std::array::from_fn(|c| round(w[OWN_PAIRS + c])),
        their_pairs: std::array::from_fn(|c| round(w[OWN_PAIRS + PairClass::COUNT + c])),
        initiative: round(w[INITIATIVE]),
        tempo: round(w[TEMPO]),
    }
}

pub(crate) fn sigmoid(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-score / k).exp())
}

/// Mean squared error of `sigmoid(score / k)` against the result, over
/// (score, result) pairs.
pub(crate) fn scored_error(pairs: &[(f64, f64)], k: f64) -> f64 {
    let total: f64 = pairs
        .iter()
        .map(|&(score, result)| (sigmoid(score, k) - result).powi(2))
        .sum();
    total / pairs.len().max(1) as f64
}

/// Mean squared error of the predicted results against the real ones.
pub fn mean_squared_error(samples: &[Sample], w: &[f64; PARAMS], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (sigmoid(s.score(w), k) - s.result).powi(2))
        .sum();
    total / samples.len() as f64
}

/// Makes each searched sample's label `weight` of its search's score, as
/// `sigmoid(score / k)`, and the rest its game's result.
pub fn blend_labels(samples: &mut [Sample], k: f64, weight: f64) {
    for sample in samples {
        if let Some(score) = sample.searched {
            sample.result = weight * sigmoid(score, k) + (1.0 - weight) * sample.result;
        }
    }
}

/// Each sample's score under `w`, with its result.
pub fn scored(samples: &[Sample], w: &[f64; PARAMS]) -> Vec<(f64, f64)> {
    samples.iter().map(|s| (s.score(w), s.result)).collect()
}

/// The scale `K` that minimises the error of these (score, result) pairs:
/// a golden section search on log K over [1, 100 000] (the error is
/// unimodal in K).
pub fn fit_scale(scored: &[(f64, f64)]) -> f64 {
    let error = |log_k: f64| scored_error(scored, log_k.exp());
    golden_section(error, 0.0, 100_000f64.ln(), 60).exp()
}

/// Which parameters a fit may move: those of the features it uses whose
/// value is non-zero in at least `min_count` samples, never the `None`
/// cells, lines and pairs (counts of nearly the whole board, constants in
/// disguise) and never the `Five` cells (quiet positions have none).
pub fn tunable(samples: &[Sample], min_count: usize, candidates: Candidates) -> [bool; PARAMS] {
    let fixed = |p: usize| match p {
        _ if p < OWN_PAIRS => {
            let threat = p % Threat::COUNT;
            threat == Threat::None.index() || threat == Threat::Five.index()
        }
        _ if p < INITIATIVE => (p - OWN_PAIRS) % PairClass::COUNT == PairClass::NOTHING.index(),
        _ if p < LINES => false,
        _ if p >= CELLS => (p - CELLS) % CELL_CLASSES == cell_class::NOTHING,
        _ => (p - LINES) % Pattern::COUNT == Pattern::None as usize,
    };
    let mut seen = [0usize; PARAMS];
    for s in samples {
        for &(p, _) in &s.x {
            seen[p] += 1;
        }
    }
    std::array::from_fn(|p| !fixed(p) && candidates.uses(p) && seen[p] >= min_count)
}

/// Minimises the error over the weights marked `free`, from `start`, with
/// `K` held: full-batch Adam whose step shrinks linearly to a twentieth.
pub fn fit_weights(
    samples: &[Sample],
    start: &[f64; PARAMS],
    k: f64,
    free: &[bool; PARAMS],
    iterations: usize,
) -> [f64; PARAMS] {
    fit_weights_with(samples, start, k, free, iterations, |_, _| {})
}

/// `fit_weights` with `extra` adding another term's gradient (the choice
/// term of `--choices`) to the error's.
pub(crate) fn fit_weights_with(
    samples: &[Sample],
    start: &[f64; PARAMS],
    k: f64,
    free: &[bool; PARAMS],
    iterations: usize,
    mut extra: impl FnMut(&[f64; PARAMS], &mut [f64; PARAMS]),
) -> [f64; PARAMS] {
    if samples.is_empty() {
        return *start;
    }
    let limit = EVAL_LIMIT as f64;
    minimise(start, free, 4.0, iterations, |w| {
        let mut gradient = [0.0; PARAMS];
        for s in samples {
            let raw = s.raw(w);
            if raw.abs() >= limit {
                continue; // clamped: the weights do not move the score
            }
            let p = sigmoid(raw, k);
            let slope = 2.0 * (p - s.result) * p * (1.0 - p) / k;
            for &(i, x) in &s.x {
                gradient[i] += slope * x;
            }
        }
        let mut gradient = gradient.map(|g| g / samples.len() as f64);
        extra(w, &mut gradient);
        gradient
    })
}

/// Rounds the weights to integers, then moves each free one by ±1 while
/// that lowers the error (rounding the weights of features that count many
/// cells would otherwise cost as much as the fit gains).
pub fn round_to_integers(
    samples: &[Sample],
    w: &[f64; PARAMS],
    k: f64,
    free: &[bool; PARAMS],
) -> [f64; PARAMS] {
    const MAX_PASSES: usize = 20;
    let mut best = w.map(f64::round);
    let mut best_error = mean_squared_error(samples, &best, k);
    for _ in 0..MAX_PASSES {
        let mut improved = false;
        for p in (0..PARAMS).filter(|&p| free[p]) {
            for delta in [1.0, -1.0] {
                let mut trial = best;
                trial[p] += delta;
                let error = mean_squared_error(samples, &trial, k);
                if error < best_error {
                    (best, best_error, improved) = (trial, error, true);
                    break;
                }
            }
        }
        if !improved {
            break;
        }
    }
    best
}

/// A game's positions worth fitting, each with its table.
struct GameSamples {
    set_samples: Vec<(EvalSet, Sample)>,
}

/// The quiet positions of a game: before each engine move (the opening's
/// stones are skipped), where no four stands on the board and the side to
/// move has no open four or double four to make. These are the positions
/// the search's horizon scores with the evaluation. With a `resolver`, a
/// position whose short search proves a result is dropped too. With the
/// `teacher`'s scores (by move number, from 1), each position takes the
/// score printed before its move.
fn game_samples(
    rule: Rule,
    width: usize,
    height: usize,
    moves: &[RecordedMove],
    mut resolver: Option<&mut Resolver>,
    teacher: Option<&HashMap<usize, f64>>,
    candidates: Candidates,
) -> Option<GameSamples> {
    let black_result = winner_of(rule, width, height, moves)?;
    let opening = opening_length(moves);
    let mut board = Board::new(width, height, rule).ok()?;
    let mut set_samples = Vec::new();
    for (ply, m) in moves.iter().enumerate() {
        let fitted = ply >= opening && is_quiet(&board);
        let searched = match (fitted, resolver.as_mut()) {
            (true, Some(r)) => r.open_score(&board),
            _ => None,
        };
        let proven = fitted && resolver.is_some() && searched.is_none();
        if fitted && !proven {
            let features = Features::of(&board);
            let result = result_for(board.side_to_move(), black_result);
            let mut sample = Sample::new(&features, result);
            sample.searched = searched
                .map(f64::from)
                .or_else(|| teacher.and_then(|t| t.get(&(ply + 1)).copied()));
            if candidates.cells {
                sample.add_cells(&board);
            }
            if candidates.lines {
                sample.add_lines(&board);
            }
            set_samples.push((features.set, sample));
        }
        board.play(m.pos).ok()?;
    }
    Some(GameSamples { set_samples })
}

/// `pbrain-wuzi tune RECORD|DIR... [options]`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// SGF/.psq game records (a directory: every .sgf and .psq in it)
    #[arg(value_name = "RECORD|DIR", required = true)]
    paths: Vec<PathBuf>,
    /// Rule of records that do not name one, by code or name
    #[arg(long, default_value = "0", value_parser = super::cli::parse_rule)]
    rule: Rule,
    /// Every Nth game is kept out of the fit to measure it (0 = none)
    #[arg(long, value_name = "N", default_value_t = 5)]
    holdout: usize,
    /// Drop positions a search of N nodes proves won or lost (0 = off); with
    /// `--search-weight`, that search's score is also a label
    #[arg(long, value_name = "N", default_value_t = 0)]
    resolve_nodes: u64,
    /// Fit to this share of the `--resolve-nodes` search's score (through the same sigmoid)
    /// and the rest of the game's result: less noise a position than a result alone
    #[arg(long, value_name = "W", default_value_t = 0.0)]
    search_weight: f64,
    /// Fit to this share of a stronger engine's score and the rest of the game's result,
    /// where a record's directory holds the engine's messages (`msgs.txt`, from
    /// `wuzi-match --msgs`): the score it printed before each move, through a sigmoid of
    /// its own fitted scale. Held-out positions keep the result alone
    #[arg(long, value_name = "W", default_value_t = 0.0)]
    teacher_weight: f64,
    /// The sigmoid's scale K instead of one fitted to the records with the current
    /// tables: records the tables judge badly (an engine's games against a stronger
    /// one) flatten the fitted K, and every weight fitted on that scale grows with it
    #[arg(long, value_name = "K")]
    scale: Option<f64>,
    /// Gradient steps per table
    #[arg(long, value_name = "N", default_value_t = 3000)]
    iterations: usize,
    /// Fit a weight only if its feature is non-zero in N positions
    #[arg(long, value_name = "N", default_value_t = 30)]
    min_count: usize,
    /// Features fitted besides the threat counts, comma-separated: pairs (cells by their
    /// two best lines), lines (cells' line patterns by direction, not read by the engine:
    /// its weights are printed as a comment), cells (cells by the unordered set of their
    /// line patterns, 715 classes a colour, not read by the engine: only the errors are
    /// printed), none
    #[arg(long, value_name = "LIST", default_value = "pairs", value_parser = Candidates::parse)]
    features: Candidates,
    /// Records of a strong player whose moves are labels too: the evaluation of the
    /// position after the move played should beat the other candidates' (a softmax
    /// cross-entropy, see `tune_choice`)
    #[arg(long, value_name = "RECORD|DIR")]
    choices: Vec<PathBuf>,
    /// Weight of the choice term's cross-entropy against the result's squared error
    #[arg(long, value_name = "W", default_value_t = 0.05)]
    choice_weight: f64,
    /// Fit the evaluation's network (`eval::net`) on top of the current tables instead of
    /// the tables, and write each table set's network to DIR/<set>.txt
    #[arg(long, value_name = "DIR")]
    net: Option<PathBuf>,
    /// Passes over the positions when fitting a network
    #[arg(long, value_name = "N", default_value_t = 30)]
    epochs: usize,
    /// With `--net`: start each network from the one in FILE (`src/eval/nets/*.txt`)
    /// instead of random weights, and keep it unless an epoch lowers the held-out error:
    /// a network refined on other games
    #[arg(long, value_name = "FILE")]
    start_net: Option<PathBuf>,
    /// Fit nothing: report how well the static score and a search of N nodes predict the
    /// results, and how near each comes to a teacher's scores where `msgs.txt` has them
    #[arg(long, value_name = "N", default_value_t = 0)]
    judge_nodes: u64,
    /// With `--judge-nodes`: write every judged position to FILE, one tab-separated line
    /// each (the record's path, ply, static score, searched score, teacher's score or `-`, result), for
    /// `scripts/judge-pairs.py`
    #[arg(long, value_name = "FILE")]
    judge_rows: Option<PathBuf>,
}

/// Train and holdout samples of one table.
#[derive(Default)]
pub(crate) struct SetData {
    pub(crate) train: Vec<Sample>,
    pub(crate) holdout: Vec<Sample>,
}

/// Fits the tables to the records `options` names and returns the report.
pub fn run(options: TuneArgs) -> Result<String, String> {
    if options.scale.is_some_and(|k| !(k.is_finite() && k > 0.0)) {
        return Err("--scale: the sigmoid's scale must be a positive number".into());
    }
    if options.judge_nodes > 0 {
        return crate::tools::judge::run(
            &options.paths,
            options.rule,
            options.judge_nodes,
            options.judge_rows.as_deref(),
        );
    }
    if options.judge_rows.is_some() {
        return Err("--judge-rows needs --judge-nodes N".into());
    }
    if options.search_weight > 0.0 && options.resolve_nodes == 0 {
        return Err("--search-weight needs --resolve-nodes N, the search that scores".into());
    }
    if options.teacher_weight > 0.0 && options.resolve_nodes > 0 {
        return Err("--teacher-weight and --resolve-nodes are two sources of one label".into());
    }
    let mut teachers = TeacherFiles::default();
    let mut resolver = (options.resolve_nodes > 0).then(|| Resolver::new(options.resolve_nodes));
    let mut data: Vec<SetData> = EvalSet::ALL.iter().map(|_| SetData::default()).collect();
    let (mut games, mut skipped) = (0usize, 0usize);
    for file in record_files(&options.paths)? {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let Ok(record) = parse_record(&text) else {
            skipped += 1;
            continue;
        };
        let rule = record.rule.unwrap_or(options.rule);
        let teacher = match options.teacher_weight > 0.0 {
            true => teachers.of_record(&file),
            false => None,
        };
        let samples = game_samples(
            rule,
            record.width,
            record.height,
            &record.moves,
            resolver.as_mut(),
            teacher,
            options.features,
        );
        let Some(samples) = samples else {
            skipped += 1;
            continue;
        };
        let held = options.holdout > 0 && games % options.holdout == 0;
        games += 1;
        for (set, sample) in samples.set_samples {
            let bucket = &mut data[set.index()];
            match held {
                true => bucket.holdout.push(sample),
                false => bucket.train.push(sample),
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// {games} games read, {skipped} skipped (unreadable or no decisive ending)"
    );
    let starts: Vec<[f64; PARAMS]> = WEIGHTS.eval.iter().map(params_of).collect();
    // One K for every table, fitted with each sample scored by its own.
    let all_train: Vec<(f64, f64)> = EvalSet::ALL
        .iter()
        .flat_map(|set| scored(&data[set.index()].train, &starts[set.index()]))
        .collect();
    if all_train.is_empty() {
        return Err("no quiet positions with a known result in those records".into());
    }
    let fitted_k = fit_scale(&all_train);
    let k = options.scale.unwrap_or(fitted_k);
    let _ = match options.scale {
        Some(_) => writeln!(
            out,
            "// K = {k:.1} (given; the current weights fit {fitted_k:.1})"
        ),
        None => writeln!(out, "// K = {k:.1} (fitted with the current weights)"),
    };
    if options.search_weight > 0.0 {
        let w = options.search_weight.min(1.0);
        for d in &mut data {
            blend_labels(&mut d.train, k, w);
            blend_labels(&mut d.holdout, k, w);
        }
        let _ = writeln!(
            out,
            "// labels: {w} of the search's score, {} of the game's result",
            1.0 - w
        );
    }
    if options.teacher_weight > 0.0 {
        let _ = write!(out, "{}", teach(&mut data, k, options.teacher_weight)?);
    }
    let choices = match options.choices.is_empty() {
        true => None,
        false => Some(load_choices(
            &options.choices,
            options.rule,
            options.holdout,
        )?),
    };
    if let Some(dir) = &options.net {
        let start = options
            .start_net
            .as_ref()
            .map(|path| {
                std::fs::read_to_string(path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| Net::parse(&text))
                    .map_err(|e| format!("{}: {e}", path.display()))
            })
            .transpose()?;
        return fit_networks(&data, &starts, k, options.epochs, start, dir)
            .map(|report| out + &report);
    }
    let mut tables = String::from("    eval: [\n");
    for set in EvalSet::ALL {
        let d = &data[set.index()];
        let start = &starts[set.index()];
        let set_choices = choices.as_ref().map(|c| &c[set.index()]);
        let fitted = if d.train.len() < 200 {
            *start
        } else {
            let free = tunable(&d.train, options.min_count, options.features);
            match set_choices.filter(|c| c.train.len() >= 200) {
                Some(c) => {
                    let fit = ChoiceFit {
                        k,
                        iterations: options.iterations,
                        weight: options.choice_weight,
                    };
                    let (fitted, report) = fit.run(&d.train, c, start, free);
                    let _ = writeln!(out, "// {set:?}: {report}");
                    fitted
                }
                None => {
                    let fitted = fit_weights(&d.train, start, k, &free, options.iterations);
                    // A ±1 search over a thousand cell weights would take
                    // hours; the cell fits are measured, not pasted.
                    if options.features.cells {
                        fitted
                    } else {
                        round_to_integers(&d.train, &fitted, k, &free)
                    }
                }
            }
        };
        let _ = writeln!(
            out,
            "// {set:?}: {} positions (+{} held out); error {:.5} -> {:.5}, held out {:.5} -> {:.5}",
            d.train.len(),
            d.holdout.len(),
            mean_squared_error(&d.train, start, k),
            mean_squared_error(&d.train, &fitted, k),
            mean_squared_error(&d.holdout, start, k),
            mean_squared_error(&d.holdout, &fitted, k),
        );
        tables += &rust_source(set, &weights_of(&fitted));
        tables += &candidate_source(&fitted, options.features);
    }
    tables += "    ],\n";
    Ok(out + &tables)
}

/// Turns the teacher's scores into labels: fits the scale of its scores to
/// the training positions' results, rescales them to wuzi's (`k`), and
/// makes each training label `weight` of the teacher's and the rest the
/// result. Held-out labels stay the results, so that held-out errors
/// compare with fits on results alone.
fn teach(data: &mut [SetData], k: f64, weight: f64) -> Result<String, String> {
    let pairs = |samples: &[Sample]| -> Vec<(f64, f64)> {
        samples
            .iter()
            .filter_map(|s| s.searched.map(|score| (score, s.result)))
            .collect()
    };
    let train: Vec<(f64, f64)> = data.iter().flat_map(|d| pairs(&d.train)).collect();
    let holdout: Vec<(f64, f64)> = data.iter().flat_map(|d| pairs(&d.holdout)).collect();
    if train.is_empty() {
        return Err("--teacher-weight: no scores found (msgs.txt beside the records)".into());
    }
    let teacher_k = fit_scale(&train);
    let error = |pairs: &[(f64, f64)]| scored_error(pairs, teacher_k);
    let w = weight.min(1.0);
    for d in data.iter_mut() {
        for sample in d.train.iter_mut().chain(d.holdout.iter_mut()) {
            sample.searched = sample.searched.map(|score| score * k / teacher_k);
        }
        blend_labels(&mut d.train, k, w);
    }
    Ok(format!(
        "// teacher: {} positions scored (+{} held out), its K {teacher_k:.1}; \
         its own error against the results {:.5}, held out {:.5}\n\
         // labels: {w} of the teacher's score, {} of the game's result (held out: the result)\n",
        train.len(),
        holdout.len(),
        error(&train),
        error(&holdout),
        1.0 - w
    ))
}

#[cfg(test)]
mod tests;
