//! Time management: turns the manager's clock (`timeout_turn`, `timeout_match`,
//! `time_left`) into a soft target and a hard limit for one move, and decides
//! between iterations whether another one is worth starting.
//!
//! The hard limit is never passed: the search stops there whatever it is
//! doing, and keeps what the unfinished iteration already proved (see
//! `engine.rs`). So a per-move limit is used to the end, and under a match
//! clock an iteration is started when about half of it is expected to fit
//! before the target, not all of it.

use super::TimeBudget;
use std::time::{Duration, Instant};

/// The clock as the manager described it. `None` means "no limit".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Per-move limit in ms. `INFO timeout_turn 0` is read as "no per-move
    /// limit", as Rapfi, c-gomoku-cli and Yixin-Board use it.
    pub turn_ms: Option<u64>,
    /// Whole-match limit in ms (`timeout_match`, 0 = none).
    pub match_ms: Option<u64>,
    /// Time left in the match in ms (`time_left`; 2147483647 = none). Negative
    /// values from the manager are stored as 0.
    pub left_ms: Option<u64>,
    /// Fischer increment per move in ms.
    pub increment_ms: u64,
}

impl Default for Clock {
    /// The pbrain skeleton's defaults: 30 s a move, no match limit.
    fn default() -> Self {
        Clock {
            turn_ms: Some(30_000),
            match_ms: None,
            left_ms: None,
            increment_ms: 0,
        }
    }
}

/// Time kept back from every move for process scheduling and pipe latency.
const SAFETY_MARGIN_MS: u64 = 30;
/// Share of the per-move limit kept back on top of the fixed margin, so that
/// long limits keep a proportionate reserve. A fiftieth: the manager gets
/// the move within about 30 ms of the hard limit even with both cores busy
/// (934 moves at 500 ms, 460 ms searched: at most 487 ms as wuzi-match timed
/// them; docs/search.md), and every real manager adds at least a second of
/// tolerance, so a larger share only leaves time unused (a tenth left 80 ms
/// of every 500 ms move idle).
const TURN_RESERVE_DIVISOR: u64 = 50;
/// The proportional reserve never exceeds this: a one-second reserve covers
/// any scheduling hiccup even for very long per-move limits.
const TURN_RESERVE_CAP_MS: u64 = 1_000;
/// Moves we plan to still have to play when the match clock is the limit:
/// the soft target is this share of what is left. Games between strong
/// engines are mostly decided in their first dozen moves after the opening,
/// so the clock is spent there: with a twentieth, 60 s games against Rapfi
/// ended with a median of 23 s of wuzi's clock unused, and a tenth scored
/// better in the same openings (docs/search.md, "Time").
const MOVES_TO_GO: u64 = 10;
/// No move takes more than this share of what is left of the match clock,
/// as in Piskvork's reference brain and Rapfi (1/7).
const MATCH_HARD_DIVISOR: u64 = 7;
/// An iteration takes about this many times as long as the one before it
/// (2.5–3.3 measured on the bench positions, depths 7 to 10).
const ITERATION_GROWTH: u32 = 3;

/// How settled the search's answer is, from the iterations so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stability {
    /// The best move just changed: worth more time.
    Changed,
    Normal,
    /// The same best move for several iterations at a steady score.
    Settled,
}

impl TimeBudget {
    /// An equal share of what is left of this budget at `now`, for one of
    /// `parts` searches still to run one after another (multi-PV, swap2).
    pub fn share(&self, parts: u32, now: Instant) -> TimeBudget {
        let used = now.saturating_duration_since(self.start);
        let parts = parts.max(1);
        TimeBudget {
            start: now,
            soft: self.soft.saturating_sub(used) / parts,
            hard: self.hard.saturating_sub(used) / parts,
        }
    }

