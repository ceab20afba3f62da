//! Scores: the unit both the evaluation and the search count in, and the
//! mate scores that only a search proves. It lives in the evaluation layer so
//! that the search reads it from below and the evaluation needs nothing from
//! above.

/// Evaluation in centi-stones from the side to move's point of view. Scores
/// beyond `MATE_BOUND` are proven results (see `mate_in`).
pub type Score = i32;

pub const MATE: Score = 30_000;
pub const MATE_BOUND: Score = MATE - 1_000;

/// The score of a win `plies` plies from the root.
pub fn mate_in(plies: u32) -> Score {
    MATE - plies as Score
}

/// The score of a loss `plies` plies from the root.
pub fn mated_in(plies: u32) -> Score {
    -MATE + plies as Score
}
