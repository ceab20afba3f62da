//! Manager lines → `Command` values. Pure: no I/O, no game state.
//!
//! One table (`COMMANDS`) maps every command word to the shape of its
//! arguments, and one table (`INFO_KEYS`) does the same for `INFO` keys, so
//! adding a command is adding a row. Words and keys are matched without regard
//! to case (Yixin-Board sends lowercase); a trailing `\r` and extra spaces are
//! tolerated.

use super::database_command::{parse_header, DatabaseRequest, DatabaseVerb};
use crate::board::Geometry;
use std::fmt;

/// A point as the manager wrote it: 0-based column `x` and row `y`, not yet
/// checked against any board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

/// What a `BOARD` / `YXBOARD` line says occupies a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Field 1: a stone of the side to move (the engine).
    Own,
    /// Field 2: a stone of the opponent.
    Opponent,
    /// Field 3: a point nobody may play (Piskvork's finished fives in a
    /// continuous game).
    Wall,
}

/// One `x,y,f` line of a `BOARD` / `YXBOARD` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardEntry {
    pub point: Point,
    pub field: Field,
}

/// The multi-line commands: a header line, entry lines, then `DONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `BOARD`: set the position, then move.
    Board,
    /// `YXBOARD`: set the position only.
    YxBoard,
    /// `SWAP2BOARD`: the swap2 opening stones in move order.
    Swap2Board,
    /// `YXBLOCK`: root moves the engine must not play.
    Block,
    /// `YXBLOCKUNDO`: root moves allowed again.
    BlockUndo,
    /// A Yixin-Board database command: the position as `x,y` moves.
    Database,
    /// A command whose argument, a path, is the next line
    /// (`yxsetdatabase`, and Yixin-Board's file commands we do not
    /// implement).
    Path(&'static str),
    /// A Yixin-Board block command we do not implement: its lines are read
    /// and dropped.
    Unsupported(&'static str),
}

impl BlockKind {
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::Block => "YXBLOCK",
            BlockKind::BlockUndo => "YXBLOCKUNDO",
            BlockKind::Database => "database command",
            BlockKind::Path(name) | BlockKind::Unsupported(name) => name,
        }
    }
}

/// One `INFO key value` setting. Integer values are kept as the manager sent
/// them (negative and sentinel values included); the session interprets them.
#[derive(Clone, Debug, PartialEq)]
pub enum Info {
    TimeoutTurn(i64),
    TimeoutMatch(i64),
    TimeLeft(i64),
    MaxMemory(i64),
    GameType(i64),
    Rule(i64),
    /// The point under the mouse in Piskvork (debug builds only).
    Evaluate(Point),
    /// Folder for persistent files; may contain spaces.
    Folder(String),
    ThreadNum(i64),
    /// Hash size in KB (Yixin-Board).
    HashSize(i64),
    MaxNode(i64),
    MaxDepth(i64),
    TimeIncrement(i64),
    CautionFactor(i64),
    Pondering(i64),
    VcThread(i64),
    ThreadSplitDepth(i64),
    /// Bit 1: realtime board hints; bit 2: structured `INFO PV` blocks.
    ShowDetail(i64),
    StartDepth(i64),
    NbestSym(i64),
    UseDatabase(i64),
    DatabaseReadonly(i64),
    /// wuzi's extension: the board's geometry (`square` or `hex`).
    Geometry(Geometry),
    /// A key other engines' managers send that we accept and ignore.
    Ignored {
        key: &'static str,
        value: String,
    },
    /// A key we do not know (ignored silently, as the protocol asks).
    Unknown(String),
}

