//! `boardlab show`: one position, as the terminal board or as an SVG
//! picture ([`crate::output::svg`]).

use std::path::Path;

use anyhow::{Result, anyhow, bail};

use engine::{Game, GameVisitor, State, visit_game};

use crate::output::svg::svg_of_position;

struct ShowVisitor<'a> {
    position: Option<&'a str>,
    moves: Option<&'a str>,
    seed: u64,
    svg: Option<&'a Path>,
}

impl GameVisitor for ShowVisitor<'_> {
    type Output = Result<String>;
    fn visit<G: Game>(self, game: G) -> Result<String> {
        let state = super::inspect::start_state(&game, self.position, self.moves, self.seed)?;
        match self.svg {
            None => Ok(format!("{state}\nposition: {}", state.to_text())),
            Some(path) => {
                let last = self.moves.and_then(|m| m.split_whitespace().last());
                let Some(svg) = svg_of_position(&state, &game.game_string(), last) else {
                    bail!("{} has no board picture", game.game_string());
                };
                std::fs::write(path, svg)
                    .map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
                Ok(format!("wrote {}", path.display()))
            }
        }
    }
}

/// Shows a position of `game`: the start (drawn from `seed` where the game
/// has a random set-up), or `position`, then `moves`. Returns the terminal
/// board and the position text, or with `svg` writes the picture there and
/// says so.
///
/// # Errors
/// Unknown game, malformed position or move, an unwritable SVG path.
pub fn show(
    game: &str,
    position: Option<&str>,
    moves: Option<&str>,
    seed: u64,
    svg: Option<&Path>,
) -> Result<String> {
    visit_game(
        game,
        ShowVisitor {
            position,
            moves,
            seed,
            svg,
        },
    )
    .map_err(|e| anyhow!("{e}"))?
}
