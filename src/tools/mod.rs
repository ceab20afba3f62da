//! Tools that ship with the engine: bench, match runner, opening generator,
//! game review.
