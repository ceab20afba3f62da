//! The engine behind the board: the protocol's own `Searcher`, in this
//! process, on a worker thread. Jobs go in, progress and answers come back on
//! a channel, each tagged with its job's number so that an answer to a job
//! given up (undo, new game) is recognised and dropped.

use crate::board::{Board, Pos};
use crate::search::swap2::{self, Swap2Decision};
use crate::search::{
    new_searcher, EngineOptions, IterationInfo, Limits, SearchEvent, SearchResult,
};
use crate::tools::analyze::{review, MoveReview};
use crate::tools::records::RecordedMove;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

/// Memory for the engine's tables: enough for a game, small beside a
/// tournament engine's.
const MEMORY_BYTES: u64 = 128 << 20;

pub enum Job {
    /// The best move of `board` (a move for the engine, or a hint).
    Search(Board, Limits),
    /// A swap2 decision on the opening stones of `board`.
    Swap2(Board, Limits),
    /// Every move of a game reviewed at a node budget.
    Review(Board, Vec<Pos>, u64),
}

pub enum Answer {
    Iteration(IterationInfo),
    Searched(SearchResult),
    Swap2(Swap2Decision),
    Reviewed(Result<Vec<MoveReview>, String>),
}

/// The worker thread's handle.
pub struct Engine {
    jobs: Sender<(u64, Job, Arc<AtomicBool>)>,
    answers: Receiver<(u64, Answer)>,
    /// The current job's stop flag (each job has its own, so that a job
    /// given up stays stopped while the next one starts).
    stop: Arc<AtomicBool>,
    next_id: u64,
    /// The job whose answers count, if one runs.
    current: Option<u64>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        let (jobs, job_queue) = channel::<(u64, Job, Arc<AtomicBool>)>();
        let (answer_sink, answers) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        std::thread::spawn(move || {
            let mut searcher = new_searcher();
            searcher.configure(&EngineOptions {
                memory_bytes: MEMORY_BYTES,
                threads: 1,
            });
            for (id, job, stop) in job_queue {
                let send = |answer| answer_sink.send((id, answer)).is_ok();
                let answer = match job {
                    Job::Search(board, limits) => {
                        let result = searcher.search(&board, &limits, &stop, &mut |event| {
                            if let SearchEvent::Iteration(info) = event {
                                send(Answer::Iteration(info.clone()));
                            }
                        });
                        Answer::Searched(result)
                    }
                    Job::Swap2(board, limits) => {
                        Answer::Swap2(swap2::decide(searcher.as_mut(), &board, &limits, &stop))
                    }
                    Job::Review(board, moves, nodes) => {
                        let moves: Vec<RecordedMove> = moves
                            .into_iter()
                            .map(|pos| RecordedMove {
                                pos,
                                think_ms: None,
                            })
                            .collect();
                        Answer::Reviewed(review(searcher.as_mut(), board, &moves, nodes))
                    }
                };
                if !send(answer) {
                    break;
                }
            }
        });
        Engine {
            jobs,
            answers,
            stop,
            next_id: 0,
            current: None,
        }
    }

    pub fn is_busy(&self) -> bool {
        self.current.is_some()
    }

    /// Starts a job; the one running, if any, is given up first.
    pub fn start(&mut self, job: Job) {
        self.abandon();
        self.stop = Arc::new(AtomicBool::new(false));
        self.next_id += 1;
        self.current = Some(self.next_id);
        let _ = self.jobs.send((self.next_id, job, Arc::clone(&self.stop)));
    }

    /// Asks the running search to answer now with its best move so far.
    pub fn hurry(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Gives the running job up: its answers will be dropped.
    pub fn abandon(&mut self) {
        if self.current.take().is_some() {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The next answer of the current job, waiting for it if `wait`.
    pub fn next_answer(&mut self, wait: bool) -> Option<Answer> {
        loop {
            let current = self.current?;
            let (id, answer) = if wait {
                self.answers.recv().ok()?
            } else {
                self.answers.try_recv().ok()?
            };
            if id != current {
                continue;
            }
            if !matches!(answer, Answer::Iteration(_)) {
                self.current = None;
            }
            return Some(answer);
        }
    }
}
