//! Carries out a `Think` on a searcher: one search for a move, repeated
//! searches for `YXNBEST`, the swap2 decision for `SWAP2BOARD`. Progress is
//! handed out as lines to print and best-move-so-far updates; nothing here
//! touches stdin or stdout, so the command loop and the tests share it.

use super::reply::Reply;
use super::report::{event_lines, nbest_message, pv_block, pv_text, score_text};
use super::session::{Task, Think, Thought};
use crate::board::Pos;
use crate::search::{balance, swap2, IterationInfo, Limits, Score, SearchEvent, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a running search tells the command loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A line to print before the move.
    Line(Reply),
    /// The best move found so far (played if the searcher overruns).
    Best(Pos),
    /// The opponent's reply the finished search expects (its second PV
    /// move): where pondering thinks next.
    Expected(Pos),
    /// The finished search's score for the side to move and its depth
    /// (recorded in the position database when it is on).
    Searched { score: Score, depth: u32 },
}

/// Runs `request` to completion (or until `stop`), reporting through `emit`.
pub fn think(
    searcher: &mut dyn Searcher,
    request: &Think,
    stop: &AtomicBool,
    emit: &mut dyn FnMut(Progress),
) -> Thought {
    searcher.set_candidate_range(request.candidate_range);
    match request.task {
        Task::Move => {
            let (best, result) = search_once(searcher, request, &request.limits, stop, emit);
            if best.is_some() && result.depth > 0 {
                emit(Progress::Searched {
                    score: result.score,
                    depth: result.depth,
                });
            }
            if let [first, reply, ..] = result.pv[..] {
                if Some(first) == best {
                    emit(Progress::Expected(reply));
                }
            }
            Thought::Move(best)
        }
        // Thinking on the opponent's time: silent, into the shared table.
        Task::Ponder => Thought::Move(
            searcher
                .search(&request.board, &request.limits, stop, &mut |_| {})
                .best_move,
        ),
        Task::Nbest(lines) => Thought::Move(nbest(searcher, request, lines, stop, emit)),
        Task::Balance { bias, stones: 1 } => {
            let found = balance::balance_one(searcher, &request.board, &request.limits, bias, stop);
            if let Some(found) = found {
                emit(balance_line(&[found.stone], found.score, request));
                emit(Progress::Best(found.stone));
            }
            Thought::Move(found.map(|found| found.stone))
        }
        Task::Balance { bias, .. } => {
            let pair = balance::balance_two(searcher, &request.board, &request.limits, bias, stop);
            if let Some(pair) = pair {
                emit(balance_line(
                    &[pair.first, pair.second],
                    pair.score,
                    request,
                ));
            }
            Thought::Pair(pair.map(|pair| (pair.first, pair.second)))
        }
        Task::Swap2 | Task::YxSwap2(_) => Thought::Swap2(swap2::decide(
            searcher,
            &request.board,
            &request.limits,
            stop,
        )),
    }
}

/// `MESSAGE balance h8 i9 | eval e`: the balanced stones and the score the
/// side to move has after them.
fn balance_line(stones: &[Pos], score: Score, request: &Think) -> Progress {
    Progress::Line(Reply::Message(format!(
        "balance {} | eval {}",
        pv_text(stones, request.detail.notation),
        score_text(score)
    )))
}

/// One search; returns its best move and the last completed iteration.
fn search_once(
    searcher: &mut dyn Searcher,
    request: &Think,
    limits: &Limits,
    stop: &AtomicBool,
    emit: &mut dyn FnMut(Progress),
) -> (Option<Pos>, crate::search::SearchResult) {
    let started = Instant::now();
    let detail = request.detail;
    let mut report = |event: &SearchEvent| {
        for line in event_lines(event, detail, started.elapsed()) {
            emit(Progress::Line(line));
        }
        match event {
            SearchEvent::BestMove(p) => emit(Progress::Best(*p)),
            SearchEvent::Iteration(info) => {
                if let Some(&p) = info.pv.first() {
                    emit(Progress::Best(p));
                }
            }
            SearchEvent::RootMove(_) => {}
        }
    };
    let result = searcher.search(&request.board, limits, stop, &mut report);
    (result.best_move, result)
}

/// Multi-PV by repeated searches, each excluding the moves found before it.
/// Each line is reported as a `MESSAGE` (and an `INFO PV` block when asked);
/// the first line's move is the answer.
fn nbest(
    searcher: &mut dyn Searcher,
    request: &Think,
    lines: usize,
    stop: &AtomicBool,
    emit: &mut dyn FnMut(Progress),
) -> Option<Pos> {
    let mut excluded = request.limits.excluded.clone();
    let mut best = None;
    for index in 0..lines {
        let parts_left = (lines - index).min(u32::MAX as usize) as u32;
        let limits = Limits {
            time: request
                .limits
                .time
                .map(|t| t.share(parts_left, Instant::now())),
            excluded: excluded.clone(),
            ..request.limits.clone()
        };
        let started = Instant::now();
        let (Some(found), result) = search_once(searcher, request, &limits, stop, &mut |_| {})
        else {
            break;
        };
        emit(Progress::Line(nbest_message(
            index + 1,
            lines,
            result.score,
            result.depth,
            &result.pv,
            request.detail.notation,
        )));
        if request.detail.pv_blocks {
            let info = IterationInfo {
                depth: result.depth,
                seldepth: result.depth,
                score: result.score,
                nodes: result.nodes,
                elapsed: started.elapsed(),
                pv: result.pv.clone(),
            };
            for line in pv_block(index, lines, &info) {
                emit(Progress::Line(line));
            }
        }
        if best.is_none() {
            best = Some(found);
            emit(Progress::Best(found));
        }
        excluded.push(found);
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Rule};
    use crate::protocol::session::Detail;
    use crate::search::OnePlySearcher;

    #[test]
    fn nbest_reports_distinct_lines_and_plays_the_first() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        board.play(Pos::new(7, 7)).unwrap();
        let request = Think {
            task: Task::Nbest(3),
            board,
            limits: Limits::default(),
            detail: Detail::default(),
            candidate_range: Default::default(),
        };
        let mut lines = Vec::new();
        let mut bests = Vec::new();
        let thought = think(
            &mut OnePlySearcher,
            &request,
            &AtomicBool::new(false),
            &mut |p| match p {
                Progress::Line(l) => lines.push(l.render()),
                Progress::Best(b) => bests.push(b),
                Progress::Expected(_) | Progress::Searched { .. } => {}
            },
        );
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("MESSAGE nbest 1/3 "));
        let Thought::Move(Some(best)) = thought else {
            panic!("{thought:?}")
        };
        assert_eq!(bests, [best]);
        let moves: std::collections::HashSet<_> = lines
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap())
            .collect();
        assert_eq!(moves.len(), 3, "the three lines start with different moves");
    }
}
