//! Zobrist keys: one random 64-bit key per (colour, cell), fixed for a build so
//! that hashes and bench signatures are reproducible.

use super::types::{Color, Pos, CELL_COUNT};
use std::sync::OnceLock;

static KEYS: OnceLock<Vec<[u64; 2]>> = OnceLock::new();

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub fn key(color: Color, pos: Pos) -> u64 {
    let keys = KEYS.get_or_init(|| {
        let mut state = 0x5755_5A49_u64; // "WUZI"
        (0..CELL_COUNT)
            .map(|_| [splitmix64(&mut state), splitmix64(&mut state)])
            .collect()
    });
    keys[pos.index()][color.index()]
}
