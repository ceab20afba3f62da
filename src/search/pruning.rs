//! The selectivity of the main search: how much a late move is reduced, how
//! many quiet moves a node tries, and when the static score alone settles a
//! node. Pure functions of depth and move rank over the rule's
//! `Selectivity`, so the search reads as a sequence of decisions and the
//! numbers live in one place.

use super::Score;
use crate::board::{Geometry, Rule};
use std::sync::OnceLock;

/// Nodes this close to the horizon may be cut on the static score alone
/// (razoring): at depth 1 and 2, a static score far below alpha goes
/// straight to the horizon's threat check instead of a search.
pub const RAZOR_DEPTH: i32 = 2;
/// Quiet moves are pruned by their rank up to this depth.
pub const MOVE_COUNT_DEPTH: i32 = 10;

/// The natural logarithm of `n`, from a table for the depths and ranks
/// the reductions meet: each late move needs two, and computed afresh they
/// cost about 1 % of a search.
fn ln(n: usize) -> f64 {
    const TABLED: usize = 1024;
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..TABLED).map(|i| (i as f64).ln()).collect());
    table.get(n).copied().unwrap_or_else(|| (n as f64).ln())
}

/// Hundredths of a ply taken off a PV node for each ply its table entry's
/// search fell short of the node's depth.
const STALE_PERCENT_PER_PLY: i32 = 28;
/// At most this many plies are taken off for a stale table entry.
const STALE_MAX_REDUCTION: i32 = 3;

/// Plies taken off a PV node whose table entry comes from a search of
/// `table_depth`, well short of the `depth` the node is searched to now:
/// its move still orders the node, but what made it best was seen from
/// far shallower, so the node is given less until the next iteration
/// returns with a fresher entry (Rapfi's reduction for a stale PV move).
pub fn stale_table_reduction(depth: i32, table_depth: i32) -> i32 {
    let stale = (depth - table_depth).max(0);
    (stale * STALE_PERCENT_PER_PLY / 100).min(STALE_MAX_REDUCTION)
}

/// The numbers of the selectivity, one set per family of rules: freestyle,
/// standard and caro share one, renju has its own, both tuned by SPSA in
/// node-limited self-play (`scripts/spsa.py`, docs/search.md); the hex
/// board keeps the hand-set numbers, since the tuning played square boards.
#[derive(Clone, Debug, PartialEq)]
pub struct Selectivity {
    /// Scales the late-move reduction: ln(depth)·ln(rank) / this.
    lmr_divisor: f64,
    /// Quiet moves a non-PV node tries: `base + depth^exponent`.
    move_count_base: f64,
    move_count_exponent: f64,
    /// Moves kept at a quiet interior node: `base + step · depth` (depth
    /// counted up to `branch_depth`). The SPSA tuning, at 30,000 nodes a
    /// move, narrowed the step; counting it further keeps that width near
    /// the horizon and gives the deep nodes of a longer search their moves
    /// back.
    branch_base: usize,
    branch_step: usize,
    branch_depth: i32,
    /// A PV node keeps this many times as many moves: the few nodes on the
    /// principal variation decide the move, and a defence pruned there is
    /// a loss the search never sees.
    pv_branch_factor: usize,
    /// Reverse futility: up to this depth, a static score this far above
    /// beta per ply of depth cuts the node.
    pub reverse_futility_depth: i32,
    reverse_futility_margin: Score,
    /// Futility margins by remaining depth (1 and 2): a quiet move is not
    /// searched when the static score plus this cannot reach alpha.
    futility_margin: [Score; 3],
    razor_margin: [Score; 3],
    /// Fail-high reduction: what the static score of an expected cut node
    /// must clear beta by, per ply of depth less a constant; `None` where
    /// the reduction is not used.
    fail_high: Option<(Score, Score)>,
    /// Singular extension: the margin per ply under the table's score.
    pub singular_margin: Score,
    /// Ordering bonus of a killer move.
    pub killer_bonus: i32,
    /// VCF nodes tried at a leaf where the side to move has a four.
    pub leaf_vcf_budget: u64,
    /// Whether a leaf returns a static score at or above beta before it
    /// looks for a VCF. Measured on the square board only: on the hex
    /// board's small test games every game then ended drawn.
    pub leaf_stands_pat: bool,
    /// Whether a root move that makes an open three or better is searched
    /// unreduced, as the possible start of a threat sequence: in renju it
    /// won its SPRT and its games against Rapfi; in freestyle the games
    /// against Rapfi went the other way (docs/search.md).
    pub root_threes_unreduced: bool,
    /// Whether the root's move order carries over from one iteration to
    /// the next (`root_order.rs`). Not in renju: there it won node-limited
    /// self-play but not its games against Rapfi, and lost a judged win
    /// of the tactics tests (docs/search.md).
    pub root_order_carries_over: bool,
    /// ProbCut, where it is used.
    pub probcut: Option<ProbCut>,
}

