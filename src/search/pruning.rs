//! The selectivity of the main search: how much a late move is reduced, how
//! many quiet moves a node tries, and when the static score alone settles a
//! node. Pure functions of depth and move rank, so the search reads as a
//! sequence of decisions and the numbers live in one place.

use super::Score;

/// Nodes this close to the horizon may be cut on the static score alone
/// (reverse futility): a side far above beta there rarely falls back.
pub const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// Centi-stones per ply of depth the static score must clear beta by.
const REVERSE_FUTILITY_MARGIN: Score = 70;
/// Razoring: at depth 1 and 2, a static score this far below alpha goes
/// straight to the horizon's threat check instead of a search.
pub const RAZOR_DEPTH: i32 = 2;
const RAZOR_MARGIN: [Score; 3] = [0, 220, 420];
/// Fail-high reduction: what the static score of an expected cut node must
/// clear beta by, per ply of depth, less a constant.
const FAIL_HIGH_MARGIN: Score = 15;
const FAIL_HIGH_BASE: Score = 9;
/// Quiet moves are pruned by their rank up to this depth.
pub const MOVE_COUNT_DEPTH: i32 = 10;
/// Scales the late-move reduction: ln(depth)·ln(rank) / this.
const LMR_DIVISOR: f64 = 1.35;

/// How far the static score must stand above beta for a node at `depth` to
/// be cut without search. Less is asked of a side whose score is rising.
pub fn reverse_futility_margin(depth: i32, improving: bool) -> Score {
    REVERSE_FUTILITY_MARGIN * (depth - i32::from(improving)).max(1)
}

/// How far above beta the static score of an expected cut node at `depth`
/// must stand for its moves to be searched a ply shallower.
pub fn fail_high_margin(depth: i32) -> Score {
    FAIL_HIGH_MARGIN * depth - FAIL_HIGH_BASE
}

/// How far below alpha the static score may fall at `depth` before the node
/// is settled by the horizon's threat check alone.
pub fn razor_margin(depth: i32) -> Score {
    RAZOR_MARGIN[depth.clamp(0, RAZOR_DEPTH) as usize]
}

/// Quiet moves a non-PV node at `depth` tries before it prunes the rest.
/// Ordering puts the blocks and threats first, so near the horizon the few
/// best quiet moves carry nearly all the value; a node whose score is
/// falling gets about half as many.
pub fn move_count_limit(depth: i32, improving: bool) -> usize {
    let full = 3.0 + f64::from(depth.max(1)).powf(1.3);
    let limit = if improving { full } else { full / 2.0 + 1.0 };
    limit as usize
}

/// Plies taken off a late move's search: growing with both the depth left
/// and the move's rank in the ordering, as later moves at deeper nodes are
/// the least likely to matter.
pub fn late_move_reduction(depth: i32, rank: usize) -> i32 {
    if depth < 2 || rank < 2 {
        return 0;
    }
    let product = f64::from(depth).ln() * (rank as f64).ln();
    ((0.4 + product / LMR_DIVISOR) as i32).min(depth - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_rank() {
        assert_eq!(late_move_reduction(1, 10), 0);
        assert_eq!(late_move_reduction(8, 1), 0);
        assert!(late_move_reduction(12, 20) >= 4);
        for depth in 2..20 {
            for rank in 2..40 {
                let r = late_move_reduction(depth, rank);
                assert!(r >= 0 && r <= late_move_reduction(depth + 1, rank));
                assert!(r <= late_move_reduction(depth, rank + 1));
                assert!(r < depth, "depth {depth} rank {rank}: {r}");
            }
        }
    }

    #[test]
    fn an_improving_node_tries_more_moves_and_deeper_nodes_more_still() {
        for depth in 1..MOVE_COUNT_DEPTH {
            let falling = move_count_limit(depth, false);
            let rising = move_count_limit(depth, true);
            assert!(falling >= 2 && rising > falling, "depth {depth}");
            assert!(move_count_limit(depth + 1, false) >= falling);
            assert!(move_count_limit(depth + 1, true) >= rising);
        }
    }

    #[test]
    fn margins_grow_with_depth() {
        for depth in 1..REVERSE_FUTILITY_DEPTH {
            assert!(
                reverse_futility_margin(depth + 1, false) > reverse_futility_margin(depth, false)
            );
            assert!(reverse_futility_margin(depth, true) <= reverse_futility_margin(depth, false));
        }
        assert!(razor_margin(2) > razor_margin(1));
        for depth in 1..20 {
            assert!(fail_high_margin(depth + 1) > fail_high_margin(depth));
        }
        // Near the horizon a cut node's score need barely clear beta.
        assert!(fail_high_margin(1) < reverse_futility_margin(1, true));
    }
}
