//! The transposition table shared by all search threads.
//!
//! Entries are two atomic words: the packed data, and the key XORed with the
//! data. A reader accepts an entry only if the XOR matches its key, so a torn
//! write by another thread reads as a miss instead of as wrong data, and no
//! locks are needed (the "lockless hashing" trick).
//!
//! `warm` faults a new table's pages in on a thread of its own, for a
//! process that plays; the table then grows between searches as it is
//! written.

use super::{Score, MATE_BOUND};
use crate::board::Pos;
use std::alloc::{self, Layout};
use std::sync::atomic::{AtomicU64, Ordering};
use warm::Warmer;

mod warm;

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (no move reached alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// One table hit, with its score already made relative to the probing node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub best_move: Option<Pos>,
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
/// Bytes of one entry: two `AtomicU64`s.
const ENTRY_BYTES: usize = 16;
const BUCKET_BYTES: usize = ENTRY_BYTES * ENTRIES_PER_BUCKET;
// A bucket is one cache line.
const _: () = assert!(BUCKET_BYTES == 64);

/// The data word: move (16 bits) | score (16) | depth (8) | bound (2) | age (6).
fn pack(best_move: Option<Pos>, score: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    let mv = best_move.map_or(0, |p| p.index() as u64);
    let score = (score as i16) as u16 as u64;
    let depth = depth.clamp(0, 255) as u64;
    mv | score << 16 | depth << 32 | (bound as u64) << 40 | ((age & 63) as u64) << 42
}

fn unpack_age(data: u64) -> u8 {
    ((data >> 42) & 63) as u8
}

fn unpack_depth(data: u64) -> i32 {
    ((data >> 32) & 255) as i32
}

/// Mate scores are stored relative to the node, so that a position reached at
/// another ply reads back the right distance.
fn score_to_table(score: Score, ply: u32) -> Score {
    if score > MATE_BOUND {
        score + ply as Score
    } else if score < -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

fn score_from_table(score: Score, ply: u32) -> Score {
    if score > MATE_BOUND {
        score - ply as Score
    } else if score < -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

pub struct TranspositionTable {
    /// `BUCKET_WORDS` words per bucket, from `first` on.
    words: Box<[AtomicU64]>,
    /// The first word of the first bucket: where the words reach a cache
    /// line's boundary, so that each bucket is exactly one line and a probe
    /// costs a single miss (from the allocation's own start, half the
    /// buckets would straddle two lines).
    first: usize,
    /// The buckets the probes use: all of them, or while a warmer is still
    /// writing the table's pages, the ones it has passed.
    buckets: usize,
    /// All the buckets the words hold.
    capacity: usize,
    age: u8,
    /// Faulting the pages in, when `warm_in_background` asked for it.
    warmer: Option<Warmer>,
}

/// While a table is warmed, the search uses at least this much of it: the
/// part the warmer leaves to the search (a 0.5 s search fills about as
/// much, and a few huge pages fault in in milliseconds).
const FIRST_WARM_BYTES: usize = 16 << 20;

/// Words of one bucket: its (key ^ data, data) pairs.
const BUCKET_WORDS: usize = 2 * ENTRIES_PER_BUCKET;

/// Where in `words` the first word on a cache line's boundary lies.
fn first_aligned(words: &[AtomicU64]) -> usize {
    words.as_ptr().align_offset(BUCKET_BYTES)
}

/// Allocates zeroed atomics without touching the pages, so a large table
/// costs resident memory only as it fills.
fn zeroed_words(count: usize) -> Box<[AtomicU64]> {
    if count == 0 {
        return Box::new([]);
    }
    let layout = Layout::array::<AtomicU64>(count).expect("table size fits in memory");
    // SAFETY: the layout is non-zero sized; an all-zero bit pattern is a valid
    // AtomicU64; the pointer comes from the global allocator with this exact
    // layout, which is what Box<[AtomicU64]> frees it with.
    unsafe {
        let ptr = alloc::alloc_zeroed(layout) as *mut AtomicU64;
        if ptr.is_null() {
            alloc::handle_alloc_error(layout);
        }
        advise_huge_pages(ptr as *mut u8, layout.size());
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count))
    }
}

/// Asks Linux to back a large table with 2 MiB pages where it can: the
/// probes land all over the table, and with 4 KiB pages nearly every one
/// also misses the address-translation cache. Only advice; where the
/// kernel keeps transparent huge pages off, nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
    }
    // madvise wants a page-aligned start: the huge pages wholly inside.
    let first = (start as usize).next_multiple_of(HUGE_PAGE);
    let end = (start as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies inside one live allocation of ours, and
        // MADV_HUGEPAGE changes neither its contents nor its mapping.
        unsafe {
            madvise(first as *mut u8, end - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _bytes: usize) {}

impl TranspositionTable {
    /// A table using at most `bytes` (at least one bucket).
    pub fn new(bytes: u64) -> TranspositionTable {
        let buckets = ((bytes as usize) / BUCKET_BYTES).max(1);
        // One line more than the buckets need, for the alignment. A wider
        // alignment in the layout itself would make the allocator zero the
        // pages by writing them.
        let words = zeroed_words((buckets + 1) * BUCKET_WORDS);
        TranspositionTable {
            first: first_aligned(&words),
            words,
            buckets,
            capacity: buckets,
            age: 0,
            warmer: None,
        }
    }

    /// Writes the table's pages on a thread of its own (`warm`), so that the
    /// first searches do not wait on page faults. Until the warmer is done,
    /// each search uses the part of the table already written, from
    /// `FIRST_WARM_BYTES` up: the table grows between searches, and what it
    /// held is lost at each step, as a table of that size would lose it.
    /// A small table is used whole at once.
    pub fn warm_in_background(&mut self) {
        let first_words = FIRST_WARM_BYTES / 8;
        if self.warmer.is_some() || self.words.len() <= first_words {
            return;
        }
        self.warmer = Some(Warmer::start(&self.words, first_words));
        self.buckets = self.warmed_buckets();
    }

    /// Waits for the warmer, if any, and uses the whole table from now on:
    /// for a search that is not on the clock, so that what it finds does
    /// not depend on how far the warmer has come.
    pub fn finish_warming(&mut self) {
        if let Some(warmer) = self.warmer.take() {
            warmer.finish();
        }
        self.buckets = self.capacity;
    }

    /// The buckets wholly inside the words the warmer has written (or the
    /// search may write itself).
    fn warmed_buckets(&self) -> usize {
        match &self.warmer {
            None => self.capacity,
            Some(warmer) => {
                let words = warmer.ready_words().saturating_sub(self.first);
                (words / BUCKET_WORDS).clamp(1, self.capacity)
            }
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        let warming = self.warmer.take().is_some();
        // A fresh zeroed allocation is cheaper than writing every page.
        self.words = zeroed_words(self.words.len());
        self.first = first_aligned(&self.words);
        self.buckets = self.capacity;
        self.age = 0;
        if warming {
            self.warm_in_background();
        }
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
        if self
            .warmer
            .as_ref()
            .is_some_and(|w| w.done(self.words.len()))
        {
            self.warmer = None;
        }
        self.buckets = self.warmed_buckets();
    }

    fn bucket(&self, key: u64) -> usize {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        self.first + index * BUCKET_WORDS
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe
    /// of it a little later (the child's, once its move is made) does not
    /// wait on memory. Only a hint: it changes no state.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const AtomicU64 = &self.words[self.bucket(key)];
            // SAFETY: a prefetch reads nothing into the program and never
            // faults; the pointer is to a live word of the table.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket as *const i8,
                )
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64, ply: u32) -> Option<Entry> {
        let base = self.bucket(key);
        for slot in 0..ENTRIES_PER_BUCKET {
            let check = self.words[base + 2 * slot].load(Ordering::Relaxed);
            let data = self.words[base + 2 * slot + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let bound = match (data >> 40) & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => return None,
                };
                let mv = (data & 0xFFFF) as usize;
                return Some(Entry {
                    best_move: (mv != 0).then(|| Pos::from_index(mv)),
                    score: score_from_table(((data >> 16) & 0xFFFF) as u16 as i16 as Score, ply),
                    depth: unpack_depth(data),
                    bound,
                });
            }
        }
        None
    }

    pub fn store(
        &self,
        key: u64,
        ply: u32,
        best_move: Option<Pos>,
        score: Score,
        depth: i32,
        bound: Bound,
    ) {
        let base = self.bucket(key);
        // Prefer the slot holding this key; else the shallowest, oldest entry.
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut previous_move = None;
        for slot in 0..ENTRIES_PER_BUCKET {
            let check = self.words[base + 2 * slot].load(Ordering::Relaxed);
            let data = self.words[base + 2 * slot + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let same_search = unpack_age(data) == self.age;
                if same_search && unpack_depth(data) > depth + 2 && bound != Bound::Exact {
                    return;
                }
                victim = slot;
                let mv = (data & 0xFFFF) as usize;
                previous_move = (mv != 0).then(|| Pos::from_index(mv));
                break;
            }
            let age_gap = ((self.age + 64 - unpack_age(data)) & 63) as i32;
            let worth = if data == 0 {
                i32::MIN
            } else {
                unpack_depth(data) - 8 * age_gap
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let best_move = best_move.or(previous_move);
        let data = pack(
            best_move,
            score_to_table(score, ply),
            depth,
            bound,
            self.age,
        );
        self.words[base + 2 * victim].store(key ^ data, Ordering::Relaxed);
        self.words[base + 2 * victim + 1].store(data, Ordering::Relaxed);
    }
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        // The warmer writes into the words: it must stop before they go.
        self.warmer = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mate_in;

    #[test]
    fn stores_and_reads_back() {
        let table = TranspositionTable::new(1 << 16);
        let mv = Some(Pos::new(7, 7));
        table.store(0xDEAD_BEEF, 0, mv, -123, 5, Bound::Lower);
        let entry = table.probe(0xDEAD_BEEF, 0).expect("hit");
        assert_eq!(entry.best_move, mv);
        assert_eq!(entry.score, -123);
        assert_eq!(entry.depth, 5);
        assert_eq!(entry.bound, Bound::Lower);
        assert!(table.probe(0xBEEF_DEAD, 0).is_none());
    }

    #[test]
    fn every_bucket_is_one_whole_cache_line() {
        for bytes in [BUCKET_BYTES as u64, 1 << 16, 3 << 20] {
            let table = TranspositionTable::new(bytes);
            for key in [0, 1 << 63, u64::MAX, 0x9E37_79B9_7F4A_7C15] {
                let first = table.bucket(key);
                let address = &table.words[first] as *const AtomicU64 as usize;
                assert_eq!(address % 64, 0, "{bytes} bytes, key {key:x}");
                assert!(first + BUCKET_WORDS <= table.words.len());
            }
            let mut cleared = table;
            cleared.clear();
            let address = &cleared.words[cleared.bucket(0)] as *const AtomicU64 as usize;
            assert_eq!(address % 64, 0);
        }
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let table = TranspositionTable::new(1 << 16);
        // A win three plies below a node at ply 4 is a win at ply 7.
        table.store(42, 4, None, mate_in(7), 3, Bound::Exact);
        assert_eq!(table.probe(42, 2).unwrap().score, mate_in(5));
    }

    #[test]
    fn clear_forgets() {
        let mut table = TranspositionTable::new(1 << 16);
        table.store(7, 0, None, 10, 1, Bound::Exact);
        table.clear();
        assert!(table.probe(7, 0).is_none());
    }

    #[test]
    fn a_warmed_table_grows_between_searches_to_its_whole_size() {
        let mut table = TranspositionTable::new(64 << 20);
        let capacity = table.capacity;
        table.warm_in_background();
        let first = table.buckets;
        assert!(first >= FIRST_WARM_BYTES / BUCKET_BYTES - 1 && first <= capacity);
        // Entries work at every size the table passes through.
        for _ in 0..60_000 {
            table.new_search();
            table.store(7, 0, None, 10, 1, Bound::Exact);
            assert_eq!(table.probe(7, 0).map(|e| e.score), Some(10));
            if table.buckets == capacity {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(table.buckets, capacity);
        assert!(table.warmer.is_none());
    }

    #[test]
    fn finishing_the_warming_uses_the_whole_table() {
        let mut table = TranspositionTable::new(64 << 20);
        let capacity = table.capacity;
        table.warm_in_background();
        table.finish_warming();
        assert_eq!(table.buckets, capacity);
        assert!(table.warmer.is_none());
        table.new_search();
        assert_eq!(table.buckets, capacity);
    }

    #[test]
    fn a_table_cleared_while_warming_warms_again() {
        let mut table = TranspositionTable::new(64 << 20);
        table.warm_in_background();
        table.store(7, 0, None, 10, 1, Bound::Exact);
        table.clear();
        assert!(table.probe(7, 0).is_none());
        assert!(table.warmer.is_some() || table.buckets == table.capacity);
    }

    #[test]
    fn deeper_entries_survive_in_a_full_bucket() {
        let table = TranspositionTable::new(BUCKET_BYTES as u64);
        for key in 1..=4u64 {
            table.store(key, 0, None, 0, 10, Bound::Exact);
        }
        table.store(99, 0, None, 0, 1, Bound::Exact);
        let kept = (1..=4u64).filter(|&k| table.probe(k, 0).is_some()).count();
        assert_eq!(kept, 3);
        assert!(table.probe(99, 0).is_some());
    }
}
