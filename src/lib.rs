//! wuzi: a Gomoku / Renju engine.
//!
//! Data flows one way: `protocol` (text, session, command loop) → `search`
//! (thinking) → `board` (rules and line patterns). `eval` scores positions for
//! the search. `tools` holds the bench, the match runner and other utilities.

pub mod board;
pub mod eval;
pub mod protocol;
pub mod search;
pub mod tools;
