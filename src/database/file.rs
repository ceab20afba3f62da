//! The database file: UTF-8 text, a header line, then one record per line
//! (the format is described in `docs/database.md`). Reading checks every
//! field and refuses the whole file on the first bad line; writing goes to a
//! temporary file that then replaces the old one, so a crash never leaves a
//! half-written database.

use super::key::{Key, Point};
use super::record::{clipped, is_label, Bound, Record};
use super::Database;
use crate::board::{Geometry, Rule, MAX_SIZE, MIN_SIZE};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The first line of every database file.
pub const HEADER: &str = "wuzi-database 1";
/// Larger files are refused rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 512 << 20;

const RULE_NAMES: [(Rule, &str); 5] = [
    (Rule::Freestyle, "freestyle"),
    (Rule::Standard, "standard"),
    (Rule::Renju, "renju"),
    (Rule::Caro, "caro"),
    (Rule::CaroExact, "caro-exact"),
];
const GEOMETRY_NAMES: [(Geometry, &str); 2] =
    [(Geometry::Square, "square"), (Geometry::Hex, "hex")];

/// Why a file cannot be used as a database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// It is not a wuzi database (another program's file, or empty).
    Foreign(String),
    /// It is one, but a line cannot be read.
    Corrupt { line: usize, reason: String },
    /// It cannot be read at all.
    Unreadable(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Foreign(why) => write!(f, "not a wuzi database ({why})"),
            LoadError::Corrupt { line, reason } => write!(f, "corrupt at line {line}: {reason}"),
            LoadError::Unreadable(why) => write!(f, "unreadable: {why}"),
        }
    }
}

/// Reads the database at `path`; a missing file is an empty database.
pub fn load(path: &Path) -> Result<Database, LoadError> {
    let size = match std::fs::metadata(path) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Database::default()),
        Err(e) => return Err(LoadError::Unreadable(e.to_string())),
    };
    if size > MAX_FILE_BYTES {
        return Err(LoadError::Unreadable(format!(
            "{size} bytes is more than {MAX_FILE_BYTES}"
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| LoadError::Unreadable(e.to_string()))?;
    parse(&bytes)
}

/// Reads a database from the bytes of a file.
pub fn parse(bytes: &[u8]) -> Result<Database, LoadError> {
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    if first_line.strip_suffix(b"\r").unwrap_or(first_line) != HEADER.as_bytes() {
        return Err(LoadError::Foreign(format!(
            "the first line is not '{HEADER}'"
        )));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| LoadError::Corrupt {
        line: 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        reason: "not UTF-8 text".to_string(),
    })?;
    let mut database = Database::default();
    for (index, line) in text.lines().enumerate().skip(1) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, record) = parse_record(line).map_err(|reason| LoadError::Corrupt {
            line: index + 1,
            reason,
        })?;
        database.records.insert(key, record);
    }
    Ok(database)
}

/// Writes `database` to `path`: into `path` + `.tmp` first, then renamed
/// over `path`.
pub fn save(database: &Database, path: &Path) -> io::Result<()> {
    let temporary = temporary_path(path);
    let result = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(render(database).as_bytes())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".tmp");
    PathBuf::from(name)
}

/// The whole file's text, records in a fixed order.
pub fn render(database: &Database) -> String {
    let mut lines: Vec<String> = database
        .records
        .iter()
        .map(|(key, record)| render_record(key, record))
        .collect();
    lines.sort_unstable();
    let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum::<usize>() + 32);
    text.push_str(HEADER);
    text.push('\n');
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

fn render_record(key: &Key, record: &Record) -> String {
    let mut line = format!(
        "{}x{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        key.width,
        key.height,
        name(&RULE_NAMES, key.rule),
        name(&GEOMETRY_NAMES, key.geometry),
        points_text(&key.black),
        points_text(&key.white),
        points_text(&key.walls),
        record
            .label
            .map_or("-".to_string(), |b| (b as char).to_string()),
        record.value,
        record.depth,
        record.bound.name(),
        escape(&record.comment),
    );
    for (&(x, y), text) in &record.board_texts {
        let _ = write!(line, "\t{x}.{y}={}", escape(text));
    }
    line
}

