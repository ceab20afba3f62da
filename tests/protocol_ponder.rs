//! Pondering (`INFO pondering 1`): after our move the engine thinks on the
//! position after the reply its search expects, silently. Under node and
//! depth limits a ponder that finishes answers that reply at once, with no
//! search (`MESSAGE ponder hit …` and no `MESSAGE depth` lines); any other
//! reply is searched as usual; with pondering off nothing changes. Nothing
//! here measures time: the waits only give the ponder room to finish, and
//! a slower machine gets a longer wait before anything fails.

mod protocol_support;

use protocol_support::EngineProcess;
use std::time::Duration;

/// Reads lines until a move line (`x,y`); returns all of them.
fn until_move(engine: &EngineProcess) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = engine
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("a move within 20 s");
        let is_move = line.split(',').count() == 2 && !line.contains(' ');
        lines.push(line);
        if is_move {
            return lines;
        }
    }
}

/// The second move of the last `MESSAGE depth … | pv a b …` line, as `x,y`
/// (pv notation: letter = x, number = y + 1).
fn expected_reply(lines: &[String]) -> Option<String> {
    let pv = lines.iter().rev().find_map(|l| l.split("| pv ").nth(1))?;
    let reply = pv.split_whitespace().nth(1)?;
    let x = reply.as_bytes()[0] - b'a';
    let y: u32 = reply[1..].parse().ok()?;
    Some(format!("{x},{}", y - 1))
}

/// Plays BEGIN and TURN 8,8 with pondering on or off, waits, then answers
/// with `reply` (or the expected reply); returns the lines of that answer.
fn answer_after_waiting(pondering: bool, reply: Option<&str>) -> Vec<String> {
    let mut engine = EngineProcess::spawn(&[]);
    let setup = format!(
        "START 15\nINFO pondering {}\nINFO max_depth 8\nBEGIN\n",
        u8::from(pondering)
    );
    engine.send(&setup).unwrap();
    assert_eq!(
        engine.lines.recv_timeout(Duration::from_secs(10)).unwrap(),
        "OK"
    );
    until_move(&engine);
    engine.send("TURN 8,8\n").unwrap();
    let ours = until_move(&engine);
    let expected = expected_reply(&ours).expect("the search shows a PV with a reply");
    // While it ponders, the engine says nothing at all.
    let stray = engine.lines.recv_timeout(Duration::from_millis(1500));
    assert!(stray.is_err(), "stray output while pondering: {stray:?}");
    let reply = reply.map_or(expected, str::to_string);
    engine.send(&format!("TURN {reply}\n")).unwrap();
    let answer = until_move(&engine);
    let stderr = engine.finish();
    assert!(stderr.is_empty(), "{stderr}");
    answer
}

fn searched(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("MESSAGE depth "))
}

#[test]
fn the_expected_reply_is_answered_from_the_ponder() {
    let answer = answer_after_waiting(true, None);
    assert!(
        answer
            .contains(&"MESSAGE ponder hit: the move was found on the opponent's time".to_string()),
        "{answer:?}"
    );
    assert!(!searched(&answer), "no new search: {answer:?}");
}

#[test]
fn without_pondering_the_expected_reply_is_searched() {
    let answer = answer_after_waiting(false, None);
    assert!(searched(&answer), "{answer:?}");
    assert!(!answer.iter().any(|l| l.contains("ponder")), "{answer:?}");
}

#[test]
fn another_reply_is_searched_afresh() {
    let answer = answer_after_waiting(true, Some("0,0"));
    assert!(searched(&answer), "{answer:?}");
    assert!(!answer.iter().any(|l| l.contains("ponder")), "{answer:?}");
}

#[test]
fn a_command_stops_the_ponder_at_once_and_is_answered() {
    let mut engine = EngineProcess::spawn(&[]);
    // No node or depth limit: the ponder runs until a command comes.
    engine
        .send("START 15\nINFO pondering 1\nINFO timeout_turn 300\nBEGIN\nTURN 8,8\n")
        .unwrap();
    until_move(&engine);
    until_move(&engine);
    engine.send("ABOUT\n").unwrap();
    let about = engine.lines.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(about.starts_with("name=\"wuzi\""), "{about}");
    engine.send("TURN 0,0\n").unwrap();
    let answer = until_move(&engine);
    assert!(!answer.iter().any(|l| l.contains("ponder")), "{answer:?}");
    engine.send("END\n").unwrap();
    assert!(engine.exits_within(Duration::from_secs(2)));
    assert!(engine.finish().is_empty());
}
