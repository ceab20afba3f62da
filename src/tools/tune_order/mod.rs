//! `pbrain-wuzi tune-order`: fits the move-ordering key's weights
//! (`eval::OrderWeights`) to the moves a deeper search chooses, and prints
//! them as Rust source, ready to paste into `src/eval/mod.rs`.
//!
//! Two steps, because labelling is slow and fitting is not:
//! - `tune-order label RECORDS... > FILE` replays game records and, before
//!   each engine move where the ordering decides what is searched (nothing
//!   forced, no four threatened), runs a node-limited search and writes the
//!   position and its best move as one line of a label file;
//! - `tune-order fit FILE...` fits the weights.
//!
//! The key is linear in per-cell counts (the line patterns a stone makes,
//! per direction, and the combined threat, for the side to move's stone and
//! for the opponent's), so fitting it is a multinomial logistic regression:
//! minimise the cross-entropy of `softmax(key / T)` over the candidates at
//! the labelled move. `T` is fitted first with the current weights and then
//! held, so the fitted key stays on the current scale (the search adds +300
//! for a killer and up to +125 of history to it).
//!
//! Label file format, one position a line (`#` starts a comment):
//! `GAME RULE WIDTH HEIGHT BEST MOVE...`: the game's number (the held-out
//! split is by game), the Gomocup rule code, the board size, the labelled
//! move and the moves that lead to the position, each as `x,y` (0-based).

use crate::board::{Board, Color, Pattern, Pos, Rule, Threat};
use crate::eval::{cell_patterns, order_weights, EvalSet, OrderWeights};
use crate::tools::fitting::{golden_section, minimise, rust_list};
use crate::tools::records::{gomocup_rule_code, rule_from_gomocup_code};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Parameters of `OrderWeights`, flattened: own patterns, their patterns,
/// own threats, their threats.
pub const PARAMS: usize = 2 * Pattern::COUNT + 2 * Threat::COUNT;
const THEIR_PATTERN: usize = Pattern::COUNT;
const OWN_THREAT: usize = 2 * Pattern::COUNT;
const THEIR_THREAT: usize = OWN_THREAT + Threat::COUNT;

/// Moves kept at quiet interior nodes at the shallowest and a middle depth
/// (the search's `BRANCH_LIMIT` runs from 7 to 21): the rates reported.
const RANKS_REPORTED: [usize; 4] = [1, 5, 7, 13];

pub fn params_of(weights: &OrderWeights) -> [f64; PARAMS] {
    let mut w = [0.0; PARAMS];
    for p in 0..Pattern::COUNT {
        w[p] = weights.own_pattern[p] as f64;
        w[THEIR_PATTERN + p] = weights.their_pattern[p] as f64;
    }
    for t in 0..Threat::COUNT {
        w[OWN_THREAT + t] = weights.own_threat[t] as f64;
        w[THEIR_THREAT + t] = weights.their_threat[t] as f64;
    }
    w
}

pub fn weights_of(w: &[f64; PARAMS]) -> OrderWeights {
    let round = |v: f64| v.round() as i32;
    OrderWeights {
        own_pattern: std::array::from_fn(|p| round(w[p])),
        their_pattern: std::array::from_fn(|p| round(w[THEIR_PATTERN + p])),
        own_threat: std::array::from_fn(|t| round(w[OWN_THREAT + t])),
        their_threat: std::array::from_fn(|t| round(w[THEIR_THREAT + t])),
    }
}

/// One candidate move: the parameters its key sums, with repeats (a
/// pattern made in two directions counts twice).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub terms: Vec<u8>,
}

impl Candidate {
    /// The terms of a move on the empty cell `pos` for the side to move.
    pub fn of(board: &Board, pos: Pos) -> Candidate {
        let me = board.side_to_move();
        let them = me.opponent();
        let (own, their) = (board.threat(pos, me), board.threat(pos, them));
        let mut terms: Vec<u8> = cell_patterns(board, pos, me, own)
            .map(|p| p as u8)
            .collect();
        terms.extend(
            cell_patterns(board, pos, them, their).map(|p| (THEIR_PATTERN + p as usize) as u8),
        );
        terms.push((OWN_THREAT + own.index()) as u8);
        terms.push((THEIR_THREAT + their.index()) as u8);
        Candidate { terms }
    }

    pub fn key(&self, w: &[f64; PARAMS]) -> f64 {
        self.terms.iter().map(|&t| w[t as usize]).sum()
    }
}

/// A labelled position: its candidates and which of them the search chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub candidates: Vec<Candidate>,
    pub best: usize,
}

