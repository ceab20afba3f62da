//! The command line of `pbrain-wuzi`'s subcommands, on clap's derive API,
//! and the value parsers every tool shares (rules, geometries, sizes), so
//! that one flag is spelt and read the same way by every tool.
//!
//! Help and `--version` go to stdout (exit 0); a command line clap cannot
//! read is answered on stderr with what is wrong and exit code 2, as every
//! clap program does. Protocol mode (no arguments) never reaches clap.

use super::{analyze, bench, database, opengen, tune, tune_order};
use crate::board::{Geometry, Rule};
use crate::tools::records::{geometry_from_name, rule_from_gomocup_code};
use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// `pbrain-wuzi`: the engine, or one of the tools that ship with it.
#[derive(Parser, Debug)]
#[command(
    name = "pbrain-wuzi",
    version,
    // The last of a repeated option wins, as scripts appending options expect.
    args_override_self = true,
    about = "A Gomoku / Renju engine speaking the Gomocup pbrain protocol",
    long_about = "A Gomoku / Renju engine speaking the Gomocup pbrain protocol.\n\n\
                  With no arguments it is the engine: protocol lines on stdin and stdout \
                  (START 15, BEGIN, TURN x,y, ... END), as Piskvork, Yixin-Board and \
                  c-gomoku-cli start it. With a subcommand it runs one of its tools."
)]
pub struct EngineCli {
    #[command(subcommand)]
    pub tool: Tool,
}

/// The tools, one subcommand each.
#[derive(Subcommand, Debug)]
pub enum Tool {
    /// Search speed: fixed positions to a depth (nodes, signature, nodes/s)
    Bench(bench::BenchArgs),
    /// Balanced openings from the engine's own search
    Opengen(opengen::OpengenArgs),
    /// Review a game record: every move's score, the best move, the blunders
    Analyze(analyze::AnalyzeArgs),
    /// Fit the evaluation's weights to game records
    Tune(tune::TuneArgs),
    /// Label positions for, or fit, the move-ordering key
    #[command(subcommand)]
    TuneOrder(tune_order::TuneOrderCommand),
    /// The position database Yixin-Board's database panel uses
    #[command(subcommand)]
    Db(database::DbCommand),
    /// Play or review games in the terminal (runs `wuzi-play`, built beside this binary)
    #[command(disable_help_flag = true)]
    Play {
        /// wuzi-play's own arguments (`pbrain-wuzi play --help` shows them)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Parses `args` (without the program name) and runs the tool; a bad command
/// line exits here with clap's message and code 2.
pub fn run(args: &[String]) -> ExitCode {
    let cli = EngineCli::parse_from(
        std::iter::once("pbrain-wuzi".to_string()).chain(args.iter().cloned()),
    );
    match cli.tool {
        Tool::Bench(args) => bench::main(args),
        Tool::Opengen(args) => opengen::main(args),
        Tool::Analyze(args) => super::finish(analyze::run(args)),
        Tool::Tune(args) => super::finish(tune::run(args)),
        Tool::TuneOrder(command) => super::finish(tune_order::run(command)),
        Tool::Db(command) => super::finish(database::run(command)),
        Tool::Play { args } => run_play(&args),
    }
}

/// `pbrain-wuzi play …` starts the `wuzi-play` binary next to this one: the
/// terminal board is a binary of its own so that the Gomocup engine stays
/// small.
fn run_play(args: &[String]) -> ExitCode {
    let name = format!("wuzi-play{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)))
        .filter(|path| path.exists());
    let Some(program) = beside else {
        eprintln!("error: {name} is not next to pbrain-wuzi; build it with `cargo build --release --bin wuzi-play`");
        return ExitCode::from(2);
    };
    match std::process::Command::new(&program).args(args).status() {
        Ok(status) => ExitCode::from(status.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(error) => {
            eprintln!("error: cannot start {}: {error}", program.display());
            ExitCode::from(2)
        }
    }
}

/// A rule by Gomocup code (`0 1 4 8 9`) or by name (`freestyle`,
/// `standard`, `renju`, `caro`, `caro-exact`).
pub fn parse_rule(text: &str) -> Result<Rule, String> {
    let text = text.trim();
    if let Ok(code) = text.parse::<u32>() {
        return rule_from_gomocup_code(code).ok_or_else(|| {
            format!("'{code}' is not a rule code wuzi plays (0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro-exact)")
        });
    }
    RULE_NAMES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map(|&(_, rule)| rule)
        .ok_or_else(|| {
            format!("'{text}' is not a rule: freestyle, standard, renju, caro, caro-exact (or 0, 1, 4, 8, 9)")
        })
}

/// The rules' names on the command line.
pub const RULE_NAMES: [(&str, Rule); 5] = [
    ("freestyle", Rule::Freestyle),
    ("standard", Rule::Standard),
    ("renju", Rule::Renju),
    ("caro", Rule::Caro),
    ("caro-exact", Rule::CaroExact),
];

/// The name `parse_rule` reads back.
pub fn rule_name(rule: Rule) -> &'static str {
    RULE_NAMES
        .iter()
        .find(|(_, known)| *known == rule)
        .map_or("freestyle", |(name, _)| name)
}

/// `square` or `hex`.
pub fn parse_geometry(text: &str) -> Result<Geometry, String> {
    geometry_from_name(text).map_err(|_| format!("'{text}' is not square or hex"))
}

/// A board size: `N` or `WxH`.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let number = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{text}' is not a size (N or WxH)"))
    };
    match text.split_once(['x', 'X', ',']) {
        Some((w, h)) => Ok((number(w)?, number(h)?)),
        None => {
            let n = number(text)?;
            Ok((n, n))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        EngineCli::command().debug_assert();
    }

    #[test]
    fn rules_are_read_by_code_and_by_name() {
        assert_eq!(parse_rule("4"), Ok(Rule::Renju));
        assert_eq!(parse_rule("Renju"), Ok(Rule::Renju));
        assert_eq!(parse_rule("caro-exact"), Ok(Rule::CaroExact));
        assert!(parse_rule("2").unwrap_err().contains("not a rule code"));
        assert!(parse_rule("go").is_err());
        for (name, rule) in RULE_NAMES {
            assert_eq!(parse_rule(rule_name(rule)), Ok(rule), "{name}");
        }
        assert_eq!(parse_size("20x18"), Ok((20, 18)));
        assert_eq!(parse_size("15"), Ok((15, 15)));
        assert!(parse_size("big").is_err());
    }
}
