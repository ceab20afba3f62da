//! Evaluation: a static score of a position from the board's threat counts
//! for both colours, from the side to move's point of view, and the worth of
//! single cells for move ordering. Every weight lives in `WEIGHTS`.

use crate::board::{Board, Color, Pattern, Pos, Threat};
use crate::search::Score;

/// Every number the evaluation uses.
pub struct Weights {
    /// Worth of a cell on which a stone makes this line pattern, by
    /// `Pattern as usize`; summed over the cell's lines for move ordering.
    pub pattern: [i32; Pattern::COUNT],
    /// Extra worth of a cell whose lines combine into this threat, by
    /// `Threat::index` (move ordering).
    pub threat_bonus: [i32; Threat::COUNT],
    /// Worth of each empty cell where the side to move has this threat.
    pub own_cells: [i32; Threat::COUNT],
    /// Cost of each empty cell where the opponent has this threat.
    pub their_cells: [i32; Threat::COUNT],
    /// The side to move can make a double three or four-three and the
    /// opponent has no four to interpose: nearly a win.
    pub initiative: i32,
    /// Bonus for having the move.
    pub tempo: i32,
}

pub const WEIGHTS: Weights = Weights {
    //        None Over Two OpenTwo Three OpenThree Four OpenFour DoubleFour Five
    pattern: [0, 0, 4, 14, 12, 50, 60, 400, 400, 2000],
    //             Forb None Two OpenTwo Three OpenThree DoubleThree Four FourThree DoubleFour OpenFour Five
    threat_bonus: [0, 0, 0, 0, 0, 0, 250, 0, 500, 600, 0, 0],
    own_cells: [0, 0, 3, 10, 12, 40, 150, 45, 250, 250, 250, 0],
    their_cells: [0, 0, 3, 9, 10, 35, 100, 40, 150, 150, 200, 0],
    initiative: 1500,
    tempo: 20,
};

/// Worth of a stone of `color` on the empty cell `pos`, whose combined
/// threat is `threat`: the move-ordering key.
pub fn cell_value(board: &Board, pos: Pos, color: Color, threat: Threat) -> i32 {
    if threat == Threat::Forbidden {
        return 0;
    }
    let directions = board.geometry().deltas().len();
    let lines: i32 = (0..directions)
        .map(|dir| WEIGHTS.pattern[board.pattern(pos, color, dir) as usize])
        .sum();
    lines + WEIGHTS.threat_bonus[threat.index()]
}

/// The static score of `board` for the side to move, from the counts of
/// threat cells of both colours (O(number of threat kinds)).
pub fn evaluate(board: &Board) -> Score {
    let me = board.side_to_move();
    let them = me.opponent();
    let sum = |color: Color, weights: &[i32; Threat::COUNT]| -> i32 {
        Threat::ALL
            .iter()
            .map(|&t| board.threat_count(color, t) as i32 * weights[t.index()])
            .sum()
    };
    let mut score = sum(me, &WEIGHTS.own_cells) - sum(them, &WEIGHTS.their_cells) + WEIGHTS.tempo;
    let we_threaten_to_win = board.threat_count(me, Threat::FourThree) > 0
        || (board.threat_count(me, Threat::DoubleThree) > 0 && !renju_black(board, me));
    if we_threaten_to_win && board.threat_count_at_least(them, Threat::Four) == 0 {
        score += WEIGHTS.initiative;
    }
    score.clamp(-20_000, 20_000)
}

/// Black under renju, whose double-three counts are unconfirmed shapes.
fn renju_black(board: &Board, color: Color) -> bool {
    board.rule() == crate::board::Rule::Renju && color == Color::Black
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, Rule};

    fn board(drawing: &str) -> Board {
        Board::from_diagram(drawing, Rule::Freestyle, Geometry::Square).unwrap()
    }

    #[test]
    fn stronger_shapes_are_worth_more() {
        let b = board(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . O O . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        );
        let value = |x, y| {
            let pos = Pos::new(x, y);
            cell_value(&b, pos, Color::Black, b.threat(pos, Color::Black))
        };
        // Extending the two to an open three beats a point far from it.
        assert!(value(4, 2) > value(7, 7));
    }

    #[test]
    fn an_open_three_is_worth_more_than_a_two() {
        let three = board(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . O . O . O .
            . . . . . . . . .
            . . . . . . . . .
            ",
        );
        let two = board(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X . . . X .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . O . O . O .
            . . . . . . . . .
            . . . . . . . . .
            ",
        );
        // Black to move in both: the open three is worth more.
        assert!(evaluate(&three) > evaluate(&two));
    }
}