/// The moves the search orders at a node where nothing is forced: every
/// candidate the side to move may play. `None` where the ordering does not
/// decide what is searched: a five for either side, an open four or double
/// four for either (won, or only the blocks are searched).
pub fn ordered_moves(board: &Board) -> Option<Vec<Pos>> {
    let me = board.side_to_move();
    let them = me.opponent();
    let decided = |c: Color| {
        board.threat_count(c, Threat::Five)
            + board.threat_count(c, Threat::OpenFour)
            + board.threat_count(c, Threat::DoubleFour)
            > 0
    };
    if decided(me) || decided(them) || board.stone_count() == 0 {
        return None;
    }
    let moves: Vec<Pos> = board
        .candidates()
        .filter(|&p| board.threat(p, me) != Threat::Forbidden)
        .collect();
    (moves.len() > 1).then_some(moves)
}

/// One line of a label file.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub game: usize,
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    pub best: Pos,
    pub moves: Vec<Pos>,
}

impl Label {
    pub fn to_line(&self) -> String {
        let point = |p: &Pos| format!("{},{}", p.x(), p.y());
        let mut line = format!(
            "{} {} {} {} {}",
            self.game,
            gomocup_rule_code(self.rule),
            self.width,
            self.height,
            point(&self.best)
        );
        for m in &self.moves {
            line.push(' ');
            line.push_str(&point(m));
        }
        line
    }

    pub fn parse(line: &str) -> Result<Label, String> {
        let mut fields = line.split_whitespace();
        let mut number = |what: &str| -> Result<usize, String> {
            fields
                .next()
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| format!("bad {what} in '{line}'"))
        };
        let game = number("game")?;
        let rule = rule_from_gomocup_code(number("rule")? as u32)
            .ok_or_else(|| format!("unknown rule in '{line}'"))?;
        let (width, height) = (number("width")?, number("height")?);
        let point = |f: &str| -> Result<Pos, String> {
            let (x, y) = f
                .split_once(',')
                .ok_or_else(|| format!("bad point '{f}'"))?;
            match (x.parse::<usize>(), y.parse::<usize>()) {
                (Ok(x), Ok(y)) if x < width && y < height => Ok(Pos::new(x, y)),
                _ => Err(format!("bad point '{f}'")),
            }
        };
        let mut points = line.split_whitespace().skip(4).map(point);
        let best = points
            .next()
            .ok_or_else(|| format!("no move in '{line}'"))??;
        let moves = points.collect::<Result<Vec<Pos>, String>>()?;
        Ok(Label {
            game,
            rule,
            width,
            height,
            best,
            moves,
        })
    }

    /// The position and its sample; `None` if the moves are illegal or the
    /// position is not one the ordering decides.
    pub fn sample(&self) -> Option<(Board, Sample)> {
        let mut board = Board::new(self.width, self.height, self.rule).ok()?;
        for &m in &self.moves {
            board.play(m).ok()?;
        }
        let moves = ordered_moves(&board)?;
        let best = moves.iter().position(|&m| m == self.best)?;
        let candidates = moves.iter().map(|&m| Candidate::of(&board, m)).collect();
        Some((board, Sample { candidates, best }))
    }
}

/// The softmax probabilities of the candidates' keys at temperature `t`.
fn probabilities(sample: &Sample, w: &[f64; PARAMS], t: f64, out: &mut Vec<f64>) {
    out.clear();
    out.extend(sample.candidates.iter().map(|c| c.key(w) / t));
    softmax(out);
}

/// Turns `logits` into softmax probabilities in place.
fn softmax(logits: &mut [f64]) {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for p in logits.iter_mut() {
        *p = (*p - top).exp();
        total += *p;
    }
    for p in logits.iter_mut() {
        *p /= total;
    }
}

/// Mean cross-entropy of the labelled moves.
pub fn cross_entropy(samples: &[Sample], w: &[f64; PARAMS], t: f64) -> f64 {
    mean_cross_entropy(samples, |s, p| {
        probabilities(s, w, t, p);
        s.best
    })
}

/// Mean of −ln p(labelled move) over `samples` (0 for none), where
/// `probabilities` fills in a sample's candidate probabilities and returns
/// the labelled move's index among them.
fn mean_cross_entropy<S>(
    samples: &[S],
    mut probabilities: impl FnMut(&S, &mut Vec<f64>) -> usize,
) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut p = Vec::new();
    let total: f64 = samples
        .iter()
        .map(|s| {
            let best = probabilities(s, &mut p);
            -p[best].max(1e-300).ln()
        })
        .sum();
    total / samples.len() as f64
}

