//! Match statistics: score, logistic Elo difference with a 95 % interval, the
//! likelihood of superiority (LOS), and a sequential probability ratio test.
//!
//! Elo is logistic: `score = 1 / (1 + 10^(-elo/400))`.
//!
//! The SPRT is the generalised SPRT with the normal approximation of the
//! log-likelihood ratio that fishtest and cutechess use (M. Van den Bergh):
//!
//! ```text
//! LLR = N · (s1 − s0) · (2·s − s0 − s1) / (2·σ²)
//! ```
//!
//! where `N` is the number of independent samples, `s` their observed mean
//! score, `σ²` the observed variance of one sample's score, and `s0`, `s1`
//! the scores that `elo0` and `elo1` stand for. The test stops with H1 (the
//! first engine is at least `elo1` stronger) when LLR ≥ ln((1−β)/α), with H0
//! (at most `elo0`) when LLR ≤ ln(β/(1−α)).
//!
//! Two models of a sample:
//! * **trinomial**: one game, scoring 0, ½ or 1 (`Tally`);
//! * **pentanomial**: one pair of games on the same opening with colours
//!   swapped, scoring 0, ¼, ½, ¾ or 1 on average (0 to 2 points, `PairTally`).
//!   The trinomial model treats the two games as independent; they are not.
//!   An opening that favours one colour makes them anti-correlated (the
//!   trinomial variance is too high and the test slow); a large strength
//!   gap makes pairs tend to 0 or 2 points (too low, and the test rash). The
//!   pentanomial model measures the variance that is there.
//!
//! In both, a result kind that has not occurred yet counts as `1/(k − 1)` of
//! a sample for `k` kinds (half a game, a quarter of a pair): if every result
//! so far is alike, one phantom sample is spread over the other kinds.
//! Otherwise a run of identical results has zero variance and the test could
//! never stop.

/// Results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// Two-sided 95 % quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_985;

/// The Elo difference that an expected score stands for.
pub fn elo_from_score(score: f64) -> f64 {
    // `+ 0.0` turns the -0.0 of an even score into 0.0 for printing.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, Abramowitz & Stegun 7.1.26 (absolute error < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// Colour-swapped game pairs from the first engine's point of view:
/// `counts[k]` pairs scored `k` half-points out of 2 points (0, ½, 1, 1½, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairTally {
    pub counts: [u32; 5],
}

impl PairTally {
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Adds a finished pair that scored `half_points` (0 to 4; more is
    /// clamped).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// Per-pair mean and variance of the pair's average score (with the
    /// quarter-pair prior), and the number of pairs they stand for.
    pub fn moments(&self) -> Option<Moments> {
        let outcomes = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &count)| (count, k as f64 / 4.0));
        moments(outcomes)
    }
}

/// Mean, variance and size of a sample, after the prior for empty kinds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    pub samples: f64,
    pub mean: f64,
    pub variance: f64,
}

/// The moments of `(count, score)` outcomes, each of the `k` kinds with no
/// count taken as `1/(k − 1)` of a sample; `None` when nothing has been
/// counted.
fn moments(outcomes: impl Iterator<Item = (u32, f64)> + Clone) -> Option<Moments> {
    if outcomes.clone().all(|(count, _)| count == 0) {
        return None;
    }
    let prior = 1.0 / (outcomes.clone().count().max(2) - 1) as f64;
    let weighted = outcomes.map(move |(count, score)| {
        let weight = if count == 0 { prior } else { count as f64 };
        (weight, score)
    });
    let samples: f64 = weighted.clone().map(|(w, _)| w).sum();
    let mean = weighted.clone().map(|(w, x)| w * x).sum::<f64>() / samples;
    let variance = weighted.map(|(w, x)| w * (x - mean).powi(2)).sum::<f64>() / samples;
    Some(Moments {
        samples,
        mean,
        variance,
    })
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game (win 1, draw ½), or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / games as f64)
    }

    /// Per-game mean and variance of the score with the half-game prior.
    pub fn moments(&self) -> Option<Moments> {
        let outcomes = [(self.wins, 1.0), (self.draws, 0.5), (self.losses, 0.0)];
        moments(outcomes.into_iter())
    }

    /// Per-game variance of the score, from the observed frequencies.
    fn variance(&self) -> Option<f64> {
        let score = self.score()?;
        let n = self.games() as f64;
        Some(
            (self.wins as f64 * (1.0 - score).powi(2)
                + self.draws as f64 * (0.5 - score).powi(2)
                + self.losses as f64 * score.powi(2))
                / n,
        )
    }

    /// Elo difference; `None` without games or with a 0 % / 100 % score
    /// (infinite).
    pub fn elo(&self) -> Option<f64> {
        self.score()
            .filter(|s| *s > 0.0 && *s < 1.0)
            .map(elo_from_score)
    }

    /// Half-width of the 95 % interval of the Elo difference, as cutechess
    /// gives it: the mean of the distances to the Elo of score ± 1.96 σ/√N.
    pub fn elo_error95(&self) -> Option<f64> {
        let score = self.score()?;
        let deviation = (self.variance()? / self.games() as f64).sqrt();
        let low = score - Z_95 * deviation;
        let high = score + Z_95 * deviation;
        (low > 0.0 && high < 1.0).then(|| (elo_from_score(high) - elo_from_score(low)) / 2.0)
    }

    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger, from wins and losses only (draws carry no information).
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0).then(|| {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        })
    }
}

