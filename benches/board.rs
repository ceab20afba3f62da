//! Micro-benchmarks of the board's hot paths: make+unmake with the full
//! incremental pattern update, and the renju forbidden-point scan. The code
//! lives in `wuzi::tools::board_bench` so that the shipped binary runs it too
//! (`pbrain-wuzi bench board`); see there for what is measured and how.
//!
//! `cargo bench --bench board`, or
//! `cargo bench --bench board -- --make-unmake-rounds N [freestyle|renju]`
//! for untimed rounds under callgrind.

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    wuzi::tools::board_bench::main(&args)
}