/// ProbCut: a node whose static score stands at beta or above tries its
/// best few moves in a shallow null-window search against a bound above
/// beta; one that clears it cuts the node, since a full-depth search of
/// that move would almost surely clear beta as well.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    /// Nodes at least this deep try it.
    pub depth: i32,
    /// How far above beta the shallow search's bound stands.
    pub margin: Score,
    /// How many of the best-ordered moves are tried.
    pub moves: usize,
    /// How many plies shallower than the node they are searched.
    pub reduction: i32,
}

/// Freestyle, standard and caro on the square board: tuned by SPSA
/// (`scripts/spsa.py`) at 30,000 nodes a move, the branch depth set by
/// matches at 30,000 to 250,000 nodes (docs/search.md).
const GOMOKU: Selectivity = Selectivity {
    lmr_divisor: 1.08,
    move_count_base: 3.1,
    move_count_exponent: 1.31,
    branch_base: 4,
    branch_step: 1,
    branch_depth: 14,
    pv_branch_factor: 2,
    reverse_futility_depth: 5,
    reverse_futility_margin: 65,
    futility_margin: [0, 226, 568],
    razor_margin: [0, 185, 436],
    fail_high: Some((11, -2)),
    singular_margin: 7,
    killer_bonus: 268,
    leaf_vcf_budget: 8,
    leaf_stands_pat: true,
    root_threes_unreduced: false,
    root_order_carries_over: true,
    probcut: Some(SQUARE_PROBCUT),
};

/// ProbCut's numbers where it is used (docs/search.md, "ProbCut"): the
/// margin of 60 scored best of 30, 60 and 150 in node-limited freestyle,
/// 6 moves better than 3, a reduction of 4 better than 3.
const SQUARE_PROBCUT: ProbCut = ProbCut {
    depth: 5,
    margin: 60,
    moves: 6,
    reduction: 4,
};

/// The hand-set numbers, before the tuning: the hex board's, since the
/// tuning played square boards only.
const HAND_SET: Selectivity = Selectivity {
    lmr_divisor: 1.35,
    move_count_base: 3.0,
    move_count_exponent: 1.3,
    branch_base: 7,
    branch_step: 2,
    branch_depth: 7,
    pv_branch_factor: 1,
    reverse_futility_depth: 6,
    reverse_futility_margin: 70,
    futility_margin: [0, 250, 500],
    razor_margin: [0, 220, 420],
    fail_high: Some((15, 9)),
    singular_margin: 10,
    killer_bonus: 300,
    leaf_vcf_budget: 64,
    leaf_stands_pat: false,
    root_threes_unreduced: false,
    root_order_carries_over: false,
    probcut: None,
};

