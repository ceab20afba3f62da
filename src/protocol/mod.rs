//! The pbrain protocol: command parsing, the session that owns the game, and
//! the command loop that owns stdin and stdout. No search lives here.
