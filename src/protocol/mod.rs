//! The pbrain protocol: command parsing, the session that owns the game, and
//! the command loop that owns stdin and stdout. No search lives here.
//!
//! - `command`: one manager line → `Command` (pure, table-driven);
//! - `database_command`: the arguments of Yixin-Board's database commands;
//! - `block`: assembles `BOARD`/`YXBOARD`/`SWAP2BOARD` … `DONE` (pure);
//! - `session`: game state and what each command does to it (no I/O), in
//!   parts: `game` (the position commands), `settings` (`INFO` keys and a
//!   search's limits), `answers` (the replies that need no search);
//! - `reply`, `report`: engine lines as values and their exact text (pure);
//! - `think`: runs a session's request to think on a `Searcher`;
//! - `run`: the threads and the loop around all of the above.

pub mod block;
pub mod command;
pub mod database_command;
pub mod reply;
pub mod report;
pub mod run;
pub mod session;
pub mod think;

pub use block::Assembler;
pub use command::{Command, ParseError};
pub use reply::Reply;
pub use run::{run, Exit};
pub use session::{Effect, Session, Think, Thought};
