//! Tools that ship with the engine, run as `pbrain-wuzi <subcommand>`: bench,
//! opening generator, game review, evaluation and move-ordering tuning. The match runner is its own binary
//! (`wuzi-match`) built on `match_runner`; `openings` and `records` are the
//! file formats the tools share.

pub mod analyze;
pub mod bench;
pub mod board_bench;
pub mod cell_class;
pub mod cli;
pub mod database;
pub mod fit_data;
pub mod fitting;
pub mod judge;
pub mod match_runner;
pub mod opengen;
pub mod openings;
pub mod records;
pub mod teacher;
pub mod tune;
pub mod tune_choice;
pub mod tune_net;
pub mod tune_order;

use std::process::ExitCode;

/// Prints a tool's text (or its error message: only stdout may carry text)
/// and turns the outcome into the exit code.
pub fn finish(outcome: Result<String, String>) -> ExitCode {
    match outcome {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            println!("{message}");
            ExitCode::FAILURE
        }
    }
}
