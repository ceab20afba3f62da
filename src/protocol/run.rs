//! The command loop: the only code that reads stdin and writes stdout.
//!
//! Three threads. A reader thread reads lines and forwards them, stamped with
//! their arrival time, over a channel. A worker thread owns the searcher and
//! thinks. The main thread owns the session and the output: it applies
//! commands, prints every line (flushing each), and during a search acts only
//! on `END`, EOF and `YXSTOP`/`STOP`; every other command waits in a queue
//! until the move is out. It also watches the clock: at the hard limit it
//! raises the stop flag, and if the searcher still has not answered shortly
//! after, it plays the best move reported so far rather than lose on time.
//! With `INFO pondering 1` the worker goes on thinking after our move, on
//! the reply the search expects; every line stops that at once, nothing it
//! reports is printed, and a request it already answered takes its move.
//! Under a match clock a request for the pondered position also gets the
//! time the ponder spent credited against its target (see `credit_ponder`).

use super::block::Assembler;
use super::command::Command;
use super::reply::Reply;
use super::session::{Effect, Session, Task, Think, Thought};
use super::think::{think, Progress};
use crate::board::{Board, Pos};
use crate::search::{CandidateRange, EngineOptions, Score, Searcher, TimeBudget};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Longest line we keep; the rest of a longer line is dropped. No manager
/// line comes close, and it bounds memory on hostile input.
const MAX_LINE_BYTES: usize = 64 * 1024;
/// How long after its hard limit a searcher may take to answer before the
/// loop plays the best move reported so far. A searcher answers within a
/// millisecond of the stop flag; the grace must fit in the smallest reserve
/// the clock keeps (35 ms of a 100 ms turn), so the stand-in is still in time.
const OVERRUN_GRACE: Duration = Duration::from_millis(20);

/// What reaches the main thread.
enum Event {
    Line(String, Instant),
    Eof,
    Progress(u64, Progress),
    Done(u64, Thought),
}

/// What the worker is asked to do.
enum Job {
    Configure(EngineOptions),
    ClearHash,
    Think(u64, Box<Think>, Arc<AtomicBool>),
}

/// Why the loop ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Exit {
    /// `END` from the manager.
    End,
    /// Standard input closed.
    Eof,
}

/// Runs the protocol on `input`/`output` with `searcher` until `END` or EOF.
/// Returns without waiting for a search in progress: the caller exits the
/// process, which ends it.
pub fn run<R, W>(input: R, output: W, searcher: Box<dyn Searcher>) -> io::Result<Exit>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (events, inbox) = mpsc::channel();
    spawn_reader(input, events.clone())?;
    let jobs = spawn_worker(searcher, events)?;
    Loop {
        output,
        session: Session::new(),
        assembler: Assembler::default(),
        jobs,
        queue: VecDeque::new(),
        search: None,
        ponder: None,
        pondered: None,
        interrupted: None,
        ready: None,
        next_id: 0,
    }
    .run(inbox)
}

/// The search the worker is running.
struct Search {
    id: u64,
    task: Task,
    stop: Arc<AtomicBool>,
    /// When to raise the stop flag, and when to give up waiting.
    hard_deadline: Option<Instant>,
    best: Option<Pos>,
    /// The opponent's reply the search expects (for pondering).
    expected: Option<Pos>,
    /// The finished search's score and depth (for the position database).
    searched: Option<(Score, u32)>,
}

struct Loop<W: Write> {
    output: W,
    session: Session,
    assembler: Assembler,
    jobs: Sender<Job>,
    /// Lines that arrived during a search, with their arrival times.
    queue: VecDeque<(String, Instant)>,
    search: Option<Search>,
    /// The search pondering on the opponent's time; its reports are dropped.
    ponder: Option<Ponder>,
    /// A ponder that finished (its limits reached, not stopped): a request
    /// for exactly its position and limits takes its move at once.
    pondered: Option<(Ponder, Pos)>,
    /// The position the last ponder searched and how long it ran before a
    /// line stopped it: a request for that position is a ponder hit.
    interrupted: Option<(Board, Duration)>,
    /// An answer that needs no search (a ponder hit), handed to `on_done`
    /// before the next event.
    ready: Option<(u64, Thought)>,
    next_id: u64,
}

