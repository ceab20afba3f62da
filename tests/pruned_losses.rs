//! A node that kept only its best-ranked moves and lost with all of them
//! searches the rest before it reports a loss: otherwise its parent sees a
//! win that the pruning made up, and plays for it.

mod search_support;

use search_support::{assert_plays, assert_wins, board, search};
use wuzi::board::Rule;

/// From a gauntlet game against Rapfi (renju 15, Black to move; Black won
/// it). Black's (3,4) makes a three down column 3 beside the three on row
/// 5, and wins by threes and fours; so does (6,9) (Rapfi 0.43, White to
/// move after it: mated in 8). Were the moves past the branch limit left
/// out, White's kept replies in some lines would all lose, and the search
/// would report a made-up win of 29,000 (short of a proven mate) whatever
/// it played. The search proves the mate from about 80,000 nodes (from
/// 40,000 before the answers to a four-three were narrowed to those that
/// stop it: the order of the moves changed, and with it the iteration that
/// first proves the mate).
const BLACK_WINS_BY_THREES: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . O . . . . . . . . .
    . O . . X O X . . . . . . . .
    . O X X X . O . . . . . . . .
    . . . X O X O . . . . . . . .
    . . . . X . O . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    ";

#[test]
fn black_proves_the_win_that_pruned_replies_only_suggested() {
    let b = board(Rule::Renju, BLACK_WINS_BY_THREES);
    for nodes in [80_000, 100_000, 150_000] {
        let result = search(&b, nodes);
        assert_wins(&result);
        assert_plays(&result, &[(3, 4), (6, 9)]);
    }
}
