//! The session driven without I/O: replies, errors, settings and limits.

use super::super::block::Assembler;
use super::settings::QUICK_MOVE;
use super::*;
use crate::board::{Cell, Color};
use crate::protocol::command::Info;
use crate::search::{OnePlySearcher, Searcher};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Drives a session synchronously with the one-ply searcher
/// (instant and deterministic) and returns the rendered replies.
struct Harness {
    session: Session,
    assembler: Assembler,
    searcher: Box<dyn Searcher>,
}

impl Harness {
    fn new() -> Harness {
        Harness {
            session: Session::new(),
            assembler: Assembler::default(),
            searcher: Box::new(OnePlySearcher),
        }
    }

    fn send(&mut self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in text.lines() {
            for parsed in self.assembler.feed(line) {
                let effects = match parsed {
                    Ok(command) => self.session.apply(command, Instant::now()),
                    Err(e) => Session::reject(&e),
                };
                self.run(effects, &mut out);
            }
        }
        out
    }

    fn run(&mut self, effects: Vec<Effect>, out: &mut Vec<String>) {
        for effect in effects {
            match effect {
                Effect::Reply(r) => out.push(r.render()),
                Effect::Think(think) => {
                    let result = self.searcher.search(
                        &think.board,
                        &think.limits,
                        &AtomicBool::new(false),
                        &mut |_| {},
                    );
                    let more = self
                        .session
                        .finish(Thought::Move(result.best_move), Instant::now());
                    self.run(more, out);
                }
                Effect::Configure(_) | Effect::ClearHash | Effect::Exit => {}
            }
        }
    }

    fn board(&self) -> &Board {
        self.session.board().expect("a game")
    }
}

#[test]
fn start_begin_plays_the_centre_and_turn_answers() {
    let mut h = Harness::new();
    assert_eq!(h.send("START 15"), ["OK"]);
    assert_eq!(h.send("BEGIN"), ["7,7"]);
    let reply = h.send("TURN 8,8");
    assert_eq!(reply.len(), 1);
    assert_eq!(h.board().stone_count(), 3);
}

#[test]
fn errors_leave_the_game_unchanged() {
    let mut h = Harness::new();
    h.send("START 15\nBEGIN");
    let before = format!("{:?}", h.board());
    for bad in [
        "TURN 7,7",
        "TURN 15,0",
        "TURN -1,3",
        "BEGIN",
        "START 4",
        "START 33",
        "RECTSTART 40,10",
        "TAKEBACK 0,0",
        "PLAY 7,7",
        "BOARD\n1,1,1\n2,2,x\nDONE",
        "BOARD\n1,1,1\n1,1,2\nDONE",
        "BOARD\n1,1,1\n2,2,1\nDONE",
        "SWAP2BOARD\n1,1\nDONE",
        "YXNBEST 0",
    ] {
        let replies = h.send(bad);
        assert!(
            replies.iter().all(|r| r.starts_with("ERROR ")),
            "{bad:?} -> {replies:?}"
        );
        assert_eq!(
            format!("{:?}", h.board()),
            before,
            "{bad:?} changed the board"
        );
    }
}

#[test]
fn board_colours_come_from_the_counts() {
    let mut h = Harness::new();
    h.send("START 15");
    // The opponent has one stone more, so the opponent is Black, even
    // though our stone is listed first.
    h.send("YXBOARD\n7,7,1\n8,8,2\n9,9,2\nDONE");
    assert_eq!(h.board().cell(Pos::new(7, 7)), Cell::Stone(Color::White));
    assert_eq!(h.board().cell(Pos::new(8, 8)), Cell::Stone(Color::Black));
    assert_eq!(h.board().side_to_move(), Color::White);
    h.send("YXBOARD\n7,7,2\n8,8,1\nDONE");
    assert_eq!(h.board().cell(Pos::new(8, 8)), Cell::Stone(Color::Black));
    assert_eq!(h.board().side_to_move(), Color::Black);
}