/// A complete manager command, ready for the session.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `START n`, `START w h` (the original Yixin-Board) or `RECTSTART w,h`.
    Start {
        width: i64,
        height: i64,
    },
    Restart,
    Begin,
    Turn(Point),
    /// The header line of a multi-line command. Only the block assembler sees
    /// it: it turns header, entries and `DONE` into one of the three below.
    OpenBlock(BlockKind),
    Board(Vec<BoardEntry>),
    YxBoard(Vec<BoardEntry>),
    /// The opening stones in move order (Black, White, Black, …).
    Swap2Board(Vec<Point>),
    Block(Vec<Point>),
    BlockUndo(Vec<Point>),
    BlockReset,
    /// Yixin-Board's swap2 steps 1 to 3 (`yxswap2step1` …).
    YxSwap2(u8),
    /// `yxbalanceone B` (one stone) / `yxbalancetwo B` (two stones): the
    /// move(s) after which the side to move's score is nearest `bias`.
    Balance {
        bias: i64,
        stones: u8,
    },
    /// The header of a database command: only the block assembler sees it.
    /// A header it cannot read still opens the block, so that the position
    /// lines are not read as commands; the error is the block's answer.
    OpenDatabase(Result<DatabaseRequest, ParseError>),
    /// A database command and its position (moves in order).
    Database(DatabaseRequest, Vec<Point>),
    /// `yxsetdatabase` with the path from the next line.
    SetDatabase(String),
    /// `yxsavedatabase`.
    SaveDatabase,
    /// A known command we do not implement (reply `UNKNOWN`).
    Unsupported(&'static str),
    Info(Info),
    Takeback(Point),
    Play(Point),
    About,
    End,
    /// `YXSTOP` or `STOP`.
    Stop,
    ShowForbid,
    ShowInfo,
    HashClear,
    Nbest(i64),
}

/// Why a line is not a command we can carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is not a command we know (reply `UNKNOWN`).
    UnknownCommand(String),
    /// A known command with arguments we cannot read (reply `ERROR`).
    BadArguments {
        command: &'static str,
        reason: String,
    },
    /// An `INFO` line we cannot read. Managers do not read replies to `INFO`,
    /// so this is reported as a `MESSAGE`, never as `ERROR`.
    BadInfo(String),
    /// A line inside a `BOARD`-like block that is not an entry.
    BadEntry {
        block: BlockKind,
        line: String,
        reason: String,
    },
    /// `DONE` with no open block.
    StrayDone,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(word) => write!(f, "unknown command '{word}'"),
            ParseError::BadArguments { command, reason } => write!(f, "{command}: {reason}"),
            ParseError::BadInfo(reason) => write!(f, "INFO ignored: {reason}"),
            ParseError::BadEntry {
                block,
                line,
                reason,
            } => write!(f, "{}: bad line '{line}': {reason}", block.name()),
            ParseError::StrayDone => f.write_str("DONE without BOARD, YXBOARD or SWAP2BOARD"),
        }
    }
}

/// How the arguments after a command word are read.
enum Shape {
    /// No arguments (anything after the word is ignored).
    Bare(Command),
    /// `n` (square) or `w h` (the original Yixin-Board's `start W H`).
    Size,
    /// `w,h`.
    RectSize,
    /// `x,y`.
    Point(fn(Point) -> Command),
    /// One integer.
    Count(fn(i64) -> Command),
    /// `key value…` (the value runs to the end of the line).
    Info,
    /// A header: entry lines and `DONE` follow.
    Block(BlockKind),
    /// A database command's header (its arguments), then a position.
    Database(DatabaseVerb),
}

