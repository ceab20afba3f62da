//! Assembles multi-line commands (`BOARD`, `YXBOARD`, `SWAP2BOARD` … `DONE`)
//! from single lines. A pure state machine: the command loop feeds it every
//! line it reads and applies whatever complete commands come out.

use super::command::{
    clip, is_done, parse_board_entry, parse_point_entry, parse_swap2_entry, BlockKind, BoardEntry,
    Command, ParseError, Point,
};
use super::database_command::DatabaseRequest;
use crate::board::MAX_SIZE;

/// More entry lines than a board has points cannot be a position; the cap also
/// keeps a runaway block from growing without bound.
const MAX_ENTRIES: usize = MAX_SIZE * MAX_SIZE;

#[derive(Default)]
pub struct Assembler {
    open: Option<OpenBlock>,
}

struct OpenBlock {
    kind: BlockKind,
    /// The header of a database command.
    request: Option<DatabaseRequest>,
    board: Vec<BoardEntry>,
    points: Vec<Point>,
    /// The first bad line: the whole block is refused at `DONE`, so that a
    /// position with one bad line changes nothing.
    error: Option<ParseError>,
}

impl Assembler {
    /// Whether a block is open (lines are entries until `DONE`).
    pub fn in_block(&self) -> bool {
        self.open.is_some()
    }

    /// Feeds one line; returns the commands (or errors) it completes, in
    /// order. Blank lines complete nothing.
    pub fn feed(&mut self, line: &str) -> Vec<Result<Command, ParseError>> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        match self.open.take() {
            None => self.feed_idle(line),
            Some(block) => self.feed_block(block, line),
        }
    }

    fn feed_idle(&mut self, line: &str) -> Vec<Result<Command, ParseError>> {
        match Command::parse(line) {
            Ok(Command::OpenBlock(kind)) => {
                self.open = Some(OpenBlock::new(kind, None));
                Vec::new()
            }
            Ok(Command::OpenDatabase(header)) => {
                let mut block = OpenBlock::new(BlockKind::Database, None);
                match header {
                    Ok(request) => block.request = Some(request),
                    Err(error) => block.error = Some(error),
                }
                self.open = Some(block);
                Vec::new()
            }
            Err(ParseError::UnknownCommand(_)) if is_done(line) => vec![Err(ParseError::StrayDone)],
            parsed => vec![parsed],
        }
    }

    fn feed_block(&mut self, mut block: OpenBlock, line: &str) -> Vec<Result<Command, ParseError>> {
        if let BlockKind::Path(name) = block.kind {
            // The whole line is the path, whatever it looks like.
            return vec![Ok(match name {
                "YXSETDATABASE" => Command::SetDatabase(line.to_string()),
                _ => Command::Unsupported(name),
            })];
        }
        if is_done(line) {
            return vec![block.finish()];
        }
        let entry = match block.kind {
            BlockKind::Swap2Board => parse_swap2_entry(line).map(|p| block.points.push(p)),
            BlockKind::Block | BlockKind::BlockUndo | BlockKind::Database => {
                parse_point_entry(line).map(|p| block.points.push(p))
            }
            BlockKind::Board | BlockKind::YxBoard => {
                parse_board_entry(line).map(|e| block.board.push(e))
            }
            // Lines of a command we do not implement are dropped unread,
            // unless they are a command (handled below).
            BlockKind::Unsupported(_) if Command::parse(line).is_err() => Ok(()),
            BlockKind::Unsupported(_) | BlockKind::Path(_) => Err(String::new()),
        };
        match entry {
            Ok(()) if block.board.len() + block.points.len() > MAX_ENTRIES => {
                block.note_error(line, "more lines than the board has points".to_string());
            }
            Ok(()) => {}
            Err(reason) => {
                // A command word inside a block means the manager moved on
                // without `DONE`: refuse the block and carry out the command.
                if Command::parse(line).is_ok() {
                    let interrupted = ParseError::BadArguments {
                        command: block.kind.name(),
                        reason: format!("interrupted by '{}' before DONE", clip(line)),
                    };
                    let mut out = vec![Err(interrupted)];
                    out.extend(self.feed_idle(line));
                    return out;
                }
                block.note_error(line, reason);
            }
        }
        self.open = Some(block);
        Vec::new()
    }
}

impl OpenBlock {
    fn new(kind: BlockKind, request: Option<DatabaseRequest>) -> OpenBlock {
        OpenBlock {
            kind,
            request,
            board: Vec::new(),
            points: Vec::new(),
            error: None,
        }
    }

    fn note_error(&mut self, line: &str, reason: String) {
        self.error.get_or_insert(ParseError::BadEntry {
            block: self.kind,
            line: clip(line),
            reason,
        });
    }

