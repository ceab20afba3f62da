//! Faulting a new table's memory in on a thread of its own.
//!
//! A fresh table is untouched memory. The first search that probes all over
//! it pays a page fault for nearly every page, and with transparent huge
//! pages the kernel may compact memory on each fault: on Linux a 350 MiB
//! table can cost a fresh process's first search 0.1 to 0.8 s, most of a
//! 0.5 s turn. A `Warmer` writes one word of every page from a starting
//! word to the end, in the background, and says how far it has come. The
//! table only lets the search use the part already written (see
//! `TranspositionTable::new_search`), so the warmer never writes where the
//! search does.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// Words per 4 KiB page: the warmer writes the first word of each.
const PAGE_WORDS: usize = 4096 / std::mem::size_of::<AtomicU64>();
/// How often progress is published: every 2 MiB, one huge page.
const REPORT_WORDS: usize = (2 << 20) / std::mem::size_of::<AtomicU64>();

/// The table's words, handed to the warming thread.
struct Words {
    start: *const AtomicU64,
    len: usize,
}

// SAFETY: the words are atomics, which any thread may write; the table that
// owns them joins the warmer (`Warmer::drop`) before it frees them.
unsafe impl Send for Words {}

pub struct Warmer {
    stop: Arc<AtomicBool>,
    /// Every word below this index has been written once.
    ready: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl Warmer {
    /// Starts writing zeros over `words[from..]`, which must hold zeros and
    /// which nobody else may touch until `ready` says it is done. The caller
    /// must keep `words` alive until the warmer is dropped.
    pub fn start(words: &[AtomicU64], from: usize) -> Warmer {
        let stop = Arc::new(AtomicBool::new(false));
        let ready = Arc::new(AtomicUsize::new(from));
        let shared = Words {
            start: words.as_ptr(),
            len: words.len(),
        };
        let (thread_stop, thread_ready) = (Arc::clone(&stop), Arc::clone(&ready));
        let thread = thread::Builder::new()
            .name("table-warmer".to_string())
            .spawn(move || {
                // The whole struct, not its fields: a bare pointer is not Send.
                let shared = shared;
                // SAFETY: the table keeps the words alive until it has
                // joined this thread (see `Words`).
                let words = unsafe { std::slice::from_raw_parts(shared.start, shared.len) };
                warm(words, from, &thread_stop, &thread_ready);
            })
            .ok();
        if thread.is_none() {
            // No thread to be had: the search faults the pages in itself.
            ready.store(words.len(), Ordering::Release);
        }
        Warmer {
            stop,
            ready,
            thread,
        }
    }

    /// How many words from the start have been written once.
    pub fn ready_words(&self) -> usize {
        self.ready.load(Ordering::Acquire)
    }

    /// Waits until the whole table is written.
    pub fn finish(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// True once the whole table is written.
    pub fn done(&self, len: usize) -> bool {
        self.ready_words() >= len
    }
}

fn warm(words: &[AtomicU64], from: usize, stop: &AtomicBool, ready: &AtomicUsize) {
    let mut next = from;
    while next < words.len() {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let end = (next + REPORT_WORDS).min(words.len());
        // A store, not a read: reading an untouched page maps the shared
        // zero page and faults again on the first real write.
        for index in (next..end).step_by(PAGE_WORDS) {
            words[index].store(0, Ordering::Relaxed);
        }
        next = end;
        ready.store(next, Ordering::Release);
    }
}

impl Drop for Warmer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warms_everything_from_the_start_word_and_leaves_the_rest_alone() {
        let words: Vec<AtomicU64> = (0..3 * REPORT_WORDS + 5)
            .map(|_| AtomicU64::new(0))
            .collect();
        // The part below `from` belongs to the search: a value there must
        // survive the warmer.
        let from = PAGE_WORDS * 3 + 1;
        words[from - 1].store(42, Ordering::Relaxed);
        let warmer = Warmer::start(&words, from);
        while !warmer.done(words.len()) {
            thread::yield_now();
        }
        assert_eq!(warmer.ready_words(), words.len());
        assert_eq!(words[from - 1].load(Ordering::Relaxed), 42);
        assert!(words
            .iter()
            .skip(from)
            .all(|w| w.load(Ordering::Relaxed) == 0));
    }
}