const COMMANDS: &[(&str, Shape)] = &[
    ("START", Shape::Size),
    ("RECTSTART", Shape::RectSize),
    ("RESTART", Shape::Bare(Command::Restart)),
    ("BEGIN", Shape::Bare(Command::Begin)),
    ("TURN", Shape::Point(Command::Turn)),
    ("BOARD", Shape::Block(BlockKind::Board)),
    ("YXBOARD", Shape::Block(BlockKind::YxBoard)),
    ("SWAP2BOARD", Shape::Block(BlockKind::Swap2Board)),
    ("INFO", Shape::Info),
    ("TAKEBACK", Shape::Point(Command::Takeback)),
    ("PLAY", Shape::Point(Command::Play)),
    ("ABOUT", Shape::Bare(Command::About)),
    ("END", Shape::Bare(Command::End)),
    ("YXSTOP", Shape::Bare(Command::Stop)),
    ("STOP", Shape::Bare(Command::Stop)),
    ("YXSHOWFORBID", Shape::Bare(Command::ShowForbid)),
    ("YXSHOWINFO", Shape::Bare(Command::ShowInfo)),
    ("YXHASHCLEAR", Shape::Bare(Command::HashClear)),
    ("YXNBEST", Shape::Count(Command::Nbest)),
    ("YXBLOCK", Shape::Block(BlockKind::Block)),
    ("YXBLOCKUNDO", Shape::Block(BlockKind::BlockUndo)),
    ("YXBLOCKRESET", Shape::Bare(Command::BlockReset)),
    ("YXSWAP2STEP1", Shape::Bare(Command::YxSwap2(1))),
    ("YXSWAP2STEP2", Shape::Bare(Command::YxSwap2(2))),
    ("YXSWAP2STEP3", Shape::Bare(Command::YxSwap2(3))),
    ("YXBALANCEONE", Shape::Count(balance_one)),
    ("YXBALANCETWO", Shape::Count(balance_two)),
    // Yixin-Board's database commands: each is followed by a position and
    // DONE, which must not be read as commands.
    (
        "YXQUERYDATABASEALL",
        Shape::Database(DatabaseVerb::QueryAll),
    ),
    (
        "YXQUERYDATABASEALLT",
        Shape::Database(DatabaseVerb::QueryAll),
    ),
    (
        "YXQUERYDATABASEONE",
        Shape::Database(DatabaseVerb::QueryOne),
    ),
    (
        "YXQUERYDATABASETEXT",
        Shape::Database(DatabaseVerb::QueryText),
    ),
    (
        "YXEDITLABELDATABASE",
        Shape::Database(DatabaseVerb::EditLabel),
    ),
    ("YXEDITTVDDATABASE", Shape::Database(DatabaseVerb::EditTvd)),
    (
        "YXEDITTEXTDATABASE",
        Shape::Database(DatabaseVerb::EditText),
    ),
    (
        "YXDELETEDATABASEONE",
        Shape::Database(DatabaseVerb::DeleteOne),
    ),
    (
        "YXDELETEDATABASEALL",
        Shape::Database(DatabaseVerb::DeleteAll),
    ),
    ("YXSAVEDATABASE", Shape::Bare(Command::SaveDatabase)),
    (
        "YXSETDATABASE",
        Shape::Block(BlockKind::Path("YXSETDATABASE")),
    ),
    (
        "YXSETBESTMOVEDATABASE",
        unsupported_block("YXSETBESTMOVEDATABASE"),
    ),
    (
        "YXCLEARBESTMOVEDATABASE",
        unsupported_block("YXCLEARBESTMOVEDATABASE"),
    ),
    ("YXBLOCKPATH", unsupported_block("YXBLOCKPATH")),
    ("YXBLOCKPATHUNDO", unsupported_block("YXBLOCKPATHUNDO")),
    // Yixin-Board's file commands we do not implement: the path on the next
    // line is read and dropped.
    ("YXHASHDUMP", Shape::Block(BlockKind::Path("YXHASHDUMP"))),
    ("YXHASHLOAD", Shape::Block(BlockKind::Path("YXHASHLOAD"))),
    ("YXDBTOTXT", Shape::Block(BlockKind::Path("YXDBTOTXT"))),
    (
        "YXDBTOTXTALL",
        Shape::Block(BlockKind::Path("YXDBTOTXTALL")),
    ),
    ("YXLIBTODB", Shape::Block(BlockKind::Path("YXLIBTODB"))),
    ("YXDBTOLIB", Shape::Block(BlockKind::Path("YXDBTOLIB"))),
    ("YXDBTOPOS", Shape::Block(BlockKind::Path("YXDBTOPOS"))),
    ("YXTXTTODB", Shape::Block(BlockKind::Path("YXTXTTODB"))),
    ("YXDBSPLIT", Shape::Block(BlockKind::Path("YXDBSPLIT"))),
    ("YXDBMERGE", Shape::Block(BlockKind::Path("YXDBMERGE"))),
];

fn balance_one(bias: i64) -> Command {
    Command::Balance { bias, stones: 1 }
}

fn balance_two(bias: i64) -> Command {
    Command::Balance { bias, stones: 2 }
}

const fn unsupported_block(name: &'static str) -> Shape {
    Shape::Block(BlockKind::Unsupported(name))
}

