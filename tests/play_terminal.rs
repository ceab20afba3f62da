//! `wuzi-play` in a real terminal, driven through tmux: a renju game against
//! the engine, a move, undo, save and quit. Skipped (with a note) where tmux
//! is missing. The engine searches a fixed node budget, and every wait polls
//! the screen for what must appear, so only a much slower machine than
//! needed could time it out.

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> Option<String> {
    let output = Command::new("tmux").args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Ends the test's own tmux server however the test ends.
struct Session(String);

impl Drop for Session {
    fn drop(&mut self) {
        let _ = tmux(&["-L", &self.0, "kill-server"]);
    }
}

#[test]
fn a_renju_game_in_tmux() {
    if tmux(&["-V"]).is_none() {
        eprintln!("tmux is not installed: the terminal smoke test is skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("wuzi-play-tmux-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.sgf");
    let name = format!("wuzi-play-test-{}", std::process::id());
    let command = format!(
        "{} --rule renju --nodes 2000",
        env!("CARGO_BIN_EXE_wuzi-play")
    );
    // A private server socket (-L) keeps the test off any tmux the user runs.
    let started = Command::new("tmux")
        .args([
            "-L",
            &name,
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            "120",
            "-y",
            "40",
            &command,
        ])
        .status()
        .unwrap();
    assert!(started.success());
    let session = Session(name.clone());
    let send = |keys: &[&str]| {
        let mut args = vec!["-L", &name, "send-keys", "-t", &name];
        args.extend_from_slice(keys);
        assert!(tmux(&args).is_some());
    };
    let wait = |needle: &str| {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen =
                tmux(&["-L", &name, "capture-pane", "-p", "-t", &name]).unwrap_or_default();
            if screen.contains(needle) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "'{needle}' never showed:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let first = wait("renju 15x15  Black: you  White: wuzi");
    assert!(first.contains("    a  b  c  d  e  f  g  h"), "{first}");
    // The cursor starts on the centre: Enter plays h8.
    send(&["Enter"]);
    let answered = wait("the engine plays");
    assert!(
        answered.contains(" 8  .  .  .  .  .  .  .  X"),
        "{answered}"
    );
    assert!(answered.contains("[O]"), "{answered}");
    assert!(
        answered.contains("depth "),
        "the search info shows:\n{answered}"
    );
    send(&[&format!("save {}", saved.display()), "Enter"]);
    wait("saved 2 moves");
    send(&["undo", "Enter"]);
    let undone = wait("took back 2 stones");
    assert!(
        !undone.contains("[O]") && !undone.contains(" X "),
        "{undone}"
    );
    send(&["quit", "Enter"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while tmux(&["-L", &name, "has-session", "-t", &name]).is_some() {
        assert!(Instant::now() < deadline, "wuzi-play did not quit");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(session);
    let sgf = std::fs::read_to_string(&saved).unwrap();
    assert!(sgf.contains("RU[4]") && sgf.contains(";B[hh]"), "{sgf}");
    std::fs::remove_dir_all(&dir).unwrap();
}