/// Renju on the square board: tuned by SPSA at 30,000 nodes a move, as the
/// freestyle set was, with its branch step counted to depth 14 as well.
/// Counted to depth 7, as tuned, it won node-limited games and lost timed
/// ones (docs/search.md). Renju has no fail-high reduction: the games did
/// not show a gain there. Its ProbCut wants a wider margin than
/// freestyle's: 150 won against Rapfi at fixed nodes over three samples.
const RENJU: Selectivity = Selectivity {
    lmr_divisor: 1.16,
    move_count_base: 2.2,
    move_count_exponent: 1.22,
    branch_base: 5,
    branch_step: 1,
    branch_depth: 14,
    pv_branch_factor: 2,
    reverse_futility_depth: 7,
    reverse_futility_margin: 80,
    futility_margin: [0, 272, 566],
    razor_margin: [0, 245, 474],
    fail_high: None,
    singular_margin: 11,
    killer_bonus: 264,
    leaf_vcf_budget: 8,
    leaf_stands_pat: true,
    root_threes_unreduced: true,
    root_order_carries_over: false,
    probcut: Some(ProbCut {
        margin: 150,
        ..SQUARE_PROBCUT
    }),
};

/// Renju on the hex board: the hand-set numbers without the fail-high
/// reduction, as every hex set keeps the hand-set numbers.
const HEX_RENJU: Selectivity = Selectivity {
    fail_high: None,
    root_threes_unreduced: true,
    ..HAND_SET
};

/// Every set, in the order `Selectivity::set_index` numbers them.
const SETS: [&Selectivity; 4] = [&GOMOKU, &RENJU, &HAND_SET, &HEX_RENJU];

