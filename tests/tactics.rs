//! The tactical suite: positions drawn as boards, each with the move or the
//! set of right moves, searched under node limits (never time limits) on one
//! thread so that every run is the same (drawings as `search_support`
//! describes them).

mod search_support;

use search_support::{assert_plays, assert_wins, board, search};
use wuzi::board::{Pos, Rule};
use wuzi::search::{mate_in, mated_in, MATE_BOUND};

#[test]
fn takes_the_five() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X X X X . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . O . O . O . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 1_000);
    assert_plays(&result, &[(2, 7), (7, 7)]);
    assert_eq!(result.score, mate_in(1));
}

#[test]
fn blocks_the_four() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . X . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X O O O O . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X . . . . . . . . . X . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 1_000);
    assert_plays(&result, &[(7, 8)]);
}

#[test]
fn blocks_an_open_three_or_counters_with_a_four() {
    // White threatens an open four on row 7; Black has no four to play, and
    // a far-end block still leaves White an open four on the other side, so
    // only the two points beside the three help.
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . O O O . . . . . . .
        . . . . . X . X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 20_000);
    assert_plays(&result, &[(4, 7), (8, 7)]);
}

#[test]
fn vcf_of_three_fours() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . X O O O . . . . . .
        . . . . . . X X X O . . . . .
        . . . . X O . X . . . . . . .
        . . . . . . . . O . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    // (4,7) four → (5,7); (4,5) four → (3,4); (4,6) open four on column 4.
    let result = search(&b, 50_000);
    assert_plays(&result, &[(4, 5), (4, 7)]);
    assert_wins(&result);
}

#[test]
fn vcf_of_four_fours() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . X O X X . . . . . .
        . . . . X O O O X . . . . . .
        . . . O . O X O X O O . . . .
        . . . . O X X X O X . . . . .
        . . . . . . O X O . . . . . .
        . . . . . . . O . . X . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 50_000);
    assert_plays(&result, &[(5, 2), (7, 2), (8, 2)]);
    assert_wins(&result);
}

#[test]
fn vcf_of_five_fours() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . O . X . . . . . . . .
        . . . . . . . O . . . . . . .
        . . . . O X X . O . . . . . .
        . . . . . . O X X O . . . . .
        . . . . . . X O O O X O . . .
        . . . . . . . X O X X . . . .
        . . . . . . . X O X O . . . .
        . . . . . . . . X . X O . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 50_000);
    assert_plays(&result, &[(7, 12)]);
    assert_wins(&result);
}

#[test]
fn vcf_of_six_fours() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . O X . . . . . . .
        . . . O . O X X O . . . . . .
        . . . . X O . O X O . . . . .
        . . . . X X X O X O . . . . .
        . . . . O . X X X O . . . . .
        . . . . . . . O . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 50_000);
    assert_plays(&result, &[(2, 9), (3, 9), (6, 11), (8, 12)]);
    assert_wins(&result);
}

#[test]
fn vcf_of_seven_fours() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . O . . X . . . .
        . . . . . . . X X O . . . . .
        . . . . . . . . O X . . . . .
        . . . . . . . O . O X . . . .
        . . . . . . X . X O O . . . .
        . . . . . . O X . . X O O . .
        . . . . . . X O O O X X X . O
        . . . . . . . X . X O . . . .
        . . . . . . . . X . O X . . .
        . . . . . . . . . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 50_000);
    assert_plays(&result, &[(5, 7), (5, 9), (7, 11)]);
    assert_wins(&result);
}

#[test]
fn vcf_of_eight_fours() {
    // Black to move; no win takes fewer than eight fours (from a self-play game).
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X O O O O X . . .
        . . . . . . . . . . . O . . .
        . . . . . . X . . X X . . . .
        . . . . . . . O X X X . . . .
        . . . . . . . O . . O . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 50_000);
    assert_plays(&result, &[(12, 5), (8, 8), (12, 9)]);
    assert_wins(&result);
}

#[test]
fn vcf_of_nine_fours() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . O O X . . . . .
        . . . . . . . X O O . . . . .
        . . . . . . . X X X O . . . .
        . . . . . X X X O O . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . O . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 50_000);
    assert_plays(&result, &[(6, 6), (4, 7)]);
    assert_wins(&result);
}

#[test]
fn vcf_of_ten_fours() {
    // White to move; the only win is ten fours long and starts at (4, 1)
    // (from a self-play game).
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . X O X . . . . . .
        . . . . . X . O X . . X . . .
        . . . . O O X O O X O O . . .
        . . . . O O . X X O X . . . .
        . . . . O . X O O X O X X . .
        . . . X X O O O X X X X O . .
        . . . . O X X X X O . X . . .
        . . . . O X O O . . . O O . .
        . . . . X . . . . . . . . . .
        . . . O . . . . . . . . . . .
        . . X . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 50_000);
    assert_plays(&result, &[(4, 1)]);
    assert_wins(&result);
}

