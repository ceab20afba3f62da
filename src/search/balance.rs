//! Balanced moves (Yixin-Board's `yxbalanceone B` and `yxbalancetwo B`): the
//! move, or the pair of moves (ours, then the opponent's), after which the
//! search's score for the side that was to move is nearest the bias `B`.
//!
//! Reasoned from the search's score, like the swap2 decisions: the search's
//! best move and the cells nearest the stones are the candidates, and one
//! short search of the position after each candidate (or pair) scores it.
//! The move's limits are shared out over all these searches.

use super::{Limits, Score, Searcher};
use crate::board::{Board, Pos};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Moves scored for `yxbalanceone`.
pub const ONE_MOVE_CANDIDATES: usize = 12;
/// First moves, and replies to each, scored for `yxbalancetwo`.
pub const PAIR_CANDIDATES: usize = 4;
/// The fewest nodes one of the searches gets when a node limit is shared.
const MIN_NODES_PER_SEARCH: u64 = 200;

/// A balanced move and the score the side that played it has after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BalancedMove {
    pub stone: Pos,
    pub score: Score,
}

/// A balanced pair (the side to move's stone, then the opponent's) and the
/// score the side to move has after both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BalancedPair {
    pub first: Pos,
    pub second: Pos,
    pub score: Score,
}

/// The move after which the side to move's score is nearest `bias`. `None`
/// only when no legal move is left.
pub fn balance_one(
    searcher: &mut dyn Searcher,
    board: &Board,
    limits: &Limits,
    bias: Score,
    stop: &AtomicBool,
) -> Option<BalancedMove> {
    let mut budget = Budget::new(limits, 1 + ONE_MOVE_CANDIDATES);
    let best = searcher.search(board, &budget.next(), stop, &mut |_| {});
    let candidates = candidates(board, &limits.excluded, best.best_move, ONE_MOVE_CANDIDATES);
    let mut chosen: Option<BalancedMove> = None;
    for stone in candidates {
        if stop.load(Ordering::Relaxed) && chosen.is_some() {
            break;
        }
        let mut after = board.clone();
        after.make(stone);
        let score = -searcher
            .search(&after, &budget.next(), stop, &mut |_| {})
            .score;
        if chosen.is_none_or(|c| distance(score, bias) < distance(c.score, bias)) {
            chosen = Some(BalancedMove { stone, score });
        }
    }
    chosen
}

/// The pair of moves (the side to move's, then the opponent's) after which
/// the side to move's score is nearest `bias`. `None` when fewer than two
/// moves are left.
pub fn balance_two(
    searcher: &mut dyn Searcher,
    board: &Board,
    limits: &Limits,
    bias: Score,
    stop: &AtomicBool,
) -> Option<BalancedPair> {
    let searches = 1 + PAIR_CANDIDATES * (1 + PAIR_CANDIDATES);
    let mut budget = Budget::new(limits, searches);
    let best = searcher.search(board, &budget.next(), stop, &mut |_| {});
    let firsts = candidates(board, &limits.excluded, best.best_move, PAIR_CANDIDATES);
    let mut chosen: Option<BalancedPair> = None;
    for first in firsts {
        let mut after_first = board.clone();
        after_first.make(first);
        let reply = searcher.search(&after_first, &budget.next(), stop, &mut |_| {});
        let seconds = candidates(&after_first, &[], reply.best_move, PAIR_CANDIDATES);
        for second in seconds {
            if stop.load(Ordering::Relaxed) && chosen.is_some() {
                return chosen;
            }
            let mut after = after_first.clone();
            after.make(second);
            let score = searcher
                .search(&after, &budget.next(), stop, &mut |_| {})
                .score;
            if chosen.is_none_or(|c| distance(score, bias) < distance(c.score, bias)) {
                chosen = Some(BalancedPair {
                    first,
                    second,
                    score,
                });
            }
        }
    }
    chosen
}

fn distance(score: Score, bias: Score) -> i64 {
    (i64::from(score) - i64::from(bias)).abs()
}

/// Up to `count` legal, allowed moves that do not end the game at once: the
/// search's `best` first, then the cells nearest the stones (on an empty
/// board, nearest the centre), in a fixed order.
pub fn candidates(board: &Board, excluded: &[Pos], best: Option<Pos>, count: usize) -> Vec<Pos> {
    let me = board.side_to_move();
    let allowed = |p: Pos| {
        board.is_empty(p) && board.is_legal(p) && !excluded.contains(&p) && !board.is_win(p, me)
    };
    let geometry = board.geometry();
    let (cx, cy) = (board.width() as isize / 2, board.height() as isize / 2);
    let from =
        |p: Pos, x: isize, y: isize| geometry.distance((p.x() as isize - x, p.y() as isize - y));
    let nearest_stone = |p: Pos| {
        board
            .history()
            .iter()
            .map(|s| from(p, s.x() as isize, s.y() as isize))
            .min()
            .unwrap_or(0)
    };
    let mut cells: Vec<Pos> = board.empty_cells().filter(|&p| allowed(p)).collect();
    cells.sort_by_key(|&p| (nearest_stone(p), from(p, cx, cy), p.y(), p.x()));
    let mut chosen: Vec<Pos> = best.filter(|&p| allowed(p)).into_iter().collect();
    for p in cells {
        if chosen.len() >= count {
            break;
        }
        if !chosen.contains(&p) {
            chosen.push(p);
        }
    }
    if chosen.is_empty() {
        // Only winning moves are left: any of them.
        chosen.extend(
            board
                .empty_cells()
                .filter(|&p| board.is_legal(p) && !excluded.contains(&p))
                .take(1),
        );
    }
    chosen
}