#[test]
fn an_irregular_yxboard_makes_the_larger_side_black() {
    let mut h = Harness::new();
    h.send("START 15");
    // Three stones of field 1 against none: only Black can have them.
    assert_eq!(
        h.send("YXBOARD\n7,7,1\n8,8,1\n9,9,1\nDONE"),
        Vec::<String>::new()
    );
    assert_eq!(h.board().cell(Pos::new(9, 9)), Cell::Stone(Color::Black));
    // The same stones as field 2.
    h.send("YXBOARD\n7,7,2\n8,8,2\n9,9,2\nDONE");
    assert_eq!(h.board().cell(Pos::new(9, 9)), Cell::Stone(Color::Black));
    // Black (field 1) with one stone more than White.
    h.send("YXBOARD\n7,7,1\n8,8,1\n9,9,2\nDONE");
    assert_eq!(h.board().cell(Pos::new(7, 7)), Cell::Stone(Color::Black));
    assert_eq!(h.board().cell(Pos::new(9, 9)), Cell::Stone(Color::White));
}

#[test]
fn an_irregular_board_is_refused_because_we_must_move() {
    let mut h = Harness::new();
    h.send("START 15");
    let replies = h.send("BOARD\n7,7,1\n8,8,1\n9,9,1\nDONE");
    assert_eq!(replies.len(), 1);
    assert!(replies[0].starts_with("ERROR "), "{replies:?}");
    assert_eq!(h.board().stone_count(), 0);
}

#[test]
fn showforbid_lists_black_points_whoever_is_to_move() {
    let mut h = Harness::new();
    h.send("START 15");
    h.send("INFO rule 4");
    // . X X + .   on row 8, and the same vertically through 7,8: 7,8 is
    // a double three for Black. White has one stone more than needed
    // for Black to be on turn.
    h.send("YXBOARD\n5,8,2\n6,8,2\n7,9,2\n7,10,2\n0,0,1\n14,14,1\n0,14,1\nDONE");
    assert_eq!(h.board().side_to_move(), Color::White);
    assert_eq!(h.send("YXSHOWFORBID"), ["FORBID 0708."]);
}

#[test]
fn an_empty_board_means_we_move_first() {
    let mut h = Harness::new();
    h.send("START 15");
    assert_eq!(h.send("BOARD\nDONE"), ["7,7"]);
}

#[test]
fn field_three_is_a_wall() {
    let mut h = Harness::new();
    h.send("START 15");
    h.send("YXBOARD\n7,7,3\nDONE");
    assert_eq!(h.board().cell(Pos::new(7, 7)), Cell::Wall);
    assert_eq!(h.board().stone_count(), 0);
}

#[test]
fn the_one_ply_searcher_takes_a_five_and_blocks_a_four() {
    // . X X X X .     we are X (field 1), to move: take the five.
    let mut h = Harness::new();
    h.send("START 15");
    let take = h.send("BOARD\n1,0,1\n1,5,2\n2,0,1\n2,5,2\n3,0,1\n3,5,2\n4,0,1\n4,5,2\nDONE");
    assert!(take == ["0,0"] || take == ["5,0"], "{take:?}");
    // The opponent's four on row 5 must be blocked when we have none.
    let block = h.send("BOARD\n1,5,2\n9,9,1\n2,5,2\n9,11,1\n3,5,2\n12,12,1\n4,5,2\nDONE");
    assert!(block == ["0,5"] || block == ["5,5"], "{block:?}");
}

#[test]
fn takeback_removes_the_named_stone() {
    let mut h = Harness::new();
    h.send("START 15\nBEGIN\nTURN 8,8");
    let last = h.board().last_move().unwrap();
    assert_eq!(h.send(&format!("TAKEBACK {:?}", last)), ["OK"]);
    assert_eq!(h.send("TAKEBACK 8,8"), ["OK"]);
    assert_eq!(h.board().history(), &[Pos::new(7, 7)]);
    assert!(h.send("TAKEBACK 8,8")[0].starts_with("ERROR "));
    // A stone that is not the last one is removed where it stands.
    h.send("TURN 8,8");
    assert_eq!(h.send("TAKEBACK 7,7"), ["OK"]);
    assert!(h.board().is_empty(Pos::new(7, 7)));
}

#[test]
fn restart_keeps_size_and_rule() {
    let mut h = Harness::new();
    h.send("RECTSTART 20,12\nINFO rule 4\nBEGIN");
    assert_eq!(h.send("RESTART"), ["OK"]);
    assert_eq!((h.board().width(), h.board().height()), (20, 12));
    assert_eq!(h.board().rule(), Rule::Renju);
    assert_eq!(h.board().stone_count(), 0);
}

