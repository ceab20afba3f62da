//! Evaluation: a static score of a position from the board's counts of
//! cells by threat and by pair class for both colours, from the side to
//! move's point of view, and the worth of single cells for move ordering.
//! Every weight lives in `WEIGHTS`; the score is linear in `Features`, which
//! is what `pbrain-wuzi tune` fits.

use crate::board::{Board, Color, PairClass, Pattern, Pos, Rule, Threat};
pub mod net;
pub mod score;

pub use score::Score;

/// The static score never leaves this band, well inside the mate scores.
pub const EVAL_LIMIT: Score = 20_000;

/// Which table of `Weights::eval` a position is scored with. Renju is not
/// symmetric (Black's fouls, White's overlines), so each side to move there
/// has its own table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EvalSet {
    /// Freestyle, standard and caro, either side to move.
    Gomoku,
    /// Renju, Black to move.
    RenjuBlack,
    /// Renju, White to move.
    RenjuWhite,
}

impl EvalSet {
    pub const COUNT: usize = 3;
    pub const ALL: [EvalSet; EvalSet::COUNT] =
        [EvalSet::Gomoku, EvalSet::RenjuBlack, EvalSet::RenjuWhite];

    pub fn of(rule: Rule, to_move: Color) -> EvalSet {
        match (rule, to_move) {
            (Rule::Renju, Color::Black) => EvalSet::RenjuBlack,
            (Rule::Renju, Color::White) => EvalSet::RenjuWhite,
            _ => EvalSet::Gomoku,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// The weights of one `EvalSet`.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// Worth of each empty cell where the side to move has this threat.
    pub own_cells: [i32; Threat::COUNT],
    /// Cost of each empty cell where the opponent has this threat.
    pub their_cells: [i32; Threat::COUNT],
    /// Worth of each empty cell whose two best lines for the side to move
    /// are this pair (by `PairClass::index`), on top of its threat.
    pub own_pairs: [i32; PairClass::COUNT],
    /// Cost of each empty cell with this pair for the opponent.
    pub their_pairs: [i32; PairClass::COUNT],
    /// The side to move can make a double three or four-three and the
    /// opponent has no four to interpose: nearly a win.
    pub initiative: i32,
    /// Bonus for having the move.
    pub tempo: i32,
}

/// The move-ordering key's weights. A move's key, for the side to move, is
/// its own worth there (`own_*`: what its stone would make) plus the worth
/// of taking the cell from the opponent (`their_*`: what the opponent's
/// stone would make there).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderWeights {
    /// By `Pattern as usize`, summed over the cell's lines.
    pub own_pattern: [i32; Pattern::COUNT],
    pub their_pattern: [i32; Pattern::COUNT],
    /// By `Threat::index`, for the lines' combined threat.
    pub own_threat: [i32; Threat::COUNT],
    pub their_threat: [i32; Threat::COUNT],
}

/// Every number the evaluation uses.
pub struct Weights {
    /// Move ordering (`cell_value`, `block_value`) in every rule but renju.
    pub order: OrderWeights,
    /// Move ordering in renju (`order_weights`).
    pub renju_order: OrderWeights,
    /// The static evaluation's weights, by `EvalSet::index`.
    pub eval: [EvalWeights; EvalSet::COUNT],
}

pub const WEIGHTS: Weights = Weights {
    // Hand-set; the opponent's half is the own half halved.
    order: OrderWeights {
        //           None Over Two OpenTwo Three OpenThree Four OpenFour DoubleFour Five
        own_pattern: [0, 0, 4, 14, 12, 50, 60, 400, 400, 2000],
        their_pattern: [0, 0, 2, 7, 6, 25, 30, 200, 200, 1000],
        //          Forb None Two OpenTwo Three OpenThree DoubleThree Four FourThree DoubleFour OpenFour Five
        own_threat: [0, 0, 0, 0, 0, 0, 250, 0, 500, 600, 0, 0],
        their_threat: [0, 0, 0, 0, 0, 0, 125, 0, 250, 300, 0, 0],
    },
    // Fitted by `pbrain-wuzi tune-order` (see README, Evaluation); in
    // matches it helped renju and not freestyle.
    renju_order: OrderWeights {
        //           None Over Two OpenTwo Three OpenThree Four OpenFour DoubleFour Five
        own_pattern: [0, 0, 10, 42, 44, 36, -271, 400, 400, 2000],
        their_pattern: [0, 0, 2, 14, 24, -5, 20, 200, 200, 1000],
        //          Forb None Two OpenTwo Three OpenThree DoubleThree Four FourThree DoubleFour OpenFour Five
        own_threat: [0, 0, 8, 5, 6, 68, 85, 375, 500, 600, 0, 0],
        their_threat: [94, 0, 2, -1, 2, 70, 126, 62, 165, 300, 0, 0],
    },
    // Fitted by `pbrain-wuzi tune` (see README, Evaluation). The pairs run
    // by `PairClass::index`: (best, second) line levels (0,0) (1,0) (1,1)
    // (2,0) (2,1) (2,2) (3,0) … (6,6), the levels being nothing, two, open
    // two, three, open three, four, open four or better.
    eval: [
        // Gomoku
        EvalWeights {
            own_cells: [0, 0, 4, 9, 29, 56, 76, 111, 1511, 250, 250, 0],
            their_cells: [0, 0, 1, 5, 25, 35, 86, 102, 493, 23, 303, 0],
            own_pairs: [
                0, -2, -5, -12, 8, 14, -15, -10, 24, 47, -7, -17, 29, 36, 28, -29, -6, 83, 101, 67,
                0, 0, 0, 0, 0, 0, 0, 0,
            ],
            their_pairs: [
                0, -3, 0, -10, 11, 11, -15, 2, 17, 47, -8, -10, 30, 33, 18, -37, 7, 61, 103, 61,
                194, -78, 6, 79, 147, 48, 82, 0,
            ],
            initiative: 4252,
            tempo: -2,
        },
        // RenjuBlack
        EvalWeights {
            own_cells: [-134, 0, 1, 1, 10, 59, 5, 115, 1752, 250, 250, 0],
            their_cells: [0, 0, 0, 3, 23, 28, -4, 109, 385, -261, 251, 0],
            own_pairs: [
                0, 1, -20, -3, -1, 4, -7, -30, 27, 74, -32, -3, 31, 86, -18, -65, -13, 131, 235,
                -302, 0, 0, 0, 0, 0, 0, 0, 0,
            ],
            their_pairs: [
                0, -2, -3, -10, 5, 6, -16, 18, 9, -11, -15, -5, 30, 13, 15, -49, 19, 79, 158, 28,
                247, -84, 97, 103, -45, 165, -267, 0,
            ],
            initiative: 3218,
            tempo: 34,
        },
        // RenjuWhite
        EvalWeights {
            own_cells: [0, 0, 3, 6, 24, 51, -37, 126, 1581, 250, 250, 0],
            their_cells: [-30, 0, 0, 0, 5, 42, 56, 101, 607, 150, 216, 0],
            own_pairs: [
                0, 0, -9, -10, -1, 16, -14, 7, 11, 21, -10, -22, 29, 12, 19, -45, -4, 91, 336, -13,
                0, 0, 0, 0, 0, 0, 0, 0,
            ],
            their_pairs: [
                0, 0, -15, 0, -3, 0, -5, -21, 19, 51, -22, -5, 33, 53, -105, -58, 6, 106, 132, -66,
                0, -39, 89, 122, 154, 58, 0, 0,
            ],
            initiative: 4115,
            tempo: -3,
        },
    ],
};

/// The line patterns a stone of `color` on the empty cell `pos` would make,
/// one per direction; none on a point forbidden to it (its lines count for
/// nothing there, only the `Forbidden` threat does).
pub fn cell_patterns(
    board: &Board,
    pos: Pos,
    color: Color,
    threat: Threat,
) -> impl Iterator<Item = Pattern> + '_ {
    let directions = match threat {
        Threat::Forbidden => 0,
        _ => board.geometry().deltas().len(),
    };
    (0..directions).map(move |dir| board.pattern(pos, color, dir))
}

