//! Evaluation: a static score of a position from the board's pattern counts,
//! from the side to move's point of view. Weights live in one table.