    /// Whether iterative deepening should start another iteration, `elapsed`
    /// into the move, when the last one took `last_iteration`.
    ///
    /// Under a per-move limit alone (`soft == hard`) time not used is lost,
    /// so iterations go on until the hard limit cuts one: a cut iteration
    /// still tells whether another move beats the best one at the new depth.
    /// Under a match clock the time saved is banked, so an iteration is
    /// started only when about half of it is expected to end before the
    /// target: the soft target, half of it once the answer is settled, and
    /// half as much again when the best move has just changed (never past
    /// the hard limit).
    pub fn allows_next_iteration(
        &self,
        elapsed: Duration,
        last_iteration: Duration,
        stability: Stability,
    ) -> bool {
        if self.soft >= self.hard {
            return elapsed < self.hard;
        }
        let target = match stability {
            Stability::Changed => self.soft * 3 / 2,
            Stability::Normal => self.soft,
            Stability::Settled => self.soft / 2,
        };
        let half_of_next = last_iteration * ITERATION_GROWTH / 2;
        elapsed + half_of_next <= target.min(self.hard)
    }
}

/// `time_left` at or above this means "no match limit" (Piskvork and
/// c-gomoku-cli send `i32::MAX`).
pub const UNLIMITED_MS: i64 = i32::MAX as i64;

impl Clock {
    /// `INFO timeout_turn`. 0 (and anything below) means "no per-move limit",
    /// as Rapfi, c-gomoku-cli and Yixin-Board use it; the match clock then
    /// governs. (The protocol document's "as fast as possible" reading is
    /// left to the session, which plays quickly when nothing limits a move.)
    pub fn set_turn(&mut self, ms: i64) {
        self.turn_ms = (ms > 0).then_some(ms as u64);
    }

    /// `INFO timeout_match`: 0 (and anything below) means no match limit.
    pub fn set_match(&mut self, ms: i64) {
        self.match_ms = (ms > 0).then_some(ms as u64);
    }

    /// `INFO time_left`: `i32::MAX` or more means unlimited; a negative value
    /// (the manager's clock already ran out) means "move at once".
    pub fn set_left(&mut self, ms: i64) {
        self.left_ms = (ms < UNLIMITED_MS).then_some(ms.max(0) as u64);
    }

    /// `INFO time_increment` (negative values are read as 0).
    pub fn set_increment(&mut self, ms: i64) {
        self.increment_ms = ms.max(0) as u64;
    }

    /// Charges `elapsed` ms of our own thinking to the match clock, so that a
    /// manager that does not resend `time_left` still gets a shrinking budget.
    pub fn charge(&mut self, elapsed_ms: u64) {
        if let Some(left) = self.left_ms.as_mut() {
            *left = left.saturating_sub(elapsed_ms);
        }
    }

    /// The budget for the move that starts at `start`, or `None` when nothing
    /// limits it (unlimited analysis).
    pub fn budget(&self, start: Instant) -> Option<TimeBudget> {
        let turn_hard = self.turn_ms.map(|t| t.saturating_sub(turn_reserve(t)));
        let match_left = match (self.left_ms, self.match_ms) {
            (Some(left), _) => Some(left),
            (None, Some(total)) => Some(total),
            (None, None) => None,
        };
        let match_hard = match_left.map(|left| {
            let share = left / MATCH_HARD_DIVISOR + self.increment_ms;
            share
                .min(left.saturating_sub(SAFETY_MARGIN_MS))
                .saturating_sub(SAFETY_MARGIN_MS)
        });
        let hard = match (turn_hard, match_hard) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => return None,
        };
        let match_soft = match_left.map(|left| left / moves_to_go() + self.increment_ms);
        let soft = match_soft.map_or(hard, |s| s.min(hard));
        Some(TimeBudget {
            start,
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard.max(1)),
        })
    }
}

/// `MOVES_TO_GO`, or with the `knobs` feature the environment's
/// `MOVES_TO_GO`, for trying other shares of the clock in matches.
fn moves_to_go() -> u64 {
    #[cfg(feature = "knobs")]
    if let Some(v) = std::env::var("MOVES_TO_GO")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return u64::max(v, 1);
    }
    MOVES_TO_GO
}

