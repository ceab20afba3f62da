//! The command line of `wuzi-match`, turned into a checked match description.

use super::engine::{split_command, EngineSpec};
use super::game::{GameSettings, TimeControl};
use super::stats::{Sprt, SprtModel};
use crate::board::{Board, Geometry, Pos};
use crate::tools::openings::{check_stone, parse_openings, Opening};
use crate::tools::records::{geometry_from_name, rule_from_gomocup_code};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
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
  --geometry square|hex          the board's lines (default square); hex is the
                                 triangle mesh, sent as 'INFO geometry hex'
  --openings FILE                one opening a line: pos (h8i9j10) or offsets
                                 (dx,dy, dx,dy, ... from the centre)
  --random-openings N[,STONES]   instead: N random openings of STONES stones
                                 (default 3) near the centre
  --seed S                       seed of --random-openings (default 1)
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
  --sprt-model pentanomial|trinomial
                                 SPRT sample: a colour-swapped pair of games
                                 (default) or one game
  --sgf DIR                      save every game as DIR/game-NNNN.sgf
  --psq DIR                      save every game as DIR/game-NNNN.psq
  --msgs FILE                    write the engines' MESSAGE lines and the lines
                                 ignored (neither a move nor a known reply) to
                                 FILE, as c-gomoku-cli's -msg does
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
    pub sprt_model: SprtModel,
    pub sgf_dir: Option<PathBuf>,
    pub psq_dir: Option<PathBuf>,
    pub log_file: Option<PathBuf>,
    pub msgs_file: Option<PathBuf>,
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

fn parse_sprt_model(value: &str) -> Result<SprtModel, String> {
    match value.trim() {
        "pentanomial" => Ok(SprtModel::Pentanomial),
        "trinomial" => Ok(SprtModel::Trinomial),
        _ => Err(format!(
            "--sprt-model: '{value}' is not pentanomial or trinomial"
        )),
    }
}

/// `N` or `N,STONES`.
fn parse_random_openings(value: &str) -> Result<(usize, usize), String> {
    let option = "--random-openings";
    match value.split_once(',') {
        Some((count, stones)) => Ok((parse_number(option, count)?, parse_number(option, stones)?)),
        None => Ok((parse_number(option, value)?, 3)),
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
    /// Parses the arguments (without the program name).
    pub fn from_args(args: &[String]) -> Result<MatchConfig, String> {
        let mut commands: [Option<Vec<String>>; 2] = [None, None];
        let mut names: [Option<String>; 2] = [None, None];
        let mut infos: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
        let mut size = (15, 15);
        let mut rule_code = 0u32;
        let mut geometry = Geometry::Square;
        let mut openings_file: Option<PathBuf> = None;
        let mut random: Option<(usize, usize)> = None;
        let mut seed = 1u64;
        let mut sprt_model = SprtModel::default();
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
        let (mut sgf_dir, mut psq_dir, mut log_file, mut msgs_file) = (None, None, None, None);

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
                "--geometry" => geometry = geometry_from_name(value)?,
                "--openings" => openings_file = Some(PathBuf::from(value)),
                "--random-openings" => random = Some(parse_random_openings(value)?),
                "--seed" => seed = parse_number(option, value)?,
                "--sprt-model" => sprt_model = parse_sprt_model(value)?,
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
                "--msgs" => msgs_file = Some(PathBuf::from(value)),
                _ => return Err(format!("unknown option '{option}'\n\n{USAGE}")),
            }
        }

        let rule = rule_from_gomocup_code(rule_code)
            .ok_or_else(|| format!("--rule {rule_code}: not a rule we play (0, 1, 4, 8, 9)"))?;
        let board =
            Board::with_geometry(size.0, size.1, rule, geometry).map_err(|e| e.to_string())?;
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