fn name<T: PartialEq>(pairs: &[(T, &'static str)], wanted: T) -> &'static str {
    pairs
        .iter()
        .find(|(item, _)| *item == wanted)
        .map_or("?", |(_, name)| name)
}

fn lookup<T: Copy>(pairs: &[(T, &str)], text: &str, what: &str) -> Result<T, String> {
    pairs
        .iter()
        .find(|(_, name)| *name == text)
        .map(|(item, _)| *item)
        .ok_or_else(|| format!("unknown {what} '{}'", short(text)))
}

fn points_text(points: &[Point]) -> String {
    if points.is_empty() {
        return "-".to_string();
    }
    points
        .iter()
        .map(|(x, y)| format!("{x}.{y}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_record(line: &str) -> Result<(Key, Record), String> {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() < 11 {
        return Err(format!("{} fields, at least 11 expected", fields.len()));
    }
    let (width, height) = fields[0]
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u8>().ok()?, h.parse::<u8>().ok()?)))
        .filter(|&(w, h)| {
            let size = MIN_SIZE as u8..=MAX_SIZE as u8;
            size.contains(&w) && size.contains(&h)
        })
        .ok_or_else(|| format!("bad board size '{}'", short(fields[0])))?;
    let rule = lookup(&RULE_NAMES, fields[1], "rule")?;
    let geometry = lookup(&GEOMETRY_NAMES, fields[2], "geometry")?;
    let mut seen = vec![false; width as usize * height as usize];
    let mut points = |text: &str| parse_points(text, width, height, &mut seen);
    let key = Key {
        width,
        height,
        rule,
        geometry,
        black: points(fields[3])?,
        white: points(fields[4])?,
        walls: points(fields[5])?,
    };
    let label = match fields[6].as_bytes() {
        b"-" => None,
        &[byte] if is_label(byte) => Some(byte),
        _ => return Err(format!("bad label '{}'", short(fields[6]))),
    };
    let number = |text: &str, what: &str| {
        text.parse::<i32>()
            .map_err(|_| format!("bad {what} '{}'", short(text)))
    };
    let mut record = Record {
        label,
        value: number(fields[7], "value")?,
        depth: number(fields[8], "depth")?,
        bound: Bound::from_name(fields[9])
            .ok_or_else(|| format!("bad bound '{}'", short(fields[9])))?,
        comment: clipped(&unescape(fields[10])?),
        board_texts: BTreeMap::new(),
    };
    for field in &fields[11..] {
        let (point, text) = field
            .split_once('=')
            .ok_or_else(|| format!("bad board text '{}'", short(field)))?;
        let point = parse_point(point, width, height)?;
        record.board_texts.insert(point, clipped(&unescape(text)?));
    }
    Ok((key, record))
}

fn parse_points(
    text: &str,
    width: u8,
    height: u8,
    seen: &mut [bool],
) -> Result<Vec<Point>, String> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut points = Vec::new();
    for item in text.split(',') {
        let (x, y) = parse_point(item, width, height)?;
        let cell = &mut seen[y as usize * width as usize + x as usize];
        if std::mem::replace(cell, true) {
            return Err(format!("point {x}.{y} is given twice"));
        }
        points.push((x, y));
    }
    points.sort_unstable();
    Ok(points)
}

fn parse_point(text: &str, width: u8, height: u8) -> Result<Point, String> {
    text.split_once('.')
        .and_then(|(x, y)| Some((x.parse::<u8>().ok()?, y.parse::<u8>().ok()?)))
        .filter(|&(x, y)| x < width && y < height)
        .ok_or_else(|| format!("bad point '{}'", short(text)))
}

