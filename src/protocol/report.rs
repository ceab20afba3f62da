//! Search progress → protocol lines. Pure formatting: one `MESSAGE` per
//! completed iteration, and, when the GUI asked for them (`show_detail`),
//! Yixin-Board's realtime hints and structured `INFO PV` blocks.

use super::reply::{move_text, Reply};
use super::session::Detail;
use crate::board::Pos;
use crate::search::{IterationInfo, Score, SearchEvent, MATE, MATE_BOUND};
use std::time::Duration;

/// Realtime hints start only after this much thinking, so that quick moves
/// do not flood the GUI (Rapfi waits 200 ms too).
const REALTIME_AFTER: Duration = Duration::from_millis(200);

/// A score as text: centi-stones, or `+M<plies>` / `-M<plies>` for a proven
/// win or loss that many plies away.
pub fn score_text(score: Score) -> String {
    if score > MATE_BOUND {
        format!("+M{}", MATE - score)
    } else if score < -MATE_BOUND {
        format!("-M{}", MATE + score)
    } else {
        score.to_string()
    }
}

/// How a principal variation is written for people (`h8 i9 …`).
///
/// The protocol's `x,y` is (column, row from the top) for Piskvork,
/// GomocupJudge and c-gomoku-cli, but (row, column) for Yixin-Board, whose
/// board labels columns with letters and rows with numbers counted from the
/// bottom (as Rapfi's `flipY_X` conversion for Yixin-Board assumes). Written
/// in the protocol frame, a PV would show transposed there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// Letter = `x` (`a` = 0), number = `y + 1`: the "pos" notation of
    /// GomocupJudge and c-gomoku-cli.
    #[default]
    Protocol,
    /// The protocol's `a,b` is (row, column) on a board of `rows` rows:
    /// letter = `b`, number = `rows - a`.
    YixinBoard { rows: usize },
}

impl Notation {
    /// One move; a letter past `z` falls back to the protocol's `x,y`.
    pub fn write(self, pos: Pos) -> String {
        let (letter, number) = match self {
            Notation::Protocol => (pos.x(), pos.y() + 1),
            Notation::YixinBoard { rows } => (pos.y(), rows.saturating_sub(pos.x())),
        };
        match u8::try_from(letter) {
            Ok(letter) if letter < 26 => format!("{}{number}", (b'a' + letter) as char),
            _ => move_text(pos),
        }
    }
}

/// A principal variation in board notation, e.g. `h8 i9`.
pub fn pv_text(pv: &[Pos], notation: Notation) -> String {
    pv.iter()
        .map(|&p| notation.write(p))
        .collect::<Vec<_>>()
        .join(" ")
}

fn speed(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    (nodes as u128 * 1_000_000 / micros) as u64
}

/// The `MESSAGE` line for one completed iteration.
pub fn iteration_message(info: &IterationInfo, notation: Notation) -> Reply {
    Reply::Message(format!(
        "depth {}-{} | eval {} | nodes {} | speed {} n/s | time {} ms | pv {}",
        info.depth,
        info.seldepth.max(info.depth),
        score_text(info.score),
        info.nodes,
        speed(info.nodes, info.elapsed),
        info.elapsed.as_millis(),
        pv_text(&info.pv, notation)
    ))
}

/// One line of a multi-PV answer (`YXNBEST`), `index` counted from 1.
pub fn nbest_message(
    index: usize,
    count: usize,
    score: Score,
    depth: u32,
    pv: &[Pos],
    notation: Notation,
) -> Reply {
    Reply::Message(format!(
        "nbest {index}/{count} | eval {} | depth {depth} | pv {}",
        score_text(score),
        pv_text(pv, notation)
    ))
}

/// Yixin-Board's structured block for one PV line (`index` from 0).
pub fn pv_block(index: usize, count: usize, info: &IterationInfo) -> Vec<Reply> {
    let detail = |key: &'static str, value: String| Reply::Detail { key, value };
    let bestline = info
        .pv
        .iter()
        .map(|&p| move_text(p))
        .collect::<Vec<_>>()
        .join(" ");
    vec![
        detail("PV", index.to_string()),
        detail("NUMPV", count.to_string()),
        detail("DEPTH", info.depth.to_string()),
        detail("SELDEPTH", info.seldepth.max(info.depth).to_string()),
        detail("NODES", info.nodes.to_string()),
        detail("TOTALNODES", info.nodes.to_string()),
        detail("TOTALTIME", info.elapsed.as_millis().to_string()),
        detail("SPEED", speed(info.nodes, info.elapsed).to_string()),
        detail("EVAL", score_text(info.score)),
        detail("BESTLINE", bestline),
        detail("PV", "DONE".to_string()),
    ]
}

