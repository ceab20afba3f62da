//! `pbrain-wuzi`: with no arguments, the pbrain protocol engine on
//! stdin/stdout; with a subcommand (`bench`, …), one of the shipped tools.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first() {
        Some(name) => wuzi::tools::run_subcommand(name, &args[1..]),
        None => {
            // The protocol loop lands with issue 2.
            ExitCode::SUCCESS
        }
    }
}
