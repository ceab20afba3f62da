//! Swap2 opening decisions (`SWAP2BOARD`), reasoned from the search's score.
//!
//! The opener places three stones (Black, White, Black); the other player
//! takes Black (`SWAP`), stays White and plays the fourth stone, or adds a
//! White and a Black stone and lets the opener choose. With five stones the
//! opener chooses: `SWAP` (take Black) or stay White and play the sixth stone.
//! In every case with stones on the board White is to move, so one search of
//! the position says which colour we would rather have.

use super::{Limits, Score, Searcher};
use crate::board::{Board, Pos};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Scores within this margin of zero count as balanced. The fitted
/// evaluation predicts a result of `1 / (1 + e^(-score / K))` with K about
/// 420 (see README, Evaluation), so 100 is about a 56 % expected score for
/// the side ahead: close enough to even that either colour is a fair choice.
pub const BALANCED_MARGIN: Score = 100;

/// Our answer to `SWAP2BOARD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Decision {
    /// Opening as the opener: Black, White, Black.
    PlaceThree([Pos; 3]),
    /// Take Black.
    Swap,
    /// Stay White and play this stone.
    Move(Pos),
    /// Add a White and a Black stone; the opponent chooses colours.
    TwoMoves(Pos, Pos),
}

/// Three-stone openings (Black, White, Black) as offsets from the centre,
/// tried in turn; the one the search finds most balanced is placed.
const OPENING_SHAPES: [[(i64, i64); 3]; 4] = [
    [(0, 0), (1, -1), (2, 1)],
    [(0, 0), (1, 0), (0, 2)],
    [(0, 0), (1, 1), (-1, 2)],
    [(0, 0), (0, 1), (2, -1)],
];

/// Decides the swap2 answer for `board`, which holds the opening stones
/// played in order (0, 3 or 5 of them).
pub fn decide(
    searcher: &mut dyn Searcher,
    board: &Board,
    limits: &Limits,
    stop: &AtomicBool,
) -> Swap2Decision {
    let mut budget = Budget::new(limits);
    match board.stone_count() {
        0 => place_three(searcher, board, &mut budget, stop),
        3 => {
            let parts = 2 * WHITE_CANDIDATES;
            let (score, white) = best_for_side_to_move(searcher, board, &mut budget, parts, stop);
            let Some(white) = white else {
                return Swap2Decision::Swap;
            };
            if score < -BALANCED_MARGIN {
                Swap2Decision::Swap
            } else if score > BALANCED_MARGIN {
                Swap2Decision::Move(white)
            } else {
                balanced_pair(searcher, board, &mut budget, white, parts - 1, stop)
            }
        }
        _ => {
            let (score, white) = best_for_side_to_move(searcher, board, &mut budget, 1, stop);
            match white {
                Some(white) if score >= 0 => Swap2Decision::Move(white),
                _ => Swap2Decision::Swap,
            }
        }
    }
}

/// White stones tried when adding two stones: the search's best and the
/// next best ones.
const WHITE_CANDIDATES: usize = 3;

/// Two more stones (White, then Black's best answer) chosen so that the
/// opponent faces the most balanced choice of colour: among the best few
/// White stones, the one after which Black's best score is nearest zero.
fn balanced_pair(
    searcher: &mut dyn Searcher,
    board: &Board,
    budget: &mut Budget,
    first_white: Pos,
    mut parts_left: usize,
    stop: &AtomicBool,
) -> Swap2Decision {
    let mut whites = vec![first_white];
    while whites.len() < WHITE_CANDIDATES && !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let mut limits = budget.next(parts_left);
        parts_left -= 1;
        limits.excluded.extend(whites.iter().copied());
        match searcher.search(board, &limits, stop, &mut |_| {}).best_move {
            Some(white) if !whites.contains(&white) => whites.push(white),
            _ => break,
        }
    }
    let mut best: Option<(Score, Pos, Pos)> = None;
    for &white in &whites {
        let mut after = board.clone();
        after.make(white);
        let (black_score, black) =
            best_for_side_to_move(searcher, &after, budget, parts_left, stop);
        parts_left = parts_left.saturating_sub(1);
        if let Some(black) = black {
            if best.is_none_or(|(s, _, _)| black_score.abs() < s.abs()) {
                best = Some((black_score, white, black));
            }
        }
    }
    match best {
        Some((_, white, black)) => Swap2Decision::TwoMoves(white, black),
        None => Swap2Decision::Move(first_white),
    }
}

fn place_three(
    searcher: &mut dyn Searcher,
    board: &Board,
    budget: &mut Budget,
    stop: &AtomicBool,
) -> Swap2Decision {
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    let mut best: Option<(Score, [Pos; 3])> = None;
    let mut remaining = OPENING_SHAPES.len();
    for shape in OPENING_SHAPES {
        let points: Option<Vec<Pos>> = shape
            .iter()
            .map(|&(dx, dy)| board.pos(cx + dx, cy + dy))
            .collect();
        let mut trial = board.clone();
        let placed = points.filter(|ps| ps.iter().all(|&p| trial.play(p).is_ok()));
        let Some(points) = placed else {
            remaining -= 1;
            continue;
        };
        let (score, _) = best_for_side_to_move(searcher, &trial, budget, remaining, stop);
        remaining -= 1;
        let stones = [points[0], points[1], points[2]];
        if best.is_none_or(|(s, _)| score.abs() < s.abs()) {
            best = Some((score, stones));
        }
    }
    // The board is at least 5x5, so the first shape always fits.
    let stones = best.map(|(_, s)| s).unwrap_or_else(|| {
        let c = |dx: i64, dy: i64| Pos::new((cx + dx) as usize, (cy + dy) as usize);
        [c(0, 0), c(1, -1), c(2, 1)]
    });
    Swap2Decision::PlaceThree(stones)
}

