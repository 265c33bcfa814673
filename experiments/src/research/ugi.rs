//! `boardlab engine`: one agent behind UGI, the game-agnostic form of UCI
//! used by the cutegames match runner, on standard input and output; when
//! the game is chess (`royal_guard(royal_powers=false)`), behind UCI too, so
//! that cutechess-cli, fastchess or any chess GUI can drive it.
//!
//! Commands (one per line; anything else is answered with an `info string
//! error: ...` line and otherwise ignored, never a crash):
//! * `ugi` → `id name ...`, `id author ...`, `option ...` lines, `ugiok`;
//! * `uci` → the same with `uciok`, where the game is chess; the session
//!   is then a UCI one: its `info` lines are UCI's (`info depth D score cp
//!   X nodes N time T nps N pv ...`, `score mate M` for a proven result).
//!   Royal Guard's moves are UCI long algebraic and its positions FEN
//!   already, so `position` and `bestmove` need no translation. For any
//!   other game `uci` is answered with an error naming `ugi`, and no
//!   `uciok`;
//! * `isready` → `readyok`;
//! * `setoption name seed value N` (the agent's seed; default 1),
//!   `setoption name agent value SPEC` (another agent spec);
//! * `uginewgame`: back to the start position, a fresh agent;
//! * `position startpos [moves M...]`, `position fen <position text> [moves
//!   M...]`: moves in the game's notation, chance outcomes included;
//! * `go [movetime N | nodes N | depth N | wtime N btime N winc N binc N |
//!   p1time N p2time N p1inc N p2inc N | infinite]`: the budget replaces the
//!   agent's own (`movetime` sets `ms`, `nodes` the iterations of `mcts` and
//!   `uct` or the node cap of `solver`, `depth` alpha-beta's depth; a clock
//!   gives `remaining / 20 + 3/4 increment` of the side to move); a budget
//!   the agent has no knob for is reported and the agent's own is used, as
//!   for a bare `go` or `go infinite`. `info` lines as the search goes, then
//!   `bestmove M` (`bestmove none` where no seat is to move);
//! * `query gameover | p1turn | result` → `response true|false`, `response
//!   p1win|p2win|...|draw|none`;
//! * `stop` (accepted; a search runs to its budget, so there is nothing to
//!   stop), `quit`.
//!
//! The agent is kept from one `go` to the next while its budget does not
//! change (so MCTS reuses its tree as in-process), and built afresh with the
//! `seed` option otherwise: with the same seed and a fixed budget it plays
//! the moves it plays in-process.

use std::io::{BufRead, Write};

use anyhow::{Result, anyhow};

use agents::{Agent, AgentSpec};
use engine::spec::Spec;
use engine::{Game, GameVisitor, State, ToMove, parse_legal_move, visit_game};

/// A `go` command's limits, in milliseconds, nodes or plies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `depth`.
    pub depth: Option<u64>,
    /// Remaining time per seat (`wtime`/`p1time`, `btime`/`p2time`).
    pub time: [Option<u64>; 2],
    /// Increment per seat (`winc`/`p1inc`, `binc`/`p2inc`).
    pub inc: [Option<u64>; 2],
}

