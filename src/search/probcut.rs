//! ProbCut: a node that stands well above beta on its static score tries
//! its best few moves in a shallow search against a higher bound, and is
//! cut when one of them clears it.

use super::tactics::Threats;
use super::tt::{Bound, Entry};
use super::worker::{is_mate, NodeKind, Worker};
use super::Score;

impl Worker<'_> {
    /// The score that cuts a non-PV node at `depth` without its full
    /// search, if its best-ordered moves clear `beta` plus the rule's
    /// margin in a search `reduction` plies shallower. Only for a quiet node
    /// (`eval` is its static score) whose static score is already at beta.
    pub(super) fn probcut(
        &mut self,
        ply: usize,
        depth: i32,
        beta: Score,
        eval: Score,
        entry: Option<&Entry>,
    ) -> Option<Score> {
        let cut = self.selectivity.probcut?;
        if depth < cut.depth || eval < beta || is_mate(beta) {
            return None;
        }
        let bound = beta + cut.margin;
        let shallow = depth - cut.reduction;
        // A search nearly as deep as ours already failed below the bound.
        if entry.is_some_and(|e| e.depth > shallow && e.score < bound && e.bound != Bound::Lower) {
            return None;
        }
        // Never at the root or in a singular check, so no move is excluded;
        // a node with a static score faces no threat. When nothing cuts, the
        // search generates this list again: the singular check in between
        // reuses the ply's list.
        if self.generate(ply, &[], Threats::default()).is_some() {
            return None;
        }
        self.order(ply, entry.and_then(|e| e.best_move), cut.moves);
        let moves = std::mem::take(&mut self.moves[ply]);
        let mut found = None;
        for m in moves.iter().take(cut.moves) {
            let mv = m.info.pos;
            self.position.make(mv);
            let score = -self.search(shallow, ply + 1, -bound, -bound + 1, NodeKind::All);
            self.position.unmake();
            if self.shared.stopping() {
                break;
            }
            if score >= bound {
                found = Some((mv, score));
                break;
            }
        }
        self.moves[ply] = moves;
        let (mv, score) = found?;
        let key = self.position.hash();
        self.shared
            .tt
            .store(key, ply as u32, Some(mv), score, shallow + 1, Bound::Lower);
        Some(score)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tt::Bound;
    use super::super::worker::with_worker;
    use crate::board::{Board, Geometry, Rule};
    use crate::eval::evaluate;

    /// A quiet opening position: no three on the board for either side.
    fn quiet(rule: Rule) -> Board {
        Board::from_diagram(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . O . . . . . . .
            . . . . . . X X . . . . . . .
            . . . . . . O X . . . . . . .
            . . . . . . . O . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            ",
            rule,
            Geometry::Square,
        )
        .unwrap()
    }

    #[test]
    fn a_node_far_above_beta_is_cut_by_a_shallow_search_and_remembered() {
        // Renju's margin is 150, freestyle's 60.
        for (rule, margin) in [(Rule::Freestyle, 60), (Rule::Renju, 150)] {
            let board = quiet(rule);
            let eval = evaluate(&board);
            with_worker(&board, |worker| {
                let beta = eval - 500;
                let score = worker.probcut(1, 6, beta, eval, None);
                let score = score.expect("a cut");
                assert!(score >= beta + margin, "{rule:?}: {score} against {beta}");
                assert!(worker.nodes > 0);
                let entry = worker.shared.tt.probe(worker.position.hash(), 1).unwrap();
                assert_eq!(entry.bound, Bound::Lower);
                assert_eq!(entry.depth, 3);
                assert!(entry.best_move.is_some());
            });
        }
    }

    #[test]
    fn a_node_below_beta_or_too_shallow_is_not_tried() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let board = quiet(rule);
            let eval = evaluate(&board);
            with_worker(&board, |worker| {
                assert_eq!(worker.probcut(1, 6, eval + 1, eval, None), None);
                assert_eq!(worker.probcut(1, 4, eval - 500, eval, None), None);
                assert_eq!(worker.nodes, 0, "{rule:?}: nothing was searched");
            });
        }
    }
}