#[test]
fn defends_against_a_vcf() {
    // The side not to move has a VCF of five fours; only (7,12) stops it.
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . O . X . . . . . . . .
        . . . . . . . O . . . . . . .
        . . . . O X X . O . . . . . .
        . . . . . . O X X O . . . . .
        . . . . . . X O O O X . . . .
        . . . . . . . X O X X . . . .
        . . . . . . . X O X O . . . .
        . . . . . . . . X . X O . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 100_000);
    assert_plays(&result, &[(7, 12)]);
}

#[test]
fn defends_against_a_vcf_with_few_saving_moves_as_long_as_the_loss_allows() {
    // O to move. Only (5,7) stops X's VCF, but X wins anyway: Rapfi 0.43
    // answers (5,7) and proves the loss in 12 plies, and (9,11), the end of
    // X's diagonal three, holds as long. The search proves the loss and
    // plays one of the two.
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . O . . X . . . .
        . . . . . . . X X O . . . . .
        . . . . . . . . O X . . . . .
        . . . . . . . O . O X . . . .
        . . . . . . X . X O O . . . .
        . . . . . . O X . . X O O . .
        . . . . . . X O O O X X X . O
        . . . . . . . X . X O . . . .
        . . . . . . . . X . O X . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 100_000);
    assert_plays(&result, &[(5, 7), (9, 11)]);
    assert!(
        result.score < -MATE_BOUND && result.score >= mated_in(12),
        "{}",
        result.score
    );
}

#[test]
fn answers_a_four_three_before_making_a_double_three() {
    // O to move. (12,10) would give O a double three, but X, not to move,
    // wins first with the four-three at (8,7): a VCF of two fours. Only a
    // stone on (8,7), on the five point (9,7), or closing the three at (8,4)
    // or (8,8) saves O. Searched with so few nodes that only the root's
    // check for the opponent's VCF finds the answer in time.
    let b = board(
        Rule::Freestyle,
        "
        X . . . . . . . . . . . . . X
        . . . . . . . . . . . . . . .
        . . O . . . . . . . . . O . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . . X . . . . . .
        . . . . O X X X . . . . . O .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . O O . . .
        . . . . . . . . . . . . O . .
        . . . . . . . . . . . . O . .
        . X . . . . . . . . . . . . .
        X . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 300);
    assert_plays(&result, &[(8, 7), (9, 7), (8, 4), (8, 8)]);
}

#[test]
fn renju_black_does_not_count_an_overline_as_five() {
    // X X X X . X on row 7: filling the gap makes six, which does not win for
    // Black under renju, so Black must block White's four instead.
    let b = board(
        Rule::Renju,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . O X X X X . X O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X O O O O . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 10_000);
    assert_plays(&result, &[(8, 10)]);
}

#[test]
fn the_same_overline_wins_for_white_in_renju() {
    let b = board(
        Rule::Renju,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X O O O O . O X . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . X X X X . O . . . X .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 10_000);
    assert_plays(&result, &[(7, 7)]);
    assert_eq!(result.score, mate_in(1));
}

#[test]
fn vct_double_three_after_a_three() {
    // (9,5) makes an open three on column 9; after the block, (10,5) makes
    // threes on row 5 and on the diagonal through (8,7).
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . O O X . . . . .
        . . . . . . O X X X O . . . .
        . . . . . . X . O . . . . . .
        . . . . . . . X . O . . . . .
        . . . . . . . . O . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 200_000);
    assert_plays(&result, &[(9, 5), (10, 5)]);
    assert_wins(&result);
}

#[test]
fn vct_of_threes_and_fours() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . O . . . . . .
        . . . . . O O X . X X . . . .
        . . . . . . X O O . X . . . .
        . . . . . . . X X O . . . . .
        . . . . . . . . . X O . . . .
        . . . . . . . . . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 200_000);
    assert_plays(&result, &[(10, 5), (11, 6), (11, 7), (12, 7)]);
    assert_wins(&result);
}

#[test]
fn vct_of_six_threats() {
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X O X . . . . .
        . . . . . . . O . O X . . . .
        . . . . . . X . . . . . . . .
        . . . . . . . X . X O . O . .
        . . . . . . . . O . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 200_000);
    assert_plays(&result, &[(8, 3)]);
    assert_wins(&result);
}

/// Black's double four at (7,7): a win in freestyle, forbidden in renju.
const DOUBLE_FOUR_POINT: &str = "
    . . . . . . . . . . . . . . .
    . O . . . . . . . . . . . . .
    . . . . . . . . . . . . O . .
    . . . . . . . O . . . . . . .
    . . . . . . . X . . . . . . .
    . . . . . . . X . . . . . . .
    . . . . . . . X . . . . . . .
    . . . O X X X . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . O . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . O . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
";

#[test]
fn freestyle_black_wins_with_the_double_four() {
    let b = board(Rule::Freestyle, DOUBLE_FOUR_POINT);
    let result = search(&b, 20_000);
    assert_wins(&result);
}