impl GoLimits {
    /// Parses the words after `go`. Unknown words and bad numbers are
    /// returned as messages and skipped.
    pub fn parse(words: &[&str]) -> (GoLimits, Vec<String>) {
        let mut g = GoLimits::default();
        let mut errors = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            if w == "infinite" || w == "ponder" {
                i += 1;
                continue;
            }
            let slot: Option<&mut Option<u64>> = match w {
                "movetime" => Some(&mut g.movetime),
                "nodes" => Some(&mut g.nodes),
                "depth" => Some(&mut g.depth),
                "wtime" | "p1time" => Some(&mut g.time[0]),
                "btime" | "p2time" => Some(&mut g.time[1]),
                "winc" | "p1inc" => Some(&mut g.inc[0]),
                "binc" | "p2inc" => Some(&mut g.inc[1]),
                "movestogo" | "mate" => None,
                _ => {
                    errors.push(format!("go: unknown word {w:?} ignored"));
                    i += 1;
                    continue;
                }
            };
            match words.get(i + 1).map(|v| v.parse::<u64>()) {
                Some(Ok(v)) => {
                    if let Some(slot) = slot {
                        *slot = Some(v);
                    }
                    i += 2;
                }
                _ => {
                    errors.push(format!(
                        "go: {w} needs a whole number >= 0 after it; ignored"
                    ));
                    i += 1;
                }
            }
        }
        (g, errors)
    }

    /// The milliseconds to spend: `movetime`, or a share of the clock of
    /// `seat` (`remaining / 20 + 3/4 of the increment`, at most half the
    /// remaining time, at least 1).
    pub fn millis(&self, seat: usize) -> Option<u64> {
        if let Some(ms) = self.movetime {
            return Some(ms.max(1));
        }
        let left = (*self.time.get(seat)?)?;
        let inc = self.inc.get(seat).copied().flatten().unwrap_or(0);
        Some((left / 20 + inc * 3 / 4).min(left / 2).max(1))
    }
}

/// The agent spec `base` with the budget of a `go` command, read with the
/// game's search defaults `game`; messages for limits the agent has no
/// knob for.
///
/// # Errors
/// The spec the limits give does not parse (e.g. `go depth 99` for
/// alpha-beta, whose depth is at most 64).
pub fn budget_spec(
    base: &Spec,
    go: &GoLimits,
    seat: usize,
    game: &engine::SearchDefaults,
) -> Result<(AgentSpec, Vec<String>)> {
    let mut set: Vec<(&str, String)> = Vec::new();
    let mut notes = Vec::new();
    let name = base.name.as_str();
    let mut unsupported = |what: &str| {
        notes.push(format!(
            "go {what}: agent {name} has no such budget; it searches with its own"
        ))
    };
    if let Some(d) = go.depth {
        match name {
            "alphabeta" => set.extend([("depth", d.to_string()), ("ms", "0".into())]),
            _ => unsupported("depth"),
        }
    } else if let Some(n) = go.nodes {
        match name {
            "mcts" | "uct" => set.extend([("iterations", n.to_string()), ("ms", "0".into())]),
            "solver" => set.push(("nodes", n.to_string())),
            _ => unsupported("nodes"),
        }
    } else if let Some(ms) = go.millis(seat) {
        match name {
            "mcts" => set.extend([("iterations", "0".into()), ("ms", ms.to_string())]),
            "uct" => set.extend([("iterations", u32::MAX.to_string()), ("ms", ms.to_string())]),
            "alphabeta" => set.extend([("depth", "64".into()), ("ms", ms.to_string())]),
            _ => unsupported("movetime"),
        }
    }
    let mut args = base.args.clone();
    for (k, v) in set {
        match args.iter_mut().find(|(key, _)| key == k) {
            Some(slot) => slot.1 = v,
            None => args.push((k.to_string(), v)),
        }
    }
    let text = if args.is_empty() {
        base.name.clone()
    } else {
        let parts: Vec<String> = args.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{}({})", base.name, parts.join(","))
    };
    let spec = AgentSpec::parse_with(&text, game).map_err(|e| anyhow!("{e}"))?;
    Ok((spec, notes))
}

/// An agent with the canonical spec it was built from.
type BuiltAgent<S> = (String, Box<dyn Agent<S>>);

/// Whether `game_string` (canonical) is FIDE chess, the one game UCI
/// speaks: Royal Guard without its royal powers.
pub fn is_chess(game_string: &str) -> bool {
    Spec::parse(game_string).is_ok_and(|s| {
        s.name == "royal_guard"
            && s.args
                .iter()
                .any(|(k, v)| k == "royal_powers" && v == "false")
    })
}