/// Shares one move's limits over a fixed number of searches run one after
/// another: each gets its share of the time left and of the node limit.
struct Budget {
    limits: Limits,
    searches_left: usize,
}

impl Budget {
    fn new(limits: &Limits, searches: usize) -> Budget {
        let nodes = limits
            .nodes
            .map(|n| (n / searches.max(1) as u64).max(MIN_NODES_PER_SEARCH));
        Budget {
            limits: Limits {
                nodes,
                excluded: Vec::new(),
                ..limits.clone()
            },
            searches_left: searches,
        }
    }

    fn next(&mut self) -> Limits {
        let parts = self.searches_left.clamp(1, u32::MAX as usize) as u32;
        self.searches_left = self.searches_left.saturating_sub(1);
        Limits {
            time: self.limits.time.map(|t| t.share(parts, Instant::now())),
            ..self.limits.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;
    use crate::search::{EngineOptions, SearchEvent, SearchResult};

    /// Scores a position, for the side to move, by a table of last moves
    /// (everything else scores 900), and plays the first empty cell.
    struct ScoreByLastMove(Vec<(Pos, Score)>);

    impl Searcher for ScoreByLastMove {
        fn search(
            &mut self,
            board: &Board,
            limits: &Limits,
            _stop: &AtomicBool,
            _report: &mut dyn FnMut(&SearchEvent),
        ) -> SearchResult {
            let best_move = board.empty_cells().find(|p| !limits.excluded.contains(p));
            let score = board
                .last_move()
                .and_then(|m| self.0.iter().find(|(p, _)| *p == m))
                .map_or(900, |&(_, s)| s);
            SearchResult {
                best_move,
                score,
                depth: 1,
                nodes: 1,
                pv: best_move.into_iter().collect(),
            }
        }
        fn clear(&mut self) {}
        fn configure(&mut self, _options: &EngineOptions) {}
    }

    fn board_with(stones: &[(usize, usize)]) -> Board {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in stones {
            board.play(Pos::new(x, y)).unwrap();
        }
        board
    }

    #[test]
    fn candidates_are_near_the_stones_and_distinct() {
        let board = board_with(&[(7, 7), (8, 8)]);
        let cells = candidates(&board, &[Pos::new(6, 6)], Some(Pos::new(0, 0)), 8);
        assert_eq!(cells[0], Pos::new(0, 0), "the search's move comes first");
        assert_eq!(cells.len(), 8);
        assert!(!cells.contains(&Pos::new(6, 6)), "excluded");
        for &p in &cells[1..] {
            assert!(p.x().abs_diff(7) <= 2 && p.y().abs_diff(7) <= 2, "{p:?}");
            assert!(board.is_empty(p));
        }
        let unique: std::collections::HashSet<_> = cells.iter().collect();
        assert_eq!(unique.len(), cells.len());
    }

    #[test]
    fn one_move_leaves_the_score_nearest_the_bias() {
        let board = board_with(&[(7, 7), (8, 8)]);
        let near = candidates(&board, &[], None, ONE_MOVE_CANDIDATES);
        // After near[3], the opponent (to move) scores -150: we have +150.
        let mut searcher = ScoreByLastMove(vec![(near[3], -150), (near[5], 400)]);
        let stop = AtomicBool::new(false);
        let found = balance_one(&mut searcher, &board, &Limits::default(), 100, &stop).unwrap();
        assert_eq!(found.stone, near[3]);
        assert_eq!(found.score, 150);
        let found = balance_one(&mut searcher, &board, &Limits::default(), -500, &stop).unwrap();
        assert_eq!(found.stone, near[5], "-400 is nearest -500");
    }

    #[test]
    fn two_moves_leave_the_score_nearest_the_bias() {
        let board = board_with(&[(7, 7), (8, 8)]);
        let firsts = candidates(&board, &[], None, PAIR_CANDIDATES);
        let mut after = board.clone();
        after.make(firsts[1]);
        let seconds = candidates(&after, &[], None, PAIR_CANDIDATES);
        // After the pair the side to move is the one that asked: its score.
        let mut searcher = ScoreByLastMove(vec![(seconds[2], 30)]);
        let stop = AtomicBool::new(false);
        let pair = balance_two(&mut searcher, &board, &Limits::default(), 0, &stop).unwrap();
        assert_eq!(pair.score, 30);
        assert_ne!(pair.first, pair.second);
        assert!(board.is_empty(pair.first) && board.is_empty(pair.second));
        assert_eq!(pair.second, seconds[2]);
    }

    #[test]
    fn a_full_board_has_no_balanced_move() {
        let mut board = Board::new(5, 5, Rule::Freestyle).unwrap();
        let stop = AtomicBool::new(false);
        for p in board.empty_cells().collect::<Vec<_>>() {
            board.place_wall(p).unwrap();
        }
        let mut searcher = ScoreByLastMove(Vec::new());
        assert_eq!(
            balance_one(&mut searcher, &board, &Limits::default(), 0, &stop),
            None
        );
        assert_eq!(
            balance_two(&mut searcher, &board, &Limits::default(), 0, &stop),
            None
        );
    }
}