/// A ponder: its search id, stop flag, and what it searched.
struct Ponder {
    id: u64,
    stop: Arc<AtomicBool>,
    started: Instant,
    board: Board,
    nodes: Option<u64>,
    depth: Option<u32>,
    range: CandidateRange,
}

impl Ponder {
    /// Whether `request` asks for the search this ponder already made.
    fn answers(&self, request: &Think) -> bool {
        request.limits.nodes == self.nodes
            && request.limits.depth == self.depth
            && request.candidate_range == self.range
            && asks_for_move_on(request, &self.board)
    }
}

/// Whether `request` asks for our move on `board` (the same stones, whatever
/// order a board block listed them in), with no move excluded.
fn asks_for_move_on(request: &Think, board: &Board) -> bool {
    let (a, b) = (board, &request.board);
    request.task == Task::Move
        && request.limits.excluded.is_empty()
        && (a.width(), a.height(), a.rule(), a.geometry())
            == (b.width(), b.height(), b.rule(), b.geometry())
        && a.hash() == b.hash()
        && a.side_to_move() == b.side_to_move()
        && a.cells().all(|p| a.cell(p) == b.cell(p))
}

/// The time budget of a move whose position was pondered for `pondered`.
/// The ponder's iterations are in the shared table, so the search reaches
/// the same depth sooner. Under a match clock (`soft < hard`) the soft
/// target is cut by the time already spent, down to a quarter of itself,
/// and the time saved stays on the clock. Under a per-move limit alone time
/// not used is lost, so the budget stays whole and the search goes deeper.
fn credit_ponder(budget: TimeBudget, pondered: Duration) -> TimeBudget {
    if budget.soft >= budget.hard {
        return budget;
    }
    TimeBudget {
        soft: budget.soft.saturating_sub(pondered).max(budget.soft / 4),
        ..budget
    }
}

