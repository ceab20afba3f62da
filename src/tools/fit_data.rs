//! Game records as fitting data, for `tune`, `tune-order` and `judge`
//! (`tune --judge-nodes`): which files hold records, how each game ended,
//! which of its positions are quiet enough for the evaluation to be judged
//! on, and a short search that tells open positions from proven ones.

use crate::board::{Board, Color, Rule, Threat};
use crate::search::{new_searcher, EngineOptions, Limits, Score, Searcher, MATE_BOUND};
use crate::tools::records::RecordedMove;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The record files named: files as given, directories' `.sgf`/`.psq`
/// files in name order.
pub(crate) fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let is_record = |p: &Path| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf") || e.eq_ignore_ascii_case("psq"))
    };
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries =
                std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_record(p))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// How the game ended, from the board: the last move made a five, or was
/// Black's foul in renju, or filled the board. `None` for other endings
/// (a time-out, a crash, an adjudicated draw): those games are skipped.
pub(crate) fn winner_of(
    rule: Rule,
    width: usize,
    height: usize,
    moves: &[RecordedMove],
) -> Option<f64> {
    let mut board = Board::new(width, height, rule).ok()?;
    let (last, before) = moves.split_last()?;
    for m in before {
        board.play(m.pos).ok()?;
    }
    let mover = board.side_to_move();
    let black_score = |winner: Color| if winner == Color::Black { 1.0 } else { 0.0 };
    if board.is_win(last.pos, mover) {
        return Some(black_score(mover));
    }
    if rule == Rule::Renju && mover == Color::Black && board.forbidden(last.pos).is_some() {
        return Some(black_score(Color::White));
    }
    board.play(last.pos).ok()?;
    board.is_full().then_some(0.5)
}

/// A game's result for `side`, from Black's.
pub(crate) fn result_for(side: Color, black_result: f64) -> f64 {
    match side {
        Color::Black => black_result,
        Color::White => 1.0 - black_result,
    }
}

/// The number of opening stones a record starts with: the moves made with
/// no thinking time.
pub(crate) fn opening_length(moves: &[RecordedMove]) -> usize {
    moves
        .iter()
        .take_while(|m| m.think_ms.unwrap_or(0) == 0)
        .count()
}

/// The positions the evaluation is fitted on: no five to make for either
/// side, and no open four or double four for the side to move.
pub(crate) fn is_quiet(board: &Board) -> bool {
    let me = board.side_to_move();
    let them = me.opponent();
    board.threat_count(me, Threat::Five) == 0
        && board.threat_count(them, Threat::Five) == 0
        && board.threat_count(me, Threat::OpenFour) + board.threat_count(me, Threat::DoubleFour)
            == 0
}

/// A short search that tells open positions from proven ones.
pub(crate) struct Resolver {
    searcher: Box<dyn Searcher>,
    limits: Limits,
}

impl Resolver {
    pub(crate) fn new(nodes: u64) -> Resolver {
        let mut searcher = new_searcher();
        searcher.configure(&EngineOptions {
            memory_bytes: 64 << 20,
            threads: 1,
        });
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        Resolver { searcher, limits }
    }

    /// The search's score of an open position; `None` where it proves a
    /// result.
    pub(crate) fn open_score(&mut self, board: &Board) -> Option<Score> {
        let score = self.score(board);
        (score.abs() <= MATE_BOUND).then_some(score)
    }

    /// The search's score, a proven result's mate score included.
    pub(crate) fn score(&mut self, board: &Board) -> Score {
        let stop = AtomicBool::new(false);
        self.searcher
            .search(board, &self.limits, &stop, &mut |_| {})
            .score
    }
}
