//! The choice term of `pbrain-wuzi tune --choices`: a strong player's moves
//! as labels for the evaluation itself.
//!
//! A game's result says little about any one position (a game has one
//! result and thirty positions), and a search of wuzi's own scores with the
//! tables it is meant to teach. A strong player's move is a label from a
//! far deeper search: of the positions one move away, it chose this one. So
//! before each recorded move the evaluation scores every candidate's child
//! from the mover's view, a softmax over those scores (at a temperature `T`
//! fitted to the current weights and then held, so the weights keep their
//! units) gives each candidate a probability, and the fit lowers the
//! cross-entropy of the move played. A game record is a fact: nothing of
//! the player's own evaluation is read. On Rapfi's games it lowers the
//! held-out choice error and loses games, so the engine's tables do not use
//! it (docs/evaluation.md has the figures).

use super::records::ParsedRecord;
use super::tune::{fit_weights_with, Sample, PARAMS, TEMPO};
use super::tune_order::{numbered_records, ordered_moves};
use crate::board::{Board, Pos, Rule, Threat};
use crate::eval::{EvalSet, Features, OrderKey, EVAL_LIMIT};
use crate::tools::fitting::golden_section;
use std::path::PathBuf;

/// Candidates kept before a move, best by the ordering key (the move played
/// is always kept): enough to hold every move a strong player considers.
pub const MAX_CHILDREN: usize = 40;

/// One decision: the features of each candidate's child (from the child's
/// side to move, as `Sample::x`), and which one was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub children: Vec<Vec<(u16, f32)>>,
    pub played: usize,
}

impl Choice {
    /// Each child's score for the mover: the evaluation of the child,
    /// negated, clamped as the engine clamps it.
    fn scores(&self, w: &[f64; PARAMS]) -> Vec<f64> {
        let limit = EVAL_LIMIT as f64;
        self.children
            .iter()
            .map(|x| {
                let raw: f64 = x.iter().map(|&(p, v)| w[p as usize] * f64::from(v)).sum();
                -raw.clamp(-limit, limit)
            })
            .collect()
    }

    /// The softmax of `scores / t`.
    fn probabilities(scores: &[f64], t: f64) -> Vec<f64> {
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = scores.iter().map(|s| ((s - top) / t).exp()).collect();
        let sum: f64 = exps.iter().sum();
        exps.into_iter().map(|e| e / sum).collect()
    }
}

/// The decisions of one game worth fitting, each with the table its
/// children are scored by: before every move that is not the opening's,
/// where nothing is decided, the opponent threatens no four-three, and the
/// move played makes no four (those are tactics, which the search settles).
/// Candidates that make a four are left out for the same reason.
pub fn game_choices(record: &ParsedRecord, rule: Rule) -> Vec<(EvalSet, Choice)> {
    let mut choices = Vec::new();
    let Ok(mut board) = Board::new(record.width, record.height, rule) else {
        return choices;
    };
    for m in &record.moves {
        if m.think_ms.unwrap_or(0) > 0 {
            if let Some(choice) = choice_at(&mut board, m.pos) {
                let child_set = EvalSet::of(rule, board.side_to_move().opponent());
                choices.push((child_set, choice));
            }
        }
        if board.play(m.pos).is_err() {
            break;
        }
    }
    choices
}

/// The decision before `played`, if it is one to fit (see `game_choices`).
pub fn choice_at(board: &mut Board, played: Pos) -> Option<Choice> {
    let me = board.side_to_move();
    let them = me.opponent();
    let moves = ordered_moves(board)?;
    // `Forbidden` ranks below every threat, so Black's forbidden points are
    // never tactical (and `ordered_moves` has left them out).
    let tactical = |p: Pos| board.threat(p, me) >= Threat::Four;
    if board.threat_count(them, Threat::FourThree) > 0
        || tactical(played)
        || !moves.contains(&played)
    {
        return None;
    }
    let key = OrderKey::of(board);
    let mut ranked: Vec<(i32, Pos)> = moves
        .into_iter()
        .filter(|&p| !tactical(p))
        .map(|p| {
            let value = key.own(board, p, me, board.threat(p, me))
                + key.their(board, p, them, board.threat(p, them));
            (value, p)
        })
        .collect();
    ranked.sort_by_key(|&(value, p)| (std::cmp::Reverse(value), p.index()));
    let mut kept: Vec<Pos> = ranked.iter().take(MAX_CHILDREN).map(|&(_, p)| p).collect();
    if !kept.contains(&played) {
        kept.push(played);
    }
    if kept.len() < 2 {
        return None;
    }
    let mut children = Vec::with_capacity(kept.len());
    for &p in &kept {
        board.play(p).ok()?;
        let x = Sample::new(&Features::of(board), 0.0).x;
        board.undo();
        children.push(x.into_iter().map(|(i, v)| (i as u16, v as f32)).collect());
    }
    let played = kept.iter().position(|&p| p == played)?;
    Some(Choice { children, played })
}