impl<W: Write> Loop<W> {
    fn run(mut self, inbox: Receiver<Event>) -> io::Result<Exit> {
        loop {
            let deadline = self.search.as_ref().and_then(|s| s.hard_deadline);
            let event = match (self.ready.take(), deadline) {
                (Some((id, thought)), _) => Event::Done(id, thought),
                (None, None) => inbox.recv().unwrap_or(Event::Eof),
                (None, Some(deadline)) => {
                    let wait = deadline.saturating_duration_since(Instant::now());
                    match inbox.recv_timeout(wait) {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => {
                            self.on_deadline()?;
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => Event::Eof,
                    }
                }
            };
            let exit = match event {
                Event::Line(line, at) => self.on_line(line, at)?,
                Event::Eof => Some(Exit::Eof),
                Event::Progress(id, progress) => {
                    self.on_progress(id, progress)?;
                    None
                }
                Event::Done(id, thought) => self.on_done(id, thought)?,
            };
            if let Some(exit) = exit {
                log::debug!("exit: {exit:?}");
                // The database keeps what changed; a manager that has gone
                // may no longer read what is said about it.
                for effect in self.session.shutdown() {
                    if let Effect::Reply(reply) = effect {
                        let _ = self.write(&reply);
                    }
                }
                self.output.flush()?;
                return Ok(exit);
            }
        }
    }

    fn on_line(&mut self, line: String, at: Instant) -> io::Result<Option<Exit>> {
        log::debug!("< {line}");
        // Any line ends pondering at once; a search it asks for waits on the
        // worker only until the ponder returns (a few milliseconds).
        if let Some(ponder) = &self.ponder {
            if !ponder.stop.swap(true, Ordering::Relaxed) {
                self.interrupted = Some((ponder.board.clone(), ponder.started.elapsed()));
            }
        }
        if let Some(search) = &self.search {
            match Command::parse(&line) {
                Ok(Command::End) => return Ok(Some(Exit::End)),
                Ok(Command::Stop) if !self.assembler.in_block() => {
                    search.stop.store(true, Ordering::Relaxed);
                }
                _ => self.queue.push_back((line, at)),
            }
            return Ok(None);
        }
        self.feed(&line, at)
    }

    /// Applies one line (no search is running).
    fn feed(&mut self, line: &str, at: Instant) -> io::Result<Option<Exit>> {
        for parsed in self.assembler.feed(line) {
            let effects = match parsed {
                Ok(command) => self.session.apply(command, at),
                Err(error) => Session::reject(&error),
            };
            if let Some(exit) = self.carry_out(effects)? {
                return Ok(Some(exit));
            }
        }
        Ok(None)
    }

    fn carry_out(&mut self, effects: Vec<Effect>) -> io::Result<Option<Exit>> {
        for effect in effects {
            match effect {
                Effect::Reply(reply) => self.write(&reply)?,
                Effect::Configure(options) => self.send(Job::Configure(options)),
                Effect::ClearHash => self.send(Job::ClearHash),
                Effect::Think(request) => self.start_search(request),
                Effect::Exit => return Ok(Some(Exit::End)),
            }
        }
        Ok(None)
    }

    fn start_search(&mut self, mut request: Box<Think>) {
        let pondered = self.pondered.take();
        let hit = pondered.filter(|(ponder, _)| ponder.answers(&request));
        let interrupted = self.interrupted.take();
        if let (Some((board, spent)), Some(budget)) = (interrupted, request.limits.time) {
            if asks_for_move_on(&request, &board) {
                request.limits.time = Some(credit_ponder(budget, spent));
            }
        }
        self.next_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.search = Some(Search {
            id: self.next_id,
            task: request.task,
            stop: Arc::clone(&stop),
            hard_deadline: request.limits.time.map(|t| t.start + t.hard),
            best: None,
            expected: None,
            searched: None,
        });
        if let Some((_, best)) = hit {
            // The move was found on the opponent's time: answer at once.
            let note =
                Reply::Message("ponder hit: the move was found on the opponent's time".to_string());
            let _ = self.write(&note);
            self.ready = Some((self.next_id, Thought::Move(Some(best))));
            return;
        }
        self.send(Job::Think(self.next_id, request, stop));
    }

    /// Thinks on the opponent's time, if the session asks for it, on the
    /// position after the reply we expect. Nothing it finds is printed: it
    /// fills the shared table that the next search reads.
    fn start_ponder(&mut self, expected: Pos) {
        let Some(request) = self.session.ponder_request(expected) else {
            return;
        };
        self.next_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.pondered = None;
        self.interrupted = None;
        self.ponder = Some(Ponder {
            id: self.next_id,
            stop: Arc::clone(&stop),
            started: Instant::now(),
            board: request.board.clone(),
            nodes: request.limits.nodes,
            depth: request.limits.depth,
            range: request.candidate_range,
        });
        self.send(Job::Think(self.next_id, request, stop));
    }

    fn send(&mut self, job: Job) {
        // The worker only goes away with the process; if it did, the
        // deadline fallback still answers moves.
        let _ = self.jobs.send(job);
    }

    fn on_progress(&mut self, id: u64, progress: Progress) -> io::Result<()> {
        let Some(search) = self.search.as_mut().filter(|s| s.id == id) else {
            return Ok(());
        };
        match progress {
            Progress::Line(reply) => self.write(&reply),
            Progress::Best(pos) => {
                search.best = Some(pos);
                Ok(())
            }
            Progress::Expected(pos) => {
                search.expected = Some(pos);
                Ok(())
            }
            Progress::Searched { score, depth } => {
                search.searched = Some((score, depth));
                Ok(())
            }
        }
    }

    fn on_done(&mut self, id: u64, thought: Thought) -> io::Result<Option<Exit>> {
        if let Some(ponder) = self.ponder.take_if(|p| p.id == id) {
            // Finished under its own limits, not stopped: worth keeping.
            if let (false, Thought::Move(Some(best))) =
                (ponder.stop.load(Ordering::Relaxed), thought)
            {
                self.pondered = Some((ponder, best));
            }
            return Ok(None);
        }
        let Some(search) = self.search.take_if(|s| s.id == id) else {
            return Ok(None); // a search we already answered for
        };
        if let Some((score, depth)) = search.searched {
            self.session.record_search(score, depth);
        }
        let effects = self.session.finish(thought, Instant::now());
        if let Some(exit) = self.carry_out(effects)? {
            return Ok(Some(exit));
        }
        let idle = self.queue.is_empty() && self.search.is_none();
        if let (Task::Move, Some(expected), true) = (search.task, search.expected, idle) {
            self.start_ponder(expected);
        }
        self.drain_queue()
    }

    /// Applies queued lines until one starts a new search.
    fn drain_queue(&mut self) -> io::Result<Option<Exit>> {
        while self.search.is_none() {
            let Some((line, at)) = self.queue.pop_front() else {
                break;
            };
            if let Some(exit) = self.feed(&line, at)? {
                return Ok(Some(exit));
            }
        }
        Ok(None)
    }

    /// The hard limit passed: stop the search, and if it has already been
    /// told to stop and still not answered, answer for it.
    fn on_deadline(&mut self) -> io::Result<()> {
        let Some(search) = self.search.as_mut() else {
            return Ok(());
        };
        if !search.stop.swap(true, Ordering::Relaxed) {
            search.hard_deadline = search.hard_deadline.map(|d| d + OVERRUN_GRACE);
            return Ok(());
        }
        search.hard_deadline = None;
        if !search.task.answers_with_a_move() {
            return Ok(()); // no sensible stand-in answer; wait for the worker
        }
        log::warn!("searcher overran its time limit; playing its best move so far");
        let best = search.best;
        self.search = None;
        let effects = self.session.finish(Thought::Move(best), Instant::now());
        if self.carry_out(effects)?.is_some() {
            return Ok(());
        }
        self.drain_queue().map(|_| ())
    }

    fn write(&mut self, reply: &Reply) -> io::Result<()> {
        let text = reply.render();
        log::debug!("> {text}");
        writeln!(self.output, "{text}")?;
        self.output.flush()
    }
}

fn spawn_reader<R: BufRead + Send + 'static>(
    mut input: R,
    events: Sender<Event>,
) -> io::Result<()> {
    thread::Builder::new()
        .name("stdin".to_string())
        .spawn(move || {
            let mut buffer = Vec::new();
            loop {
                match read_line_capped(&mut input, &mut buffer) {
                    Ok(true) => {
                        let at = Instant::now();
                        let text = String::from_utf8_lossy(&buffer);
                        // A lone CR also ends a line: split on it, so CRLF
                        // leaves only an empty piece the loop ignores.
                        for piece in text.split('\r') {
                            if !piece.trim().is_empty()
                                && events.send(Event::Line(piece.to_string(), at)).is_err()
                            {
                                return;
                            }
                        }
                    }
                    Ok(false) | Err(_) => {
                        let _ = events.send(Event::Eof);
                        return;
                    }
                }
            }
        })
        .map(|_| ())
}