#[test]
fn renju_black_does_not_play_the_forbidden_double_four() {
    let b = board(Rule::Renju, DOUBLE_FOUR_POINT);
    assert!(b.forbidden(Pos::new(7, 7)).is_some());
    let result = search(&b, 20_000);
    let played = result.best_move.expect("a move");
    assert_ne!(played, Pos::new(7, 7));
    assert!(b.is_legal(played));
}

#[test]
fn renju_white_wins_with_a_four_whose_block_is_forbidden() {
    // White's (3,3) makes a four on the diagonal; its only block (7,7) is a
    // double three for Black, so Black cannot stop the five.
    let b = board(
        Rule::Renju,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X . . . . . . . . . O . .
        . . . . . . . . . . . . . . .
        . . . . O . . . . . . . . . .
        . . . . . O . X . . . . . . .
        . . . . . . O X . . . . . . .
        . . . . . X X . . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . O . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    assert!(b.forbidden(Pos::new(7, 7)).is_some());
    let result = search(&b, 20_000);
    assert_plays(&result, &[(3, 3)]);
    assert_wins(&result);
}

#[test]
fn renju_black_facing_a_five_it_may_not_block_plays_a_legal_move() {
    // White's four on the diagonal (3,3)-(6,6) is blocked only at (7,7),
    // a double three for Black: the game is lost, but a foul is not a move.
    let b = board(
        Rule::Renju,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X . . . . . . . . . O . .
        . . . O . . . . . . . . . . .
        . . . . O . . . . . . . . . .
        . . . . . O . X . . . . . . .
        . . . . . . O X . . . . . . .
        . . . . . X X . . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . O . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    assert_eq!(b.side_to_move(), wuzi::board::Color::Black);
    assert!(b.forbidden(Pos::new(7, 7)).is_some());
    let result = search(&b, 20_000);
    let played = result.best_move.expect("a move");
    assert!(b.is_legal(played), "played the foul {played:?}");
    assert!(result.score < -MATE_BOUND, "{}", result.score);
}

/// Standard rule, White to move (a PentaZen game, tests/data/forced-wins.txt).
/// White's e4 (4,3) would leave White a four-three, but Black answers with
/// f7 (5,6): its stones make the forced block of White's four a four of
/// Black's, and Black wins by fours. The position is still White's win, by
/// g6 (6,5): Rapfi 0.43 (classical, 10 s) reads mate in 23 plies there and
/// mate in 9 for Black after e4.
const FOUR_THREE_WITH_A_COUNTER: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . O . . . . . . . .
        . . . . O X O O . . . . . . .
        . . . . . X . . O . . . . . .
        . . . . . . . X . X . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ";

#[test]
fn a_four_three_answered_by_a_counter_threat_is_not_played() {
    // A search that keeps only the stones on the four-three's lines sees e4
    // as a forced win; the right move is the quiet g6.
    let b = board(Rule::Standard, FOUR_THREE_WITH_A_COUNTER);
    let result = search(&b, 200_000);
    assert_plays(&result, &[(6, 5)]);
}

#[test]
fn the_counter_threat_to_a_four_three_is_found_and_wins() {
    let mut b = board(Rule::Standard, FOUR_THREE_WITH_A_COUNTER);
    b.play(Pos::new(4, 3)).expect("e4 is empty");
    let result = search(&b, 200_000);
    assert_plays(&result, &[(5, 6)]);
    assert_wins(&result);
}

#[test]
fn a_lost_position_still_blocks_and_knows_it_is_lost() {
    // White's open four cannot be stopped; Black blocks one end anyway.
    let b = board(
        Rule::Freestyle,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . O O O O . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X . X . X . X . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 10_000);
    assert_plays(&result, &[(3, 7), (8, 7)]);
    assert!(
        result.score < -MATE_BOUND,
        "should know it is lost: {}",
        result.score
    );
}

/// Renju, Black to move (a game of wuzi's against Rapfi, 2026-11-29): the
/// open three C6 (2,5) starts a win in 19. Searched as a late root move,
/// reduced, it stayed hidden; in renju a root three is searched at full
/// depth. The search proves the win from between 3 and 4 million nodes:
/// from 2 million before renju's blocks of an open three were narrowed to
/// those that hold and the interior VCF probe moved to depth 8, each of
/// which alone delays this one win (over the 77 positions of
/// `long_wins.rs` the build reports 31 mates within 4 million nodes, 24
/// before).
#[test]
fn a_root_three_that_starts_a_long_win_is_searched_in_full() {
    let b = board(
        Rule::Renju,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . O . . . . . . . .
        . . . . . O X O . . . . . . .
        . . . . O X X X O . . . . . .
        . . . X O X O X O X . . . . .
        . . . X X . O . X . . . . . .
        . . . X . . . O . . . . . . .
        . . O O . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    let result = search(&b, 4_000_000);
    assert_plays(&result, &[(2, 5)]);
    assert_wins(&result);
}