/// Fitted and held-out decisions of one table.
#[derive(Default)]
pub struct ChoiceData {
    pub train: Vec<Choice>,
    pub holdout: Vec<Choice>,
}

/// The decisions of the records `paths` names, by `EvalSet`; every
/// `holdout`-th game's are held out (0: none).
pub fn load_choices(
    paths: &[PathBuf],
    default_rule: Rule,
    holdout: usize,
) -> Result<Vec<ChoiceData>, String> {
    let mut data: Vec<ChoiceData> = EvalSet::ALL.iter().map(|_| ChoiceData::default()).collect();
    for (game, (_, record)) in numbered_records(paths)?.into_iter().enumerate() {
        let held = holdout > 0 && game.is_multiple_of(holdout);
        for (set, choice) in game_choices(&record, record.rule.unwrap_or(default_rule)) {
            let bucket = &mut data[set.index()];
            match held {
                true => bucket.holdout.push(choice),
                false => bucket.train.push(choice),
            }
        }
    }
    Ok(data)
}

/// The settings of a fit with the choice term.
pub struct ChoiceFit {
    /// The results' scale, held.
    pub k: f64,
    pub iterations: usize,
    /// The cross-entropy's weight against the results' squared error.
    pub weight: f64,
}

impl ChoiceFit {
    /// Fits one table to its results' `samples` and its `choices` from
    /// `start`, moving the `free` weights; returns the rounded weights and
    /// a line on the held-out decisions before and after.
    pub fn run(
        &self,
        samples: &[Sample],
        choices: &ChoiceData,
        start: &[f64; PARAMS],
        mut free: [bool; PARAMS],
    ) -> ([f64; PARAMS], String) {
        let t = fit_temperature(&choices.train, start);
        // The tempo is the same in every child of a decision, so the choices
        // cannot place it; left to the results alone, Adam's per-weight steps
        // would move it as far as any other weight.
        free[TEMPO] = false;
        let weight = self.weight;
        let fitted = fit_weights_with(samples, start, self.k, &free, self.iterations, |w, g| {
            add_choice_gradient(&choices.train, w, t, weight, g)
        });
        let rounded = fitted.map(f64::round);
        let report = |w: &[f64; PARAMS]| {
            let (entropy, top) = choice_error(&choices.holdout, w, t);
            format!("{entropy:.4}, top-1 {:.1} %", 100.0 * top)
        };
        let line = format!(
            "{} decisions (+{} held out), T = {t:.1}; held out cross-entropy {} -> {}",
            choices.train.len(),
            choices.holdout.len(),
            report(start),
            report(&rounded),
        );
        (rounded, line)
    }
}

/// Mean cross-entropy of the moves played, and the share of decisions
/// where the move played scores best, under `w` at temperature `t`.
pub fn choice_error(choices: &[Choice], w: &[f64; PARAMS], t: f64) -> (f64, f64) {
    if choices.is_empty() {
        return (0.0, 0.0);
    }
    let (mut entropy, mut top) = (0.0, 0usize);
    for c in choices {
        let scores = c.scores(w);
        let p = Choice::probabilities(&scores, t);
        entropy -= p[c.played].max(1e-300).ln();
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        top += usize::from(scores[c.played] >= best);
    }
    let n = choices.len() as f64;
    (entropy / n, top as f64 / n)
}

/// The temperature that minimises the cross-entropy under `w`: a golden
/// section search on log T over [1, 10 000].
pub fn fit_temperature(choices: &[Choice], w: &[f64; PARAMS]) -> f64 {
    let error = |log_t: f64| choice_error(choices, w, log_t.exp()).0;
    golden_section(error, 0.0, 10_000f64.ln(), 50).exp()
}