#[test]
fn start_is_idempotent() {
    let mut h = Harness::new();
    for _ in 0..3 {
        assert_eq!(h.send("start 15"), ["OK"]);
        assert_eq!(h.send("begin"), ["7,7"]);
    }
}

#[test]
fn rule_codes() {
    assert_eq!(rule_from_code(0), (Rule::Freestyle, None));
    assert_eq!(rule_from_code(1), (Rule::Standard, None));
    assert_eq!(rule_from_code(2), (Rule::Renju, None));
    assert_eq!(rule_from_code(4), (Rule::Renju, None));
    assert_eq!(rule_from_code(8), (Rule::Caro, None));
    assert_eq!(rule_from_code(9), (Rule::CaroExact, None));
    assert_eq!(rule_from_code(3).0, Rule::Standard);
    assert!(rule_from_code(3).1.is_some());
    assert_eq!(rule_from_code(6).0, Rule::Renju);
    assert_eq!(rule_from_code(-7).0, Rule::Freestyle);
}

#[test]
fn an_unsupported_rule_is_announced() {
    let mut h = Harness::new();
    let replies = h.send("INFO rule 3");
    assert_eq!(replies.len(), 1);
    assert!(replies[0].starts_with("MESSAGE rule 3 "), "{replies:?}");
    assert!(h.send("INFO rule 1").is_empty());
}

#[test]
fn info_is_silent_and_sets_limits() {
    let mut s = Session::new();
    let now = Instant::now();
    for line in [
        "INFO timeout_turn 5000",
        "INFO timeout_match 100000",
        "INFO time_left 2147483647",
        "INFO max_node -1",
        "INFO max_depth 9",
        "INFO folder C:\\a b",
        "INFO who_knows 3",
    ] {
        assert!(s.apply(Command::parse(line).unwrap(), now).is_empty());
    }
    let limits = s.limits(now);
    assert_eq!(limits.nodes, None);
    assert_eq!(limits.depth, Some(9));
    let hard = limits.time.unwrap().hard;
    assert!(hard < Duration::from_millis(5000) && hard > Duration::from_millis(3000));
}

#[test]
fn timeout_turn_zero_defers_to_the_match_clock_or_plays_quickly() {
    let mut s = Session::new();
    let now = Instant::now();
    s.apply(Command::Info(Info::TimeoutTurn(0)), now);
    s.apply(Command::Info(Info::TimeoutMatch(0)), now);
    assert_eq!(s.limits(now).time.unwrap().hard, QUICK_MOVE);
    s.apply(Command::Info(Info::TimeLeft(60_000)), now);
    let hard = s.limits(now).time.unwrap().hard;
    assert!(hard > QUICK_MOVE && hard < Duration::from_millis(60_000));
    // With a node limit and no clock, the search may take its time.
    s.apply(Command::Info(Info::TimeLeft(2_147_483_647)), now);
    s.apply(Command::Info(Info::MaxNode(1000)), now);
    assert!(s.limits(now).time.is_none());
}

#[test]
fn memory_settings_reach_the_searcher_once() {
    let mut s = Session::new();
    let now = Instant::now();
    s.apply(
        Command::Start {
            width: 15,
            height: 15,
        },
        now,
    );
    s.apply(Command::Info(Info::MaxMemory(0)), now);
    s.apply(Command::Info(Info::HashSize(65536)), now);
    let effects = s.apply(Command::Begin, now);
    let configured: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Configure(o) => Some(o.memory_bytes),
            _ => None,
        })
        .collect();
    assert_eq!(configured, [64 << 20]);
    s.finish(Thought::Move(None), now);
    let again = s.apply(Command::Turn(Point { x: 0, y: 0 }), now);
    assert!(!again.iter().any(|e| matches!(e, Effect::Configure(_))));
}

#[test]
fn showforbid_lists_nothing_outside_renju() {
    let mut h = Harness::new();
    h.send("START 15");
    assert_eq!(h.send("YXSHOWFORBID"), ["FORBID ."]);
}

#[test]
fn commands_before_start_are_errors() {
    let mut h = Harness::new();
    for line in ["BEGIN", "TURN 1,1", "RESTART", "TAKEBACK 1,1", "PLAY 1,1"] {
        let replies = h.send(line);
        assert!(replies[0].starts_with("ERROR "), "{line} -> {replies:?}");
    }
    assert_eq!(h.send("ABOUT").len(), 1);
}

