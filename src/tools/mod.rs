//! Tools that ship with the engine, run as `pbrain-wuzi <subcommand>`: bench,
//! opening generator, game review. The match runner is its own binary.

pub mod bench;

use std::process::ExitCode;

/// Runs the subcommand `name` with its arguments.
pub fn run_subcommand(name: &str, args: &[String]) -> ExitCode {
    if name == "bench" {
        return bench::main(args);
    }
    // Only stdout may carry text (see README, Logging); usage errors go there too.
    println!("ERROR unknown subcommand '{name}'");
    ExitCode::FAILURE
}
