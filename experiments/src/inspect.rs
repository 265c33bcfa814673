//! `boardlab games`, `moves` and `perft`: look at a game without agents.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{Result, anyhow};

use engine::registry::{GAMES, WRAPPERS};
use engine::{Game, GameVisitor, State, apply_moves, perft, visit_game};

/// The text of `boardlab games`: every game with its parameters and defaults.
pub fn games_text() -> String {
    let mut s = String::new();
    for g in GAMES {
        let _ = writeln!(s, "{}\n  {}", g.name, g.description);
        for p in g.params {
            let _ = writeln!(
                s,
                "  {}={}  ({}; default {})",
                p.name, p.values, p.help, p.default
            );
        }
    }
    let _ = writeln!(s, "\nwrappers");
    for g in WRAPPERS {
        let _ = writeln!(s, "{}\n  {}", g.name, g.description);
    }
    let _ = writeln!(s, "\nagents");
    for (name, params) in agents::AGENTS {
        let list: Vec<String> = params
            .iter()
            .map(|p| format!("{}={}", p.name, p.default))
            .collect();
        let _ = writeln!(s, "  {name}({})", list.join(","));
        for p in params.iter() {
            let _ = writeln!(s, "      {}: {} ({})", p.name, p.help, p.values);
        }
    }
    s
}

/// Builds the start position: `position` text if given, else the initial
/// state of `seed`, then applies the `moves` record.
pub fn start_state<G: Game>(
    game: &G,
    position: Option<&str>,
    moves: Option<&str>,
    seed: u64,
) -> Result<G::State> {
    let mut state = match position {
        Some(p) => game.parse_position(p).map_err(|e| anyhow!("{e}"))?,
        None => game.initial_state(seed),
    };
    if let Some(m) = moves {
        apply_moves(&mut state, m).map_err(|e| anyhow!("{e}"))?;
    }
    Ok(state)
}

struct MovesVisitor<'a> {
    position: Option<&'a str>,
    moves: Option<&'a str>,
    seed: u64,
}

impl GameVisitor for MovesVisitor<'_> {
    type Output = Result<String>;
    fn visit<G: Game>(self, game: G) -> Result<String> {
        let state = start_state(&game, self.position, self.moves, self.seed)?;
        let mut s = String::new();
        match state.to_move() {
            engine::ToMove::Chance => {
                let mut outs = Vec::new();
                state.chance_outcomes(&mut outs);
                for (m, p) in &outs {
                    let _ = writeln!(s, "{} {p:.6}", state.move_to_text(*m));
                }
                let _ = write!(
                    s,
                    "chance node: {} outcomes (move, probability)",
                    outs.len()
                );
            }
            engine::ToMove::Terminal => {
                let r = state.returns();
                let rs: Vec<String> = (0..state.num_seats()).map(|i| r[i].to_string()).collect();
                let _ = write!(
                    s,
                    "game over: 0 legal moves; returns per seat {}",
                    rs.join(" ")
                );
            }
            engine::ToMove::Seat(seat) => {
                let mut list = Vec::new();
                state.legal_moves(&mut list);
                for m in &list {
                    let _ = writeln!(s, "{}", state.move_to_text(*m));
                }
                let _ = write!(s, "{} legal moves (seat {seat} to move)", list.len());
            }
        }
        Ok(s)
    }
}

/// The text of `boardlab moves`: the legal moves, one per line, then their count.
///
/// # Errors
/// Unknown game, malformed position, malformed or illegal moves.
pub fn moves_text(
    game: &str,
    position: Option<&str>,
    moves: Option<&str>,
    seed: u64,
) -> Result<String> {
    visit_game(
        game,
        MovesVisitor {
            position,
            moves,
            seed,
        },
    )
    .map_err(|e| anyhow!("{e}"))?
}

struct PerftVisitor<'a> {
    position: Option<&'a str>,
    moves: Option<&'a str>,
    seed: u64,
    depth: u32,
}

/// Perft results: nodes per depth and the time for all depths.
#[derive(Clone, Debug)]
pub struct PerftReport {
    /// `(depth, nodes)` for depths 1..=D.
    pub counts: Vec<(u32, u64)>,
    /// Seconds spent on all depths.
    pub seconds: f64,
}

impl PerftReport {
    /// `depth nodes` lines, then nodes per second over all depths.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for (d, n) in &self.counts {
            let _ = writeln!(s, "{d} {n}");
        }
        let total: u64 = self.counts.iter().map(|c| c.1).sum();
        let _ = write!(
            s,
            "{:.0} nodes per second ({total} nodes in {:.3} s)",
            total as f64 / self.seconds.max(1e-9),
            self.seconds
        );
        s
    }
}

impl GameVisitor for PerftVisitor<'_> {
    type Output = Result<PerftReport>;
    fn visit<G: Game>(self, game: G) -> Result<PerftReport> {
        let state = start_state(&game, self.position, self.moves, self.seed)?;
        let start = Instant::now();
        let counts = (1..=self.depth).map(|d| (d, perft(&state, d))).collect();
        Ok(PerftReport {
            counts,
            seconds: start.elapsed().as_secs_f64(),
        })
    }
}

/// Runs perft to `depth` from the given start.
///
/// # Errors
/// Unknown game, malformed position, malformed or illegal moves.
pub fn perft_report(
    game: &str,
    position: Option<&str>,
    moves: Option<&str>,
    seed: u64,
    depth: u32,
) -> Result<PerftReport> {
    visit_game(
        game,
        PerftVisitor {
            position,
            moves,
            seed,
            depth,
        },
    )
    .map_err(|e| anyhow!("{e}"))?
}
