//! `boardlab play`: one game between agents and people, the board printed
//! after every ply and the move record at the end.
//!
//! A `human` seat reads its moves from the input stream, one per line, in
//! the game's notation (a compound turn as the notation writes it: one move
//! per ply, so Sniggle's continuation steps and the spinner's placements
//! are asked one by one). Before each of its moves it is told the side to
//! move and the last move; a malformed or illegal move is answered with the
//! reason and asked again; `moves` lists the legal moves; `quit` or the end
//! of the input abandons the game (not an error). Chance outcomes are drawn
//! from the seed and shown like any ply.

use std::fmt::Write as _;
use std::io::BufRead;

use anyhow::{Result, anyhow, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::AgentSpec;
use engine::Research;
use engine::{Game, GameVisitor, State, ToMove, apply_moves, parse_legal_move, visit_game};

use crate::run::mix;

/// What `boardlab play` was asked to play.
#[derive(Clone, Debug, Default)]
pub struct PlayArgs {
    /// Game string.
    pub game: String,
    /// One agent spec per seat, seat 0 first (`human` for a person).
    pub agents: Vec<String>,
    /// Seed of the initial state, the chance outcomes and the agents.
    pub seed: u64,
    /// Print each searching agent's `info` lines before its move.
    pub verbose: bool,
    /// Start position in the game's position text (`None`: the initial
    /// state for `seed`).
    pub position: Option<String>,
    /// Moves played from the start position first, space-separated.
    pub moves: Option<String>,
    /// Append the finished game's record (one JSON line, the format of
    /// [`crate::run::records::Record`]) to this file; an abandoned game writes
    /// none.
    pub record: Option<std::path::PathBuf>,
}

struct PlayVisitor<'a> {
    args: &'a PlayArgs,
    specs: &'a [AgentSpec],
    input: &'a mut dyn BufRead,
    out: &'a mut dyn std::io::Write,
}

/// What a person typed at a prompt.
enum Answer<M> {
    Move(M),
    Quit,
}

/// Asks the person in seat `seat` for a move until one is legal, or they
/// quit (`quit`, or the end of the input).
fn ask<S: Research>(
    state: &S,
    seat: usize,
    last: Option<&str>,
    input: &mut dyn BufRead,
    out: &mut dyn std::io::Write,
) -> Result<Answer<S::Move>> {
    let role = state.seat_role(seat);
    let side = if role.is_empty() {
        format!("seat {seat}")
    } else {
        format!("seat {seat} ({role})")
    };
    writeln!(
        out,
        "{side} to move; last move: {}",
        last.unwrap_or("none (start)")
    )?;
    loop {
        write!(out, "move (or `moves`, `quit`)> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(Answer::Quit);
        }
        match line.trim() {
            "" => {}
            "quit" => return Ok(Answer::Quit),
            "moves" => {
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                let texts: Vec<String> = moves.iter().map(|&m| state.move_to_text(m)).collect();
                writeln!(out, "{} legal moves: {}", texts.len(), texts.join(" "))?;
            }
            text => match parse_legal_move(state, text) {
                Ok(mv) => return Ok(Answer::Move(mv)),
                Err(e) => writeln!(out, "not played: {e}; try again")?,
            },
        }
    }
}