#[test]
fn blocked_points_are_excluded_while_another_move_exists() {
    let mut s = Session::new();
    let now = Instant::now();
    s.apply(
        Command::Start {
            width: 5,
            height: 5,
        },
        now,
    );
    let all: Vec<Point> = (0..5)
        .flat_map(|y| (0..5).map(move |x| Point { x, y }))
        .collect();
    s.apply(Command::Block(all[..24].to_vec()), now);
    let excluded = |s: &mut Session| match s.apply(Command::Begin, now).pop() {
        Some(Effect::Think(think)) => think.limits.excluded.len(),
        other => panic!("{other:?}"),
    };
    assert_eq!(excluded(&mut s), 24);
    s.finish(Thought::Move(None), now);
    s.apply(Command::Restart, now);
    s.apply(Command::Block(all[24..].to_vec()), now);
    assert_eq!(
        excluded(&mut s),
        0,
        "everything blocked: the block is ignored"
    );
    s.finish(Thought::Move(None), now);
    s.apply(Command::Restart, now);
    s.apply(Command::BlockUndo(all[..10].to_vec()), now);
    assert_eq!(excluded(&mut s), 15);
}

#[test]
fn yixin_swap2_answers_are_messages() {
    let render = |step, decision| -> Vec<String> {
        yx_swap2_replies(step, decision)
            .into_iter()
            .map(|e| match e {
                Effect::Reply(r) => r.render(),
                other => panic!("{other:?}"),
            })
            .collect()
    };
    let (a, b, c) = (Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 8));
    assert_eq!(
        render(1, Swap2Decision::PlaceThree([a, b, c])),
        [
            "MESSAGE SWAP2 MOVE1 7 7",
            "MESSAGE SWAP2 MOVE2 8 6",
            "MESSAGE SWAP2 MOVE3 9 8"
        ]
    );
    assert_eq!(render(2, Swap2Decision::Swap), ["MESSAGE SWAP2 SWAP1 YES"]);
    assert_eq!(
        render(2, Swap2Decision::Move(a)),
        ["MESSAGE SWAP2 SWAP1 NO"]
    );
    assert_eq!(
        render(2, Swap2Decision::TwoMoves(a, b)),
        ["MESSAGE SWAP2 MOVE4 7 7", "MESSAGE SWAP2 MOVE5 8 6"]
    );
    assert_eq!(render(3, Swap2Decision::Swap), ["MESSAGE SWAP2 SWAP2 YES"]);
    assert_eq!(
        render(3, Swap2Decision::Move(a)),
        ["MESSAGE SWAP2 SWAP2 NO"]
    );
}

#[test]
fn geometry_is_a_setting_that_outlives_games() {
    let mut h = Harness::new();
    assert!(h.send("INFO geometry hex").is_empty());
    h.send("START 15");
    assert_eq!(h.board().geometry(), Geometry::Hex);
    h.send("INFO rule 4\nBEGIN\nRESTART");
    assert_eq!(h.board().geometry(), Geometry::Hex);
    assert_eq!(h.board().rule(), Rule::Renju);
    h.send("RECTSTART 20,12\nYXBOARD\n1,1,1\nDONE");
    assert_eq!(h.board().geometry(), Geometry::Hex);
    h.send("INFO geometry square\nSTART 15");
    assert_eq!(h.board().geometry(), Geometry::Square);
}

#[test]
fn geometry_set_mid_game_keeps_the_stones() {
    let mut h = Harness::new();
    h.send("START 15\nBEGIN\nTURN 8,8");
    let history = h.board().history().to_vec();
    assert_eq!(history.len(), 3);
    h.send("INFO geometry hex");
    assert_eq!(h.board().geometry(), Geometry::Hex);
    assert_eq!(h.board().history(), &history[..]);
    assert_eq!(h.board().side_to_move(), Color::White);
}

#[test]
fn an_unknown_geometry_is_a_message_and_changes_nothing() {
    let mut h = Harness::new();
    h.send("INFO geometry hex\nSTART 15");
    let replies = h.send("INFO geometry triangle");
    assert_eq!(replies.len(), 1);
    assert!(
        replies[0].starts_with("MESSAGE INFO ignored: geometry"),
        "{replies:?}"
    );
    assert_eq!(h.board().geometry(), Geometry::Hex);
}

