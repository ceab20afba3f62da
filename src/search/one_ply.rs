//! A one-ply searcher: it takes a five, blocks the opponent's five, and
//! otherwise plays next to the stones near the centre. Instant and
//! deterministic, so the protocol layer's unit tests drive a session with it
//! and test the protocol, not the search; it is also the smallest complete
//! example of the `Searcher` contract.

use super::{EngineOptions, Limits, SearchEvent, SearchResult, Searcher};
use crate::board::{Board, Pos};
use std::sync::atomic::AtomicBool;

#[derive(Default)]
pub struct OnePlySearcher;

impl OnePlySearcher {
    fn choose(board: &Board, excluded: &[Pos]) -> Option<Pos> {
        let me = board.side_to_move();
        let legal: Vec<Pos> = board
            .empty_cells()
            .filter(|&p| board.is_legal(p) && !excluded.contains(&p))
            .collect();
        let win = legal.iter().find(|&&p| board.is_win(p, me));
        let block = || legal.iter().find(|&&p| board.is_win(p, me.opponent()));
        let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
        let distance = |p: Pos| (p.x() as i64 - cx).abs().max((p.y() as i64 - cy).abs());
        let has_neighbour = |p: Pos| {
            board.history().iter().any(|&s| {
                (s.x() as i64 - p.x() as i64).abs() <= 1 && (s.y() as i64 - p.y() as i64).abs() <= 1
            })
        };
        let near_centre = || {
            let touching = legal.iter().filter(|&&p| has_neighbour(p));
            touching
                .min_by_key(|&&p| distance(p))
                .or_else(|| legal.iter().min_by_key(|&&p| distance(p)))
        };
        win.or_else(block).or_else(near_centre).copied()
    }
}

impl Searcher for OnePlySearcher {
    fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        _stop: &AtomicBool,
        _report: &mut dyn FnMut(&SearchEvent),
    ) -> SearchResult {
        let best_move = Self::choose(board, &limits.excluded);
        SearchResult {
            best_move,
            score: 0,
            depth: 1,
            nodes: board.stone_count() as u64,
            pv: best_move.into_iter().collect(),
        }
    }

    fn clear(&mut self) {}

    fn configure(&mut self, _options: &EngineOptions) {}
}
