//! The error type of the engine: a one-line message that names the bad input
//! and says what was expected.

use std::fmt;

/// An error from parsing a game string, a position, or a move, or from
/// applying a move that is not legal. The message is one line, names the
/// offending input and says what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError(pub String);

impl GameError {
    /// Builds an error from any message.
    pub fn new(msg: impl Into<String>) -> Self {
        GameError(msg.into())
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

/// Shorthand: `Err(GameError::new(format!(...)))`.
#[macro_export]
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::GameError::new(format!($($arg)*)))
    };
}
