//! The headless match runner behind `wuzi-match`: plays two pbrain engines
//! against each other as a tournament manager does, several games at once,
//! and reports W/L/D, Elo, LOS and an optional SPRT.
//!
//! `engine` owns the processes and their pipes, `game` one refereed game,
//! `config` the command line, `stats` the arithmetic. This module schedules
//! the games over worker threads and prints the results.

pub mod config;
pub mod engine;
pub mod game;
pub mod stats;

use crate::board::Color;
use crate::protocol::command::geometry_name;
use crate::tools::records::{GameRecord, GameResult};
use clap::{CommandFactory, Parser};
use config::MatchConfig;
use engine::{EngineProcess, Transcript};
use game::{play_game, EndReason, GameOutcome, Player};
use stats::{PairTally, SprtModel, SprtVerdict, Tally};
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Ignored lines quoted per engine in the final table.
const IGNORED_EXAMPLES: usize = 3;

/// One finished game, as a worker hands it to the reporting thread.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// 0-based game number: opening `number / 2`, engine 1 Black when even.
    pub number: usize,
    pub opening: usize,
    /// Which engine (0 or 1) played Black.
    pub black: usize,
    pub outcome: GameOutcome,
}

impl FinishedGame {
    /// The result for engine 1: 1, ½ or 0 as (win, draw).
    fn for_first_engine(&self) -> Option<bool> {
        match self.outcome.result {
            GameResult::Draw => None,
            GameResult::Win(color) => Some((color == Color::Black) == (self.black == 0)),
        }
    }

    /// Engine 1's score in half-points (win 2, draw 1, loss 0).
    fn half_points(&self) -> usize {
        match self.for_first_engine() {
            Some(true) => 2,
            None => 1,
            Some(false) => 0,
        }
    }
}

/// The whole match's tally and what went wrong along the way.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub tally: Tally,
    /// Finished colour-swapped pairs (games 2k and 2k+1 share an opening).
    pub pairs: PairTally,
    /// Half-points of pairs whose other game has not finished yet.
    pending_pairs: HashMap<usize, usize>,
    pub black_wins: u32,
    pub white_wins: u32,
    /// Faults per engine, as "reason" strings.
    pub faults: [Vec<String>; 2],
    /// Lines each engine sent that were neither a move nor a known reply
    /// (skipped, as c-gomoku-cli skips them), and the first few of them.
    pub ignored: [u32; 2],
    pub ignored_examples: [Vec<String>; 2],
    pub restarts: [u32; 2],
    pub verdict: Option<SprtVerdict>,
    /// The tally and pairs when the SPRT was decided (games in flight then
    /// still finish and count in `tally`).
    pub decided_at: Option<(Tally, PairTally)>,
    pub games: Vec<FinishedGame>,
}

impl MatchSummary {
    fn add(&mut self, game: &FinishedGame) {
        match game.for_first_engine() {
            Some(true) => self.tally.wins += 1,
            Some(false) => self.tally.losses += 1,
            None => self.tally.draws += 1,
        }
        let pair = game.number / 2;
        match self.pending_pairs.remove(&pair) {
            Some(other) => self.pairs.add(other + game.half_points()),
            None => {
                self.pending_pairs.insert(pair, game.half_points());
            }
        }
        match game.outcome.result {
            GameResult::Win(Color::Black) => self.black_wins += 1,
            GameResult::Win(Color::White) => self.white_wins += 1,
            GameResult::Draw => {}
        }
        if let (EndReason::Fault(fault), GameResult::Win(winner)) =
            (&game.outcome.reason, game.outcome.result)
        {
            let loser_is_black = winner == Color::White;
            let loser = if loser_is_black {
                game.black
            } else {
                1 - game.black
            };
            self.faults[loser].push(fault.to_string());
        }
        for (color_index, &count) in game.outcome.ignored.iter().enumerate() {
            let engine = if color_index == 0 {
                game.black
            } else {
                1 - game.black
            };
            self.ignored[engine] += count;
            let examples = &mut self.ignored_examples[engine];
            let room = IGNORED_EXAMPLES.saturating_sub(examples.len());
            examples.extend(
                game.outcome.ignored_examples[color_index]
                    .iter()
                    .take(room)
                    .map(|line| format!("game {}: {line}", game.number + 1)),
            );
        }
        // The messages went to their file; the summary keeps the games lean.
        let mut kept = game.clone();
        kept.outcome.messages = Vec::new();
        self.games.push(kept);
    }
}

