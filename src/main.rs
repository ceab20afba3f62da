//! `pbrain-wuzi`: with no arguments, the pbrain protocol engine on
//! stdin/stdout; with a subcommand (`bench`, …), one of the shipped tools
//! (`wuzi::tools::cli`, which also answers `--help` and `--version`).

use std::io::{self, BufReader};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Yixin-Board starts its engine as `engine.exe --force-utf8` on Windows;
    // every line wuzi reads or writes is ASCII, so the flag changes nothing.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--force-utf8")
        .collect();
    if !args.is_empty() {
        return wuzi::tools::cli::run(&args);
    }
    init_logging();
    // The rule tables take a quarter of a second: building starts at once,
    // on the second core, and START waits for the rest before its OK, so
    // that no move's clock pays for them.
    std::thread::spawn(wuzi::board::prepare_tables);
    let input = BufReader::new(io::stdin());
    let exit = wuzi::protocol::run(
        input,
        io::stdout().lock(),
        wuzi::search::new_playing_searcher(),
    );
    if let Err(error) = &exit {
        log::error!("protocol loop ended: {error}");
    }
    // END and EOF must end the process at once, even mid-search: the search
    // thread is not joined, exiting ends it.
    std::process::exit(0)
}

/// Logging is off unless asked for, because Piskvork reads stderr as
/// protocol. `WUZI_LOG=<level>` logs to stderr; `WUZI_LOG_FILE=<path>` logs
/// to that file (at `WUZI_LOG`'s level, or `debug`).
fn init_logging() {
    let level = std::env::var("WUZI_LOG").ok();
    let file = std::env::var_os("WUZI_LOG_FILE");
    if level.is_none() && file.is_none() {
        return;
    }
    let mut builder = env_logger::Builder::new();
    builder.parse_filters(level.as_deref().unwrap_or("debug"));
    if let Some(path) = file {
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
        {
            Ok(file) => {
                builder.target(env_logger::Target::Pipe(Box::new(file)));
            }
            // Cannot log where asked; stay silent rather than write to stderr.
            Err(_) => return,
        }
    } else {
        builder.target(env_logger::Target::Stderr);
    }
    let _ = builder.try_init();
}
