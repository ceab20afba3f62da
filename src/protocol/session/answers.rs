//! The answers that need no search: Black's forbidden points
//! (`YXSHOWFORBID`), the engine's limits (`YXSHOWINFO`) and Yixin-Board's
//! `MESSAGE SWAP2 …` lines for a swap2 decision.

use super::settings::{MAX_HASH_SIZE_LOG2, MAX_THREADS};
use super::{Effect, Session};
use crate::board::{Board, Pos};
use crate::protocol::reply::Reply;
use crate::search::swap2::Swap2Decision;

impl Session {
    /// Black's forbidden points in a renju game. Listed whoever is to move
    /// (Rapfi lists them only on Black's turn): a GUI or a test asks about a
    /// position, and the answer does not depend on the turn.
    pub(super) fn forbidden_points(&self) -> Vec<Pos> {
        self.board
            .as_ref()
            .map(Board::forbidden_points)
            .unwrap_or_default()
    }

    pub(super) fn show_info(&self) -> Vec<Effect> {
        [
            format!("wuzi {}", env!("CARGO_PKG_VERSION")),
            format!("INFO MAX_THREAD_NUM {MAX_THREADS}"),
            format!("INFO MAX_HASH_SIZE {MAX_HASH_SIZE_LOG2}"),
        ]
        .into_iter()
        .map(|text| Effect::Reply(Reply::Message(text)))
        .collect()
    }
}

/// Yixin-Board's swap2 answers: `MESSAGE SWAP2 …` lines, coordinates as
/// `first second` in the GUI's own frame (row col for Yixin-Board).
pub(super) fn yx_swap2_replies(step: u8, decision: Swap2Decision) -> Vec<Effect> {
    let stone = |label: &str, p: Pos| format!("SWAP2 {label} {} {}", p.x(), p.y());
    let lines = match (step, decision) {
        (1, Swap2Decision::PlaceThree([a, b, c])) => {
            vec![stone("MOVE1", a), stone("MOVE2", b), stone("MOVE3", c)]
        }
        (2, Swap2Decision::Swap) => vec!["SWAP2 SWAP1 YES".to_string()],
        (2, Swap2Decision::TwoMoves(a, b)) => vec![stone("MOVE4", a), stone("MOVE5", b)],
        (2, _) => vec!["SWAP2 SWAP1 NO".to_string()],
        (_, Swap2Decision::Swap) => vec!["SWAP2 SWAP2 YES".to_string()],
        _ => vec!["SWAP2 SWAP2 NO".to_string()],
    };
    lines
        .into_iter()
        .map(|text| Effect::Reply(Reply::Message(text)))
        .collect()
}
