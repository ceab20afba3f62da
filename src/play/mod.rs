//! `wuzi-play`: a game and analysis board in the terminal. It owns the game
//! between a person and the engine (`game`), what the person types
//! (`command`), the engine on a worker thread (`engine`, the protocol's own
//! `Searcher` in this process), the controller tying them together
//! (`session`), the board drawn as cells (`render`), analysis mode
//! (`review`), the command line (`options`) and the terminal itself (`tui`,
//! ratatui on crossterm). Everything but `tui` runs without a terminal, so
//! the tests drive it with scripted lines and compare the board as text.

pub mod command;
pub mod engine;
pub mod game;
pub mod options;
pub mod render;
pub mod review;
pub mod session;
pub mod tui;