impl Selectivity {
    /// The set for `rule` on a board of `geometry`.
    #[cfg(not(feature = "knobs"))]
    pub fn of(rule: Rule, geometry: Geometry) -> &'static Selectivity {
        SETS[Self::set_index(rule, geometry)]
    }

    /// Where the set of `rule` on `geometry` stands in `SETS`.
    fn set_index(rule: Rule, geometry: Geometry) -> usize {
        match (rule, geometry) {
            (Rule::Renju, Geometry::Square) => 1,
            (Rule::Renju, Geometry::Hex) => 3,
            (_, Geometry::Hex) => 2,
            _ => 0,
        }
    }

    /// With the `knobs` feature: the rule's set with the numbers that the
    /// environment names replaced, read once (the names are those of
    /// `scripts/spsa.py`, in whole units: `LMR_DIV=108` is a divisor of
    /// 1.08, `MC_BASE=31` a base of 3.1, `MC_EXP=131` an exponent of 1.31).
    #[cfg(feature = "knobs")]
    pub fn of(rule: Rule, geometry: Geometry) -> &'static Selectivity {
        use std::sync::OnceLock;
        static TUNED: OnceLock<[Selectivity; 4]> = OnceLock::new();
        let sets = TUNED.get_or_init(|| SETS.map(Self::with_environment));
        &sets[Self::set_index(rule, geometry)]
    }

    #[cfg(feature = "knobs")]
    fn with_environment(&self) -> Selectivity {
        let knob = |name: &str| -> Option<f64> { std::env::var(name).ok()?.parse().ok() };
        let mut set = self.clone();
        let whole = |name: &str, value: &mut i32| {
            if let Some(v) = knob(name) {
                *value = v.round() as i32;
            }
        };
        if let Some(v) = knob("LMR_DIV") {
            set.lmr_divisor = v / 100.0;
        }
        if let Some(v) = knob("MC_BASE") {
            set.move_count_base = v / 10.0;
        }
        if let Some(v) = knob("MC_EXP") {
            set.move_count_exponent = v / 100.0;
        }
        if let Some(v) = knob("BRANCH_BASE") {
            set.branch_base = v.round().max(1.0) as usize;
        }
        if let Some(v) = knob("BRANCH_STEP") {
            set.branch_step = v.round().max(0.0) as usize;
        }
        whole("BRANCH_DEPTH", &mut set.branch_depth);
        if let Some(v) = knob("PV_BRANCH") {
            set.pv_branch_factor = v.round().max(1.0) as usize;
        }
        whole("RFP_MARGIN", &mut set.reverse_futility_margin);
        whole("RFP_DEPTH", &mut set.reverse_futility_depth);
        whole("FUT1", &mut set.futility_margin[1]);
        whole("FUT2", &mut set.futility_margin[2]);
        whole("RAZOR1", &mut set.razor_margin[1]);
        whole("RAZOR2", &mut set.razor_margin[2]);
        whole("SE_MARGIN", &mut set.singular_margin);
        whole("KILLER", &mut set.killer_bonus);
        if let Some(v) = knob("LEAF_VCF") {
            set.leaf_vcf_budget = v.round().max(0.0) as u64;
        }
        if let Some((per_ply, base)) = &mut set.fail_high {
            whole("FH_MARGIN", per_ply);
            whole("FH_BASE", base);
        }
        if let Some(depth) = knob("PC_DEPTH") {
            let cut = set.probcut.get_or_insert(SQUARE_PROBCUT);
            cut.depth = depth.round() as i32;
        }
        if let Some(cut) = &mut set.probcut {
            whole("PC_MARGIN", &mut cut.margin);
            whole("PC_REDUCTION", &mut cut.reduction);
            if let Some(v) = knob("PC_MOVES") {
                cut.moves = v.round().max(1.0) as usize;
            }
            if cut.depth <= 0 {
                set.probcut = None;
            }
        }
        set
    }

    /// How far the static score must stand above beta for a node at
    /// `depth` to be cut without search. Less is asked of a side whose
    /// score is rising.
    pub fn reverse_futility_margin(&self, depth: i32, improving: bool) -> Score {
        self.reverse_futility_margin * (depth - i32::from(improving)).max(1)
    }

    /// How far above beta the static score of an expected cut node at
    /// `depth` must stand for its moves to be searched a ply shallower;
    /// `None` where that reduction is not used.
    pub fn fail_high_margin(&self, depth: i32) -> Option<Score> {
        self.fail_high.map(|(per_ply, base)| per_ply * depth - base)
    }

    /// How far below alpha the static score may fall at `depth` before the
    /// node is settled by the horizon's threat check alone.
    pub fn razor_margin(&self, depth: i32) -> Score {
        self.razor_margin[depth.clamp(0, RAZOR_DEPTH) as usize]
    }

    /// The futility margin `depth` plies from the horizon, if futility
    /// pruning applies there.
    pub fn futility_margin(&self, depth: i32) -> Option<Score> {
        usize::try_from(depth)
            .ok()
            .and_then(|d| self.futility_margin.get(d).copied())
    }

    /// Quiet moves a non-PV node at `depth` tries before it prunes the
    /// rest. Ordering puts the blocks and threats first, so near the
    /// horizon the few best quiet moves carry nearly all the value; a node
    /// whose score is falling gets about half as many.
    pub fn move_count_limit(&self, depth: i32, improving: bool) -> usize {
        let full = self.move_count_base + f64::from(depth.max(1)).powf(self.move_count_exponent);
        let limit = if improving { full } else { full / 2.0 + 1.0 };
        limit as usize
    }

    /// Moves kept at a quiet interior node `depth` plies from the horizon;
    /// a PV node keeps `pv_branch_factor` times as many.
    pub fn branch_limit(&self, depth: i32, pv_node: bool) -> usize {
        let factor = if pv_node { self.pv_branch_factor } else { 1 };
        factor * (self.branch_base + self.branch_step * depth.clamp(0, self.branch_depth) as usize)
    }

    /// Plies taken off a late move's search: growing with both the depth
    /// left and the move's rank in the ordering, as later moves at deeper
    /// nodes are the least likely to matter.
    pub fn late_move_reduction(&self, depth: i32, rank: usize) -> i32 {
        if depth < 2 || rank < 2 {
            return 0;
        }
        let product = ln(depth as usize) * ln(rank);
        ((0.4 + product / self.lmr_divisor) as i32).min(depth - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_table_entry_costs_depth_in_steps() {
        assert_eq!(stale_table_reduction(10, 10), 0);
        assert_eq!(stale_table_reduction(10, 12), 0);
        assert_eq!(stale_table_reduction(10, 7), 0);
        assert_eq!(stale_table_reduction(10, 6), 1);
        assert_eq!(stale_table_reduction(10, 2), 2);
        assert_eq!(stale_table_reduction(20, 0), 3);
    }

    #[test]
    fn reductions_grow_with_depth_and_rank() {
        for set in SETS {
            assert_eq!(set.late_move_reduction(1, 10), 0);
            assert_eq!(set.late_move_reduction(8, 1), 0);
            assert!(set.late_move_reduction(12, 20) >= 4);
            for depth in 2..20 {
                for rank in 2..40 {
                    let r = set.late_move_reduction(depth, rank);
                    assert!(r >= 0 && r <= set.late_move_reduction(depth + 1, rank));
                    assert!(r <= set.late_move_reduction(depth, rank + 1));
                    assert!(r < depth, "depth {depth} rank {rank}: {r}");
                }
            }
        }
    }

    #[test]
    fn an_improving_node_tries_more_moves_and_deeper_nodes_more_still() {
        for set in SETS {
            for depth in 1..MOVE_COUNT_DEPTH {
                let falling = set.move_count_limit(depth, false);
                let rising = set.move_count_limit(depth, true);
                assert!(falling >= 2 && rising > falling, "depth {depth}");
                assert!(set.move_count_limit(depth + 1, false) >= falling);
                assert!(set.move_count_limit(depth + 1, true) >= rising);
            }
        }
    }

    #[test]
    fn pv_nodes_keep_more_moves_on_the_square_board_only() {
        for set in SETS {
            for depth in 0..=set.branch_depth {
                assert!(set.branch_limit(depth, true) >= set.branch_limit(depth, false));
            }
        }
        for set in [&GOMOKU, &RENJU] {
            assert!(set.branch_limit(3, true) > set.branch_limit(3, false));
        }
        for set in [&HAND_SET, &HEX_RENJU] {
            assert_eq!(set.branch_limit(3, true), set.branch_limit(3, false));
        }
    }

    #[test]
    fn deeper_nodes_keep_more_moves() {
        for set in SETS {
            assert!(set.branch_limit(0, false) >= 4);
            for depth in 0..set.branch_depth {
                assert!(set.branch_limit(depth + 1, false) > set.branch_limit(depth, false));
            }
            assert_eq!(
                set.branch_limit(40, false),
                set.branch_limit(set.branch_depth, false)
            );
        }
    }

    #[test]
    fn margins_grow_with_depth() {
        for set in SETS {
            for depth in 1..set.reverse_futility_depth {
                assert!(
                    set.reverse_futility_margin(depth + 1, false)
                        > set.reverse_futility_margin(depth, false)
                );
                assert!(
                    set.reverse_futility_margin(depth, true)
                        <= set.reverse_futility_margin(depth, false)
                );
            }
            assert!(set.razor_margin(2) > set.razor_margin(1));
            assert!(set.futility_margin(2) > set.futility_margin(1));
            assert_eq!(set.futility_margin(3), None);
        }
        let fail_high = |depth| GOMOKU.fail_high_margin(depth).unwrap();
        for depth in 1..20 {
            assert!(fail_high(depth + 1) > fail_high(depth));
        }
        // Near the horizon a cut node's score need barely clear beta.
        assert!(fail_high(1) < GOMOKU.reverse_futility_margin(1, true));
        assert_eq!(RENJU.fail_high_margin(5), None);
        assert_eq!(HEX_RENJU.fail_high_margin(5), None);
    }

    #[test]
    #[cfg(not(feature = "knobs"))]
    fn renju_and_the_hex_board_have_their_own_sets() {
        assert_eq!(Selectivity::of(Rule::Renju, Geometry::Square), &RENJU);
        assert_eq!(Selectivity::of(Rule::Renju, Geometry::Hex), &HEX_RENJU);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro] {
            assert_eq!(Selectivity::of(rule, Geometry::Square), &GOMOKU);
            assert_eq!(Selectivity::of(rule, Geometry::Hex), &HAND_SET);
        }
    }
}