/// The UCI form of a search report: `info [depth D] score cp X|mate M
/// nodes N time T nps N [pv ...]`. A score in the game's evaluation units
/// (centipawns for chess) is given as it is; a mean return is converted
/// from its win probability `p` as `cp = 400 log10(p / (1 - p))` (the Elo
/// gap that scores `p`), capped at ±10000; a proven win or loss in `n`
/// plies is `mate ±ceil(n / 2)` (moves, negative when losing).
pub fn uci_info_line(info: &agents::SearchInfo) -> String {
    let mut s = String::from("info");
    if let Some(d) = info.depth {
        s += &format!(" depth {d}");
    }
    let plies = |p: &str, prefix: &str| -> Option<i64> {
        p.strip_prefix(prefix)?
            .split_whitespace()
            .next()?
            .parse::<i64>()
            .ok()
    };
    let proven = info.proven.as_deref();
    let mate = proven.and_then(|p| {
        plies(p, "win in ")
            .map(|n| (n + 1) / 2)
            .or_else(|| plies(p, "loss in ").map(|n| -(n + 1) / 2))
    });
    match mate {
        Some(m) => s += &format!(" score mate {m}"),
        None => {
            let cp = if info.score_units == "eval" {
                info.score
            } else {
                let p = info.win_probability.clamp(1e-9, 1.0 - 1e-9);
                400.0 * (p / (1.0 - p)).log10()
            };
            s += &format!(" score cp {}", cp.clamp(-10_000.0, 10_000.0).round() as i64);
        }
    }
    s += &format!(
        " nodes {} time {} nps {:.0}",
        info.nodes, info.elapsed_ms, info.rate
    );
    if !info.pv.is_empty() {
        s += &format!(" pv {}", info.pv.join(" "));
    }
    s
}

/// One engine session over a concrete game.
struct Session<'a, G: Game> {
    game: G,
    /// Set by `uci`: report in UCI's `info` form.
    uci: bool,
    base: Spec,
    /// The game's search defaults, for what the spec leaves out.
    defaults: engine::SearchDefaults,
    seed: u64,
    state: G::State,
    /// The agent, kept while its spec stays the same.
    agent: Option<BuiltAgent<G::State>>,
    out: &'a mut dyn Write,
}

