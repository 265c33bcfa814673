//! `boardlab play`: one game between agents and people, the board printed
//! after every ply and the move record at the end.
//!
//! A `human` seat reads its moves from the input stream, one per line, in
//! the game's notation (a compound turn as the notation writes it: one move
//! per ply, so Sniggle's continuation steps and the spinner's placements
//! are asked one by one). Before each of its moves it is told the side to
//! move and the last move; a malformed or illegal move is answered with the
//! reason (`Research::illegal_reason`: the rule it breaks) and asked again;
//! `moves` lists the legal moves (grouped by the cell they start from when
//! there are many), `moves CELL` one piece's, `undo` takes back the
//! person's last turn, `hint` asks the opposing agent, `help` or `?` lists
//! the commands ([`SEAT_HELP`]); `quit` or the end of the input abandons
//! the game (not an error). Chance outcomes are drawn from the seed and
//! shown like any ply.

use std::fmt::Write as _;
use std::io::BufRead;

use anyhow::{Result, anyhow, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use agents::AgentSpec;
use engine::Research;
use engine::{
    Game, GameVisitor, State, ToMove, apply_moves, parse_legal_move, parse_move_explained,
    visit_game,
};

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
    Undo,
    Quit,
}

/// The commands a person may type at the prompt, for `help`.
pub const SEAT_HELP: &str = concat!(
    "  MOVE          play a move in the game's notation (a compound turn one ply at a time)\n",
    "  moves         the legal moves, grouped by the cell they start from\n",
    "  moves CELL    the legal moves from CELL (or starting with any text: `moves b1-b2;`)\n",
    "  undo          take back your last full turn (and the replies since)\n",
    "  hint          ask the opposing agent's search for a move\n",
    "  help, ?       this list\n",
    "  quit          abandon the game (no result)"
);

/// The legal moves of `state` for a person, as lines: up to 20 on one line;
/// more grouped by the cell they start from (the first cell named in their
/// text, [`engine::BoardPicture::cells_in`]), one group a line, compound
/// turns (`m1;m2`) collapsed to their first ply and a count. With `only`,
/// the moves from that cell, or else those whose text starts with it, in
/// full. Lines wrap at about 100 characters.
pub fn moves_for_people<S: Research>(state: &S, only: Option<&str>) -> Vec<String> {
    let mut moves = Vec::new();
    let mut outs = Vec::new();
    match state.to_move() {
        ToMove::Terminal => return vec!["the game is over: no moves".into()],
        ToMove::Chance => {
            state.chance_outcomes(&mut outs);
            moves = outs.iter().map(|&(m, _)| m).collect();
        }
        ToMove::Seat(_) => state.legal_moves(&mut moves),
    }
    let texts: Vec<String> = moves.iter().map(|&m| state.move_to_text(m)).collect();
    let pic = state.board_picture();
    let first_cell = |t: &str| -> Option<String> {
        let p = pic.as_ref()?;
        p.cells_in(t).first().map(|&k| p.cells[k].name.clone())
    };
    if let Some(only) = only {
        let picked: Vec<&String> = texts
            .iter()
            .filter(|t| first_cell(t).as_deref() == Some(only))
            .collect();
        let picked = if picked.is_empty() {
            texts.iter().filter(|t| t.starts_with(only)).collect()
        } else {
            picked
        };
        let mut lines = vec![format!("{} legal moves from {only}:", picked.len())];
        lines.extend(wrap(picked.iter().map(|t| t.as_str()), "  "));
        return lines;
    }
    if texts.len() <= 20 {
        return vec![format!("{} legal moves: {}", texts.len(), texts.join(" "))];
    }
    // Groups in order of first appearance.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for t in &texts {
        let key = first_cell(t).unwrap_or_else(|| "other".into());
        let shown = match t.split_once(';') {
            Some((head, _)) => format!("{head};"),
            None => t.clone(),
        };
        let i = match groups.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                groups.push((key, Vec::new()));
                groups.len() - 1
            }
        };
        groups[i].1.push(shown);
    }
    let mut lines = vec![format!(
        "{} legal moves, by the cell they start from (`m1;..(n)`: n compound turns \
         starting with m1; `moves CELL` or `moves m1;` lists them):",
        texts.len()
    )];
    for (key, items) in groups {
        // Collapse repeats (the compound turns' first plies) to a count.
        let mut seen: Vec<(String, usize)> = Vec::new();
        for it in items {
            match seen.iter_mut().find(|(t, _)| *t == it) {
                Some((_, n)) => *n += 1,
                None => seen.push((it, 1)),
            }
        }
        let words: Vec<String> = seen
            .into_iter()
            .map(|(t, n)| {
                if t.ends_with(';') {
                    format!("{t}..({n})")
                } else {
                    t
                }
            })
            .collect();
        let mut w = wrap(words.iter().map(String::as_str), "    ");
        if let Some(first) = w.first_mut() {
            *first = format!("  {key}: {}", first.trim_start());
        }
        lines.extend(w);
    }
    lines
}

