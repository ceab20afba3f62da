//! Analysis mode: a game replayed with the engine's evaluation of every move
//! (`tools::analyze::review`), an evaluation graph over the game and the
//! blunders marked, as `pbrain-wuzi analyze` judges them.

use crate::board::{Color, Pos};
use crate::search::{Score, MATE_BOUND};
use crate::tools::analyze::{format_score, MoveReview};

/// A loss above this many centi-stones is a blunder (`analyze`'s default).
pub const BLUNDER_THRESHOLD: Score = 150;

/// Scores are drawn clipped to this, so that one forced win does not flatten
/// the rest of the graph.
pub const GRAPH_LIMIT: Score = 1000;

pub struct Review {
    pub moves: Vec<Pos>,
    pub reviews: Vec<MoveReview>,
    /// The ply shown (0 = the empty board).
    pub ply: usize,
}

impl Review {
    pub fn is_blunder(review: &MoveReview) -> bool {
        review.loss() > BLUNDER_THRESHOLD && review.best_move != Some(review.played)
    }

    /// Black's evaluation after each move, clipped: the graph's points.
    pub fn black_scores(&self) -> Vec<Score> {
        self.reviews
            .iter()
            .map(|r| {
                let score = if r.color == Color::Black {
                    r.played_score
                } else {
                    -r.played_score
                };
                score.clamp(-GRAPH_LIMIT, GRAPH_LIMIT)
            })
            .collect()
    }

    /// The line under the board about the move shown.
    pub fn describe_ply(&self) -> String {
        if self.ply == 0 {
            return format!("start; {} moves reviewed", self.reviews.len());
        }
        let Some(r) = self.reviews.get(self.ply - 1) else {
            return format!("move {} (not reviewed)", self.ply);
        };
        let side = if r.color == Color::Black {
            "Black"
        } else {
            "White"
        };
        let best = r.best_move.map_or("-".to_string(), |p| p.to_string());
        let mut text = format!(
            "move {} {side} {}: {} (best {best} {})",
            r.ply,
            r.played,
            format_score(r.played_score),
            format_score(r.best_score)
        );
        if Review::is_blunder(r) {
            let loss = r.loss();
            let loss = if loss > MATE_BOUND {
                "a forced result".to_string()
            } else {
                loss.to_string()
            };
            text.push_str(&format!("  ?? blunder, loses {loss}"));
        }
        if let Some(ending) = r.ending {
            text.push_str(&format!(" ({ending})"));
        }
        text
    }

    /// The blunders, one line each.
    pub fn blunder_lines(&self) -> Vec<String> {
        self.reviews
            .iter()
            .filter(|r| Review::is_blunder(r))
            .map(|r| {
                let side = if r.color == Color::Black { "B" } else { "W" };
                let best = r.best_move.map_or("-".to_string(), |p| p.to_string());
                format!("{:>3} {side} {} ?? better {best}", r.ply, r.played)
            })
            .collect()
    }

    /// The graph as text: one column a move, `+` above the middle line
    /// when Black is ahead, `-` below when White is, `!` over a blunder;
    /// `rows` lines on each side.
    pub fn graph_text(&self, rows: usize) -> String {
        let scores = self.black_scores();
        let height = |s: Score| {
            ((s.unsigned_abs() as usize * rows).div_ceil(GRAPH_LIMIT as usize)).min(rows)
        };
        let mut lines = Vec::new();
        let marks: String = self
            .reviews
            .iter()
            .map(|r| if Review::is_blunder(r) { '!' } else { ' ' })
            .collect();
        lines.push(marks);
        for level in (1..=rows).rev() {
            lines.push(
                scores
                    .iter()
                    .map(|&s| {
                        if s > 0 && height(s) >= level {
                            '+'
                        } else {
                            ' '
                        }
                    })
                    .collect(),
            );
        }
        lines.push("-".repeat(scores.len()));
        for level in 1..=rows {
            lines.push(
                scores
                    .iter()
                    .map(|&s| {
                        if s < 0 && height(s) >= level {
                            '-'
                        } else {
                            ' '
                        }
                    })
                    .collect(),
            );
        }
        lines
            .iter()
            .map(|l| l.trim_end().to_string() + "\n")
            .collect()
    }
}