/// Where the labelled move lands when the candidates are sorted by key,
/// best first, ties kept in board order (as the search's stable sort does):
/// 0 for the first.
pub fn rank(sample: &Sample, w: &[f64; PARAMS]) -> usize {
    let keys: Vec<f64> = sample.candidates.iter().map(|c| c.key(w)).collect();
    rank_among(&keys, sample.best)
}

/// Where candidate `best` lands when `keys` are sorted, best first, ties
/// kept in board order.
fn rank_among(keys: &[f64], best: usize) -> usize {
    let own = keys[best];
    keys.iter()
        .enumerate()
        .filter(|&(i, &k)| k > own || (k == own && i < best))
        .count()
}

/// The share of samples whose labelled move ranks within each of `RANKS_REPORTED`.
fn rank_rates(samples: &[Sample], w: &[f64; PARAMS]) -> [f64; RANKS_REPORTED.len()] {
    let ranks: Vec<usize> = samples.iter().map(|s| rank(s, w)).collect();
    shares_within(&ranks)
}

/// The share of `ranks` below each of `RANKS_REPORTED`.
fn shares_within(ranks: &[usize]) -> [f64; RANKS_REPORTED.len()] {
    RANKS_REPORTED
        .map(|n| ranks.iter().filter(|&&r| r < n).count() as f64 / ranks.len().max(1) as f64)
}

/// The temperature that minimises the cross-entropy with weights `w`: a
/// golden section search on log T over [0.01, 100 000].
pub fn fit_temperature(samples: &[Sample], w: &[f64; PARAMS]) -> f64 {
    let error = |log_t: f64| cross_entropy(samples, w, log_t.exp());
    golden_section(error, 0.01f64.ln(), 100_000f64.ln(), 50).exp()
}

/// Which parameters a fit may move: those that occur in at least
/// `min_count` samples' candidates, never a `None` pattern or threat (the
/// patterns of a cell always number its directions and its threat is
/// always one: each is a constant the softmax cannot see, so one weight of
/// each group is held to anchor the rest).
pub fn tunable(samples: &[Sample], min_count: usize) -> [bool; PARAMS] {
    let anchors = [
        Pattern::None as usize,
        THEIR_PATTERN + Pattern::None as usize,
        OWN_THREAT + Threat::None.index(),
        THEIR_THREAT + Threat::None.index(),
    ];
    let mut seen = [0usize; PARAMS];
    for s in samples {
        let mut here = [false; PARAMS];
        for c in &s.candidates {
            for &t in &c.terms {
                here[t as usize] = true;
            }
        }
        for (count, present) in seen.iter_mut().zip(here) {
            *count += present as usize;
        }
    }
    std::array::from_fn(|p| !anchors.contains(&p) && seen[p] >= min_count)
}

/// Minimises the cross-entropy over the weights marked `free`, from
/// `start`, with `T` held: full-batch Adam whose step shrinks linearly to a
/// twentieth. Weights are in key units, so the step is too.
pub fn fit_weights(
    samples: &[Sample],
    start: &[f64; PARAMS],
    t: f64,
    free: &[bool; PARAMS],
    iterations: usize,
) -> [f64; PARAMS] {
    if samples.is_empty() {
        return *start;
    }
    let mut p = Vec::new();
    minimise(start, free, 4.0, iterations, |w| {
        let mut gradient = [0.0; PARAMS];
        for s in samples {
            probabilities(s, w, t, &mut p);
            for (i, c) in s.candidates.iter().enumerate() {
                let slope = p[i] - if i == s.best { 1.0 } else { 0.0 };
                for &term in &c.terms {
                    gradient[term as usize] += slope;
                }
            }
        }
        gradient.map(|g| g / (t * samples.len() as f64))
    })
}

/// `tune-order` and what it does.
#[derive(clap::Subcommand, Debug)]
pub enum TuneOrderCommand {
    /// Write one line per position to stdout: the best move of an N-node search before
    /// every Nth engine move where nothing is forced
    Label(LabelOptions),
    /// Fit the ordering weights to label files (every Nth game held out)
    Fit(FitOptions),
}

