//! `wuzi-match`: plays two pbrain engines against each other headless (see
//! `wuzi::tools::match_runner` and `wuzi-match --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
    wuzi::tools::match_runner::main()
}
