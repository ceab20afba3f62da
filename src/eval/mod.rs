//! Evaluation: a static score of a position from the line shapes both sides
//! could make, from the side to move's point of view. Weights live in one
//! table, `WEIGHTS`, so that they can be tuned.

pub mod shape;

pub use shape::{Shape, ShapeReader, Threat};

use crate::search::Score;

/// Every number the evaluation uses.
pub struct Weights {
    /// Worth of a stone on an empty cell making this shape on one line,
    /// indexed by `Shape as usize`.
    pub shape: [i32; 10],
    /// Extra worth of a cell whose lines combine into this threat, indexed by
    /// `Threat as usize`.
    pub threat: [i32; 9],
    /// Share (in 1/64) of the opponent's cell worth that counts against us;
    /// below 64 because we move first.
    pub defence_share: i32,
    /// Share (in 1/64) of our single best cell's worth added on top: we get to
    /// play it now.
    pub initiative_share: i32,
    /// Divides the raw total into centi-stones.
    pub scale: i32,
}

pub const WEIGHTS: Weights = Weights {
    //       Dead Over One Two OpenTwo Three OpenThree Four OpenFour  Five
    shape: [0, 0, 1, 4, 14, 12, 50, 60, 400, 2000],
    //       Forbidden Quiet OpenThree DoubleThree Four FourThree DoubleFour OpenFour Five
    threat: [0, 0, 0, 250, 0, 500, 600, 0, 0],
    defence_share: 56,
    initiative_share: 48,
    scale: 1,
};

/// Worth of a stone on a cell for one colour, from its four line shapes and
/// their combined threat.
pub fn cell_value(shapes: &[Shape; 4], threat: Threat) -> i32 {
    if threat == Threat::Forbidden {
        return 0;
    }
    let lines: i32 = shapes.iter().map(|&s| WEIGHTS.shape[s as usize]).sum();
    lines + WEIGHTS.threat[threat as usize]
}

/// Sums over the candidate cells of one position, gathered by move generation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Sum of the side to move's cell worths.
    pub own_total: i32,
    /// Sum of the opponent's cell worths.
    pub their_total: i32,
    /// The side to move's best single cell.
    pub own_best: i32,
}

impl Tally {
    pub fn add(&mut self, own: i32, theirs: i32) {
        self.own_total += own;
        self.their_total += theirs;
        self.own_best = self.own_best.max(own);
    }
}

/// The static score of a position from its tally, for the side to move.
/// Kept well inside the mate bounds.
pub fn evaluate(tally: &Tally) -> Score {
    let raw = tally.own_total - tally.their_total * WEIGHTS.defence_share / 64
        + tally.own_best * WEIGHTS.initiative_share / 64;
    (raw / WEIGHTS.scale).clamp(-20_000, 20_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stronger_shapes_are_worth_more() {
        use Shape::*;
        let three = cell_value(&[OpenThree, One, One, One], Threat::OpenThree);
        let two = cell_value(&[OpenTwo, One, One, One], Threat::Quiet);
        let double = cell_value(&[OpenThree, OpenThree, One, One], Threat::DoubleThree);
        assert!(double > three && three > two);
    }

    #[test]
    fn the_side_to_move_is_favoured_in_a_mirror() {
        let mut tally = Tally::default();
        tally.add(100, 100);
        assert!(evaluate(&tally) > 0);
    }
}
