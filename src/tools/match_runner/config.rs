//! The command line of `wuzi-match`, turned into a checked match description.

use super::engine::{split_command, EngineSpec};
use super::game::{GameSettings, TimeControl};
use super::stats::Sprt;
use crate::board::Board;
use crate::tools::openings::{parse_openings, Opening};
use crate::tools::records::rule_from_gomocup_code;
use std::path::PathBuf;

pub const USAGE: &str = "\
usage: wuzi-match --engine1 CMD --engine2 CMD [options]

engines
  --engine1 CMD, --engine2 CMD   command lines (quotes group words)
  --name1 NAME, --name2 NAME     display names (default: program file names)
  --info1 KEY=VALUE              extra 'INFO KEY VALUE' for engine 1 (repeatable;
  --info2 KEY=VALUE              e.g. max_depth=4); same for engine 2
game
  --size N | WxH                 board size (default 15)
  --rule 0|1|4|8|9               Gomocup rule code (default 0 = freestyle)
  --openings FILE                one opening a line: pos (h8i9j10) or offsets
                                 (dx,dy, dx,dy, ... from the centre)
  --games N                      games to play (default: each opening twice,
                                 colours swapped; 2 without openings)
  --max-stones N                 draw once N stones are on the board
time (ms; 0 = no limit)
  --turn MS                      per-move limit (default 1000)
  --match MS                     per-game limit for each engine (default 0)
  --increment MS                 added to the match clock after each move
  --tolerance MS                 grace on every limit (default 1000)
  --start-timeout MS             wait for OK after START (default 3000)
  --max-memory BYTES             sent as INFO max_memory (default 367001600)
running
  --concurrency N                games at once (default 1)
  --sprt ELO0,ELO1,ALPHA,BETA    stop when the SPRT is decided
  --sgf DIR                      save every game as DIR/game-NNNN.sgf
  --psq DIR                      save every game as DIR/game-NNNN.psq
  --log FILE                     write every protocol line to FILE
";

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    pub settings: GameSettings,
    pub openings: Vec<Opening>,
    pub games: usize,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub sgf_dir: Option<PathBuf>,
    pub psq_dir: Option<PathBuf>,
    pub log_file: Option<PathBuf>,
}

fn parse_number<T: std::str::FromStr>(option: &str, value: &str) -> Result<T, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("{option}: '{value}' is not a valid number"))
}

/// `0` means "no limit" for the clock options.
fn limit(option: &str, value: &str) -> Result<Option<u64>, String> {
    let ms: u64 = parse_number(option, value)?;
    Ok((ms > 0).then_some(ms))
}

fn parse_size(value: &str) -> Result<(usize, usize), String> {
    match value.split_once(['x', 'X', ',']) {
        Some((w, h)) => Ok((parse_number("--size", w)?, parse_number("--size", h)?)),
        None => {
            let n = parse_number("--size", value)?;
            Ok((n, n))
        }
    }
}

