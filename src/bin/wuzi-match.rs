//! `wuzi-match`: plays two pbrain engines against each other headless (see
//! `wuzi::tools::match_runner` and `wuzi-match --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    wuzi::tools::match_runner::main(&args)
}
