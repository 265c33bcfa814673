//! `boardlab play`: one game between agents, the board printed after every
//! ply and the move record at the end.

use std::fmt::Write as _;

use anyhow::{Result, anyhow, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::AgentSpec;
use engine::Research;
use engine::{Game, GameVisitor, State, ToMove, visit_game};

use crate::run::mix;

struct PlayVisitor<'a> {
    specs: &'a [AgentSpec],
    seed: u64,
    verbose: bool,
    out: &'a mut dyn std::io::Write,
}

impl GameVisitor for PlayVisitor<'_> {
    type Output = Result<String>;
    fn visit<G: Game>(self, game: G) -> Result<String> {
        let n = game.num_seats();
        if self.specs.len() != n {
            bail!("this game has {n} seats: give {n} agents, seat 0 first");
        }
        for s in self.specs {
            s.check_game(n).map_err(|e| anyhow!("{e}"))?;
        }
        let mut state = game.initial_state(self.seed);
        let mut players: Vec<_> = self
            .specs
            .iter()
            .enumerate()
            .map(|(i, s)| s.build::<G::State>(mix(self.seed, i as u64 + 1)))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(mix(self.seed, 0));
        let mut buf = Vec::new();
        let mut record = Vec::new();
        writeln!(
            self.out,
            "{}\n{state}\nposition: {}\n",
            game.game_string(),
            state.to_text()
        )?;
        loop {
            let (mv, who) = match state.to_move() {
                ToMove::Terminal => break,
                ToMove::Chance => (
                    state.sample_chance(&mut rng, &mut buf).expect("outcomes"),
                    "chance".to_string(),
                ),
                ToMove::Seat(s) if self.verbose => {
                    let mut lines = Vec::new();
                    let mv = players[s].select_reporting(&state, &mut |i| lines.push(i.line()));
                    for l in lines {
                        writeln!(self.out, "  {l}")?;
                    }
                    (mv, format!("seat {s} ({})", self.specs[s].canonical()))
                }
                ToMove::Seat(s) => (
                    players[s].select(&state),
                    format!("seat {s} ({})", self.specs[s].canonical()),
                ),
            };
            let text = state.move_to_text(mv);
            state.apply(mv);
            writeln!(
                self.out,
                "ply {}: {who} plays {text}\n{state}\nposition: {}\n",
                state.ply(),
                state.to_text()
            )?;
            record.push(text);
        }
        let r = state.returns();
        let mut s = String::new();
        let _ = writeln!(s, "record: {}", record.join(" "));
        let rs: Vec<String> = (0..n)
            .map(|i| format!("seat {i} {} {}", state.seat_role(i), r[i]))
            .collect();
        let _ = write!(s, "returns: {}", rs.join(", "));
        Ok(s)
    }
}

/// Plays one game, printing each position to `out` (with `verbose`, also
/// each searching agent's `info` lines before its move), and returns the
/// move record and returns as text.
///
/// # Errors
/// Unknown game or agent, the wrong number of agents.
pub fn play(
    game: &str,
    agents: &[String],
    seed: u64,
    verbose: bool,
    out: &mut dyn std::io::Write,
) -> Result<String> {
    let specs = agents
        .iter()
        .map(|a| AgentSpec::parse(a).map_err(|e| anyhow!("{e}")))
        .collect::<Result<Vec<_>>>()?;
    visit_game(
        game,
        PlayVisitor {
            specs: &specs,
            seed,
            verbose,
            out,
        },
    )
    .map_err(|e| anyhow!("{e}"))?
}