/// How an `INFO` value is read.
enum ValueShape {
    Integer(fn(i64) -> Info),
    Point(fn(Point) -> Info),
    Text(fn(String) -> Info),
    /// One word out of a fixed list.
    Word(fn(&str) -> Option<Info>, &'static str),
    /// Known key we accept and ignore.
    Ignored,
}

const INFO_KEYS: &[(&str, ValueShape)] = &[
    // The protocol document's keys.
    ("timeout_turn", ValueShape::Integer(Info::TimeoutTurn)),
    ("timeout_match", ValueShape::Integer(Info::TimeoutMatch)),
    ("time_left", ValueShape::Integer(Info::TimeLeft)),
    ("max_memory", ValueShape::Integer(Info::MaxMemory)),
    ("game_type", ValueShape::Integer(Info::GameType)),
    ("rule", ValueShape::Integer(Info::Rule)),
    ("evaluate", ValueShape::Point(Info::Evaluate)),
    ("folder", ValueShape::Text(Info::Folder)),
    // Yixin-Board, c-gomoku-cli and engine extensions.
    ("thread_num", ValueShape::Integer(Info::ThreadNum)),
    ("hash_size", ValueShape::Integer(Info::HashSize)),
    ("max_node", ValueShape::Integer(Info::MaxNode)),
    ("max_depth", ValueShape::Integer(Info::MaxDepth)),
    ("time_increment", ValueShape::Integer(Info::TimeIncrement)),
    ("caution_factor", ValueShape::Integer(Info::CautionFactor)),
    ("pondering", ValueShape::Integer(Info::Pondering)),
    ("vcthread", ValueShape::Integer(Info::VcThread)),
    (
        "thread_split_depth",
        ValueShape::Integer(Info::ThreadSplitDepth),
    ),
    ("show_detail", ValueShape::Integer(Info::ShowDetail)),
    ("start_depth", ValueShape::Integer(Info::StartDepth)),
    ("nbestsym", ValueShape::Integer(Info::NbestSym)),
    ("usedatabase", ValueShape::Integer(Info::UseDatabase)),
    (
        "database_readonly",
        ValueShape::Integer(Info::DatabaseReadonly),
    ),
    // wuzi's extension (docs/protocol.md): the triangle-mesh board.
    ("geometry", ValueShape::Word(geometry_info, "square or hex")),
    ("checkmate", ValueShape::Ignored),
    ("swapable", ValueShape::Ignored),
    ("strength", ValueShape::Ignored),
    ("max_moves", ValueShape::Ignored),
    ("draw_result", ValueShape::Ignored),
    ("analysis_mode", ValueShape::Ignored),
    ("style", ValueShape::Ignored),
    ("auto_pondering", ValueShape::Ignored),
    ("protocol_lag", ValueShape::Ignored),
    ("nbest_sym", ValueShape::Ignored),
];

/// The names `INFO geometry` accepts, and the name each geometry is given
/// back by (`ABOUT`).
pub const GEOMETRY_NAMES: [(&str, Geometry); 2] =
    [("square", Geometry::Square), ("hex", Geometry::Hex)];

pub fn geometry_name(geometry: Geometry) -> &'static str {
    GEOMETRY_NAMES
        .iter()
        .find(|(_, g)| *g == geometry)
        .map_or("square", |(name, _)| name)
}

fn geometry_info(word: &str) -> Option<Info> {
    GEOMETRY_NAMES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(word))
        .map(|&(_, geometry)| Info::Geometry(geometry))
}

impl Command {
    /// Parses one manager line. A blank line is `UnknownCommand("")`; the
    /// command loop skips blank lines before calling this.
    pub fn parse(line: &str) -> Result<Command, ParseError> {
        let line = line.trim();
        let (word, args) = split_word(line);
        let (name, shape) = COMMANDS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(word))
            .ok_or_else(|| ParseError::UnknownCommand(clip(word)))?;
        let bad = |reason: String| ParseError::BadArguments {
            command: name,
            reason,
        };
        match shape {
            Shape::Bare(command) => Ok(command.clone()),
            Shape::Size => parse_size(args).map_err(bad),
            Shape::RectSize => {
                let (width, height) = parse_pair(args).map_err(bad)?;
                Ok(Command::Start { width, height })
            }
            Shape::Point(make) => parse_point(args).map(make).map_err(bad),
            Shape::Count(make) => parse_int(args).map(make).map_err(bad),
            Shape::Info => parse_info(args).map(Command::Info),
            Shape::Block(kind) => Ok(Command::OpenBlock(*kind)),
            Shape::Database(verb) => Ok(Command::OpenDatabase(
                parse_header(*verb, args).map_err(bad),
            )),
        }
    }
}

/// Parses an entry line of a block of the given kind.
pub fn parse_board_entry(line: &str) -> Result<BoardEntry, String> {
    let fields = split_numbers(line)?;
    let [x, y, f] = fields[..] else {
        return Err(format!("expected x,y,field, got {} numbers", fields.len()));
    };
    let field = match f {
        1 => Field::Own,
        2 => Field::Opponent,
        3 => Field::Wall,
        _ => return Err(format!("field must be 1, 2 or 3, not {f}")),
    };
    Ok(BoardEntry {
        point: Point { x, y },
        field,
    })
}