/// The move-ordering weights of a rule.
pub fn order_weights(rule: Rule) -> &'static OrderWeights {
    match rule {
        Rule::Renju => &WEIGHTS.renju_order,
        _ => &WEIGHTS.order,
    }
}

/// One half of the move-ordering key's pattern weights, read two
/// directions at a time: entry `b` is the weight of the pattern coded in
/// `b`'s low nibble plus that of its high nibble, each less the weight of
/// `Pattern::None`, so that a direction masked off adds nothing. Move
/// ordering weighs every candidate, so two lookups beat four.
struct PatternPairSums([i32; 256]);

impl PatternPairSums {
    const fn of(weights: &[i32; Pattern::COUNT]) -> PatternPairSums {
        // A code past the last pattern reads as `None` (`Pattern::from_code`).
        const fn above_none(weights: &[i32; Pattern::COUNT], code: usize) -> i32 {
            if code < Pattern::COUNT {
                weights[code] - weights[Pattern::None as usize]
            } else {
                0
            }
        }
        let mut sums = [0; 256];
        let mut byte = 0;
        while byte < 256 {
            sums[byte] = above_none(weights, byte & 15) + above_none(weights, byte >> 4);
            byte += 1;
        }
        PatternPairSums(sums)
    }
}

/// The pattern halves of one `OrderWeights` as pair sums.
struct OrderSums {
    own: PatternPairSums,
    their: PatternPairSums,
}