#[derive(clap::Args, Debug)]
pub struct FitOptions {
    /// Label files written by `tune-order label`
    #[arg(value_name = "LABELS", required = true)]
    paths: Vec<PathBuf>,
    /// The rule whose table is the start (and the "before"): 4 = renju's
    #[arg(long = "rule", default_value = "0", value_parser = crate::tools::cli::parse_rule)]
    table: Rule,
    /// Every Nth game is held out (0 = none)
    #[arg(long, value_name = "N", default_value_t = 5)]
    holdout: usize,
    /// Gradient steps
    #[arg(long, value_name = "N", default_value_t = 600)]
    iterations: usize,
    /// Fit a weight only if its feature is non-zero in N positions
    #[arg(long, value_name = "N", default_value_t = 30)]
    min_count: usize,
    /// Measure instead how well a table over each cell's patterns in every
    /// direction together (`classes.rs`) would predict the labels
    #[arg(long)]
    classes: bool,
    /// With `--classes`: how hard each class weight is pulled toward its linear start
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,
}

/// Fitted and held-out samples; the held-out ones also by `EvalSet` (renju
/// Black and White may want tables of their own).
#[derive(Default)]
struct Data {
    train: Vec<Sample>,
    holdout: Vec<Sample>,
    holdout_by_set: [Vec<Sample>; EvalSet::COUNT],
}

/// The lines of the label files, each parsed (`Err` for a line that is not
/// a label); comments and blank lines left out.
fn read_labels(paths: &[PathBuf]) -> Result<Vec<Result<Label, String>>, String> {
    let mut labels = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        labels.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(Label::parse),
        );
    }
    Ok(labels)
}

fn fit(options: FitOptions) -> Result<String, String> {
    let labels = read_labels(&options.paths)?;
    if options.classes {
        let labels: Vec<Label> = labels.into_iter().flatten().collect();
        return classes::fit_classes(
            &labels,
            options.table,
            options.holdout,
            options.iterations,
            options.min_count,
            options.l2,
        );
    }
    let mut data = Data::default();
    let mut skipped = 0usize;
    for label in labels {
        let Some((label, (board, sample))) = label.ok().and_then(|l| l.sample().map(|s| (l, s)))
        else {
            skipped += 1;
            continue;
        };
        if options.holdout > 0 && label.game % options.holdout == 0 {
            let set = EvalSet::of(board.rule(), board.side_to_move());
            data.holdout_by_set[set.index()].push(sample.clone());
            data.holdout.push(sample);
        } else {
            data.train.push(sample);
        }
    }
    if data.train.is_empty() {
        return Err("no usable labelled positions".into());
    }
    let start = params_of(order_weights(options.table));
    let t = fit_temperature(&data.train, &start);
    let free = tunable(&data.train, options.min_count);
    let fitted = fit_weights(&data.train, &start, t, &free, options.iterations).map(f64::round);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// {} positions (+{} held out), {skipped} skipped; T = {t:.1} (fitted with the current weights)",
        data.train.len(),
        data.holdout.len()
    );
    let report = |name: &str, samples: &[Sample], w: &[f64; PARAMS]| {
        let rates = rank_rates(samples, w);
        let shares: Vec<String> = RANKS_REPORTED
            .iter()
            .zip(rates)
            .map(|(n, r)| format!("top-{n} {:.1}%", 100.0 * r))
            .collect();
        format!(
            "// {name}: cross-entropy {:.4}, {}\n",
            cross_entropy(samples, w, t),
            shares.join(", ")
        )
    };
    out += &report("fitted, before", &data.train, &start);
    out += &report("fitted, after", &data.train, &fitted);
    out += &report("held out, before", &data.holdout, &start);
    out += &report("held out, after", &data.holdout, &fitted);
    for set in EvalSet::ALL {
        let samples = &data.holdout_by_set[set.index()];
        if !samples.is_empty() {
            out += &report(&format!("held out {set:?}, before"), samples, &start);
            out += &report(&format!("held out {set:?}, after"), samples, &fitted);
        }
    }
    out += &rust_source(&weights_of(&fitted));
    Ok(out)
}

/// The `OrderWeights` literal, in the layout of `src/eval/mod.rs`.
fn rust_source(w: &OrderWeights) -> String {
    format!(
        "    order: OrderWeights {{\n        own_pattern: [{}],\n        their_pattern: [{}],\n        \
         own_threat: [{}],\n        their_threat: [{}],\n    }},\n",
        rust_list(&w.own_pattern),
        rust_list(&w.their_pattern),
        rust_list(&w.own_threat),
        rust_list(&w.their_threat)
    )
}

/// Runs `tune-order label` or `tune-order fit`.
pub fn run(command: TuneOrderCommand) -> Result<String, String> {
    match command {
        TuneOrderCommand::Label(options) => label(options),
        TuneOrderCommand::Fit(options) => fit(options),
    }
}

mod classes;
mod label;
pub(crate) use label::numbered_records;
use label::{label, LabelOptions};
#[cfg(test)]
mod tests;