/// Parses a `SWAP2BOARD` line: bare `x,y` as the protocol defines it, or
/// Rapfi's `x,y,colour` (the colour is implied by the order, so it is only
/// checked, not used).
pub fn parse_swap2_entry(line: &str) -> Result<Point, String> {
    let fields = split_numbers(line)?;
    match fields[..] {
        [x, y] => Ok(Point { x, y }),
        [x, y, 1 | 2] => Ok(Point { x, y }),
        [_, _, c] => Err(format!("colour must be 1 or 2, not {c}")),
        _ => Err(format!("expected x,y, got {} numbers", fields.len())),
    }
}

/// Parses an `x,y` line of a `YXBLOCK` / `YXBLOCKUNDO` block.
pub fn parse_point_entry(line: &str) -> Result<Point, String> {
    parse_point(line)
}

/// Whether a line is the `DONE` that closes a block.
pub fn is_done(line: &str) -> bool {
    line.trim().eq_ignore_ascii_case("DONE")
}

fn split_word(line: &str) -> (&str, &str) {
    match line.find(char::is_whitespace) {
        Some(at) => (&line[..at], line[at..].trim()),
        None => (line, ""),
    }
}

fn parse_int(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("missing number".to_string());
    }
    text.parse::<i64>()
        .map_err(|_| format!("'{}' is not an integer", clip(text)))
}

/// Comma-separated integers, spaces around them allowed.
fn split_numbers(text: &str) -> Result<Vec<i64>, String> {
    text.split(',').map(parse_int).collect()
}

fn parse_pair(text: &str) -> Result<(i64, i64), String> {
    match split_numbers(text)?[..] {
        [a, b] => Ok((a, b)),
        _ => Err(format!("expected two numbers 'a,b', got '{}'", clip(text))),
    }
}

fn parse_point(text: &str) -> Result<Point, String> {
    parse_pair(text).map(|(x, y)| Point { x, y })
}

fn parse_size(text: &str) -> Result<Command, String> {
    let numbers = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(parse_int)
        .collect::<Result<Vec<_>, _>>()?;
    match numbers[..] {
        [size] => Ok(Command::Start {
            width: size,
            height: size,
        }),
        [width, height] => Ok(Command::Start { width, height }),
        [] => Err("missing board size".to_string()),
        _ => Err(format!("expected a board size, got '{}'", clip(text))),
    }
}

fn parse_info(args: &str) -> Result<Info, ParseError> {
    let (key, value) = split_word(args);
    if key.is_empty() {
        return Err(ParseError::BadInfo("missing key".to_string()));
    }
    let Some((name, shape)) = INFO_KEYS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(key))
    else {
        // Unknown keys are ignored silently, as the protocol asks.
        return Ok(Info::Unknown(clip(key)));
    };
    let bad = |reason: String| ParseError::BadInfo(format!("{name}: {reason}"));
    match shape {
        ValueShape::Integer(make) => parse_int(value).map(make).map_err(bad),
        ValueShape::Point(make) => parse_point(value).map(make).map_err(bad),
        ValueShape::Text(make) => Ok(make(value.to_string())),
        ValueShape::Word(make, expected) => {
            make(value).ok_or_else(|| bad(format!("'{}' is not {expected}", clip(value))))
        }
        ValueShape::Ignored => Ok(Info::Ignored {
            key: name,
            value: value.to_string(),
        }),
    }
}