/// `wuzi-match` with its arguments (without the program name).
/// `wuzi-match`: a command line clap cannot read, or a match that cannot be
/// set up (an unreadable openings file, a size the rule cannot have), exits
/// with the message on stderr and code 2; a match that fails once running
/// says why on stdout with code 1.
pub fn main() -> ExitCode {
    let config = match config::MatchConfig::from_parsed(config::MatchArgs::parse()) {
        Ok(config) => config,
        Err(message) => config::MatchArgs::command()
            .error(clap::error::ErrorKind::ValueValidation, message)
            .exit(),
    };
    match run(&config, &mut std::io::stdout()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(message) => {
            println!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Plays the match, printing a line per game and the final table to `out`.
pub fn run(config: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    // Fail early and clearly when an engine cannot even be started.
    for spec in &config.engines {
        EngineProcess::spawn(spec)
            .map_err(|e| {
                format!(
                    "cannot start {} ('{}'): {e}",
                    spec.name,
                    spec.command.join(" ")
                )
            })?
            .kill();
    }
    for dir in [&config.sgf_dir, &config.psq_dir].into_iter().flatten() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut msgs = match &config.msgs_file {
        Some(path) => {
            Some(File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?)
        }
        None => None,
    };
    let log = match &config.log_file {
        Some(path) => {
            Some(Arc::new(Mutex::new(File::create(path).map_err(|e| {
                format!("cannot create {}: {e}", path.display())
            })?)))
        }
        None => None,
    };

    let [first, second] = &config.engines;
    let _ = writeln!(
        out,
        "{} vs {}: {} games, {}x{} {} rule {}, {} at once",
        first.name,
        second.name,
        config.games,
        config.settings.board.width(),
        config.settings.board.height(),
        geometry_name(config.settings.board.geometry()),
        crate::tools::records::gomocup_rule_code(config.settings.board.rule()),
        config.concurrency
    );

    let next_game = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (results, finished) = mpsc::channel::<FinishedGame>();
    let (restart_sender, restart_counts) = mpsc::channel::<[u32; 2]>();
    let started = Instant::now();
    let mut workers = Vec::new();
    for worker in 0..config.concurrency.min(config.games.max(1)) {
        let config = config.clone();
        let next_game = Arc::clone(&next_game);
        let stop = Arc::clone(&stop);
        let results = results.clone();
        let restart_sender = restart_sender.clone();
        let log = log.clone();
        workers.push(thread::spawn(move || {
            let transcript: Option<Box<Transcript>> = log.map(|file| {
                let writer = move |name: &str, direction: &str, line: &str| {
                    if let Ok(mut file) = file.lock() {
                        let ms = started.elapsed().as_millis();
                        let _ = writeln!(file, "{ms:>9} w{worker} {name} {direction} {line}");
                    }
                };
                Box::new(writer) as Box<Transcript>
            });
            let transcript = transcript.as_deref();
            let mut players = [
                Player::new(config.engines[0].clone()),
                Player::new(config.engines[1].clone()),
            ];
            while !stop.load(Ordering::Relaxed) {
                let number = next_game.fetch_add(1, Ordering::Relaxed);
                if number >= config.games {
                    break;
                }
                let opening = (number / 2) % config.openings.len();
                let black = number % 2;
                let [one, two] = &mut players;
                let seats = if black == 0 { [one, two] } else { [two, one] };
                let outcome = play_game(
                    seats,
                    &config.openings[opening],
                    &config.settings,
                    transcript,
                );
                let game = FinishedGame {
                    number,
                    opening,
                    black,
                    outcome,
                };
                if results.send(game).is_err() {
                    break;
                }
            }
            let grace = Duration::from_millis(config.settings.time.tolerance_ms.min(1000));
            for player in &mut players {
                player.shut_down(grace, transcript);
            }
            let _ = restart_sender.send([players[0].restarts, players[1].restarts]);
        }));
    }
    drop(results);
    drop(restart_sender);

    let mut summary = MatchSummary::default();
    for game in finished {
        summary.add(&game);
        write_records(config, &game)?;
        if let Some(file) = msgs.as_mut() {
            write_messages(file, config, &game)
                .map_err(|e| format!("cannot write the messages: {e}"))?;
        }
        let _ = writeln!(out, "{}", progress_line(config, &game, &summary));
        if let (Some(sprt), None) = (&config.sprt, summary.verdict) {
            let verdict = match config.sprt_model {
                SprtModel::Trinomial => sprt.verdict(&summary.tally),
                SprtModel::Pentanomial => sprt.verdict_pairs(&summary.pairs),
            };
            if verdict != SprtVerdict::Continue {
                summary.verdict = Some(verdict);
                summary.decided_at = Some((summary.tally, summary.pairs));
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    for counts in restart_counts {
        summary.restarts[0] += counts[0];
        summary.restarts[1] += counts[1];
    }
    summary.games.sort_by_key(|g| g.number);
    let elapsed = started.elapsed();
    let _ = write!(out, "{}", final_table(config, &summary, elapsed));
    Ok(summary)
}

fn write_records(config: &MatchConfig, game: &FinishedGame) -> Result<(), String> {
    let names = [&config.engines[0].name, &config.engines[1].name];
    let record = GameRecord {
        width: config.settings.board.width(),
        height: config.settings.board.height(),
        rule: config.settings.board.rule(),
        black: names[game.black].clone(),
        white: names[1 - game.black].clone(),
        moves: game.outcome.moves.clone(),
        result: Some(game.outcome.result),
        reason: game.outcome.reason.to_string(),
        event: format!("{} vs {}", names[0], names[1]),
        round: game.number + 1,
    };
    let save =
        |dir: &Option<std::path::PathBuf>, extension: &str, text: String| -> Result<(), String> {
            if let Some(dir) = dir {
                let path = dir.join(format!("game-{:04}.{extension}", game.number + 1));
                std::fs::write(&path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            Ok(())
        };
    save(&config.sgf_dir, "sgf", record.to_sgf())?;
    save(&config.psq_dir, "psq", record.to_psq())
}

/// A game's messages, as c-gomoku-cli's `-msg` file has them (games in the
/// order they finish).
fn write_messages(
    file: &mut File,
    config: &MatchConfig,
    game: &FinishedGame,
) -> std::io::Result<()> {
    let names = [&config.engines[0].name, &config.engines[1].name];
    writeln!(file, "----------------------------------------")?;
    writeln!(file, "Game ID: {}", game.number + 1)?;
    writeln!(
        file,
        "Engines: {} x {}",
        names[game.black],
        names[1 - game.black]
    )?;
    for line in &game.outcome.messages {
        writeln!(file, "{line}")?;
    }
    file.flush()
}

fn progress_line(config: &MatchConfig, game: &FinishedGame, summary: &MatchSummary) -> String {
    let names = [&config.engines[0].name, &config.engines[1].name];
    let (black, white) = (names[game.black], names[1 - game.black]);
    let result = match game.outcome.result {
        GameResult::Win(Color::Black) => "1-0",
        GameResult::Win(Color::White) => "0-1",
        GameResult::Draw => "1/2-1/2",
    };
    let tally = &summary.tally;
    format!(
        "game {:>4}/{} opening {:>3} {black} (B) vs {white} (W): {result} {}, {} stones | +{} -{} ={}",
        game.number + 1,
        config.games,
        game.opening + 1,
        game.outcome.reason,
        game.outcome.moves.len(),
        tally.wins,
        tally.losses,
        tally.draws,
    )
}

fn percent(value: Option<f64>) -> String {
    value.map_or("-".into(), |v| format!("{:.1} %", 100.0 * v))
}

/// The table printed when the match is over.
pub fn final_table(config: &MatchConfig, summary: &MatchSummary, elapsed: Duration) -> String {
    let tally = summary.tally;
    let names = [&config.engines[0].name, &config.engines[1].name];
    let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let mut table = String::new();
    let games = tally.games();
    table.push_str(&format!(
        "\n{:<width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>7}\n",
        "engine", "games", "wins", "losses", "draws", "score"
    ));
    let rows = [
        (names[0], tally.wins, tally.losses, tally.score()),
        (
            names[1],
            tally.losses,
            tally.wins,
            tally.score().map(|s| 1.0 - s),
        ),
    ];
    for (name, wins, losses, score) in rows {
        table.push_str(&format!(
            "{name:<width$}  {games:>5}  {wins:>5}  {losses:>6}  {:>5}  {:>7}\n",
            tally.draws,
            percent(score)
        ));
    }
    let elo = match (tally.elo(), tally.elo_error95()) {
        (Some(elo), Some(error)) => format!("{elo:+.1} +/- {error:.1} (95 %)"),
        (Some(elo), None) => format!("{elo:+.1} +/- inf (95 %)"),
        (None, _) => "n/a (no games, or one side scored everything)".into(),
    };
    table.push_str(&format!(
        "Elo difference ({} - {}): {elo}, LOS {}\n",
        names[0],
        names[1],
        percent(tally.los())
    ));
    table.push_str(&format!(
        "Black won {}, White won {}, draws {}\n",
        summary.black_wins, summary.white_wins, tally.draws
    ));
    for (index, name) in names.iter().enumerate() {
        if !summary.faults[index].is_empty() || summary.restarts[index] > 0 {
            table.push_str(&format!(
                "{name}: {} faults ({}), {} restarts\n",
                summary.faults[index].len(),
                summary.faults[index].join("; "),
                summary.restarts[index]
            ));
        }
        if summary.ignored[index] > 0 {
            table.push_str(&format!(
                "{name}: {} lines ignored (neither a move nor a known reply), e.g.\n",
                summary.ignored[index]
            ));
            for example in &summary.ignored_examples[index] {
                table.push_str(&format!("  {example}\n"));
            }
        }
    }
    let pairs = summary.pairs;
    if pairs.pairs() > 0 {
        let [p0, p1, p2, p3, p4] = pairs.counts;
        table.push_str(&format!(
            "Pairs (points of 2 for {}: 0 / 0.5 / 1 / 1.5 / 2): {p0} / {p1} / {p2} / {p3} / {p4}\n",
            names[0]
        ));
    }
    if let (Some(trinomial), Some(pentanomial)) = (tally.moments(), pairs.moments()) {
        // A pair's variance is that of the mean of two games: twice it is
        // the per-game figure the trinomial one would be if games in a pair
        // were independent.
        table.push_str(&format!(
            "Score variance per game: trinomial {:.4}, pentanomial {:.4} (2 x {:.4} per pair)\n",
            trinomial.variance,
            2.0 * pentanomial.variance,
            pentanomial.variance
        ));
    }
    if let Some(sprt) = &config.sprt {
        let (lower, upper) = sprt.bounds();
        let verdict = match summary.verdict.unwrap_or(SprtVerdict::Continue) {
            SprtVerdict::Continue => "undecided",
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::AcceptH1 => "H1 accepted",
        };
        let llr = |tally: &Tally, pairs: &PairTally| match config.sprt_model {
            SprtModel::Trinomial => sprt.llr(tally),
            SprtModel::Pentanomial => sprt.llr_pairs(pairs),
        };
        let decided = summary.decided_at.map_or(String::new(), |(at, at_pairs)| {
            format!(
                " (LLR {:.2} after {} games)",
                llr(&at, &at_pairs),
                at.games()
            )
        });
        let model = match config.sprt_model {
            SprtModel::Trinomial => "trinomial",
            SprtModel::Pentanomial => "pentanomial",
        };
        table.push_str(&format!(
            "SPRT ({model}) elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} [{lower:.2}, {upper:.2}] -> {verdict}{decided}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            llr(&tally, &pairs)
        ));
        let other = match config.sprt_model {
            SprtModel::Trinomial => ("pentanomial", sprt.llr_pairs(&pairs)),
            SprtModel::Pentanomial => ("trinomial", sprt.llr(&tally)),
        };
        table.push_str(&format!(
            "  (the {} LLR would be {:.2})\n",
            other.0, other.1
        ));
    }
    let minutes = elapsed.as_secs_f64() / 60.0;
    table.push_str(&format!(
        "{games} games in {:.1} s ({:.1} games per minute)\n",
        elapsed.as_secs_f64(),
        if minutes > 0.0 {
            games as f64 / minutes
        } else {
            0.0
        }
    ));
    table
}
