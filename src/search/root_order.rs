//! The root's move order across iterations: each move that became the
//! best moves to the front, and the others keep the order the earlier
//! iterations left them in, rather than being ranked afresh by their keys.
//! A move that was best a few iterations ago stays early, so the late-move
//! reductions, which grow with a move's rank, keep sparing it (Stockfish
//! sorts its root moves by the last scores the same way, stably). Renju
//! keeps ranking its root by key (`Selectivity::root_order_carries_over`).

use super::worker::Worker;
use crate::board::Pos;

impl Worker<'_> {
    /// Puts the root's moves, already ordered by key with `first` in front,
    /// into the order the earlier iterations left; the first iteration's
    /// order by key becomes that order. `first` stays in front. Only where
    /// the rule's selectivity says so; elsewhere the order stays empty and
    /// the keys rank the root afresh.
    pub(super) fn order_root(&mut self, first: Option<Pos>) {
        if !self.selectivity.root_order_carries_over {
            return;
        }
        if self.root_order.is_empty() {
            self.root_order = self.moves[0].iter().map(|m| m.info.pos).collect();
            return;
        }
        let order = &self.root_order;
        let rank = |pos: Pos| order.iter().position(|&p| p == pos).unwrap_or(usize::MAX);
        self.moves[0].sort_by_key(|m| (Some(m.info.pos) != first, rank(m.info.pos)));
    }

    /// Moves a root move that just became the best to the front of the
    /// order the next iterations start from.
    pub(super) fn promote_root_move(&mut self, mv: Pos) {
        if let Some(i) = self.root_order.iter().position(|&p| p == mv) {
            self.root_order[..=i].rotate_right(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::worker::with_worker;
    use crate::board::{Board, Geometry, Pos, Rule};

    /// The root's moves in their order now, without ranking them again
    /// (`Worker::root_moves` ranks them by key first, as each iteration's
    /// `order` does).
    fn order_now(worker: &super::Worker) -> Vec<Pos> {
        worker.moves[0].iter().map(|m| m.info.pos).collect()
    }

    fn position(rule: Rule) -> Board {
        Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . X O . . . .
            . . . . X . . . .
            . . . . O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
            rule,
            Geometry::Square,
        )
        .unwrap()
    }

    #[test]
    fn renju_ranks_its_root_by_key_at_every_iteration() {
        with_worker(&position(Rule::Renju), |worker| {
            assert!(worker.prepare_root(&[]).is_none());
            let by_key = worker.root_moves();
            worker.order_root(None);
            worker.promote_root_move(by_key[3]);
            // The next iteration ranks the root by key, then orders it.
            worker.root_moves();
            worker.order_root(None);
            assert!(worker.root_order.is_empty());
            assert_eq!(order_now(worker), by_key);
        });
    }

    #[test]
    fn the_root_keeps_its_order_and_each_new_best_moves_to_the_front() {
        let board = position(Rule::Freestyle);
        with_worker(&board, |worker| {
            assert!(worker.prepare_root(&[]).is_none());
            let by_key = worker.root_moves();
            assert!(by_key.len() > 5);
            worker.order_root(None);
            assert_eq!(worker.root_order, by_key, "the first order is the keys'");

            let (second, fourth) = (by_key[1], by_key[3]);
            worker.promote_root_move(fourth);
            worker.promote_root_move(second);
            // The keys alone would put by_key[0] back in front; the order
            // the iterations left overrides them.
            worker.root_moves();
            worker.order_root(None);
            let mut expected = vec![second, fourth, by_key[0], by_key[2]];
            expected.extend(&by_key[4..]);
            assert_eq!(order_now(worker), expected);

            // The move searched first (the last iteration's best) stays first.
            worker.root_moves();
            worker.order_root(Some(by_key[2]));
            assert_eq!(&order_now(worker)[..3], &[by_key[2], second, fourth]);
        });
    }
}