impl OrderSums {
    const fn of(weights: &OrderWeights) -> OrderSums {
        OrderSums {
            own: PatternPairSums::of(&weights.own_pattern),
            their: PatternPairSums::of(&weights.their_pattern),
        }
    }
}

static ORDER_SUMS: OrderSums = OrderSums::of(&WEIGHTS.order);
static RENJU_ORDER_SUMS: OrderSums = OrderSums::of(&WEIGHTS.renju_order);

fn order_sums(rule: Rule) -> &'static OrderSums {
    match rule {
        Rule::Renju => &RENJU_ORDER_SUMS,
        _ => &ORDER_SUMS,
    }
}

/// The move-ordering key of one board's cells: its rule's weights and its
/// geometry, looked up once for the many cells a move list weighs.
pub struct OrderKey {
    weights: &'static OrderWeights,
    sums: &'static OrderSums,
    directions: usize,
}

impl OrderKey {
    pub fn of(board: &Board) -> OrderKey {
        OrderKey {
            weights: order_weights(board.rule()),
            sums: order_sums(board.rule()),
            directions: board.geometry().deltas().len(),
        }
    }

    /// `cell_value`: the worth of a stone of `color` on `pos` to `color`.
    pub fn own(&self, board: &Board, pos: Pos, color: Color, threat: Threat) -> i32 {
        let weights = self.weights;
        self.half(
            board,
            pos,
            color,
            threat,
            &self.sums.own,
            &weights.own_pattern,
        ) + weights.own_threat[threat.index()]
    }

    /// `block_value`: the worth of taking `pos` from `color`.
    pub fn their(&self, board: &Board, pos: Pos, color: Color, threat: Threat) -> i32 {
        let weights = self.weights;
        self.half(
            board,
            pos,
            color,
            threat,
            &self.sums.their,
            &weights.their_pattern,
        ) + weights.their_threat[threat.index()]
    }

    /// The sum over `cell_patterns` of `pattern_weights`, read from `sums`.
    fn half(
        &self,
        board: &Board,
        pos: Pos,
        color: Color,
        threat: Threat,
        sums: &PatternPairSums,
        pattern_weights: &[i32; Pattern::COUNT],
    ) -> i32 {
        let directions = match threat {
            Threat::Forbidden => 0,
            _ => self.directions,
        };
        let codes = board.pattern_codes(pos, color) as usize & ((1 << (4 * directions)) - 1);
        sums.0[codes & 0xFF]
            + sums.0[codes >> 8]
            + directions as i32 * pattern_weights[Pattern::None as usize]
    }
}

/// Worth of a stone of `color` on the empty cell `pos`, whose combined
/// threat is `threat`, for `color` itself: its half of the move-ordering
/// key when `color` is to move.
pub fn cell_value(board: &Board, pos: Pos, color: Color, threat: Threat) -> i32 {
    OrderKey::of(board).own(board, pos, color, threat)
}

/// Worth, for the side to move, of taking the empty cell `pos` where the
/// opponent `color` would make `threat`: the other half of the key.
pub fn block_value(board: &Board, pos: Pos, color: Color, threat: Threat) -> i32 {
    OrderKey::of(board).their(board, pos, color, threat)
}

/// What the static evaluation reads of a position: the score is linear in
/// these, with the weights of `set`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    pub set: EvalSet,
    /// Empty cells where the side to move has each threat, by `Threat::index`.
    pub own_cells: [u16; Threat::COUNT],
    /// Empty cells where the opponent has each threat.
    pub their_cells: [u16; Threat::COUNT],
    /// Empty cells by the side to move's pair class (`PairClass::index`).
    pub own_pairs: [u16; PairClass::COUNT],
    /// Empty cells by the opponent's pair class.
    pub their_pairs: [u16; PairClass::COUNT],
    /// Whether the initiative bonus applies (see `EvalWeights::initiative`).
    pub initiative: bool,
}