/// The lines one search event produces, `elapsed` into the search.
pub fn event_lines(event: &SearchEvent, detail: Detail, elapsed: Duration) -> Vec<Reply> {
    let realtime = detail.realtime && elapsed >= REALTIME_AFTER;
    match event {
        SearchEvent::Iteration(info) => {
            let mut lines = vec![iteration_message(info, detail.notation)];
            if realtime {
                lines.push(Reply::Message("REALTIME REFRESH".to_string()));
            }
            if detail.pv_blocks {
                lines.extend(pv_block(0, 1, info));
            }
            lines
        }
        SearchEvent::RootMove(p) if realtime => {
            vec![Reply::Message(format!("REALTIME POS {}", move_text(*p)))]
        }
        SearchEvent::BestMove(p) if realtime => {
            vec![Reply::Message(format!("REALTIME BEST {}", move_text(*p)))]
        }
        SearchEvent::RootMove(_) | SearchEvent::BestMove(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{mate_in, mated_in};

    fn info() -> IterationInfo {
        IterationInfo {
            depth: 4,
            seldepth: 9,
            score: 35,
            nodes: 2000,
            elapsed: Duration::from_millis(10),
            pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
        }
    }

    #[test]
    fn scores_show_mates_in_plies() {
        assert_eq!(score_text(35), "35");
        assert_eq!(score_text(-120), "-120");
        assert_eq!(score_text(mate_in(5)), "+M5");
        assert_eq!(score_text(mated_in(4)), "-M4");
    }

    #[test]
    fn an_iteration_is_one_message_line() {
        let text = iteration_message(&info(), Notation::Protocol).render();
        assert_eq!(
            text,
            "MESSAGE depth 4-9 | eval 35 | nodes 2000 | speed 200000 n/s | time 10 ms | pv h8 i9"
        );
    }

    #[test]
    fn yixin_board_pvs_are_written_as_its_board_is_labelled() {
        // Yixin-Board sends (row, column): "3,10" is row 3 from the top,
        // column 10, which its 15x15 board labels k12.
        let yixin = Notation::YixinBoard { rows: 15 };
        assert_eq!(yixin.write(Pos::new(3, 10)), "k12");
        assert_eq!(yixin.write(Pos::new(14, 0)), "a1");
        assert_eq!(yixin.write(Pos::new(0, 14)), "o15");
        assert_eq!(Notation::Protocol.write(Pos::new(3, 10)), "d11");
        assert_eq!(Notation::Protocol.write(Pos::new(27, 1)), "27,1");
        assert_eq!(
            iteration_message(&info(), yixin).render(),
            "MESSAGE depth 4-9 | eval 35 | nodes 2000 | speed 200000 n/s | time 10 ms | pv h8 i7"
        );
    }

    #[test]
    fn detail_blocks_only_when_asked() {
        let event = SearchEvent::Iteration(info());
        let plain = event_lines(&event, Detail::default(), Duration::ZERO);
        assert_eq!(plain.len(), 1);
        let detailed = event_lines(
            &event,
            Detail {
                realtime: false,
                pv_blocks: true,
                ..Detail::default()
            },
            Duration::ZERO,
        );
        let rendered: Vec<String> = detailed.iter().map(Reply::render).collect();
        assert_eq!(rendered[1], "INFO PV 0");
        assert!(rendered.contains(&"INFO BESTLINE 7,7 8,8".to_string()));
        assert_eq!(rendered.last().unwrap(), "INFO PV DONE");
    }

    #[test]
    fn realtime_hints_wait_for_the_search_to_run_a_while() {
        let realtime = Detail {
            realtime: true,
            pv_blocks: false,
            ..Detail::default()
        };
        let event = SearchEvent::BestMove(Pos::new(3, 4));
        assert!(event_lines(&event, realtime, Duration::from_millis(10)).is_empty());
        let lines = event_lines(&event, realtime, Duration::from_millis(500));
        assert_eq!(lines[0].render(), "MESSAGE REALTIME BEST 3,4");
    }
}