/// Reads one `\n`-terminated line into `buffer` (without the `\n`), keeping
/// at most `MAX_LINE_BYTES` of it. Returns `false` at end of input.
fn read_line_capped<R: BufRead>(input: &mut R, buffer: &mut Vec<u8>) -> io::Result<bool> {
    buffer.clear();
    let mut read_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], at + 1, true),
            None => (available, available.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buffer.len());
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        input.consume(used);
        if done {
            return Ok(true);
        }
    }
}

fn spawn_worker(mut searcher: Box<dyn Searcher>, events: Sender<Event>) -> io::Result<Sender<Job>> {
    let (jobs, inbox) = mpsc::channel::<Job>();
    thread::Builder::new()
        .name("search".to_string())
        .spawn(move || {
            for job in inbox {
                match job {
                    Job::Configure(options) => searcher.configure(&options),
                    Job::ClearHash => searcher.clear(),
                    Job::Think(id, request, stop) => {
                        let thought = think(searcher.as_mut(), &request, &stop, &mut |p| {
                            let _ = events.send(Event::Progress(id, p));
                        });
                        if events.send(Event::Done(id, thought)).is_err() {
                            return;
                        }
                    }
                }
            }
        })?;
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use std::io::Cursor;

    #[test]
    fn long_lines_are_cut_and_the_rest_is_dropped() {
        let mut text = vec![b'x'; MAX_LINE_BYTES * 3];
        text.extend_from_slice(b"\nEND\n");
        let mut input = Cursor::new(text);
        let mut buffer = Vec::new();
        assert!(read_line_capped(&mut input, &mut buffer).unwrap());
        assert_eq!(buffer.len(), MAX_LINE_BYTES);
        assert!(read_line_capped(&mut input, &mut buffer).unwrap());
        assert_eq!(buffer, b"END");
        assert!(!read_line_capped(&mut input, &mut buffer).unwrap());
    }

    fn budget(soft_ms: u64, hard_ms: u64) -> TimeBudget {
        TimeBudget {
            start: Instant::now(),
            soft: Duration::from_millis(soft_ms),
            hard: Duration::from_millis(hard_ms),
        }
    }

    #[test]
    fn pondered_time_shortens_a_match_clock_move_down_to_a_quarter() {
        let clock = budget(2_000, 8_000);
        let after = credit_ponder(clock, Duration::from_millis(500));
        assert_eq!(after.soft, Duration::from_millis(1_500));
        assert_eq!(after.hard, clock.hard);
        let long = credit_ponder(clock, Duration::from_secs(30));
        assert_eq!(long.soft, Duration::from_millis(500));
    }

    #[test]
    fn a_per_move_limit_keeps_its_whole_budget_after_a_ponder() {
        let turn = budget(4_500, 4_500);
        let after = credit_ponder(turn, Duration::from_secs(3));
        assert_eq!((after.soft, after.hard), (turn.soft, turn.hard));
    }

    #[test]
    fn only_a_move_request_on_the_same_stones_is_a_ponder_hit() {
        use crate::board::Rule;
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        board.play(Pos::new(7, 7)).unwrap();
        board.play(Pos::new(8, 8)).unwrap();
        let request = |task: Task, board: &Board| Think {
            task,
            board: board.clone(),
            limits: Limits::default(),
            detail: Default::default(),
            candidate_range: CandidateRange::default(),
        };
        assert!(asks_for_move_on(&request(Task::Move, &board), &board));
        assert!(!asks_for_move_on(&request(Task::Swap2, &board), &board));
        let mut other = board.clone();
        other.play(Pos::new(6, 6)).unwrap();
        assert!(!asks_for_move_on(&request(Task::Move, &other), &board));
        let mut excluding = request(Task::Move, &board);
        excluding.limits.excluded.push(Pos::new(6, 6));
        assert!(!asks_for_move_on(&excluding, &board));
    }

    #[test]
    fn a_last_line_without_newline_still_counts() {
        let mut input = Cursor::new(b"ABOUT".to_vec());
        let mut buffer = Vec::new();
        assert!(read_line_capped(&mut input, &mut buffer).unwrap());
        assert_eq!(buffer, b"ABOUT");
    }
}
