//! `boardlab games`, `moves` and `perft`: look at a game without agents.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{Result, anyhow};

use engine::registry::{GAMES, WRAPPERS};
use engine::{Game, GameVisitor, State, apply_moves, perft, perft_turns, visit_game};

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
        let weights = engine::registry::search_defaults(g.name)
            .map(|d| d.eval_weights)
            .unwrap_or(&[]);
        if !weights.is_empty() {
            let _ = writeln!(s, "  evaluation weights (alpha-beta's w_<term>):");
            for w in weights {
                let _ = writeln!(s, "    w_{}={}  ({})", w.name, w.default, w.help.trim());
            }
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

/// Builds the start position of the commands that take `--position` and
/// `--moves`: the `position` text if given (`start`, or none, is the
/// initial state of `seed`), then the `moves` record applied; errors name
/// the option.
pub fn start_state<G: Game>(
    game: &G,
    position: Option<&str>,
    moves: Option<&str>,
    seed: u64,
) -> Result<G::State> {
    let mut state = match position {
        None | Some("start") => game.initial_state(seed),
        Some(p) => game
            .parse_position(p)
            .map_err(|e| anyhow!("--position: {e}"))?,
    };
    if let Some(m) = moves {
        apply_moves(&mut state, m).map_err(|e| anyhow!("--moves: {e}"))?;
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

/// What `boardlab perft` counts and prints.
#[derive(Clone, Debug, Default)]
pub struct PerftArgs {
    /// Game string.
    pub game: String,
    /// Start position text (default: the initial state).
    pub position: Option<String>,
    /// Moves to apply first.
    pub moves: Option<String>,
    /// Seed of the initial state.
    pub seed: u64,
    /// Deepest depth.
    pub depth: u32,
    /// Count whole turns rather than plies.
    pub turns: bool,
    /// Print the count under each first move at the deepest depth.
    pub divide: bool,
}

/// The deepest perft depth accepted: beyond it no count finishes.
pub const MAX_PERFT_DEPTH: u32 = 30;

struct PerftVisitor<'a> {
    args: &'a PerftArgs,
    out: &'a mut dyn std::io::Write,
}

impl GameVisitor for PerftVisitor<'_> {
    type Output = Result<()>;
    fn visit<G: Game>(self, game: G) -> Result<()> {
        let a = self.args;
        // Perft counts the move-generation tree: automatic draws off.
        let game = game.perft_game();
        let state = start_state(&game, a.position.as_deref(), a.moves.as_deref(), a.seed)?;
        let count = |s: &G::State, d: u32| {
            if a.turns {
                perft_turns(s, d)
            } else {
                perft(s, d)
            }
        };
        let start = Instant::now();
        let mut total = 0u64;
        let last = if a.divide { a.depth - 1 } else { a.depth };
        for d in 1..=last {
            let n = count(&state, d);
            total += n;
            writeln!(self.out, "{d} {n}")?;
            self.out.flush()?;
        }
        if a.divide {
            let mut moves = Vec::new();
            let mut outs = Vec::new();
            state.legal_moves(&mut moves);
            state.chance_outcomes(&mut outs);
            moves.extend(outs.iter().map(|o| o.0));
            let mut sum = 0u64;
            for m in moves {
                let mut child = state.clone();
                child.apply(m);
                let left = if a.turns && child.continues_turn() {
                    a.depth
                } else {
                    a.depth - 1
                };
                let n = count(&child, left);
                sum += n;
                writeln!(self.out, "  {} {n}", state.move_to_text(m))?;
                self.out.flush()?;
            }
            total += sum;
            writeln!(self.out, "{} {sum}", a.depth)?;
        }
        let secs = start.elapsed().as_secs_f64();
        writeln!(
            self.out,
            "{:.0} nodes per second ({total} nodes in {secs:.3} s)",
            total as f64 / secs.max(1e-9)
        )?;
        Ok(())
    }
}

/// Runs perft to `args.depth` from the given start, printing each depth's
/// `depth nodes` line as soon as it is known (and, with `divide`, the count
/// under each first move), then nodes per second.
///
/// # Errors
/// Unknown game, malformed position, malformed or illegal moves, a depth of
/// 0 or over [`MAX_PERFT_DEPTH`], an unwritable output.
pub fn perft_run(args: &PerftArgs, out: &mut dyn std::io::Write) -> Result<()> {
    if args.depth == 0 || args.depth > MAX_PERFT_DEPTH {
        anyhow::bail!(
            "--depth {} is out of range (1..={MAX_PERFT_DEPTH})",
            args.depth
        );
    }
    visit_game(&args.game, PerftVisitor { args, out }).map_err(|e| anyhow!("{e}"))?
}
