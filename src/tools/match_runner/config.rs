//! The command line of `wuzi-match`, turned into a checked match description.

use super::engine::{split_command, EngineSpec};
use super::game::{GameSettings, TimeControl};
use super::stats::{Sprt, SprtModel};
use crate::board::Rule;
use crate::board::{Board, Geometry, Pos};
use crate::tools::cli::{parse_geometry, parse_rule, parse_size};
use crate::tools::openings::{check_stone, parse_openings, Opening};
use clap::Parser;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;

/// `wuzi-match --engine1 CMD --engine2 CMD [options]`, as typed.
#[derive(Parser, Debug)]
#[command(
    name = "wuzi-match",
    version,
    // The last of a repeated option wins: scripts/sprt.sh appends the
    // caller's options after its own defaults.
    args_override_self = true,
    about = "Plays two pbrain engines against each other headless, with an SPRT and game records",
    after_help = "Time options are in milliseconds; 0 means no limit."
)]
pub struct MatchArgs {
    /// Engine 1's command line (quotes group words)
    #[arg(long, value_name = "CMD", help_heading = "Engines")]
    engine1: String,
    /// Engine 2's command line
    #[arg(long, value_name = "CMD", help_heading = "Engines")]
    engine2: String,
    /// Engine 1's display name (default: its program's file name)
    #[arg(long, value_name = "NAME", help_heading = "Engines")]
    name1: Option<String>,
    /// Engine 2's display name
    #[arg(long, value_name = "NAME", help_heading = "Engines")]
    name2: Option<String>,
    /// An extra 'INFO KEY VALUE' for engine 1, e.g. max_depth=4 (repeatable)
    #[arg(long, value_name = "KEY=VALUE", value_parser = parse_info, help_heading = "Engines")]
    info1: Vec<(String, String)>,
    /// The same for engine 2
    #[arg(long, value_name = "KEY=VALUE", value_parser = parse_info, help_heading = "Engines")]
    info2: Vec<(String, String)>,

    /// Board size, N or WxH
    #[arg(long, value_name = "N|WxH", default_value = "15", value_parser = parse_size, help_heading = "Game")]
    size: (usize, usize),
    /// Rule: 0|1|4|8|9 (Gomocup codes) or freestyle|standard|renju|caro|caro-exact
    #[arg(long, default_value = "0", value_parser = parse_rule, help_heading = "Game")]
    rule: Rule,
    /// The board's lines: square, or hex (the triangle mesh, sent as 'INFO geometry hex')
    #[arg(long, default_value = "square", value_parser = parse_geometry, help_heading = "Game")]
    geometry: Geometry,
    /// One opening a line: pos (h8i9j10) or offsets (dx,dy, dx,dy, ... from the centre)
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "random_openings",
        help_heading = "Game"
    )]
    openings: Option<PathBuf>,
    /// Instead: N random openings of STONES stones (default 3) near the centre
    #[arg(long, value_name = "N[,STONES]", value_parser = parse_random_openings, help_heading = "Game")]
    random_openings: Option<(usize, usize)>,
    /// Seed of --random-openings
    #[arg(long, default_value_t = 1, help_heading = "Game")]
    seed: u64,
    /// Games to play (default: each opening twice, colours swapped; 2 without openings)
    #[arg(long, value_name = "N", help_heading = "Game")]
    games: Option<usize>,
    /// Draw once N stones are on the board
    #[arg(long, value_name = "N", help_heading = "Game")]
    max_stones: Option<usize>,

    /// Per-move limit
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1000,
        help_heading = "Time (ms; 0 = no limit)"
    )]
    turn: u64,
    /// Per-game limit for each engine
    #[arg(
        long = "match",
        value_name = "MS",
        default_value_t = 0,
        help_heading = "Time (ms; 0 = no limit)"
    )]
    match_ms: u64,
    /// Added to the match clock after each move
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 0,
        help_heading = "Time (ms; 0 = no limit)"
    )]
    increment: u64,
    /// Grace on every limit
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1000,
        help_heading = "Time (ms; 0 = no limit)"
    )]
    tolerance: u64,
    /// Wait this long for OK after START
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 3000,
        help_heading = "Time (ms; 0 = no limit)"
    )]
    start_timeout: u64,
    /// Sent as INFO max_memory
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = 367_001_600,
        help_heading = "Engines"
    )]
    max_memory: u64,

    /// Games at once
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = "Running")]
    concurrency: usize,
    /// Stop when the SPRT is decided
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", value_parser = Sprt::parse, help_heading = "Running")]
    sprt: Option<Sprt>,
    /// SPRT sample: a colour-swapped pair of games (pentanomial) or one game (trinomial)
    #[arg(long, default_value = "pentanomial", value_parser = parse_sprt_model, help_heading = "Running")]
    sprt_model: SprtModel,
    /// Save every game as DIR/game-NNNN.sgf
    #[arg(long, value_name = "DIR", help_heading = "Running")]
    sgf: Option<PathBuf>,
    /// Save every game as DIR/game-NNNN.psq
    #[arg(long, value_name = "DIR", help_heading = "Running")]
    psq: Option<PathBuf>,
    /// Write the engines' MESSAGE lines and the lines ignored (neither a move nor a known
    /// reply) to FILE, as c-gomoku-cli's -msg does
    #[arg(long, value_name = "FILE", help_heading = "Running")]
    msgs: Option<PathBuf>,
    /// Write every protocol line to FILE
    #[arg(long, value_name = "FILE", help_heading = "Running")]
    log: Option<PathBuf>,
}

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    pub settings: GameSettings,
    pub openings: Vec<Opening>,
    pub games: usize,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub sprt_model: SprtModel,
    pub sgf_dir: Option<PathBuf>,
    pub psq_dir: Option<PathBuf>,
    pub log_file: Option<PathBuf>,
    pub msgs_file: Option<PathBuf>,
}