/// Adds `weight` times the mean gradient of the cross-entropy to `gradient`.
pub fn add_choice_gradient(
    choices: &[Choice],
    w: &[f64; PARAMS],
    t: f64,
    weight: f64,
    gradient: &mut [f64; PARAMS],
) {
    if choices.is_empty() {
        return;
    }
    let scale = weight / choices.len() as f64;
    let limit = EVAL_LIMIT as f64;
    for c in choices {
        let scores = c.scores(w);
        let p = Choice::probabilities(&scores, t);
        for (m, x) in c.children.iter().enumerate() {
            if scores[m].abs() >= limit {
                continue; // clamped: the weights do not move this score
            }
            // d(-ln p_played)/d score_m = (p_m - [m played]) / t, and the
            // score is minus the child's evaluation.
            let slope = (p[m] - f64::from(u8::from(m == c.played))) / t;
            for &(i, v) in x {
                gradient[i as usize] -= scale * slope * f64::from(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WEIGHTS;
    use crate::tools::records::parse_record;
    use crate::tools::tune::params_of;

    fn record() -> ParsedRecord {
        // Three opening stones, then engine moves: White's a9 is far from
        // every stone (not a candidate, so not fitted),
        // Black's h7 makes an open three, White's i7 must block it (not
        // fitted), Black's e7 makes a four (not fitted), White's d7 blocks
        // the four (not fitted), Black's g8 is quiet again.
        parse_record(
            "(;FF[4]GM[4]SZ[15]RU[0];B[gg]C[opening move];W[hh]C[opening move];\
             B[fg]C[opening move];W[ai]C[12ms];B[hg]C[9ms];W[ig]C[10ms];\
             B[eg]C[8ms];W[dg]C[7ms];B[gh]C[11ms])",
        )
        .unwrap()
    }

    #[test]
    fn choices_are_the_quiet_decisions_with_the_move_played_among_the_children() {
        let record = record();
        let choices = game_choices(&record, Rule::Freestyle);
        // h7 and g8.
        assert_eq!(choices.len(), 2);
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for m in &record.moves[..4] {
            board.play(m.pos).unwrap();
        }
        let first = choice_at(&mut board, record.moves[4].pos).unwrap();
        assert_eq!(first, choices[0].1);
        assert!(first.children.len() > 2 && first.children.len() <= MAX_CHILDREN + 1);
        // The played child's features are those of the position after it.
        let mut after = board.clone();
        after.play(record.moves[4].pos).unwrap();
        let expected: Vec<(u16, f32)> = Sample::new(&Features::of(&after), 0.0)
            .x
            .into_iter()
            .map(|(i, v)| (i as u16, v as f32))
            .collect();
        assert_eq!(first.children[first.played], expected);
        // The board is left as it was.
        assert_eq!(board.stone_count(), 4);
    }

    /// The record's decisions, and the current `Gomoku` weights.
    fn choices_and_weights() -> (Vec<Choice>, [f64; PARAMS]) {
        let choices = game_choices(&record(), Rule::Freestyle)
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        (choices, params_of(&WEIGHTS.eval[EvalSet::Gomoku.index()]))
    }

    #[test]
    fn the_gradient_raises_the_move_played() {
        let (choices, w) = choices_and_weights();
        let t = 50.0;
        let (before, _) = choice_error(&choices, &w, t);
        let mut gradient = [0.0; PARAMS];
        add_choice_gradient(&choices, &w, t, 1.0, &mut gradient);
        let norm: f64 = gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
        assert!(norm > 0.0);
        let stepped: [f64; PARAMS] = std::array::from_fn(|i| w[i] - 0.5 * gradient[i] / norm);
        let (after, _) = choice_error(&choices, &stepped, t);
        assert!(after < before, "{after} !< {before}");
    }

    #[test]
    fn the_temperature_fit_finds_the_minimum() {
        let (choices, w) = choices_and_weights();
        let t = fit_temperature(&choices, &w);
        let at = choice_error(&choices, &w, t).0;
        assert!(at <= choice_error(&choices, &w, t * 1.5).0);
        assert!(at <= choice_error(&choices, &w, t / 1.5).0);
    }
}
