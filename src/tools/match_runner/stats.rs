//! Match statistics: score, logistic Elo difference with a 95 % interval, the
//! likelihood of superiority (LOS), and a sequential probability ratio test.
//!
//! Elo is logistic: `score = 1 / (1 + 10^(-elo/400))`.
//!
//! The SPRT is the generalised SPRT on trinomial (win/draw/loss) results with
//! the normal approximation of the log-likelihood ratio that fishtest and
//! cutechess used for years (M. Van den Bergh):
//!
//! ```text
//! LLR = N · (s1 − s0) · (2·s − s0 − s1) / (2·σ²)
//! ```
//!
//! where `s` is the observed mean score, `σ²` the observed per-game variance of
//! the score (from the W/D/L frequencies), and `s0`, `s1` the scores that
//! `elo0` and `elo1` stand for. The test stops with H1 (the first engine is at
//! least `elo1` stronger) when LLR ≥ ln((1−β)/α), with H0 (at most `elo0`)
//! when LLR ≤ ln(β/(1−α)). A result kind with no games yet counts as half a
//! game in the LLR (see `Sprt::llr`).

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

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game (win 1, draw ½), or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / games as f64)
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

    /// The log-likelihood ratio of H1 against H0 (normal approximation).
    ///
    /// A result kind that has not occurred yet counts as half a game (a
    /// Jeffreys-style prior): otherwise a run of wins only, or draws only, has
    /// zero variance and the test could never stop.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        let prior = |count: u32| if count == 0 { 0.5 } else { count as f64 };
        let (wins, losses, draws) = (prior(tally.wins), prior(tally.losses), prior(tally.draws));
        let games = wins + losses + draws;
        let score = (wins + draws / 2.0) / games;
        let variance =
            (wins * (1.0 - score).powi(2) + draws * (0.5 - score).powi(2) + losses * score.powi(2))
                / games;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        games * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = self.llr(tally);
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

    #[test]
    fn sprt_parse_refuses_nonsense() {
        for text in ["0,10,0.05", "10,0,0.05,0.05", "0,10,0,0.05", "a,b,c,d"] {
            assert!(Sprt::parse(text).is_err(), "{text}");
        }
    }
}
