//! The repository speaks in the present tense about the software: no text
//! file names a work session: the word followed by a number (with a space,
//! a hyphen or nothing between), or pointed at by "this", "previous",
//! "next" or "last". "Session" alone is a word of the code (the
//! protocol session, `src/protocol/session/`), so only a session followed by
//! a number, or one that a word such as "this", "previous" or "next" points
//! at, is refused.
//!
//! The matching is done by hand (the crate has no regex dependency): each
//! file's lines are stripped of comment markers and joined with single
//! spaces, so a phrase broken across lines is still found.

use std::fs;
use std::path::{Path, PathBuf};

/// What is scanned, relative to the crate's root: files, or folders walked
/// recursively.
const ROOTS: &[&str] = &[
    "README.md",
    "CHANGELOG.md",
    "Cargo.toml",
    "docs",
    "src",
    "tests",
    "benches",
    "openings",
    "scripts",
    "protocol-tests",
    ".ci",
    ".github",
];

/// This file quotes the wording it refuses.
const SELF: &str = "tests/repository_wording.rs";

/// Words that, right before "session", point at a work session.
const POINTERS: &[&str] = &[
    "this", "that", "previous", "next", "last", "earlier", "later", "other",
];

/// What may follow "session's" only when a work session is meant.
const POSSESSED: &[&str] = &[
    "start", "end", "search", "engine", "build", "binary", "main",
];

/// The offending phrases in `text`, each with a little context.
fn offences(text: &str) -> Vec<String> {
    let normal = normalise(text);
    let bytes = normal.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = normal[from..].find("session") {
        let start = from + at;
        let end = start + "session".len();
        from = end;
        if start > 0 && bytes[start - 1].is_ascii_alphanumeric() {
            continue;
        }
        if is_numbered(&normal[end..]) || is_pointed_at(&normal[..start]) {
            let lo = floor_boundary(&normal, start.saturating_sub(30));
            let hi = floor_boundary(&normal, (end + 30).min(normal.len()));
            found.push(normal[lo..hi].to_string());
        }
    }
    found
}

/// Whether the text after the word numbers it (a digit after a space, a
/// hyphen or nothing; a plural before a list of numbers) or is "'s end".
fn is_numbered(after: &str) -> bool {
    let digit_at = |s: &str, i: usize| s.as_bytes().get(i).is_some_and(u8::is_ascii_digit);
    if let Some(rest) = after.strip_prefix("'s ").or(after.strip_prefix("’s ")) {
        return POSSESSED.iter().any(|w| starts_with_word(rest, w));
    }
    let plural = after.strip_prefix("s ").unwrap_or(after);
    if digit_at(after, 0) || (plural.len() < after.len() && digit_at(plural, 0)) {
        return true;
    }
    matches!(after.as_bytes().first(), Some(b' ' | b'-' | b'_')) && digit_at(after, 1)
}

/// Whether the words before it point at one work session among others ("this",
/// "the previous", "the other").
fn is_pointed_at(before: &str) -> bool {
    let before = before.trim_end_matches(' ');
    POINTERS.iter().any(|word| {
        before.ends_with(word)
            && before[..before.len() - word.len()]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

fn starts_with_word(text: &str, word: &str) -> bool {
    text.starts_with(word)
        && text[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric())
}

fn floor_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// Lower case, comment markers dropped at the start of each line, every run
/// of whitespace one space.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = line
            .trim_start()
            .trim_start_matches(['/', '!', '#', '*', '>', '-'])
            .trim_start();
        for word in line.split_whitespace() {
            out.push(' ');
            out.push_str(&word.to_lowercase());
        }
    }
    out
}

fn text_files(root: &Path, path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = fs::read_dir(path) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for entry in entries {
            text_files(root, &entry, files);
        }
    } else if path.is_file() && path.strip_prefix(root).ok() != Some(Path::new(SELF)) {
        files.push(path.to_path_buf());
    }
}

#[test]
fn no_text_file_names_a_work_session() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for name in ROOTS {
        text_files(root, &root.join(name), &mut files);
    }
    assert!(
        files.len() > 50,
        "the scan found only {} files",
        files.len()
    );
    let mut report = Vec::new();
    for file in &files {
        // Binary files are not text; skip them.
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        for phrase in offences(&text) {
            let name = file.strip_prefix(root).unwrap_or(file).display();
            report.push(format!("{name}: …{phrase}…"));
        }
    }
    assert!(
        report.is_empty(),
        "work-session wording (describe the software instead):\n{}",
        report.join("\n")
    );
}

#[test]
fn the_matcher_finds_the_wording_and_spares_the_protocol_session() {
    for bad in [
        "figures of s§ 4",
        "the s§-3 build",
        "S§ 5's search",
        "s§4",
        "as in s§s 2 and 3",
        "measured this s§",
        "the previous\n// s§'s code",
        "load from the other s§s",
        "at the s§'s end",
        "README: s§ 5 against s§ 4",
    ] {
        // Spelled with a placeholder, so that this file does not itself
        // hold the wording it refuses.
        let bad = bad.replace('§', "ession");
        assert!(!offences(&bad).is_empty(), "not found: {bad:?}");
    }
    for good in [
        "the session owns the game",
        "src/protocol/session/mod.rs",
        "the session's board",
        "let mut session = Session::new();",
        "a protocol session over 200 lines",
        "sessions with 3 engines",
        "two sessions with the real search play each other",
        "poss§ 4",
    ] {
        let good = good.replace('§', "ession");
        assert!(offences(&good).is_empty(), "refused: {good:?}");
    }
}