    fn finish(self) -> Result<Command, ParseError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        Ok(match self.kind {
            BlockKind::Board => Command::Board(self.board),
            BlockKind::YxBoard => Command::YxBoard(self.board),
            BlockKind::Swap2Board => Command::Swap2Board(self.points),
            BlockKind::Block => Command::Block(self.points),
            BlockKind::BlockUndo => Command::BlockUndo(self.points),
            BlockKind::Database => match self.request {
                Some(request) => Command::Database(request, self.points),
                None => Command::Unsupported("database command"),
            },
            BlockKind::Path(name) | BlockKind::Unsupported(name) => Command::Unsupported(name),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::command::Field;
    use super::*;

    fn feed_all(lines: &[&str]) -> Vec<Result<Command, ParseError>> {
        let mut assembler = Assembler::default();
        lines.iter().flat_map(|l| assembler.feed(l)).collect()
    }

    #[test]
    fn a_board_block_becomes_one_command() {
        let out = feed_all(&["BOARD", "7,7,2", "", "8,8,1\r", "done"]);
        assert_eq!(out.len(), 1);
        let Ok(Command::Board(entries)) = &out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].field, Field::Opponent);
        assert_eq!(entries[1].point, Point { x: 8, y: 8 });
    }

    #[test]
    fn an_empty_board_block_is_a_board_with_no_stones() {
        assert_eq!(
            feed_all(&["BOARD", "DONE"]),
            vec![Ok(Command::Board(vec![]))]
        );
    }

    #[test]
    fn one_bad_line_refuses_the_whole_block() {
        let out = feed_all(&["YXBOARD", "7,7,1", "7,x,2", "8,8,2", "DONE"]);
        assert!(
            matches!(&out[..], [Err(ParseError::BadEntry { .. })]),
            "{out:?}"
        );
    }

    #[test]
    fn swap2_lines_may_be_bare_or_carry_a_colour() {
        let out = feed_all(&["SWAP2BOARD", "7,7", "8,8,2", "9,9,1", "DONE"]);
        let Ok(Command::Swap2Board(points)) = &out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(points.len(), 3);
    }

    #[test]
    fn a_command_inside_a_block_interrupts_it() {
        let out = feed_all(&["BOARD", "7,7,1", "END"]);
        assert!(matches!(out[0], Err(ParseError::BadArguments { .. })));
        assert_eq!(out[1], Ok(Command::End));
    }

    #[test]
    fn unsupported_blocks_are_swallowed_whole() {
        let out = feed_all(&["yxsetbestmovedatabase", "7,7", "8,8", "done", "BEGIN"]);
        assert_eq!(
            out,
            vec![
                Ok(Command::Unsupported("YXSETBESTMOVEDATABASE")),
                Ok(Command::Begin)
            ]
        );
    }

    #[test]
    fn database_commands_carry_their_header_and_position() {
        let out = feed_all(&["yxedittextdatabase \"a b\"", "7,7", "8,8", "done"]);
        assert_eq!(
            out,
            vec![Ok(Command::Database(
                DatabaseRequest::EditText("a b".to_string()),
                vec![Point { x: 7, y: 7 }, Point { x: 8, y: 8 }]
            ))]
        );
        let bad = feed_all(&["yxedittvddatabase 1 2", "7,7", "done"]);
        assert!(
            matches!(bad[..], [Err(ParseError::BadArguments { .. })]),
            "the lines are swallowed, the header's error is the answer: {bad:?}"
        );
    }

    #[test]
    fn a_path_is_the_whole_next_line() {
        let out = feed_all(&[
            "yxsetdatabase",
            "C:\\My Games\\done.db",
            "yxhashdump",
            "x",
            "BEGIN",
        ]);
        assert_eq!(
            out,
            vec![
                Ok(Command::SetDatabase("C:\\My Games\\done.db".to_string())),
                Ok(Command::Unsupported("YXHASHDUMP")),
                Ok(Command::Begin)
            ]
        );
    }

    #[test]
    fn block_lists_are_points() {
        let out = feed_all(&["yxblock", "7,7", "8,8", "done"]);
        assert_eq!(
            out,
            vec![Ok(Command::Block(vec![
                Point { x: 7, y: 7 },
                Point { x: 8, y: 8 }
            ]))]
        );
        assert!(matches!(
            feed_all(&["yxblock", "7,7,1", "done"])[..],
            [Err(ParseError::BadEntry { .. })]
        ));
    }

    #[test]
    fn done_without_a_block_is_an_error() {
        assert_eq!(feed_all(&["DONE"]), vec![Err(ParseError::StrayDone)]);
    }

    #[test]
    fn single_line_commands_pass_through() {
        assert_eq!(feed_all(&["BEGIN", "", "  "]), vec![Ok(Command::Begin)]);
    }
}
