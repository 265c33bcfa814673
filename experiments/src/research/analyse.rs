//! `boardlab analyse`: one agent searches one position and prints what it
//! thinks as it goes, in the spirit of UCI `info` lines, then `bestmove M`.

use anyhow::{Result, anyhow, bail};

use agents::AgentSpec;
use engine::{Game, GameVisitor, State, ToMove, visit_game};

struct AnalyseVisitor<'a> {
    spec: &'a AgentSpec,
    position: Option<&'a str>,
    moves: Option<&'a str>,
    seed: u64,
    out: &'a mut dyn std::io::Write,
}

impl GameVisitor for AnalyseVisitor<'_> {
    type Output = Result<String>;
    fn visit<G: Game>(self, game: G) -> Result<String> {
        self.spec
            .check_game(game.num_seats())
            .map_err(|e| anyhow!("{e}"))?;
        let state = super::inspect::start_state(&game, self.position, self.moves, self.seed)?;
        match state.to_move() {
            ToMove::Terminal => bail!("the position is terminal: there is nothing to analyse"),
            ToMove::Chance => bail!(
                "the position is a chance node: give the chance outcome with --moves to analyse a seat's move"
            ),
            ToMove::Seat(_) => {}
        }
        writeln!(
            self.out,
            "position {}",
            state.to_text().replace('\n', " / ")
        )?;
        let mut agent = self.spec.build::<G::State>(self.seed);
        let mut io_err = None;
        let mv = agent.select_reporting(&state, &mut |info| {
            if let Err(e) = writeln!(self.out, "{}", info.line()) {
                io_err = Some(e);
            }
        });
        if let Some(e) = io_err {
            return Err(e.into());
        }
        Ok(format!("bestmove {}", state.move_to_text(mv)))
    }
}

/// Searches one position of `game` with `agent`, writing `info` lines to
/// `out` as the search goes; returns the `bestmove ...` line.
///
/// `position` is the game's position text (`None` or `start`: the initial
/// state for `seed`); `moves` a move record played from it first.
///
/// # Errors
/// Unknown game or agent, bad parameters, a malformed position or move, a
/// terminal or chance position, an agent that cannot play the game.
pub fn analyse(
    game: &str,
    position: Option<&str>,
    moves: Option<&str>,
    agent: &str,
    seed: u64,
    out: &mut dyn std::io::Write,
) -> Result<String> {
    let spec = AgentSpec::parse_in(agent, game).map_err(|e| anyhow!("{e}"))?;
    visit_game(
        game,
        AnalyseVisitor {
            spec: &spec,
            position,
            moves,
            seed,
            out,
        },
    )
    .map_err(|e| anyhow!("{e}"))?
}