/// What one sample of the SPRT is (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// One game.
    Trinomial,
    /// One colour-swapped pair of games (the default: every opening is
    /// played twice).
    #[default]
    Pentanomial,
}

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    /// H0: the first engine is not `elo1` stronger (reject the change).
    AcceptH0,
    /// H1: the first engine is at least `elo1` stronger (accept the change).
    AcceptH1,
}

impl Sprt {
    /// (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The trinomial log-likelihood ratio of H1 against H0: one sample a game.
    pub fn llr(&self, tally: &Tally) -> f64 {
        self.llr_of(tally.moments())
    }

    /// The pentanomial log-likelihood ratio: one sample a colour-swapped pair.
    pub fn llr_pairs(&self, pairs: &PairTally) -> f64 {
        self.llr_of(pairs.moments())
    }

    fn llr_of(&self, moments: Option<Moments>) -> f64 {
        let Some(Moments {
            samples,
            mean,
            variance,
        }) = moments
        else {
            return 0.0;
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        samples * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        self.verdict_of(self.llr(tally))
    }

    pub fn verdict_pairs(&self, pairs: &PairTally) -> SprtVerdict {
        self.verdict_of(self.llr_pairs(pairs))
    }

    fn verdict_of(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }

    /// Parses `elo0,elo1,alpha,beta` (e.g. `0,10,0.05,0.05`).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let values: Vec<f64> = text
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("bad SPRT value '{v}'"))
            })
            .collect::<Result<_, _>>()?;
        let [elo0, elo1, alpha, beta] = values[..] else {
            return Err("SPRT needs elo0,elo1,alpha,beta".into());
        };
        let probability = |p: f64| p > 0.0 && p < 0.5;
        let ordered = elo0 < elo1; // false for NaN too
        if !ordered || !probability(alpha) || !probability(beta) {
            return Err("SPRT needs elo0 < elo1 and 0 < alpha, beta < 0.5".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, losses: u32, draws: u32) -> Tally {
        Tally {
            wins,
            losses,
            draws,
        }
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn erf_matches_table_values() {
        // Abramowitz & Stegun table 7.1.
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_0, 2e-7));
    }

    #[test]
    fn elo_and_score_are_inverse() {
        // +10 Elo: 1/(1+10^(-1/40)) = 0.514387...
        assert!(close(score_from_elo(10.0), 0.514_387_9, 1e-6));
        assert!(close(elo_from_score(score_from_elo(-123.0)), -123.0, 1e-9));
        // A 75 % score is 400·log10(3) = 190.85 Elo.
        assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
    }

    #[test]
    fn elo_los_and_error_of_a_small_match() {
        // +10 -5 =5: score 12.5/20 = 0.625, Elo = -400·log10(0.6) = 88.74.
        // Variance = (10·0.375² + 5·0.125² + 5·0.625²)/20 = 0.171875, σ/√N = 0.0927;
        // Elo(0.625 ± 1.96·0.0927) = 248.19 / -39.57 → ±143.87.
        // LOS = ½(1 + erf(5/√30)) = 0.90165.
        let t = tally(10, 5, 5);
        assert_eq!(t.score(), Some(0.625));
        assert!(close(t.elo().unwrap(), 88.739_5, 1e-3));
        assert!(close(t.elo_error95().unwrap(), 143.874_9, 1e-2));
        assert!(close(t.los().unwrap(), 0.901_647, 1e-5));
    }

    #[test]
    fn degenerate_tallies_have_no_elo() {
        assert_eq!(tally(0, 0, 0).score(), None);
        assert_eq!(tally(3, 0, 0).elo(), None, "a 100 % score is infinite");
        assert_eq!(tally(0, 0, 4).los(), None, "draws alone say nothing");
        assert_eq!(tally(0, 0, 4).elo(), Some(0.0));
        // Equal wins and losses: exactly even.
        assert!(close(tally(7, 7, 2).los().unwrap(), 0.5, 1e-9));
    }

    #[test]
    fn sprt_bounds_and_llr_match_hand_computation() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        let (lower, upper) = sprt.bounds();
        // ln(0.05/0.95) = -2.944439
        assert!(close(lower, -2.944_439, 1e-6));
        assert!(close(upper, 2.944_439, 1e-6));
        // +60 -40 =100: s = 0.55, σ² = 0.1225, s0 = 0.5, s1 = 0.5143879;
        // LLR = 200·0.0143879·(1.1 − 1.0143879)/(2·0.1225) = 1.00549.
        let t = tally(60, 40, 100);
        assert!(close(sprt.llr(&t), 1.005_49, 1e-4));
        assert_eq!(sprt.verdict(&t), SprtVerdict::Continue);
        // +300 -250 =450: LLR = 1.87166, still undecided.
        assert!(close(sprt.llr(&tally(300, 250, 450)), 1.871_66, 1e-4));
    }

    #[test]
    fn sprt_decides_both_ways() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        assert_eq!(sprt.verdict(&tally(600, 400, 1000)), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&tally(400, 600, 1000)), SprtVerdict::AcceptH0);
        assert_eq!(sprt.llr(&tally(0, 0, 0)), 0.0);
    }

    #[test]
    fn sprt_one_sided_results_use_the_half_game_prior() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        // +2 -0 =0 counts as +2 -0.5 =0.5: s = 0.75, σ² = 0.145833,
        // LLR = 3·0.0143879·(1.5 − 1.0143879)/(2·0.145833) = 0.07187.
        assert!(close(sprt.llr(&tally(2, 0, 0)), 0.071_87, 1e-4));
        // Twenty straight wins decide for H1 (LLR 4.85); fifty draws do not
        // yet (-1.08), 150 do (-9.4).
        assert_eq!(sprt.verdict(&tally(20, 0, 0)), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&tally(0, 0, 50)), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&tally(0, 0, 150)), SprtVerdict::AcceptH0);
    }

    fn pairs(counts: [u32; 5]) -> PairTally {
        PairTally { counts }
    }

    #[test]
    fn pentanomial_llr_matches_hand_computation() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        // 100 pairs scoring 0, ½, 1, 1½, 2 points: 5, 10, 40, 30, 15.
        // Pair means x = 0, .25, .5, .75, 1:
        // s = (10·.25 + 40·.5 + 30·.75 + 15)/100 = 0.6;
        // σ² = (5·.36 + 10·.1225 + 40·.01 + 30·.0225 + 15·.16)/100 = 0.065;
        // LLR = 100·0.0143872·(1.2 − 1.0143872)/(2·0.065) = 2.05419.
        let p = pairs([5, 10, 40, 30, 15]);
        let m = p.moments().unwrap();
        assert_eq!(p.pairs(), 100);
        assert!(close(m.mean, 0.6, 1e-12));
        assert!(close(m.variance, 0.065, 1e-12));
        assert!(close(sprt.llr_pairs(&p), 2.054_19, 1e-4));
        assert_eq!(sprt.verdict_pairs(&p), SprtVerdict::Continue);
        // Twice the pairs: twice the LLR, past the bound (2.94).
        let doubled = pairs([10, 20, 80, 60, 30]);
        assert!(close(sprt.llr_pairs(&doubled), 4.108_38, 1e-4));
        assert_eq!(sprt.verdict_pairs(&doubled), SprtVerdict::AcceptH1);
    }

    #[test]
    fn pentanomial_variance_is_lower_when_pairs_split() {
        // 50 pairs, each a win and a loss (1 point of 2): the trinomial
        // view of the same 100 games, +50 -50 =0 (+ half a draw), has
        // per-game variance 25/100.5 = 0.248756; the pentanomial one, after
        // the quarter-pair prior on the four empty kinds (51 samples, mean
        // ½), has pair variance (.25·.25 + .25·.0625 + .25·.0625 + .25·.25)
        // /51 = 0.0030637, i.e. 0.006 per game instead of 0.249.
        let p = pairs([0, 0, 50, 0, 0]);
        let m = p.moments().unwrap();
        assert!(close(m.samples, 51.0, 1e-12));
        assert!(close(m.mean, 0.5, 1e-12));
        assert!(close(m.variance, 0.003_063_7, 1e-6));
        let t = tally(50, 50, 0).moments().unwrap();
        assert!(close(t.variance, 0.248_756, 1e-6));
        // An even score: LLR = 51·0.0143872·(1 − 1.0143872)/(2·0.0030637)
        // = -1.7229, against 100.5·…/(2·0.248756) = -0.0418 trinomially.
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        assert!(close(sprt.llr_pairs(&p), -1.722_9, 1e-3));
        assert!(close(sprt.llr(&tally(50, 50, 0)), -0.041_8, 1e-3));
        assert_eq!(sprt.llr_pairs(&PairTally::default()), 0.0);
    }

    #[test]
    fn sprt_parse_refuses_nonsense() {
        for text in ["0,10,0.05", "10,0,0.05,0.05", "0,10,0,0.05", "a,b,c,d"] {
            assert!(Sprt::parse(text).is_err(), "{text}");
        }
    }
}