impl<G: Game> Session<'_, G> {
    fn error(&mut self, msg: &str) -> std::io::Result<()> {
        writeln!(self.out, "info string error: {}", msg.replace('\n', " "))
    }

    /// Handles one line; false on `quit`.
    fn line(&mut self, line: &str) -> std::io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = words.split_first() else {
            return Ok(true);
        };
        match cmd {
            "uci" if !is_chess(&self.game.game_string()) => self.error(&format!(
                "uci: UCI speaks chess, and this engine plays {}; send ugi (the game-agnostic form) instead",
                self.game.game_string()
            ))?,
            "ugi" | "uci" => {
                self.uci = cmd == "uci";
                writeln!(
                    self.out,
                    "id name boardlab {} {}",
                    env!("CARGO_PKG_VERSION"),
                    self.base_text()
                )?;
                writeln!(self.out, "id author the boardlab authors")?;
                writeln!(
                    self.out,
                    "option name seed type spin default 1 min 0 max {}",
                    i64::MAX
                )?;
                writeln!(
                    self.out,
                    "option name agent type string default {}",
                    self.base_text()
                )?;
                writeln!(self.out, "info string game {}", self.game.game_string())?;
                writeln!(self.out, "{}ok", cmd)?;
            }
            "isready" => writeln!(self.out, "readyok")?,
            "setoption" => self.setoption(rest)?,
            "uginewgame" | "ucinewgame" => {
                self.state = self.game.initial_state(0);
                self.agent = None;
            }
            "position" => self.position(line, rest)?,
            "go" => self.go(rest)?,
            "query" => self.query(rest)?,
            "stop" => {}
            "quit" => return Ok(false),
            other => self.error(&format!(
                "unknown command {other:?} (known: ugi, uci, isready, setoption, uginewgame, ucinewgame, position, go, query, stop, quit)"
            ))?,
        }
        Ok(true)
    }

    fn base_text(&self) -> String {
        AgentSpec::parse_with(&spec_text(&self.base), &self.defaults)
            .map(|a| a.canonical())
            .unwrap_or_default()
    }

    fn setoption(&mut self, rest: &[&str]) -> std::io::Result<()> {
        let joined = rest.join(" ");
        let parsed = joined
            .strip_prefix("name ")
            .and_then(|r| r.split_once(" value "));
        let Some((name, value)) = parsed else {
            return self.error("setoption: expected `setoption name N value V`");
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "seed" => match value.trim().parse::<u64>() {
                Ok(s) => {
                    self.seed = s;
                    self.agent = None;
                }
                Err(_) => self.error(&format!(
                    "setoption seed: {:?} is not a whole number >= 0",
                    value.trim()
                ))?,
            },
            "agent" => match parse_base(
                value.trim(),
                &self.game.game_string(),
                self.game.num_seats(),
            ) {
                Ok(spec) => {
                    self.base = spec;
                    self.agent = None;
                }
                Err(e) => self.error(&format!("setoption agent: {e}"))?,
            },
            other => self.error(&format!(
                "setoption: unknown option {other:?} (known: seed, agent)"
            ))?,
        }
        Ok(())
    }

    fn position(&mut self, line: &str, rest: &[&str]) -> std::io::Result<()> {
        // The position text may hold spaces: take it from the line itself,
        // up to the word `moves`.
        let after = line.trim_start()["position".len()..].trim_start();
        let (head, moves) = match after.find(" moves") {
            Some(i) if after[i + 6..].is_empty() || after[i + 6..].starts_with(' ') => {
                (&after[..i], Some(&after[i + 6..]))
            }
            _ => match after.strip_prefix("moves") {
                Some(m) => ("", Some(m)),
                None => (after, None),
            },
        };
        let state = match rest.first().copied() {
            Some("startpos") if head.trim() == "startpos" => Ok(self.game.initial_state(0)),
            Some("fen") => {
                let text = head.trim()["fen".len()..].trim();
                self.game
                    .parse_position(text)
                    .map_err(|e| format!("position fen: {e}"))
            }
            _ => Err("position: expected `position startpos [moves M...]` or `position fen <position text> [moves M...]`".to_string()),
        };
        let mut state = match state {
            Ok(s) => s,
            Err(e) => return self.error(&e),
        };
        for (i, m) in moves.unwrap_or("").split_whitespace().enumerate() {
            match parse_legal_move(&state, m) {
                Ok(mv) => state.apply(mv),
                Err(e) => {
                    return self.error(&format!(
                        "position: move {} of the list: {e}; position unchanged",
                        i + 1
                    ));
                }
            }
        }
        self.state = state;
        Ok(())
    }

    fn go(&mut self, rest: &[&str]) -> std::io::Result<()> {
        let (limits, errors) = GoLimits::parse(rest);
        for e in errors {
            self.error(&e)?;
        }
        let seat = match self.state.to_move() {
            ToMove::Seat(s) => s,
            ToMove::Terminal => {
                self.error("go: the game is over")?;
                return writeln!(self.out, "bestmove none");
            }
            ToMove::Chance => {
                self.error("go: a chance node; give its outcome in `position ... moves`")?;
                return writeln!(self.out, "bestmove none");
            }
        };
        let spec = match budget_spec(&self.base, &limits, seat, &self.defaults) {
            Ok((spec, notes)) => {
                for n in notes {
                    writeln!(self.out, "info string {n}")?;
                }
                spec
            }
            Err(e) => {
                self.error(&format!("go: {e}; the agent searches with its own budget"))?;
                AgentSpec::parse_with(&spec_text(&self.base), &self.defaults)
                    .expect("checked at start")
            }
        };
        let canonical = spec.canonical();
        if self.agent.as_ref().is_none_or(|(c, _)| *c != canonical) {
            self.agent = Some((canonical, spec.build::<G::State>(self.seed)));
        }
        let (_, agent) = self.agent.as_mut().expect("built");
        let out = &mut *self.out;
        let mut io_err = None;
        let uci = self.uci;
        let mv = agent.select_reporting(&self.state, &mut |info| {
            let line = if uci {
                uci_info_line(info)
            } else {
                info.line()
            };
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                io_err = Some(e);
            }
        });
        if let Some(e) = io_err {
            return Err(e);
        }
        writeln!(self.out, "bestmove {}", self.state.move_to_text(mv))
    }

    fn query(&mut self, rest: &[&str]) -> std::io::Result<()> {
        let answer = match rest {
            ["gameover"] => self.state.is_terminal().to_string(),
            ["p1turn"] => (self.state.to_move() == ToMove::Seat(0)).to_string(),
            ["result"] => result_text(&self.state),
            _ => {
                return self
                    .error("query: expected `query gameover`, `query p1turn` or `query result`");
            }
        };
        writeln!(self.out, "response {answer}")
    }
}