/// Words joined by spaces in lines of about 100 characters, each line
/// starting with `indent`.
fn wrap<'a>(words: impl Iterator<Item = &'a str>, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::from(indent);
    for w in words {
        if line.len() > indent.len() && line.len() + w.len() > 100 {
            lines.push(std::mem::replace(&mut line, String::from(indent)));
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if line.len() > indent.len() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Asks the person in seat `seat` for a move until one is legal, they take
/// back a turn (`undo`) or they quit (`quit`, or the end of the input);
/// `help` lists the commands, `hint` asks a fresh `hinter` (the opposing
/// agent) for a move.
fn ask<S: Research + engine::Search + 'static>(
    state: &S,
    seat: usize,
    last: Option<&str>,
    hinter: (&AgentSpec, u64),
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
        write!(out, "move (or `help`)> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(Answer::Quit);
        }
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match (word, rest.trim()) {
            ("", _) => {}
            ("quit", "") => return Ok(Answer::Quit),
            ("undo", "") => return Ok(Answer::Undo),
            ("help" | "?", "") => writeln!(out, "commands:\n{SEAT_HELP}")?,
            ("moves", only) => {
                let only = (!only.is_empty()).then_some(only);
                for l in moves_for_people(state, only) {
                    writeln!(out, "{l}")?;
                }
            }
            ("hint", "") => {
                let (spec, seed) = hinter;
                let mut agent = spec.build::<S>(seed);
                let mut info = None;
                let mv = agent.select_reporting(state, &mut |i| info = Some(i.line()));
                let text = state.move_to_text(mv);
                match info {
                    Some(i) => writeln!(out, "hint from {}: {text} ({i})", spec.canonical())?,
                    None => writeln!(out, "hint from {}: {text}", spec.canonical())?,
                }
            }
            _ => match parse_move_explained(state, line) {
                Ok(mv) => return Ok(Answer::Move(mv)),
                Err(e) => writeln!(
                    out,
                    "not played: {e}; try again (`help` lists the commands)"
                )?,
            },
        }
    }
}

/// The agent a person's `hint` asks: the first seat's agent that is not a
/// person, or `mcts(iterations=2000)` (with the game's search defaults
/// `d`) between people.
fn hint_agent(specs: &[AgentSpec], d: &engine::SearchDefaults) -> AgentSpec {
    specs
        .iter()
        .find(|s| !s.is_human() && !matches!(s, AgentSpec::External(_)))
        .cloned()
        .unwrap_or_else(|| AgentSpec::parse_with("mcts(iterations=2000)", d).expect("a valid spec"))
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
        let hinter = hint_agent(
            self.specs,
            &engine::Search::search_defaults(&game.initial_state(0)),
        );
        // The position before each ply played here, with the record's length
        // then, for `undo`.
        let mut history: Vec<(G::State, usize)> = Vec::new();
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
                            let seed = mix(args.seed, 1000 + u64::from(state.ply()));
                            match ask(&state, s, last, (&hinter, seed), self.input, self.out)? {
                                Answer::Move(mv) => (mv, who),
                                Answer::Undo => {
                                    match take_back(&mut history, s) {
                                        Some((before, len)) => {
                                            state = before;
                                            record.truncate(len);
                                            writeln!(
                                                self.out,
                                                "taken back to ply {}\n{state}\nposition: {}\n",
                                                state.ply(),
                                                state.to_text()
                                            )?;
                                        }
                                        None => writeln!(self.out, "nothing to undo")?,
                                    }
                                    continue;
                                }
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
            history.push((state.clone(), record.len()));
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

/// Takes back the last full turn of `seat`: the latest position in
/// `history` where `seat` was to move and had not moved just before (the
/// first ply of its turn: a compound turn's later plies, Sniggle's
/// continuations or the spinner's placements after its spin, go with it;
/// a chance outcome before them stays drawn), removing it and everything
/// after it. `None` where `seat` has not moved yet.
fn take_back<S: State>(history: &mut Vec<(S, usize)>, seat: usize) -> Option<(S, usize)> {
    let starts_turn = |k: usize, h: &[(S, usize)]| {
        h[k].0.to_move() == ToMove::Seat(seat)
            && (k == 0 || h[k - 1].0.to_move() != ToMove::Seat(seat))
    };
    let k = (0..history.len())
        .rev()
        .find(|&k| starts_turn(k, history))?;
    history.truncate(k + 1);
    history.pop()
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
        .map(|a| AgentSpec::parse_in(a, &args.game).map_err(|e| anyhow!("{e}")))
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
