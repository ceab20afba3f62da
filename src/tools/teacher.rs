//! A stronger engine's scores as labels for `tune` (`--teacher-weight`).
//!
//! A game's result says little about one position: it is decided many moves
//! later, often by a mistake. The score that a strong engine printed while it
//! chose the move says much more, and costs nothing extra when the games are
//! played by that engine: `wuzi-match --msgs DIR/msgs.txt --sgf DIR` keeps
//! every `MESSAGE` line beside the records. This module reads those lines
//! back: for each game (`Game ID: N`, the record `game-NNNN.sgf`) and each
//! move asked for (`PLY) NAME: TEXT`), the last `eval` the mover printed,
//! from its side's view, as Rapfi (`Eval 71`, `Eval -M6`) and wuzi
//! (`eval 35`, `eval +M5`) print it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A proven win as a label: far beyond any sigmoid's scale, so that the
/// label is 1 (or 0 for a proven loss).
pub const PROVEN: f64 = 1.0e6;

/// The messages files of the folders records are read from, each read
/// once, on the first record of its folder.
#[derive(Debug, Default)]
pub struct TeacherFiles {
    folders: HashMap<PathBuf, Option<TeacherScores>>,
}

impl TeacherFiles {
    /// The teacher's scores of the game in `record`, by move number.
    pub fn of_record(&mut self, record: &Path) -> Option<&HashMap<usize, f64>> {
        self.folders
            .entry(record.parent().map(Path::to_path_buf).unwrap_or_default())
            .or_insert_with(|| TeacherScores::beside(record))
            .as_ref()
            .and_then(|t| t.of_record(record))
    }
}

/// The teacher's score before each move of each game of one messages file.
#[derive(Debug, Default)]
pub struct TeacherScores {
    /// Game number (from 1) → move number (from 1, the opening's stones
    /// counted) → score for the side to move before that move.
    games: HashMap<usize, HashMap<usize, f64>>,
}

impl TeacherScores {
    /// Reads a messages file as `wuzi-match --msgs` (or c-gomoku-cli's
    /// `-msg`) writes it. Lines that carry no score are skipped.
    pub fn parse(text: &str) -> TeacherScores {
        let mut scores = TeacherScores::default();
        let mut game = None;
        for line in text.lines() {
            if let Some(number) = line.strip_prefix("Game ID:") {
                game = number.trim().parse::<usize>().ok();
                continue;
            }
            let (Some(game), Some((ply, text))) = (game, line.split_once(") ")) else {
                continue;
            };
            // `NAME: TEXT` is the engine's message; `NAME ignored (WHY): TEXT`
            // is a line the referee did not take, not the engine's score.
            let Some((speaker, message)) = text.split_once(": ") else {
                continue;
            };
            if speaker.contains(" ignored (") {
                continue;
            }
            let (Ok(ply), Some(score)) = (ply.trim().parse::<usize>(), score_in(message)) else {
                continue;
            };
            scores.games.entry(game).or_default().insert(ply, score);
        }
        scores
    }

    /// The scores of the messages file beside `record` (`msgs.txt` in its
    /// directory), if there is one.
    pub fn beside(record: &Path) -> Option<TeacherScores> {
        let file = record.parent()?.join("msgs.txt");
        std::fs::read_to_string(file)
            .ok()
            .map(|text| TeacherScores::parse(&text))
    }

    /// The scores of one game, by move number, for the record file
    /// `game-NNNN.sgf` (or `.psq`).
    pub fn of_record(&self, record: &Path) -> Option<&HashMap<usize, f64>> {
        let stem = record.file_stem()?.to_str()?;
        let number = stem.strip_prefix("game-")?.parse::<usize>().ok()?;
        self.games.get(&number)
    }

    /// The number of games with at least one score.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}

/// The score in one message: the word after `eval` (any case), a number or
/// a mate (`+M5`, `-M6`, `M3`).
fn score_in(text: &str) -> Option<f64> {
    let mut words = text.split(|c: char| c.is_whitespace() || c == '|');
    words.find(|w| w.eq_ignore_ascii_case("eval"))?;
    let value = words.find(|w| !w.is_empty())?;
    if let Ok(number) = value.parse::<i64>() {
        return Some(number as f64);
    }
    let (sign, mate) = match value.as_bytes().first()? {
        b'-' => (-1.0, &value[1..]),
        b'+' => (1.0, &value[1..]),
        _ => (1.0, value),
    };
    let plies = mate.strip_prefix(['M', 'm'])?;
    plies.parse::<u32>().ok().map(|_| sign * PROVEN)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MESSAGES: &str = "\
----------------------------------------
Game ID: 1
Engines: pbrain-rapfi-1 x pbrain-rapfi-2
6) pbrain-rapfi-2: Depth 2-3 | Eval 362 | Time 0ms | F6 G9
6) pbrain-rapfi-2: Speed 1112K | Depth 15-21 | Eval 71 | Node 30K | Time 27ms
7) pbrain-rapfi-1: Depth 2-5 | Eval -49 | Time 0ms | H8 G9
7) pbrain-rapfi-1 ignored (not a move): Eval 12
9) pbrain-rapfi-1: Speed 50000 | Depth 26-2 | Eval -M6 | Node 50 | Time 1ms
----------------------------------------
Game ID: 2
Engines: pbrain-wuzi x pbrain-rapfi-2
8) pbrain-wuzi: depth 4-9 | eval +M5 | nodes 2000 | pv h8 i9
8) pbrain-wuzi: REALTIME BEST 3,4
";

    #[test]
    fn the_last_score_before_each_move_is_kept_from_either_engines_format() {
        let scores = TeacherScores::parse(MESSAGES);
        assert_eq!(scores.len(), 2);
        let first = &scores.games[&1];
        assert_eq!(first[&6], 71.0);
        // The ignored line after it is not the engine's score.
        assert_eq!(first[&7], -49.0);
        assert_eq!(first[&9], -PROVEN);
        assert_eq!(scores.games[&2][&8], PROVEN);
        assert_eq!(scores.games[&2].len(), 1);
    }

    #[test]
    fn a_record_finds_its_game_by_number() {
        let scores = TeacherScores::parse(MESSAGES);
        let game = scores.of_record(Path::new("/tmp/fs/game-0002.sgf"));
        assert_eq!(game.map(|g| g[&8]), Some(PROVEN));
        assert!(scores
            .of_record(Path::new("/tmp/fs/game-0003.sgf"))
            .is_none());
        assert!(scores.of_record(Path::new("/tmp/fs/other.sgf")).is_none());
    }

    #[test]
    fn words_that_are_not_scores_are_not_read_as_scores() {
        assert_eq!(score_in("Depth 5 | Eval abc | Time 3ms"), None);
        assert_eq!(score_in("evaluation 30"), None);
        assert_eq!(score_in("depth 3 | eval -120 | pv h8"), Some(-120.0));
        assert_eq!(score_in("eval M3"), Some(PROVEN));
    }
}