/// Searches `board` with its share of the budget (`parts_left` searches still
/// to run, this one included) and returns the score for the side to move and
/// its best move.
fn best_for_side_to_move(
    searcher: &mut dyn Searcher,
    board: &Board,
    budget: &mut Budget,
    parts_left: usize,
    stop: &AtomicBool,
) -> (Score, Option<Pos>) {
    let limits = budget.next(parts_left);
    let result = searcher.search(board, &limits, stop, &mut |_| {});
    (result.score, result.best_move)
}

/// Splits one move's limits over several searches run one after another.
struct Budget {
    limits: Limits,
}

impl Budget {
    fn new(limits: &Limits) -> Budget {
        Budget {
            limits: limits.clone(),
        }
    }

    /// Limits for the next search when `parts_left` searches remain.
    fn next(&mut self, parts_left: usize) -> Limits {
        let parts = parts_left.clamp(1, u32::MAX as usize) as u32;
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

    /// A searcher that reports a fixed score and the first empty point.
    struct FixedScore(Score);

    impl Searcher for FixedScore {
        fn search(
            &mut self,
            board: &Board,
            _limits: &Limits,
            _stop: &AtomicBool,
            _report: &mut dyn FnMut(&SearchEvent),
        ) -> SearchResult {
            let best_move = board.empty_cells().next();
            SearchResult {
                best_move,
                score: self.0,
                depth: 1,
                nodes: 1,
                pv: best_move.into_iter().collect(),
            }
        }
        fn clear(&mut self) {}
        fn configure(&mut self, _options: &EngineOptions) {}
    }

    fn opening(stones: &[(usize, usize)]) -> Board {
        let mut board = Board::new(15, 15, Rule::Standard).unwrap();
        for &(x, y) in stones {
            board.play(Pos::new(x, y)).unwrap();
        }
        board
    }

    fn decide_with(score: Score, board: &Board) -> Swap2Decision {
        decide(
            &mut FixedScore(score),
            board,
            &Limits::default(),
            &AtomicBool::new(false),
        )
    }

    #[test]
    fn the_opener_places_three_distinct_stones_near_the_centre() {
        let Swap2Decision::PlaceThree(stones) = decide_with(0, &opening(&[])) else {
            panic!("expected three stones");
        };
        assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
        for p in stones {
            assert!(p.x().abs_diff(7) <= 2 && p.y().abs_diff(7) <= 2, "{p:?}");
        }
    }

    #[test]
    fn three_stones_bad_for_white_means_swap() {
        let board = opening(&[(7, 7), (8, 6), (9, 8)]);
        assert_eq!(decide_with(-500, &board), Swap2Decision::Swap);
    }

    #[test]
    fn three_stones_good_for_white_means_one_move() {
        let board = opening(&[(7, 7), (8, 6), (9, 8)]);
        assert!(matches!(decide_with(500, &board), Swap2Decision::Move(_)));
    }

    #[test]
    fn three_balanced_stones_means_two_more_stones() {
        let board = opening(&[(7, 7), (8, 6), (9, 8)]);
        let Swap2Decision::TwoMoves(white, black) = decide_with(0, &board) else {
            panic!("expected two moves");
        };
        assert!(board.is_empty(white) && board.is_empty(black) && white != black);
    }

    /// Plays the first empty points in order (skipping exclusions) and
    /// scores a position with Black to move by White's last stone: only
    /// `balanced_after` leaves Black a balanced game.
    struct Lopsided {
        balanced_after: Pos,
    }

    impl Searcher for Lopsided {
        fn search(
            &mut self,
            board: &Board,
            limits: &Limits,
            _stop: &AtomicBool,
            _report: &mut dyn FnMut(&SearchEvent),
        ) -> SearchResult {
            let best_move = board.empty_cells().find(|p| !limits.excluded.contains(p));
            let score = match board.stone_count() {
                3 => 0,
                _ if board.last_move() == Some(self.balanced_after) => 10,
                _ => 400,
            };
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

    #[test]
    fn two_more_stones_leave_the_most_balanced_position() {
        let board = opening(&[(7, 7), (8, 6), (9, 8)]);
        let mut searcher = Lopsided {
            balanced_after: Pos::new(1, 0),
        };
        let decision = decide(
            &mut searcher,
            &board,
            &Limits::default(),
            &AtomicBool::new(false),
        );
        let Swap2Decision::TwoMoves(white, black) = decision else {
            panic!("expected two moves, got {decision:?}");
        };
        assert_eq!(white, Pos::new(1, 0));
        assert!(board.is_empty(black) && black != white);
    }

    #[test]
    fn five_stones_swap_only_when_white_is_worse() {
        let board = opening(&[(7, 7), (8, 6), (9, 8), (6, 6), (10, 9)]);
        assert_eq!(decide_with(-50, &board), Swap2Decision::Swap);
        assert!(matches!(decide_with(50, &board), Swap2Decision::Move(_)));
    }
}
