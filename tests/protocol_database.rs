//! The position database through the engine binary, as Yixin-Board drives
//! it: edits, save on `yxsavedatabase` and at exit, reload in a new process,
//! `yxsetdatabase`, read-only mode, and hostile files (foreign, corrupt),
//! which are announced and never written. Each test runs the engine in a
//! fresh directory, since the default file lives in the working directory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the engine in `dir` on `script` (closing stdin at the end, which
/// means END) and returns its stdout lines. Stderr must stay empty.
fn run(dir: &Path, script: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.stderr.is_empty(), "{:?}", output.stderr);
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

const EDIT: &str = "START 15
INFO usedatabase 1
yxedittvddatabase 7 87 -29990 4
7,7
8,8
done
yxedittextdatabase \"first line\\nsecond\"
7,7
8,8
done
yxeditlabeldatabase 9,6 A
7,7
done
";

const QUERY: &str = "START 15
INFO usedatabase 1
yxquerydatabaseall
7,7
done
yxquerydatabaseone
7,7
6,8
done
yxquerydatabasetext
7,7
6,6
done
";

#[test]
fn edits_are_saved_at_exit_and_read_back_under_symmetry() {
    let dir = scratch("exit");
    let out = run(&dir, EDIT);
    assert_eq!(out, ["OK", "MESSAGE DATABASE ONE 119 -29990 4 3 w10"]);
    let text = std::fs::read_to_string(dir.join("wuzi.db")).unwrap();
    assert!(text.starts_with("wuzi-database 1\n"), "{text}");
    // A new process reads the file; (6,8) and (6,6) mirror (8,8).
    let out = run(&dir, QUERY);
    assert_eq!(out[0], "OK");
    assert_eq!(out[1], "MESSAGE DATABASE REFRESH");
    let children: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("MESSAGE DATABASE 8 8 "))
        .collect();
    assert_eq!(children.len(), 1, "{out:?}");
    assert!(
        children[0].starts_with("MESSAGE DATABASE 8 8 7811376 -29990 4 3 1"),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("MESSAGE DATABASE 9 6 -1 0 0 0 0 A")),
        "{out:?}"
    );
    assert!(out.contains(&"MESSAGE DATABASE DONE".to_string()));
    assert!(out.contains(&"MESSAGE DATABASE ONE 119 -29990 4 3 w10".to_string()));
    assert!(out.contains(&"MESSAGE DATABASE TEXT \"first line\\nsecond\"".to_string()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nothing_is_written_unless_the_database_is_asked_for() {
    let dir = scratch("off");
    let script = EDIT.replace("INFO usedatabase 1\n", "") + "yxsavedatabase\n";
    let out = run(&dir, &script);
    assert!(
        out.iter()
            .all(|l| l == "OK" || l.starts_with("MESSAGE Position database is off")),
        "{out:?}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn yxsetdatabase_names_another_file_and_readonly_refuses_edits() {
    let dir = scratch("named");
    let script = format!(
        "INFO database_readonly 1\n{EDIT}INFO database_readonly 0\nyxsetdatabase\nother games.db\n{}yxsavedatabase\n",
        EDIT.replace("START 15\nINFO usedatabase 1\n", "")
    );
    let out = run(&dir, &script);
    assert_eq!(
        out.iter().filter(|l| l.contains("read-only")).count(),
        3,
        "{out:?}"
    );
    assert!(
        out.last()
            .unwrap()
            .starts_with("MESSAGE Position database: saved 2 positions to other games.db"),
        "{out:?}"
    );
    assert!(dir.join("other games.db").exists());
    assert!(
        !dir.join("wuzi.db").exists(),
        "the default file was never changed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn foreign_and_corrupt_files_are_announced_and_never_written() {
    let foreign: &[u8] = b"\xFFRenLib\xFF\x03\x04 some other program's data";
    let corrupt: &[u8] = b"wuzi-database 1\n15x15\trenju\tsquare\t7.7\t-\t-\tw\tlots\t0\texact\t\n";
    for (name, bytes) in [("foreign", foreign), ("corrupt", corrupt)] {
        let dir = scratch(name);
        std::fs::write(dir.join("wuzi.db"), bytes).unwrap();
        let out = run(&dir, &format!("{EDIT}yxsavedatabase\n"));
        assert!(
            out[1].starts_with("MESSAGE Position database wuzi.db is ")
                && out[1].contains("never written"),
            "{name}: {out:?}"
        );
        assert!(
            out.last().unwrap().contains("is not saved"),
            "{name}: {out:?}"
        );
        assert_eq!(std::fs::read(dir.join("wuzi.db")).unwrap(), bytes, "{name}");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "{name}: no other file"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn bad_database_commands_are_errors_that_change_nothing() {
    let dir = scratch("errors");
    let script = "START 15
INFO usedatabase 1
yxquerydatabaseone
7,7
7,7
done
yxedittvddatabase 1 2
7,7
done
yxeditlabeldatabase 7,7 on a stone
7,7
done
yxdeletedatabaseall everything
done
yxquerydatabaseone
99,1
done
yxsavedatabase
";
    let out = run(&dir, script);
    let errors = out.iter().filter(|l| l.starts_with("ERROR ")).count();
    assert_eq!(errors, 5, "{out:?}");
    assert!(
        out.last().unwrap().contains("unchanged (0 positions)"),
        "{out:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A RenLib library built byte by byte: header, then h8 (7,7) with one
/// reply i9 (8,8) marked `W` (a win for the side that played it) and the
/// comment "main line", and a sibling reply g8 (6,7) with no mark.
fn small_library() -> Vec<u8> {
    let mut bytes = vec![0xFF];
    bytes.extend_from_slice(b"RenLib");
    bytes.extend_from_slice(&[0xFF, 3, 4]);
    bytes.resize(20, 0);
    let mv = |x: u8, y: u8| (y << 4) | (x + 1);
    bytes.extend_from_slice(&[mv(7, 7), 0x00]);
    bytes.extend_from_slice(&[mv(8, 8), 0x80 | 0x40 | 0x08 | 0x01, 0, 1]);
    bytes.extend_from_slice(b"main line\0");
    bytes.extend_from_slice(b"W\0");
    bytes.extend_from_slice(&[mv(6, 7), 0x40]);
    bytes
}

#[test]
fn a_renlib_library_is_imported_and_queried() {
    let dir = scratch("renlib");
    std::fs::write(dir.join("small.lib"), small_library()).unwrap();
    let import = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .current_dir(&dir)
        .args(["db", "import", "small.lib", "--rule", "renju"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&import.stdout).to_string();
    assert!(import.status.success(), "{said}");
    assert!(said.contains("3 positions"), "{said}");
    let out = run(
        &dir,
        "START 15\nINFO rule 4\nINFO usedatabase 1\nyxquerydatabaseall\n7,7\ndone\nyxquerydatabasetext\n7,7\n8,8\ndone\n",
    );
    let packed_w_star = (i32::from(b'w') << 8) | i32::from(b'*');
    assert!(
        out.contains(
            &format!("MESSAGE DATABASE 8 8 {packed_w_star} 0 0 0 1 ")
                .trim_end()
                .to_string()
        ),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("MESSAGE DATABASE 6 7 -1 0 0 0 0")),
        "{out:?}"
    );
    assert!(
        out.contains(&"MESSAGE DATABASE TEXT \"main line\"".to_string()),
        "{out:?}"
    );
    // A file that is not a library changes nothing.
    std::fs::write(dir.join("bad.lib"), b"not a library").unwrap();
    let before = std::fs::read(dir.join("wuzi.db")).unwrap();
    let failed = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .current_dir(&dir)
        .args(["db", "import", "bad.lib"])
        .output()
        .unwrap();
    assert!(!failed.status.success());
    assert_eq!(std::fs::read(dir.join("wuzi.db")).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn is_move(line: &str) -> bool {
    line.split(',').count() == 2 && !line.contains(' ')
}

/// Plays `script` in `dir`, keeping stdin open until `moves` moves have
/// come (end of input stops a search), then ends the engine; returns the
/// last move.
fn play(dir: &Path, script: &str, moves: usize) -> String {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut last = String::new();
    let mut seen = 0;
    for line in stdout.lines() {
        let line = line.unwrap();
        if is_move(&line) {
            last = line;
            seen += 1;
            if seen == moves {
                break;
            }
        }
    }
    drop(stdin);
    child.wait().unwrap();
    last
}

#[test]
fn searches_record_their_results_and_avoid_moves_marked_x() {
    let dir = scratch("search");
    let game = "START 15\nINFO max_depth 4\nINFO usedatabase 1\nBEGIN\nTURN 8,8\n";
    let ours = play(&dir, game, 2);
    // The position before our second move now holds the search's result.
    let out = run(
        &dir,
        "START 15\nINFO usedatabase 1\nyxquerydatabaseone\n7,7\n8,8\ndone\n",
    );
    let one = out
        .iter()
        .find(|l| l.starts_with("MESSAGE DATABASE ONE"))
        .unwrap();
    let fields: Vec<&str> = one.split(' ').collect();
    assert_eq!(fields[3], "-1", "undetermined: {one}");
    assert_eq!((fields[5], fields[6]), ("4", "3"), "depth 4, exact: {one}");
    // Marked `x` (a move not to play), our move is avoided next time.
    let mark = format!(
        "START 15\nINFO usedatabase 1\nyxedittvddatabase 1 88 0 0\n7,7\n8,8\n{ours}\ndone\n"
    );
    let out = run(&dir, &mark);
    assert!(
        out.iter()
            .any(|l| l.starts_with("MESSAGE DATABASE ONE 120 ")),
        "{out:?}"
    );
    let again = play(&dir, game, 2);
    assert_ne!(again, ours);
    std::fs::remove_dir_all(&dir).unwrap();
}