impl Features {
    pub fn of(board: &Board) -> Features {
        let me = board.side_to_move();
        let them = me.opponent();
        let counts = |color: Color| Threat::ALL.map(|t| board.threat_count(color, t) as u16);
        let own_cells = counts(me);
        // Black's double threes in renju are shapes the recursive rule has
        // not confirmed; they do not count as a winning threat.
        let renju_black = board.rule() == Rule::Renju && me == Color::Black;
        let we_threaten_to_win = own_cells[Threat::FourThree.index()] > 0
            || (own_cells[Threat::DoubleThree.index()] > 0 && !renju_black);
        Features {
            set: EvalSet::of(board.rule(), me),
            own_cells,
            their_cells: counts(them),
            own_pairs: *board.pair_counts(me),
            their_pairs: *board.pair_counts(them),
            initiative: we_threaten_to_win && board.threat_count_at_least(them, Threat::Four) == 0,
        }
    }

    /// The score these features get from `weights`, before clamping.
    pub fn raw_score(&self, weights: &EvalWeights) -> i32 {
        fn sum(counts: &[u16], w: &[i32]) -> i32 {
            counts.iter().zip(w).map(|(&c, &w)| c as i32 * w).sum()
        }
        sum(&self.own_cells, &weights.own_cells) - sum(&self.their_cells, &weights.their_cells)
            + sum(&self.own_pairs, &weights.own_pairs)
            - sum(&self.their_pairs, &weights.their_pairs)
            + if self.initiative {
                weights.initiative
            } else {
                0
            }
            + weights.tempo
    }
}

/// The static score of `board` for the side to move, from the counts of
/// cells by threat and pair class of both colours (O(number of kinds)).
pub fn evaluate(board: &Board) -> Score {
    let features = Features::of(board);
    let linear = features.raw_score(&WEIGHTS.eval[features.set.index()]);
    (linear + network_score(&features)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The share of its network's correction that the score adds. The network
/// is fitted to predict results; at that full weight the search, which
/// seeks out the positions the score overrates, finds its errors. Against
/// the whole correction, 0.3 and 0.6 of it both score +56 Elo in freestyle,
/// 0.6 +40 in renju, and none of it −117 (node-limited self-play;
/// docs/evaluation.md, "How much of the network the score takes").
pub const NETWORK_SHARE: f32 = 0.5;

/// What the network of `features`' table set adds to the linear score
/// (its share of the correction), rounded; 0 for a set without one.
pub fn network_score(features: &Features) -> Score {
    net::net(features.set).map_or(0, |n| {
        (n.correction(features) * NETWORK_SHARE).round() as i32
    })
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

    /// The key halves as first defined: each direction's pattern weighed
    /// on its own.
    fn key_half_by_directions(board: &Board, pos: Pos, color: Color, own: bool) -> i32 {
        let threat = board.threat(pos, color);
        let order = order_weights(board.rule());
        let (patterns, threats) = match own {
            true => (&order.own_pattern, &order.own_threat),
            false => (&order.their_pattern, &order.their_threat),
        };
        cell_patterns(board, pos, color, threat)
            .map(|p| patterns[p as usize])
            .sum::<i32>()
            + threats[threat.index()]
    }

    #[test]
    fn key_halves_by_pair_sums_equal_the_sum_over_directions() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(11);
        let mut checked_with_patterns = 0;
        for rule in Rule::ALL {
            for geometry in Geometry::ALL {
                let mut board = Board::with_geometry(15, 15, rule, geometry).unwrap();
                for _ in 0..60 {
                    let near: Vec<Pos> = board.candidates().collect();
                    let Some(&pos) = near.get(rng.gen_range(0..near.len().max(1))) else {
                        board.make(Pos::new(7, 7));
                        continue;
                    };
                    board.make(pos);
                    for pos in board.empty_cells() {
                        for color in [Color::Black, Color::White] {
                            let threat = board.threat(pos, color);
                            let own = key_half_by_directions(&board, pos, color, true);
                            let their = key_half_by_directions(&board, pos, color, false);
                            assert_eq!(cell_value(&board, pos, color, threat), own);
                            assert_eq!(block_value(&board, pos, color, threat), their);
                            checked_with_patterns +=
                                usize::from(board.pattern_codes(pos, color) != 0);
                        }
                    }
                }
            }
        }
        assert!(checked_with_patterns > 1000);
    }

    #[test]
    fn the_score_is_the_table_plus_the_network() {
        let b = board(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X . . . . .
            . . . . O . . . .
            . . . . X O . . .
            . . . . . O . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        );
        let features = Features::of(&b);
        let linear = features.raw_score(&WEIGHTS.eval[features.set.index()]);
        let correction = net::net(features.set).map_or(0.0, |n| n.correction(&features));
        assert!(correction.abs() >= 2.0, "the network adds nothing here");
        let added = (correction * NETWORK_SHARE).round() as i32;
        assert_eq!(evaluate(&b), linear + added);
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