/// `none` before the end; `draw` if every seat's return is equal; else
/// `pKwin` for the best seat K (seats count from 1; partners with equal best
/// returns are joined, e.g. `p1p3win`). A one-seat game's end gives
/// `score R`.
fn result_text<S: State>(state: &S) -> String {
    if !state.is_terminal() {
        return "none".into();
    }
    let n = state.num_seats();
    let r = state.returns();
    if n == 1 {
        return format!("score {}", r[0]);
    }
    let best = r[..n].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let winners: Vec<usize> = (0..n).filter(|&s| r[s] == best).collect();
    if winners.len() == n {
        return "draw".into();
    }
    let names: String = winners.iter().map(|s| format!("p{}", s + 1)).collect();
    format!("{names}win")
}

/// The text of a spec (its name and arguments).
fn spec_text(spec: &Spec) -> String {
    if spec.args.is_empty() {
        spec.name.clone()
    } else {
        let parts: Vec<String> = spec.args.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{}({})", spec.name, parts.join(","))
    }
}

/// Parses and checks an agent spec for the game `game` (its search
/// defaults and evaluation weights) of `seats` seats.
fn parse_base(text: &str, game: &str, seats: usize) -> Result<Spec> {
    let agent = AgentSpec::parse_in(text, game).map_err(|e| anyhow!("{e}"))?;
    agent.check_game(seats).map_err(|e| anyhow!("{e}"))?;
    Spec::parse(text).map_err(|e| anyhow!("{e}"))
}

struct EngineVisitor<'a> {
    agent: &'a str,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

impl GameVisitor for EngineVisitor<'_> {
    type Output = Result<()>;
    fn visit<G: Game>(self, game: G) -> Result<()> {
        let base = parse_base(self.agent, &game.game_string(), game.num_seats())
            .map_err(|e| anyhow!("--agent: {e}"))?;
        let state = game.initial_state(0);
        let defaults = engine::Search::search_defaults(&state);
        let mut session = Session {
            game,
            uci: false,
            base,
            defaults,
            seed: 1,
            state,
            agent: None,
            out: self.out,
        };
        let mut line = String::new();
        loop {
            line.clear();
            let n = match self.input.read_line(&mut line) {
                Ok(n) => n,
                // Input that is not UTF-8: answer and read on.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    session.error("the line is not UTF-8 text")?;
                    session.out.flush()?;
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            if n == 0 || !session.line(&line)? {
                break;
            }
            session.out.flush()?;
        }
        session.out.flush()?;
        Ok(())
    }
}

/// Runs the UGI engine for `game` and `agent`, reading commands from
/// `input` until `quit` or its end, answering on `out`.
///
/// # Errors
/// An unknown game or a bad agent spec (before anything is read), or an
/// input/output error.
pub fn engine(game: &str, agent: &str, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    visit_game(game, EngineVisitor { agent, input, out }).map_err(|e| anyhow!("{e}"))?
}
