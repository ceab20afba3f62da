//! Yixin-Board's database commands as values: the header line's words and
//! arguments (the position follows as `x,y` lines and `DONE`, assembled by
//! `block`). Pure: no database here.

use super::command::{clip, Point};

/// Which database command a header line starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatabaseVerb {
    /// `yxquerydatabaseall` (and `…allt`): every child record of the position.
    QueryAll,
    /// `yxquerydatabaseone`: the position's own record.
    QueryOne,
    /// `yxquerydatabasetext`: the position's comment.
    QueryText,
    /// `yxeditlabeldatabase x,y text`: a text on a point of the position.
    EditLabel,
    /// `yxedittvddatabase mask label value depth`.
    EditTvd,
    /// `yxedittextdatabase "text"`: the position's comment.
    EditText,
    /// `yxdeletedatabaseone`: the position's record.
    DeleteOne,
    /// `yxdeletedatabaseall [filter]`: the records of every later position.
    DeleteAll,
}

/// Which later records `yxdeletedatabaseall` removes, by label (Rapfi's
/// filters; a `…RECURSIVE` suffix is accepted and means the same here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteFilter {
    All,
    /// `W`, `L`, `WL`, `WLD`: only records with these labels.
    Only(&'static [u8]),
    /// `NONWL`, `NONWLD`: all but records with these labels.
    AllBut(&'static [u8]),
}

impl DeleteFilter {
    /// Whether a record with `label` is removed.
    pub fn removes(self, label: Option<u8>) -> bool {
        match self {
            DeleteFilter::All => true,
            DeleteFilter::Only(labels) => label.is_some_and(|l| labels.contains(&l)),
            DeleteFilter::AllBut(labels) => !label.is_some_and(|l| labels.contains(&l)),
        }
    }
}

/// A database command with its header arguments read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseRequest {
    QueryAll,
    QueryOne,
    QueryText,
    EditLabel {
        point: Point,
        text: String,
    },
    EditTvd {
        /// Bit 1: the label, bit 2: the value, bit 4: the depth.
        mask: i64,
        /// A character code (`W`, `L`, `D`, `X` mean `w`, `l`, `d`, `x`), or
        /// 0 / -1 for undetermined.
        label: i64,
        value: i64,
        depth: i64,
    },
    EditText(String),
    DeleteOne,
    DeleteAll(DeleteFilter),
}

/// Reads the arguments after the command word.
pub fn parse_header(verb: DatabaseVerb, args: &str) -> Result<DatabaseRequest, String> {
    Ok(match verb {
        DatabaseVerb::QueryAll => DatabaseRequest::QueryAll,
        DatabaseVerb::QueryOne => DatabaseRequest::QueryOne,
        DatabaseVerb::QueryText => DatabaseRequest::QueryText,
        DatabaseVerb::DeleteOne => DatabaseRequest::DeleteOne,
        DatabaseVerb::EditLabel => {
            let (point, text) = match args.find(char::is_whitespace) {
                Some(at) => (&args[..at], args[at..].trim()),
                None => (args, ""),
            };
            let numbers: Vec<i64> = point
                .split(',')
                .map(|n| n.trim().parse::<i64>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("'{}' is not a point x,y", clip(point)))?;
            let [x, y] = numbers[..] else {
                return Err(format!("'{}' is not a point x,y", clip(point)));
            };
            DatabaseRequest::EditLabel {
                point: Point { x, y },
                text: text.to_string(),
            }
        }
        DatabaseVerb::EditTvd => {
            let numbers: Vec<i64> = args
                .split_whitespace()
                .map(|n| n.parse::<i64>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("'{}' is not four integers", clip(args)))?;
            let [mask, label, value, depth] = numbers[..] else {
                return Err("expected mask label value depth".to_string());
            };
            DatabaseRequest::EditTvd {
                mask,
                label,
                value,
                depth,
            }
        }
        DatabaseVerb::EditText => DatabaseRequest::EditText(unquote(args)?),
        DatabaseVerb::DeleteAll => DatabaseRequest::DeleteAll(delete_filter(args)?),
    })
}

fn delete_filter(args: &str) -> Result<DeleteFilter, String> {
    let word = args
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    let word = word.strip_suffix("RECURSIVE").unwrap_or(&word);
    Ok(match word {
        "" => DeleteFilter::All,
        "W" => DeleteFilter::Only(b"w"),
        "L" => DeleteFilter::Only(b"l"),
        "WL" => DeleteFilter::Only(b"wl"),
        "WLD" => DeleteFilter::Only(b"wld"),
        "NONWL" => DeleteFilter::AllBut(b"wl"),
        "NONWLD" => DeleteFilter::AllBut(b"wld"),
        other => return Err(format!("unknown delete filter '{}'", clip(other))),
    })
}

/// A `"quoted"` text with C-style escapes (`\"`, `\\`, `\n`), or the bare
/// rest of the line.
pub fn unquote(args: &str) -> Result<String, String> {
    let args = args.trim();
    let Some(inner) = args.strip_prefix('"') else {
        return Ok(args.to_string());
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Ok(out),
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => break,
            },
            c => out.push(c),
        }
    }
    Err("the text has no closing quote".to_string())
}

/// `text` quoted with C-style escapes, on one line.
pub fn quote(text: &str) -> String {
    let mut out = String::from('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read() {
        assert_eq!(
            parse_header(DatabaseVerb::EditLabel, "7,8 a b"),
            Ok(DatabaseRequest::EditLabel {
                point: Point { x: 7, y: 8 },
                text: "a b".to_string()
            })
        );
        assert_eq!(
            parse_header(DatabaseVerb::EditTvd, "7 87 -30 12"),
            Ok(DatabaseRequest::EditTvd {
                mask: 7,
                label: 87,
                value: -30,
                depth: 12
            })
        );
        assert!(parse_header(DatabaseVerb::EditTvd, "7 87 -30").is_err());
        assert!(parse_header(DatabaseVerb::EditLabel, "7;8 a").is_err());
        assert_eq!(
            parse_header(DatabaseVerb::DeleteAll, "nonwlRECURSIVE"),
            Ok(DatabaseRequest::DeleteAll(DeleteFilter::AllBut(b"wl")))
        );
        assert!(parse_header(DatabaseVerb::DeleteAll, "everything").is_err());
    }

    #[test]
    fn quoting_round_trips() {
        let text = "a \"b\" \\ c\nd";
        assert_eq!(unquote(&quote(text)), Ok(text.to_string()));
        assert_eq!(unquote("plain words"), Ok("plain words".to_string()));
        assert!(unquote("\"open").is_err());
    }

    #[test]
    fn filters_pick_labels() {
        assert!(DeleteFilter::All.removes(None));
        assert!(DeleteFilter::Only(b"wl").removes(Some(b'w')));
        assert!(!DeleteFilter::Only(b"wl").removes(None));
        assert!(DeleteFilter::AllBut(b"wl").removes(Some(b'd')));
        assert!(!DeleteFilter::AllBut(b"wl").removes(Some(b'l')));
    }
}
