//! The position database: what is known about positions (a label, a value,
//! a depth, a bound, a comment, texts on the board), stored once for all the
//! rotations and reflections of a position, kept in a file of wuzi's own
//! format (`docs/database.md`), and filled by hand (Yixin-Board's database
//! commands) or from RenLib `.lib` files.
//!
//! - `key`: the canonical key of a position under the board's symmetries;
//! - `record`: one position's entry;
//! - `file`: reading and writing the file (refusing foreign or corrupt ones,
//!   replacing the file only by rename);
//! - `renlib`: the RenLib `.lib` importer (`pbrain-wuzi db import`).
//!
//! No protocol here: the commands that query and edit it live in
//! `protocol::session::database`.

pub mod file;
pub mod key;
pub mod record;
pub mod renlib;

pub use key::{Canonical, Key};
pub use record::{Bound, Record};

use crate::board::{Board, Pos};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The file used when nothing else is named: in the working directory,
/// where Yixin-Board starts the engine.
pub const DEFAULT_FILE: &str = "wuzi.db";

/// The records in memory.
#[derive(Clone, Debug, Default)]
pub struct Database {
    pub records: HashMap<Key, Record>,
}

impl Database {
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn get(&self, board: &Board) -> Option<&Record> {
        self.records.get(&Canonical::of(board).key)
    }

    /// The record of `board`, created empty (undetermined) if missing.
    pub fn entry(&mut self, board: &Board) -> &mut Record {
        self.records.entry(Canonical::of(board).key).or_default()
    }

    pub fn remove(&mut self, board: &Board) -> Option<Record> {
        self.records.remove(&Canonical::of(board).key)
    }

    /// The records of the positions one legal move after `board`, by move.
    pub fn children(&self, board: &Board) -> Vec<(Pos, &Record)> {
        let mut after = board.clone();
        board
            .empty_cells()
            .filter(|&p| board.is_legal(p))
            .filter_map(|p| {
                after.make(p);
                let found = self.get(&after);
                after.unmake();
                found.map(|record| (p, record))
            })
            .collect()
    }

    /// The board text on the empty point `pos` of `board`, if any.
    pub fn board_text(&self, board: &Board, pos: Pos) -> Option<&str> {
        let canonical = Canonical::of(board);
        let point = canonical.point(pos.x(), pos.y())?;
        let record = self.records.get(&canonical.key)?;
        record.board_texts.get(&point).map(String::as_str)
    }

    /// Sets (or with an empty text removes) the board text on `pos`.
    pub fn set_board_text(&mut self, board: &Board, pos: Pos, text: &str) {
        let canonical = Canonical::of(board);
        let Some(point) = canonical.point(pos.x(), pos.y()) else {
            return;
        };
        let record = self.records.entry(canonical.key).or_default();
        match text.is_empty() {
            true => record.board_texts.remove(&point),
            false => record.board_texts.insert(point, record::clipped(text)),
        };
    }

    /// Removes every record of a position that follows `board` (holds all
    /// its stones, in some symmetric image, and more) and that `keep` does
    /// not spare. Returns how many were removed.
    pub fn remove_descendants(&mut self, board: &Board, keep: impl Fn(&Record) -> bool) -> usize {
        let root = Canonical::of(board).key;
        let images = images(board);
        let before = self.records.len();
        self.records.retain(|key, record| {
            let follows = key.width == root.width
                && key.height == root.height
                && key.rule == root.rule
                && key.geometry == root.geometry
                && key.black.len() + key.white.len() > root.black.len() + root.white.len()
                && images.iter().any(|image| contains(key, image));
            !follows || keep(record)
        });
        before - self.records.len()
    }
}

/// The stones of `board` under each of the board's symmetries.
fn images(board: &Board) -> Vec<Key> {
    let (width, height) = (board.width(), board.height());
    key::board_symmetries(width, height, board.geometry())
        .into_iter()
        .map(|s| key::Canonical::with_symmetry(board, s))
        .collect()
}

fn contains(key: &Key, image: &Key) -> bool {
    let subset = |small: &[key::Point], large: &[key::Point]| {
        small.iter().all(|p| large.binary_search(p).is_ok())
    };
    subset(&image.black, &key.black) && subset(&image.white, &key.white)
}

/// The database file in effect: `named` or the default file.
pub fn path_or_default(named: Option<&Path>) -> PathBuf {
    named.map_or_else(|| PathBuf::from(DEFAULT_FILE), Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    fn board(stones: &[(usize, usize)]) -> Board {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in stones {
            board.play(Pos::new(x, y)).unwrap();
        }
        board
    }

    #[test]
    fn records_are_shared_by_symmetric_positions() {
        let mut database = Database::default();
        database.entry(&board(&[(7, 7), (8, 6)])).comment = "diagonal".to_string();
        let mirrored = board(&[(7, 7), (6, 6)]);
        assert_eq!(database.get(&mirrored).unwrap().comment, "diagonal");
        database.set_board_text(&mirrored, Pos::new(5, 5), "A");
        assert_eq!(
            database.board_text(&board(&[(7, 7), (8, 6)]), Pos::new(9, 5)),
            Some("A")
        );
        assert_eq!(database.board_text(&mirrored, Pos::new(9, 5)), None);
        database.set_board_text(&mirrored, Pos::new(5, 5), "");
        assert_eq!(database.board_text(&mirrored, Pos::new(5, 5)), None);
    }

    #[test]
    fn children_and_descendants() {
        let mut database = Database::default();
        let root = board(&[(7, 7)]);
        database.entry(&root);
        database.entry(&board(&[(7, 7), (8, 8)])).label = Some(b'w');
        database.entry(&board(&[(7, 7), (8, 7)])).label = Some(b'l');
        database.entry(&board(&[(7, 7), (8, 7), (5, 5)]));
        database.entry(&board(&[(6, 6), (8, 8)]));
        let children = database.children(&root);
        assert_eq!(children.len(), 8, "both children, in all their images");
        let removed = database.remove_descendants(&root, |r| r.label == Some(b'w'));
        assert_eq!(removed, 2);
        assert_eq!(database.len(), 3);
        assert!(database.get(&root).is_some());
        assert!(
            database.get(&board(&[(6, 6), (8, 8)])).is_some(),
            "not below"
        );
    }
}