#[test]
fn hex_lines_decide_wins_and_forbidden_points() {
    // Black (field 1) on 7,7's row and on the square diagonal through
    // it: two threes on a square board, one on the hex board, whose
    // lines are the row, the column and the rising diagonal (1,-1).
    let mut h = Harness::new();
    h.send("INFO rule 4\nSTART 15");
    h.send("YXBOARD\n5,7,1\n6,7,1\n8,8,1\n9,9,1\n0,0,2\n14,0,2\n0,14,2\nDONE");
    assert_eq!(h.send("YXSHOWFORBID"), ["FORBID 0707."]);
    h.send("INFO geometry hex");
    assert_eq!(h.send("YXSHOWFORBID"), ["FORBID ."]);
    // The rising diagonal is a hex line: the same shape along it is a
    // double three again.
    h.send("YXBOARD\n5,7,1\n6,7,1\n8,6,1\n9,5,1\n0,0,2\n14,0,2\n0,14,2\nDONE");
    assert_eq!(h.send("YXSHOWFORBID"), ["FORBID 0707."]);
}

#[test]
fn pv_notation_follows_yixin_board_once_it_introduces_itself() {
    let mut s = Session::new();
    let now = Instant::now();
    let notation = |s: &mut Session| {
        let notation = match s.apply(Command::Begin, now).pop() {
            Some(Effect::Think(think)) => think.detail.notation,
            other => panic!("{other:?}"),
        };
        s.finish(Thought::Move(None), now);
        s.apply(Command::Restart, now);
        notation
    };
    s.apply(
        Command::Start {
            width: 15,
            height: 15,
        },
        now,
    );
    assert_eq!(notation(&mut s), Notation::Protocol);
    s.apply(Command::ShowInfo, now);
    assert_eq!(notation(&mut s), Notation::YixinBoard { rows: 15 });
}

#[test]
fn play_echoes_the_move() {
    let mut h = Harness::new();
    h.send("START 15");
    assert_eq!(h.send("PLAY 3,4"), ["3,4"]);
    assert_eq!(h.board().cell(Pos::new(3, 4)), Cell::Stone(Color::Black));
}

#[test]
fn caution_factor_sets_the_candidate_range_of_later_searches() {
    let range_of = |effects: Vec<Effect>| {
        effects.into_iter().find_map(|e| match e {
            Effect::Think(think) => Some(think.candidate_range),
            _ => None,
        })
    };
    let mut s = Session::new();
    let now = Instant::now();
    let start = Command::Start {
        width: 15,
        height: 15,
    };
    s.apply(start.clone(), now);
    assert_eq!(
        range_of(s.apply(Command::Begin, now)),
        Some(CandidateRange::Square2),
        "the default is the search's usual range"
    );
    s.finish(Thought::Move(None), now);
    s.apply(Command::Info(Info::CautionFactor(4)), now);
    s.apply(start, now);
    assert_eq!(
        range_of(s.apply(Command::Begin, now)),
        Some(CandidateRange::Square4)
    );
}

#[test]
fn pondering_is_asked_for_only_when_on_and_the_reply_is_possible() {
    let mut s = Session::new();
    let now = Instant::now();
    s.apply(
        Command::Start {
            width: 15,
            height: 15,
        },
        now,
    );
    s.apply(Command::Begin, now);
    s.finish(Thought::Move(Some(Pos::new(7, 7))), now);
    let reply = Pos::new(8, 8);
    assert!(s.ponder_request(reply).is_none(), "off by default");
    s.apply(Command::Info(Info::Pondering(1)), now);
    s.apply(Command::Info(Info::MaxDepth(6)), now);
    let ponder = s.ponder_request(reply).expect("on");
    assert_eq!(ponder.task, Task::Ponder);
    assert_eq!(ponder.board.last_move(), Some(reply));
    assert!(ponder.limits.time.is_none());
    assert_eq!(ponder.limits.depth, Some(6));
    assert!(
        !s.is_thinking(),
        "a ponder is not a request the session waits for"
    );
    assert!(s.ponder_request(Pos::new(7, 7)).is_none(), "taken point");
}