fn default_name(command: &[String]) -> String {
    command
        .first()
        .map(|program| {
            std::path::Path::new(program)
                .file_stem()
                .map_or(program.clone(), |stem| stem.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "engine".into())
}

impl MatchConfig {
    /// Parses the arguments (without the program name).
    pub fn from_args(args: &[String]) -> Result<MatchConfig, String> {
        let mut commands: [Option<Vec<String>>; 2] = [None, None];
        let mut names: [Option<String>; 2] = [None, None];
        let mut infos: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
        let mut size = (15, 15);
        let mut rule_code = 0u32;
        let mut openings_file: Option<PathBuf> = None;
        let mut games: Option<usize> = None;
        let mut max_stones = None;
        let mut time = TimeControl {
            turn_ms: Some(1000),
            match_ms: None,
            increment_ms: 0,
            tolerance_ms: 1000,
            start_ms: 3000,
        };
        let mut max_memory = 367_001_600u64;
        let mut concurrency = 1usize;
        let mut sprt = None;
        let (mut sgf_dir, mut psq_dir, mut log_file) = (None, None, None);

        let mut rest = args.iter();
        while let Some(option) = rest.next() {
            if option == "-h" || option == "--help" {
                return Err(USAGE.to_string());
            }
            let value = rest
                .next()
                .ok_or_else(|| format!("{option} needs a value\n\n{USAGE}"))?;
            let engine = |name: &str| if name.ends_with('1') { 0 } else { 1 };
            match option.as_str() {
                "--engine1" | "--engine2" => {
                    let words = split_command(value);
                    if words.is_empty() {
                        return Err(format!("{option}: empty command"));
                    }
                    commands[engine(option)] = Some(words);
                }
                "--name1" | "--name2" => names[engine(option)] = Some(value.clone()),
                "--info1" | "--info2" => {
                    let (key, val) = value
                        .split_once('=')
                        .ok_or_else(|| format!("{option}: expected KEY=VALUE, got '{value}'"))?;
                    infos[engine(option)].push((key.trim().to_string(), val.trim().to_string()));
                }
                "--size" => size = parse_size(value)?,
                "--rule" => rule_code = parse_number(option, value)?,
                "--openings" => openings_file = Some(PathBuf::from(value)),
                "--games" => games = Some(parse_number(option, value)?),
                "--max-stones" => max_stones = Some(parse_number(option, value)?),
                "--turn" => time.turn_ms = limit(option, value)?,
                "--match" => time.match_ms = limit(option, value)?,
                "--increment" => time.increment_ms = parse_number(option, value)?,
                "--tolerance" => time.tolerance_ms = parse_number(option, value)?,
                "--start-timeout" => time.start_ms = parse_number(option, value)?,
                "--max-memory" => max_memory = parse_number(option, value)?,
                "--concurrency" => concurrency = parse_number::<usize>(option, value)?.max(1),
                "--sprt" => sprt = Some(Sprt::parse(value)?),
                "--sgf" => sgf_dir = Some(PathBuf::from(value)),
                "--psq" => psq_dir = Some(PathBuf::from(value)),
                "--log" => log_file = Some(PathBuf::from(value)),
                _ => return Err(format!("unknown option '{option}'\n\n{USAGE}")),
            }
        }

        let rule = rule_from_gomocup_code(rule_code)
            .ok_or_else(|| format!("--rule {rule_code}: not a rule we play (0, 1, 4, 8, 9)"))?;
        let board = Board::new(size.0, size.1, rule).map_err(|e| e.to_string())?;
        let [Some(command1), Some(command2)] = commands else {
            return Err(format!(
                "both --engine1 and --engine2 are needed\n\n{USAGE}"
            ));
        };
        let mut default_names = [default_name(&command1), default_name(&command2)];
        if default_names[0] == default_names[1] {
            default_names[0].push_str("-1");
            default_names[1].push_str("-2");
        }
        let [info1, info2] = infos;
        let [name1, name2] = names;
        let [default1, default2] = default_names;
        let engines = [
            EngineSpec {
                name: name1.unwrap_or(default1),
                command: command1,
                info: info1,
            },
            EngineSpec {
                name: name2.unwrap_or(default2),
                command: command2,
                info: info2,
            },
        ];
        let openings = match &openings_file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let openings = parse_openings(&text, size.0, size.1, rule)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                if openings.is_empty() {
                    return Err(format!("{}: no openings", path.display()));
                }
                openings
            }
            None => vec![Opening { stones: Vec::new() }],
        };
        let games = games.unwrap_or(2 * openings.len());
        Ok(MatchConfig {
            engines,
            settings: GameSettings {
                board,
                time,
                max_memory,
                max_stones,
            },
            openings,
            games,
            concurrency,
            sprt,
            sgf_dir,
            psq_dir,
            log_file,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        split_command(text)
    }

    #[test]
    fn defaults_and_names() {
        let config =
            MatchConfig::from_args(&args("--engine1 ./a/pbrain-x --engine2 'pbrain-x --fast'"))
                .unwrap();
        assert_eq!(config.engines[0].name, "pbrain-x-1");
        assert_eq!(config.engines[1].name, "pbrain-x-2");
        assert_eq!(config.engines[1].command, vec!["pbrain-x", "--fast"]);
        assert_eq!(config.games, 2);
        assert_eq!(config.settings.time.turn_ms, Some(1000));
        assert_eq!(config.settings.board.width(), 15);
    }

    #[test]
    fn options_are_read() {
        let config = MatchConfig::from_args(&args(
            "--engine1 a --engine2 b --name2 base --info2 max_depth=3 --size 20x18 --rule 4 \
             --turn 0 --match 60000 --increment 500 --games 7 --concurrency 2 --sprt 0,5,0.05,0.1",
        ))
        .unwrap();
        assert_eq!(config.engines[1].name, "base");
        assert_eq!(
            config.engines[1].info,
            vec![("max_depth".to_string(), "3".to_string())]
        );
        assert_eq!(
            (
                config.settings.board.width(),
                config.settings.board.height()
            ),
            (20, 18)
        );
        assert_eq!(config.settings.board.rule(), crate::board::Rule::Renju);
        assert_eq!(config.settings.time.turn_ms, None);
        assert_eq!(config.settings.time.match_ms, Some(60000));
        assert_eq!(config.games, 7);
        assert_eq!(config.sprt.unwrap().elo1, 5.0);
    }

    #[test]
    fn bad_command_lines_are_errors() {
        for text in [
            "--engine1 a",
            "--engine1 a --engine2 b --rule 2",
            "--engine1 a --engine2 b --size 40",
            "--engine1 a --engine2 b --turn fast",
            "--engine1 a --engine2 b --bogus 1",
            "--engine1 a --engine2 b --info1 nokey",
            "--engine1 a --engine2 b --games",
        ] {
            assert!(MatchConfig::from_args(&args(text)).is_err(), "{text}");
        }
    }
}
