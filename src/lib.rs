//! wuzi: a Gomoku / Renju engine.
//!
//! The modules depend one way: `protocol` (text, session, command loop) →
//! `search` (thinking) → `eval` (scores, move-ordering keys, `Score`) →
//! `board` (rules, line patterns, threats); `database` (the position
//! database of Yixin-Board's panel) serves `protocol` and uses `board`
//! and the mate scores of `eval`.
//! `tools` (bench, match runner,
//! opening generator, tuners) sits on top of them all. See
//! `docs/architecture.md`.

pub mod board;
pub mod database;
pub mod eval;
pub mod play;
pub mod protocol;
pub mod search;
pub mod tools;