/// Text with `\`, tab, newline and carriage return written as `\\`, `\t`,
/// `\n`, `\r`, so that it fits in one field.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

pub fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('\\') => '\\',
            Some('t') => '\t',
            Some('n') => '\n',
            Some('r') => '\r',
            _ => return Err("bad escape in text".to_string()),
        });
    }
    Ok(out)
}

/// File text quoted in a message, cut short.
fn short(text: &str) -> String {
    match text.char_indices().nth(24) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};
    use crate::database::key::Canonical;

    fn sample() -> Database {
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        let mut database = Database::default();
        for (x, y) in [(7, 7), (8, 6), (9, 8)] {
            board.play(Pos::new(x, y)).unwrap();
            let mut record = Record {
                label: Some(b'w'),
                value: -120,
                depth: 9,
                bound: Bound::Lower,
                comment: "line one\nline\ttwo \\ \"quoted\" 五".to_string(),
                ..Record::default()
            };
            record.board_texts.insert((3, 4), "a=b".to_string());
            database.records.insert(Canonical::of(&board).key, record);
        }
        database.records.insert(
            Canonical::of(&Board::new(20, 15, Rule::Freestyle).unwrap()).key,
            Record::default(),
        );
        database
    }

    #[test]
    fn a_database_survives_rendering_and_parsing() {
        let database = sample();
        let text = render(&database);
        let read = parse(text.as_bytes()).unwrap();
        assert_eq!(read.records, database.records);
        assert_eq!(render(&read), text, "rendering is stable");
    }

    #[test]
    fn a_database_survives_a_save_and_a_load() {
        let dir = std::env::temp_dir().join(format!("wuzi-db-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("round.db");
        assert_eq!(load(&path).unwrap().records.len(), 0, "missing file: empty");
        save(&sample(), &path).unwrap();
        assert_eq!(load(&path).unwrap().records, sample().records);
        assert!(!temporary_path(&path).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn foreign_and_corrupt_files_are_refused() {
        assert!(matches!(parse(b""), Err(LoadError::Foreign(_))));
        assert!(matches!(
            parse(b"\xFFRenLib\xFF\x03\x04"),
            Err(LoadError::Foreign(_))
        ));
        let good = render(&sample());
        let mut lines: Vec<&str> = good.lines().collect();
        let bad_lines = [
            "15x15\trenju\tsquare\t7.7\t-\t-\t-\t0\t0\tnone",
            "15x15\trenju\tsquare\t7.7\t7.7\t-\t-\t0\t0\tnone\t",
            "99x15\trenju\tsquare\t-\t-\t-\t-\t0\t0\tnone\t",
            "15x15\tgo\tsquare\t-\t-\t-\t-\t0\t0\tnone\t",
            "15x15\trenju\tsquare\t15.0\t-\t-\t-\t0\t0\tnone\t",
            "15x15\trenju\tsquare\t-\t-\t-\tww\t0\t0\tnone\t",
            "15x15\trenju\tsquare\t-\t-\t-\t-\t1e9\t0\tnone\t",
            "15x15\trenju\tsquare\t-\t-\t-\t-\t0\t0\tmaybe\t",
            "15x15\trenju\tsquare\t-\t-\t-\t-\t0\t0\tnone\tbad\\q",
            "15x15\trenju\tsquare\t-\t-\t-\t-\t0\t0\tnone\t\t1.1",
        ];
        for bad in bad_lines {
            lines.insert(2, bad);
            let text = lines.join("\n");
            let result = parse(text.as_bytes());
            assert!(
                matches!(result, Err(LoadError::Corrupt { line: 3, .. })),
                "{bad:?}: {result:?}"
            );
            lines.remove(2);
        }
        let mut bytes = good.into_bytes();
        bytes.extend_from_slice(b"15x15\trenju\tsquare\t-\t-\t-\t-\t0\t0\tnone\t\xFF\n");
        assert!(matches!(parse(&bytes), Err(LoadError::Corrupt { .. })));
    }
}