impl GameVisitor for PlayVisitor<'_> {
    type Output = Result<String>;
    fn visit<G: Game>(self, game: G) -> Result<String> {
        let n = game.num_seats();
        let args = self.args;
        if self.specs.len() != n {
            bail!("this game has {n} seats: give {n} agents, seat 0 first");
        }
        for s in self.specs.iter().filter(|s| !s.is_human()) {
            s.check_game(n).map_err(|e| anyhow!("{e}"))?;
        }
        let mut state =
            super::inspect::start_state(&game, args.position.as_deref(), None, args.seed)?;
        let start = state.to_text();
        let mut record: Vec<String> = Vec::new();
        if let Some(m) = args.moves.as_deref() {
            apply_moves(&mut state, m).map_err(|e| anyhow!("--moves: {e}"))?;
            record.extend(m.split_whitespace().map(str::to_string));
        }
        let mut players: Vec<_> = self
            .specs
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (!s.is_human()).then(|| s.build::<G::State>(mix(args.seed, i as u64 + 1)))
            })
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(mix(args.seed, 0));
        let mut buf = Vec::new();
        writeln!(
            self.out,
            "{}\n{state}\nposition: {}\n",
            game.game_string(),
            state.to_text()
        )?;
        let mut abandoned = None;
        let mut forfeited: Option<(usize, agents::Forfeit)> = None;
        loop {
            let (mv, who) = match state.to_move() {
                ToMove::Terminal => break,
                ToMove::Chance => (
                    state.sample_chance(&mut rng, &mut buf).expect("outcomes"),
                    "chance".to_string(),
                ),
                ToMove::Seat(s) => {
                    let who = format!("seat {s} ({})", self.specs[s].canonical());
                    match players[s].as_mut() {
                        None => {
                            let last = record.last().map(String::as_str);
                            match ask(&state, s, last, self.input, self.out)? {
                                Answer::Move(mv) => (mv, who),
                                Answer::Quit => {
                                    abandoned = Some(s);
                                    break;
                                }
                            }
                        }
                        Some(p) if args.verbose => {
                            let mut lines = Vec::new();
                            let mv = p.select_reporting(&state, &mut |i| lines.push(i.line()));
                            for l in lines {
                                writeln!(self.out, "  {l}")?;
                            }
                            (mv, who)
                        }
                        Some(p) => match p.try_select(&state) {
                            Ok(mv) => (mv, who),
                            // An external program that crashed, hung or
                            // cheated loses the game.
                            Err(f) => {
                                forfeited = Some((s, f));
                                break;
                            }
                        },
                    }
                }
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
        let mut s = String::new();
        let _ = writeln!(s, "record: {}", record.join(" "));
        if let Some(seat) = abandoned {
            let _ = write!(
                s,
                "abandoned by seat {seat} at ply {}: no result",
                state.ply()
            );
            return Ok(s);
        }
        let (r, end) = match &forfeited {
            Some((seat, f)) => {
                let _ = writeln!(s, "seat {seat} forfeits: {} ({})", f.end_reason(), f.detail);
                (
                    crate::run::play::forfeit_returns(n, *seat),
                    Some(f.end_reason().to_string()),
                )
            }
            None => (
                state.returns()[..n].to_vec(),
                state.end_reason().map(str::to_string),
            ),
        };
        if let Some(path) = &args.record {
            let mut check = game
                .parse_position(&start)
                .map_err(|e| anyhow!("the start position does not read back: {e}"))?;
            let mut turns = 0;
            for m in &record {
                check.apply(parse_legal_move(&check, m).map_err(|e| anyhow!("{e}"))?);
                turns += u32::from(!check.continues_turn());
            }
            let rec = crate::run::records::Record {
                boardlab: env!("CARGO_PKG_VERSION").to_string(),
                game: game.game_string(),
                index: 0,
                seed: args.seed,
                start,
                opening: None,
                opening_moves: None,
                agents: self.specs.iter().map(AgentSpec::canonical).collect(),
                plies: record.len() as u32,
                moves: record.clone(),
                turns,
                winners: crate::run::records::winners(&r),
                returns: r.clone(),
                end: end.clone(),
            };
            crate::run::records::append(path, &rec)?;
        }
        let rs: Vec<String> = (0..n)
            .map(|i| format!("seat {i} {} {}", state.seat_role(i), r[i]))
            .collect();
        let _ = write!(s, "returns: {}", rs.join(", "));
        if let Some(e) = &end {
            let _ = write!(s, "\nend: {e}");
        }
        Ok(s)
    }
}

/// Plays one game, printing each position to `out` (with `verbose`, also
/// each searching agent's `info` lines before its move); `human` seats read
/// their moves from `input`. Returns the move record and the returns (or
/// who abandoned the game) as text.
///
/// # Errors
/// Unknown game or agent, the wrong number of agents, a malformed
/// `--position` or an illegal move in `--moves`, an I/O error.
pub fn play_game(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn std::io::Write,
) -> Result<String> {
    let specs = args
        .agents
        .iter()
        .map(|a| AgentSpec::parse(a).map_err(|e| anyhow!("{e}")))
        .collect::<Result<Vec<_>>>()?;
    visit_game(
        &args.game,
        PlayVisitor {
            args,
            specs: &specs,
            input,
            out,
        },
    )
    .map_err(|e| anyhow!("{e}"))?
}

/// Plays one game from the initial state with no person seated (a `human`
/// seat would read standard input); see [`play_game`].
///
/// # Errors
/// As [`play_game`].
pub fn play(
    game: &str,
    agents: &[String],
    seed: u64,
    verbose: bool,
    out: &mut dyn std::io::Write,
) -> Result<String> {
    let args = PlayArgs {
        game: game.to_string(),
        agents: agents.to_vec(),
        seed,
        verbose,
        ..PlayArgs::default()
    };
    play_game(&args, &mut std::io::stdin().lock(), out)
}
