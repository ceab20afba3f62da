//! `tune-order label`: replays game records and writes one label line per
//! position where the ordering decides what is searched, the label being
//! the best move of a node-limited search or the move the record's player
//! chose.

use super::{ordered_moves, params_of, Candidate, Label};
use crate::board::{Board, Pos, Rule};
use crate::eval::order_weights;
use crate::search::{new_searcher, EngineOptions, Limits, MATE_BOUND};
use crate::tools::fit_data::record_files;
use crate::tools::records::{parse_record, ParsedRecord};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[derive(clap::Args, Debug)]
pub struct LabelOptions {
    /// SGF/.psq game records (a directory: every .sgf and .psq in it)
    #[arg(value_name = "RECORD|DIR", required = true)]
    paths: Vec<PathBuf>,
    /// Rule of records that do not name one, by code or name
    #[arg(long, default_value = "0", value_parser = crate::tools::cli::parse_rule)]
    rule: Rule,
    /// Search budget of each label
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Label every Nth engine move
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    every: usize,
    /// Also label after 1 to N random moves among the 8 best-ordered from there, the kind
    /// of position the search meets inside its tree (0 = off)
    #[arg(long, value_name = "N", default_value_t = 0)]
    wander: usize,
    /// Label the move the record's player chose instead of searching (for the games of a
    /// stronger engine); `--nodes` and `--wander` are then unused
    #[arg(long)]
    played: bool,
}

/// The moves a wander picks from: the best-ordered few, as the search's
/// interior nodes keep.
pub(super) const WANDER_WIDTH: usize = 8;

/// Plays 1 to `plies` random moves among the `WANDER_WIDTH` best-ordered
/// (by the current key) from `board`, while the ordering still decides;
/// the moves played, or `None` if it stopped at once.
pub(super) fn wander(board: &mut Board, plies: usize, rng: &mut SmallRng) -> Option<Vec<Pos>> {
    let w = params_of(order_weights(board.rule()));
    let mut played = Vec::new();
    for _ in 0..rng.gen_range(1..=plies) {
        let Some(moves) = ordered_moves(board) else {
            break;
        };
        let mut keyed: Vec<(f64, Pos)> = moves
            .iter()
            .map(|&m| (Candidate::of(board, m).key(&w), m))
            .collect();
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        let pick = keyed[rng.gen_range(0..keyed.len().min(WANDER_WIDTH))].1;
        if board.play(pick).is_err() {
            break;
        }
        played.push(pick);
    }
    let usable = !played.is_empty() && ordered_moves(board).is_some();
    if !usable {
        for _ in &played {
            board.undo();
        }
        return None;
    }
    Some(played)
}

/// The labels of one game's record where the label is the move played:
/// every `every`-th engine move (counted by `seen`, across games) where the
/// ordering decides.
pub(super) fn played_labels(
    game: usize,
    record: &ParsedRecord,
    rule: Rule,
    every: usize,
    seen: &mut usize,
) -> Vec<Label> {
    let mut labels = Vec::new();
    let Ok(mut board) = Board::new(record.width, record.height, rule) else {
        return labels;
    };
    let mut played = Vec::new();
    for m in &record.moves {
        if m.think_ms.unwrap_or(0) > 0 && ordered_moves(&board).is_some() {
            *seen += 1;
            if seen.is_multiple_of(every) {
                labels.push(Label {
                    game,
                    rule,
                    width: record.width,
                    height: record.height,
                    best: m.pos,
                    moves: played.clone(),
                });
            }
        }
        if board.play(m.pos).is_err() {
            break;
        }
        played.push(m.pos);
    }
    labels
}

pub(super) fn label(options: LabelOptions) -> Result<String, String> {
    if options.played {
        return label_played(&options);
    }
    let mut searcher = new_searcher();
    searcher.configure(&EngineOptions {
        memory_bytes: 64 << 20,
        threads: 1,
    });
    let limits = Limits {
        nodes: Some(options.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut out = format!(
        "# tune-order labels: best move of a {}-node search\n",
        options.nodes
    );
    let mut seen = 0usize;
    let mut rng = SmallRng::seed_from_u64(1);
    for (game, record) in numbered_records(&options.paths)? {
        let rule = record.rule.unwrap_or(options.rule);
        let Ok(mut board) = Board::new(record.width, record.height, rule) else {
            continue;
        };
        searcher.clear();
        let mut played = Vec::new();
        for m in &record.moves {
            let engine_move = m.think_ms.unwrap_or(0) > 0;
            if engine_move && ordered_moves(&board).is_some() {
                seen += 1;
                if seen.is_multiple_of(options.every) {
                    let mut label_here = |board: &Board, moves: &[Pos]| {
                        let result = searcher.search(board, &limits, &stop, &mut |_| {});
                        let lost = result.score < -MATE_BOUND;
                        if let (Some(best), false) = (result.best_move, lost) {
                            let line = Label {
                                game,
                                rule,
                                width: record.width,
                                height: record.height,
                                best,
                                moves: moves.to_vec(),
                            };
                            out += &line.to_line();
                            out.push('\n');
                        }
                    };
                    label_here(&board, &played);
                    if options.wander > 0 {
                        if let Some(extra) = wander(&mut board, options.wander, &mut rng) {
                            let moves: Vec<Pos> = played.iter().chain(&extra).copied().collect();
                            label_here(&board, &moves);
                            for _ in &extra {
                                board.undo();
                            }
                        }
                    }
                }
            }
            if board.play(m.pos).is_err() {
                break;
            }
            played.push(m.pos);
        }
    }
    Ok(out)
}

/// The records the paths name that can be read, each with its number among
/// the files (the held-out split is by it).
pub(crate) fn numbered_records(paths: &[PathBuf]) -> Result<Vec<(usize, ParsedRecord)>, String> {
    let mut records = Vec::new();
    for (game, file) in record_files(paths)?.iter().enumerate() {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        if let Ok(record) = parse_record(&text) {
            records.push((game, record));
        }
    }
    Ok(records)
}

/// `label --played`: the records' own moves as the labels.
fn label_played(options: &LabelOptions) -> Result<String, String> {
    let mut out = String::from("# tune-order labels: the move played\n");
    let mut seen = 0usize;
    for (game, record) in numbered_records(&options.paths)? {
        let rule = record.rule.unwrap_or(options.rule);
        for line in played_labels(game, &record, rule, options.every, &mut seen) {
            out += &line.to_line();
            out.push('\n');
        }
    }
    Ok(out)
}