/// `KEY=VALUE` of `--info1` and `--info2`.
fn parse_info(text: &str) -> Result<(String, String), String> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, got '{text}'"))?;
    Ok((key.trim().to_string(), value.trim().to_string()))
}

fn parse_number<T: std::str::FromStr>(value: &str) -> Result<T, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("'{value}' is not a valid number"))
}

fn parse_sprt_model(value: &str) -> Result<SprtModel, String> {
    match value.trim() {
        "pentanomial" => Ok(SprtModel::Pentanomial),
        "trinomial" => Ok(SprtModel::Trinomial),
        _ => Err(format!("'{value}' is not pentanomial or trinomial")),
    }
}

/// `N` or `N,STONES`.
fn parse_random_openings(value: &str) -> Result<(usize, usize), String> {
    match value.split_once(',') {
        Some((count, stones)) => Ok((parse_number(count)?, parse_number(stones)?)),
        None => Ok((parse_number(value)?, 3)),
    }
}

/// Cells within this many steps of the centre take random opening stones.
const RANDOM_OPENING_RADIUS: usize = 2;

/// `count` different openings of `stones` stones (Black first), each stone
/// on a random cell within `RANDOM_OPENING_RADIUS` steps of the centre along
/// the board's own lines, and each one a legal opening stone (no five, no
/// renju foul). The same seed gives the same openings.
pub fn random_openings(
    empty: &Board,
    count: usize,
    stones: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let (cx, cy) = ((empty.width() / 2) as isize, (empty.height() / 2) as isize);
    let geometry = empty.geometry();
    let near: Vec<Pos> = empty
        .cells()
        .filter(|p| {
            geometry.distance((p.x() as isize - cx, p.y() as isize - cy)) <= RANDOM_OPENING_RADIUS
        })
        .collect();
    if stones > near.len() {
        return Err(format!(
            "--random-openings: {stones} stones do not fit within {RANDOM_OPENING_RADIUS} of the centre"
        ));
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut openings: Vec<Opening> = Vec::new();
    // Small boards or many openings may run out of distinct ones.
    for _ in 0..count.saturating_mul(50) {
        if openings.len() == count {
            break;
        }
        let mut board = empty.clone();
        for _ in 0..stones {
            let free: Vec<Pos> = near
                .iter()
                .copied()
                .filter(|&p| check_stone(&board, p).is_ok())
                .collect();
            if free.is_empty() {
                break;
            }
            let _ = board.play(free[rng.gen_range(0..free.len())]);
        }
        let opening = Opening {
            stones: board.history().to_vec(),
        };
        if opening.stones.len() == stones && !openings.contains(&opening) {
            openings.push(opening);
        }
    }
    if openings.len() < count {
        return Err(format!(
            "--random-openings: only {} different openings of {stones} stones found",
            openings.len()
        ));
    }
    Ok(openings)
}

/// Replays file openings on the match's board: the file was read on a square
/// board, and in renju Black's forbidden points depend on which lines exist.
fn check_on(empty: &Board, openings: &[Opening]) -> Result<(), String> {
    for (index, opening) in openings.iter().enumerate() {
        let mut board = empty.clone();
        for &pos in &opening.stones {
            check_stone(&board, pos)
                .and_then(|()| board.play(pos).map_err(|e| e.to_string()))
                .map_err(|e| format!("opening {}: {e}", index + 1))?;
        }
    }
    Ok(())
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
    /// Parses the arguments (without the program name); the error is
    /// clap's message, or what is wrong with the match described.
    pub fn from_args(args: &[String]) -> Result<MatchConfig, String> {
        let parsed = MatchArgs::try_parse_from(
            std::iter::once("wuzi-match".to_string()).chain(args.iter().cloned()),
        )
        .map_err(|e| e.to_string())?;
        MatchConfig::from_parsed(parsed)
    }

    /// Checks a parsed command line and reads the openings it names.
    pub fn from_parsed(args: MatchArgs) -> Result<MatchConfig, String> {
        let MatchArgs {
            engine1,
            engine2,
            name1,
            name2,
            info1,
            info2,
            size,
            rule,
            geometry,
            openings: openings_file,
            random_openings: random,
            seed,
            games,
            max_stones,
            turn,
            match_ms,
            increment,
            tolerance,
            start_timeout,
            max_memory,
            concurrency,
            sprt,
            sprt_model,
            sgf: sgf_dir,
            psq: psq_dir,
            msgs: msgs_file,
            log: log_file,
        } = args;
        let command = |option: &str, text: &str| {
            let words = split_command(text);
            if words.is_empty() {
                Err(format!("{option}: empty command"))
            } else {
                Ok(words)
            }
        };
        let command1 = command("--engine1", &engine1)?;
        let command2 = command("--engine2", &engine2)?;
        let time = TimeControl {
            turn_ms: (turn > 0).then_some(turn),
            match_ms: (match_ms > 0).then_some(match_ms),
            increment_ms: increment,
            tolerance_ms: tolerance,
            start_ms: start_timeout,
        };
        let concurrency = concurrency.max(1);
        let board = Board::with_geometry(size.0, size.1, rule, geometry)
            .map_err(|e| format!("--size: {e}"))?;
        let mut default_names = [default_name(&command1), default_name(&command2)];
        if default_names[0] == default_names[1] {
            default_names[0].push_str("-1");
            default_names[1].push_str("-2");
        }
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
        let openings = match (&openings_file, random) {
            (Some(_), Some(_)) => {
                return Err("--openings and --random-openings exclude each other".into())
            }
            (None, Some((count, stones))) => random_openings(&board, count.max(1), stones, seed)?,
            (Some(path), None) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let openings = parse_openings(&text, size.0, size.1, rule)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                if openings.is_empty() {
                    return Err(format!("{}: no openings", path.display()));
                }
                check_on(&board, &openings).map_err(|e| format!("{}: {e}", path.display()))?;
                openings
            }
            (None, None) => vec![Opening { stones: Vec::new() }],
        };
        let games = games.unwrap_or(2 * openings.len());
        Ok(MatchConfig {
            engines,
            settings: GameSettings {
                board,
                time,
                max_memory,
                max_stones,
                keep_messages: msgs_file.is_some(),
            },
            openings,
            games,
            concurrency,
            sprt,
            sprt_model,
            sgf_dir,
            psq_dir,
            log_file,
            msgs_file,
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
    fn hex_boards_and_random_openings() {
        let config = MatchConfig::from_args(&args(
            "--engine1 a --engine2 b --geometry hex --random-openings 6 --seed 7 \
             --sprt-model trinomial",
        ))
        .unwrap();
        let board = &config.settings.board;
        assert_eq!(board.geometry(), Geometry::Hex);
        assert_eq!(config.sprt_model, SprtModel::Trinomial);
        assert_eq!(config.openings.len(), 6);
        assert_eq!(config.games, 12);
        for (index, opening) in config.openings.iter().enumerate() {
            assert_eq!(opening.stones.len(), 3);
            for &p in &opening.stones {
                let (dx, dy) = (p.x() as isize - 7, p.y() as isize - 7);
                assert!(Geometry::Hex.distance((dx, dy)) <= 2, "{p:?}");
            }
            assert!(!config.openings[..index].contains(opening), "distinct");
        }
        // The same seed gives the same openings; another seed others.
        let again = random_openings(board, 6, 3, 7).unwrap();
        assert_eq!(again, config.openings);
        assert_ne!(random_openings(board, 6, 3, 8).unwrap(), again);
        // Renju: Black's stones are never forbidden, even five of them.
        let renju = Board::with_geometry(15, 15, crate::board::Rule::Renju, Geometry::Hex).unwrap();
        assert_eq!(random_openings(&renju, 10, 5, 1).unwrap().len(), 10);
        // More stones than cells near the centre: refused, no endless loop.
        assert!(random_openings(board, 1, 20, 1).is_err());
        assert_eq!(
            MatchConfig::from_args(&args("--engine1 a --engine2 b"))
                .unwrap()
                .sprt_model,
            SprtModel::Pentanomial
        );
    }

    #[test]
    fn a_repeated_option_keeps_its_last_value_and_infos_add_up() {
        let config = MatchConfig::from_args(&args(
            "--engine1 a --engine2 b --turn 100 --info1 max_depth=3 --turn 200 --info1 max_node=9",
        ))
        .unwrap();
        assert_eq!(config.settings.time.turn_ms, Some(200));
        assert_eq!(config.engines[0].info.len(), 2);
        let named = MatchConfig::from_args(&args("--engine1 a --engine2 b --rule renju")).unwrap();
        assert_eq!(named.settings.board.rule(), crate::board::Rule::Renju);
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
            "--engine1 a --engine2 b --geometry triangle",
            "--engine1 a --engine2 b --sprt-model binomial",
            "--engine1 a --engine2 b --random-openings x",
        ] {
            assert!(MatchConfig::from_args(&args(text)).is_err(), "{text}");
        }
    }
}