/// What is kept back from a per-move limit of `turn_ms`.
fn turn_reserve(turn_ms: u64) -> u64 {
    SAFETY_MARGIN_MS + (turn_ms / TURN_RESERVE_DIVISOR).min(TURN_RESERVE_CAP_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_limit_keeps_a_margin() {
        let clock = Clock {
            turn_ms: Some(1000),
            ..Clock::default()
        };
        let budget = clock.budget(Instant::now()).unwrap();
        assert!(budget.hard < Duration::from_millis(1000));
        assert!(budget.hard >= Duration::from_millis(800));
        assert!(budget.soft <= budget.hard);
    }

    fn turn_only(turn_ms: u64) -> TimeBudget {
        Clock {
            turn_ms: Some(turn_ms),
            ..Clock::default()
        }
        .budget(Instant::now())
        .unwrap()
    }

    #[test]
    fn the_reserve_scales_with_the_turn_limit() {
        // Short limits keep most of their time, long ones a bounded reserve;
        // the hard limit always stays below the manager's limit.
        let cases = [
            (100, 68),
            (300, 264),
            (500, 460),
            (1_000, 950),
            (5_000, 4_870),
            (60_000, 58_970),
        ];
        for (turn, hard) in cases {
            let budget = turn_only(turn);
            assert_eq!(budget.hard, Duration::from_millis(hard), "turn {turn}");
            assert!(budget.soft <= budget.hard);
        }
        for turn in [1, 10, 30, 31] {
            let budget = turn_only(turn);
            assert!(budget.hard <= Duration::from_millis(1), "turn {turn}");
        }
    }

    #[test]
    fn match_clock_bounds_the_move() {
        let clock = Clock {
            turn_ms: Some(30_000),
            match_ms: Some(180_000),
            left_ms: Some(10_000),
            increment_ms: 0,
        };
        let budget = clock.budget(Instant::now()).unwrap();
        // A seventh of what is left at most, a tenth as the target.
        assert!(budget.hard <= Duration::from_millis(2_000));
        assert_eq!(budget.soft, Duration::from_millis(1_000));
    }

    #[test]
    fn manager_values_are_interpreted() {
        let mut clock = Clock::default();
        clock.set_turn(0);
        assert_eq!(clock.turn_ms, None);
        clock.set_turn(5000);
        assert_eq!(clock.turn_ms, Some(5000));
        clock.set_match(0);
        assert_eq!(clock.match_ms, None);
        clock.set_left(2_147_483_647);
        assert_eq!(clock.left_ms, None);
        clock.set_left(-300);
        assert_eq!(clock.left_ms, Some(0));
        clock.set_left(1000);
        clock.charge(400);
        assert_eq!(clock.left_ms, Some(600));
        clock.set_increment(-1);
        assert_eq!(clock.increment_ms, 0);
    }

    #[test]
    fn a_share_divides_what_is_left() {
        let start = Instant::now();
        let budget = TimeBudget {
            start,
            soft: Duration::from_millis(600),
            hard: Duration::from_millis(1200),
        };
        let later = start + Duration::from_millis(200);
        let share = budget.share(2, later);
        assert_eq!(share.start, later);
        assert_eq!(share.soft, Duration::from_millis(200));
        assert_eq!(share.hard, Duration::from_millis(500));
        assert_eq!(budget.share(0, start).hard, budget.hard);
    }

    #[test]
    fn no_limits_means_no_budget() {
        let clock = Clock {
            turn_ms: None,
            match_ms: None,
            left_ms: None,
            increment_ms: 0,
        };
        assert!(clock.budget(Instant::now()).is_none());
    }

    #[test]
    fn exhausted_clock_still_gives_a_positive_hard_limit() {
        let clock = Clock {
            turn_ms: Some(5_000),
            match_ms: Some(100_000),
            left_ms: Some(0),
            increment_ms: 0,
        };
        let budget = clock.budget(Instant::now()).unwrap();
        assert!(budget.hard <= Duration::from_millis(1));
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_per_move_limit_is_used_until_the_hard_limit() {
        let budget = turn_only(1_000);
        assert_eq!(budget.soft, budget.hard);
        // However long the last iteration and however settled the move,
        // only the hard limit ends the search.
        for stability in [Stability::Changed, Stability::Normal, Stability::Settled] {
            assert!(budget.allows_next_iteration(ms(600), ms(500), stability));
            assert!(budget.allows_next_iteration(ms(949), ms(800), stability));
            assert!(!budget.allows_next_iteration(ms(950), ms(1), stability));
        }
    }

    /// A budget with these soft and hard limits in ms, as a match clock gives.
    fn soft_and_hard(soft: u64, hard: u64) -> TimeBudget {
        TimeBudget {
            start: Instant::now(),
            soft: ms(soft),
            hard: ms(hard),
        }
    }

    #[test]
    fn a_match_clock_starts_an_iteration_when_half_of_it_fits() {
        let budget = soft_and_hard(1_000, 3_000);
        // The next iteration is expected to take 3 x 200 ms: half of it ends
        // at 500 + 300 ms, inside the target.
        assert!(budget.allows_next_iteration(ms(500), ms(200), Stability::Normal));
        // Half of it would end at 1 050 ms: past the target, not started.
        assert!(!budget.allows_next_iteration(ms(600), ms(300), Stability::Normal));
        // A settled answer stops at half the target; a new best move may
        // take up to half as much again.
        assert!(!budget.allows_next_iteration(ms(500), ms(200), Stability::Settled));
        assert!(budget.allows_next_iteration(ms(200), ms(100), Stability::Settled));
        assert!(budget.allows_next_iteration(ms(600), ms(300), Stability::Changed));
        assert!(!budget.allows_next_iteration(ms(1_200), ms(300), Stability::Changed));
    }

    #[test]
    fn a_new_best_move_never_borrows_past_the_hard_limit() {
        let budget = soft_and_hard(1_000, 1_100);
        assert!(budget.allows_next_iteration(ms(1_000), ms(60), Stability::Changed));
        assert!(!budget.allows_next_iteration(ms(1_000), ms(80), Stability::Changed));
    }

    fn fastgame(left_ms: u64) -> TimeBudget {
        // Gomocup's fastgame: 5 s a move, 100–120 s a game.
        Clock {
            turn_ms: Some(5_000),
            match_ms: Some(120_000),
            left_ms: Some(left_ms),
            increment_ms: 0,
        }
        .budget(Instant::now())
        .unwrap()
    }

    #[test]
    fn fastgame_opens_at_the_turn_limit_and_shares_the_rest() {
        // A full clock: the per-move limit governs and is used to the end.
        let opening = fastgame(120_000);
        assert_eq!(opening.hard, ms(4_870));
        assert_eq!(opening.soft, opening.hard);
        // Later the match clock governs: a tenth of it as the target, a
        // seventh (less the margins) as the most any move may take.
        let later = fastgame(30_000);
        assert_eq!(later.soft, ms(3_000));
        assert_eq!(later.hard, ms(30_000 / 7 - 30));
        let last_seconds = fastgame(700);
        assert!(last_seconds.hard <= ms(100) && last_seconds.soft <= last_seconds.hard);
    }

    #[test]
    fn a_game_of_hard_limits_never_empties_the_clock() {
        // The worst case: every move takes its whole hard limit, plus the
        // margin a manager's latency might add, for 200 moves.
        let mut left: u64 = 100_000;
        for _ in 0..200 {
            let budget = fastgame(left);
            let spent = budget.hard.as_millis() as u64 + SAFETY_MARGIN_MS;
            assert!(
                spent < left || left <= 2 * SAFETY_MARGIN_MS,
                "{spent} of {left}"
            );
            left = left.saturating_sub(spent);
        }
        // And the typical case, moves that take their soft target, uses most
        // of the clock by move 60 rather than hoarding it.
        let mut left: u64 = 100_000;
        for _ in 0..60 {
            left -= fastgame(left).soft.as_millis() as u64;
        }
        assert!(left < 20_000, "{left} ms left after 60 moves");
    }
}