/// Manager text quoted back in a reply, cut short so that a pathological line
/// cannot make a pathological reply.
pub(crate) fn clip(text: &str) -> String {
    const LIMIT: usize = 40;
    match text.char_indices().nth(LIMIT) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(x: i64, y: i64) -> Point {
        Point { x, y }
    }

    #[test]
    fn words_are_case_insensitive_and_space_tolerant() {
        for line in ["START 15", "start 15", "  StArT    15  ", "START 15\r"] {
            assert_eq!(
                Command::parse(line),
                Ok(Command::Start {
                    width: 15,
                    height: 15
                }),
                "{line:?}"
            );
        }
        assert_eq!(Command::parse("turn 3, 4"), Ok(Command::Turn(point(3, 4))));
        assert_eq!(Command::parse("yxstop"), Ok(Command::Stop));
        assert_eq!(Command::parse("STOP"), Ok(Command::Stop));
    }

    #[test]
    fn start_accepts_the_two_number_form_and_rectstart() {
        assert_eq!(
            Command::parse("start 20 15"),
            Ok(Command::Start {
                width: 20,
                height: 15
            })
        );
        assert_eq!(
            Command::parse("RECTSTART 20,15"),
            Ok(Command::Start {
                width: 20,
                height: 15
            })
        );
    }

    #[test]
    fn malformed_arguments_are_errors_not_panics() {
        for line in [
            "START",
            "START abc",
            "START 99999999999999999999999",
            "TURN 1",
            "TURN 1,2,3",
            "TURN a,b",
            "TAKEBACK",
            "RECTSTART 20",
            "YXNBEST x",
            "PLAY ,",
        ] {
            assert!(
                matches!(Command::parse(line), Err(ParseError::BadArguments { .. })),
                "{line:?} -> {:?}",
                Command::parse(line)
            );
        }
    }

    #[test]
    fn unknown_words_are_reported_as_unknown() {
        assert_eq!(
            Command::parse("FROBNICATE 1"),
            Err(ParseError::UnknownCommand("FROBNICATE".to_string()))
        );
        assert_eq!(
            Command::parse("DONE"),
            Err(ParseError::UnknownCommand("DONE".to_string()))
        );
    }

    #[test]
    fn info_value_runs_to_the_end_of_the_line() {
        assert_eq!(
            Command::parse("INFO folder C:\\My Games\\wuzi data"),
            Ok(Command::Info(Info::Folder(
                "C:\\My Games\\wuzi data".to_string()
            )))
        );
        assert_eq!(
            Command::parse("info TIMEOUT_TURN -5"),
            Ok(Command::Info(Info::TimeoutTurn(-5)))
        );
        assert_eq!(
            Command::parse("INFO evaluate 3,4"),
            Ok(Command::Info(Info::Evaluate(point(3, 4))))
        );
    }

    #[test]
    fn unknown_info_keys_are_accepted_and_bad_values_are_info_errors() {
        assert!(matches!(
            Command::parse("INFO some_future_key 12 34"),
            Ok(Command::Info(Info::Unknown(_)))
        ));
        assert!(matches!(
            Command::parse("INFO timeout_turn soon"),
            Err(ParseError::BadInfo(_))
        ));
        assert!(matches!(
            Command::parse("INFO"),
            Err(ParseError::BadInfo(_))
        ));
    }

    #[test]
    fn geometry_is_a_word_from_a_list() {
        assert_eq!(
            Command::parse("INFO geometry hex"),
            Ok(Command::Info(Info::Geometry(Geometry::Hex)))
        );
        assert_eq!(
            Command::parse("info GEOMETRY Square\r"),
            Ok(Command::Info(Info::Geometry(Geometry::Square)))
        );
        for line in [
            "INFO geometry",
            "INFO geometry triangle",
            "INFO geometry hex 2",
        ] {
            let parsed = Command::parse(line);
            assert!(
                matches!(parsed, Err(ParseError::BadInfo(_))),
                "{line:?} -> {parsed:?}"
            );
        }
        for (name, geometry) in GEOMETRY_NAMES {
            assert_eq!(geometry_name(geometry), name);
        }
    }

    #[test]
    fn block_headers_open_blocks() {
        assert_eq!(
            Command::parse("board"),
            Ok(Command::OpenBlock(BlockKind::Board))
        );
        assert_eq!(
            Command::parse("YXBOARD"),
            Ok(Command::OpenBlock(BlockKind::YxBoard))
        );
        assert_eq!(
            Command::parse("SWAP2BOARD"),
            Ok(Command::OpenBlock(BlockKind::Swap2Board))
        );
    }

    #[test]
    fn entries_are_checked() {
        assert_eq!(
            parse_board_entry("7, 8 ,2"),
            Ok(BoardEntry {
                point: point(7, 8),
                field: Field::Opponent
            })
        );
        assert!(parse_board_entry("7,8").is_err());
        assert!(parse_board_entry("7,8,4").is_err());
        assert!(parse_board_entry("7,8,1,1").is_err());
        assert_eq!(parse_swap2_entry("7,8"), Ok(point(7, 8)));
        assert_eq!(parse_swap2_entry("7,8,1"), Ok(point(7, 8)));
        assert!(parse_swap2_entry("7,8,5").is_err());
        assert!(parse_swap2_entry("7").is_err());
    }
}
