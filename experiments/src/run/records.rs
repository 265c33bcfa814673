//! Game records: one game as one JSON object, in one format for every
//! game; `boardlab replay`, `export` and `report` read them.
//!
//! A run stores each game once, as a row of its games file (`run::rows`:
//! `FILE.csv`, or `FILE.csv.gz` compressed), which holds every move, the
//! start position, the agents and the end reason. [`read_records`] reads a
//! games file's rows as records, and JSON Lines records files too
//! (`play --records`, and swap maps and runs made before the games file
//! held the start position). The fields are those of [`Record`]
//! (docs/results-format.md).
//!
//! [`replay`] prints a record's boards ply by ply; [`verify`] replays every
//! record, checking each move's legality and the recorded end; [`pgn`]
//! writes two-seat games as PGN for rating tools (Ordo, BayesElo).

use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use agents::AgentSpec;
use engine::{Game, GameVisitor, Research, State, ToMove, parse_legal_move, visit_game};

use crate::run::{GameRecord, PlaySetup};

/// One finished game, as a line of a records file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The boardlab version that played the game (`CARGO_PKG_VERSION`; for
    /// a record read from a games file, whose rows do not say, the version
    /// that read it).
    pub boardlab: String,
    /// The canonical game string, every parameter spelled out.
    pub game: String,
    /// The game's index within its run (the CSV's `game_index`).
    pub index: u64,
    /// The game seed: the initial state is `initial_state(seed)` unless the
    /// game started from an opening, chance outcomes come from
    /// `mix(seed, 0)`, agent `a` of the run from `mix(seed, a + 1)` (by seat
    /// `s`, `mix(seed, s + 1)`, in runs made before per-agent seeding, commit 7307969).
    pub seed: u64,
    /// The position text of the state the first move of `moves` was played
    /// from (after the opening, if any).
    pub start: String,
    /// The index of the opening in the run's list, if the game started
    /// from one.
    #[serde(default)]
    pub opening: Option<u32>,
    /// The opening: its moves from the game's start, or the position text
    /// an openings file gave; `null` without one.
    #[serde(default)]
    pub opening_moves: Option<String>,
    /// The canonical spec of the agent in each seat, seat 0 first.
    pub agents: Vec<String>,
    /// Every ply in the game's notation, chance outcomes and pie swaps
    /// included.
    pub moves: Vec<String>,
    /// Plies played (the length of `moves`).
    pub plies: u32,
    /// Whole turns played (see "Moves, plies and turns" in `engine::api`).
    pub turns: u32,
    /// Winning seats: those with the highest return; empty for a draw.
    pub winners: Vec<usize>,
    /// The return of each seat (win 1, loss -1, draw 0; a one-seat game's
    /// score).
    pub returns: Vec<f64>,
    /// Why the game ended, in the game's own terms (`null` where the game
    /// does not say).
    pub end: Option<String>,
}

/// The records file beside a games file `FILE`: `FILE.records.jsonl`, where
/// swap maps and runs made before the games file held the start position
/// wrote their records.
pub fn records_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".records.jsonl");
    PathBuf::from(p)
}

/// The winners of `returns` as the CSV counts them: the seats with the
/// highest return, none if every seat of a game of two or more ties.
pub fn winners(returns: &[f64]) -> Vec<usize> {
    let best = returns.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut w: Vec<usize> = (0..returns.len()).filter(|&s| returns[s] == best).collect();
    if w.len() == returns.len() && returns.len() > 1 {
        w.clear();
    }
    w
}

/// The state a row's moves start from: its opening's, or
/// `initial_state(seed)`.
///
/// # Errors
/// An opening index the run does not have.
fn start_state<G: Game>(game: &G, setup: &PlaySetup<G::State>, r: &GameRecord) -> Result<G::State> {
    Ok(match r.opening {
        Some(k) => setup
            .openings
            .get(k as usize)
            .ok_or_else(|| anyhow!("game {}: no opening {k} in this run", r.index))?
            .state
            .clone(),
        None => game.initial_state(r.seed),
    })
}

/// The position text a row's moves start from: the row's `start`, or
/// (rows written before that column) its opening's or `initial_state(seed)`.
///
/// # Errors
/// An opening index the run does not have.
pub fn start_text<G: Game>(
    game: &G,
    setup: &PlaySetup<G::State>,
    r: &GameRecord,
) -> Result<String> {
    match &r.start {
        Some(s) => Ok(s.clone()),
        None => Ok(start_state(game, setup, r)?.to_text()),
    }
}

/// A row's game replayed: the state after its last move and the whole
/// turns played, each move checked for legality.
///
/// # Errors
/// An opening the run does not have, or a move that is malformed or
/// illegal (named by its number).
pub fn replay_row<G: Game>(
    game: &G,
    setup: &PlaySetup<G::State>,
    r: &GameRecord,
) -> Result<(G::State, u32)> {
    let mut state = start_state(game, setup, r)?;
    let mut turns = 0;
    for (i, m) in r.moves.split_whitespace().enumerate() {
        let mv = parse_legal_move(&state, m)
            .map_err(|e| anyhow!("game {}: move {}: {e}", r.index, i + 1))?;
        state.apply(mv);
        turns += u32::from(!state.continues_turn());
    }
    Ok((state, turns))
}

/// Appends one record to `path` as a flushed line (the file is created if
/// needed).
///
/// # Errors
/// A file that cannot be written.
pub fn append(path: &Path, rec: &Record) -> Result<()> {
    let line = serde_json::to_string(rec)? + "\n";
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()).and_then(|()| f.flush()))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Whether `path` is a tournament's games file (`FILE.csv`, or compressed
/// `FILE.csv.gz`), as opposed to a JSON Lines records file.
pub fn is_games_table(path: &Path) -> bool {
    crate::run::storage::base_name(path)
        .extension()
        .is_some_and(|e| e == "csv")
}

/// Reads a records file (JSON Lines, plain or `.gz`) or a tournament's
/// games file (`FILE.csv` or `FILE.csv.gz`, whose rows hold every move):
/// each game's record with its line number (from 1; a games file's header
/// is line 1).
///
/// # Errors
/// An unreadable file, a file without games, a line that is not a record or
/// a row (the error names it), a row without its start position or turns
/// that cannot be found without the run's openings.
pub fn read_records(path: &Path) -> Result<Vec<(usize, Record)>> {
    let mut out = Vec::new();
    if is_games_table(path) {
        let mut line = 1;
        crate::run::rows::for_each_game_row(path, false, |row, n, shape| {
            line += 1;
            out.push((line, record_of_row(&row, n, shape)?));
            Ok(())
        })?;
    } else {
        for (i, text) in crate::run::storage::lines(path)? {
            let text = text.with_context(|| format!("cannot read {}", path.display()))?;
            if text.trim().is_empty() {
                continue;
            }
            let rec: Record = serde_json::from_str(&text)
                .map_err(|e| anyhow!("{} line {i}: not a game record: {e}", path.display()))?;
            out.push((i, rec));
        }
    }
    if out.is_empty() {
        bail!("{} holds no games", path.display());
    }
    Ok(out)
}

/// The record of a games file's row. Rows written before the `start`
/// column existed start from `initial_state(seed)` when they have no
/// opening; the others need the run (resume it to add the column).
fn record_of_row(
    row: &crate::run::GameRow,
    n: usize,
    shape: crate::run::rows::Shape,
) -> Result<Record> {
    let r = row.to_record(n, shape, None)?;
    let start = match (&r.start, &r.opening_moves) {
        (Some(s), _) => s.clone(),
        (None, None) => {
            struct Start(u64);
            impl GameVisitor for Start {
                type Output = String;
                fn visit<G: Game>(self, game: G) -> String {
                    game.initial_state(self.0).to_text()
                }
            }
            visit_game(&row.game, Start(r.seed)).map_err(|e| anyhow!("{e}"))?
        }
        (None, Some(_)) => bail!(
            "game {}: no start column and an opening; run the command that made the file again to add the column",
            r.index
        ),
    };
    let moves: Vec<String> = r.moves.split_whitespace().map(str::to_string).collect();
    Ok(Record {
        boardlab: env!("CARGO_PKG_VERSION").to_string(),
        game: row.game.clone(),
        index: r.index,
        seed: r.seed,
        start,
        opening: r.opening,
        opening_moves: r.opening_moves.clone(),
        agents: row.specs(n),
        plies: moves.len() as u32,
        moves,
        turns: r
            .turns
            .ok_or_else(|| anyhow!("game {}: no turns column", r.index))?,
        winners: r.winners,
        returns: r.returns,
        end: r.end,
    })
}

/// Plays a record's moves from its start, checking each, and optionally
/// prints every board.
struct ReplayVisitor<'a> {
    rec: &'a Record,
    out: Option<&'a mut dyn Write>,
    /// Draw each position as `DIR/ply-NNNN.svg` (ply 0: the start).
    svg: Option<&'a Path>,
}

/// The state a record's moves are replayed from. Where the game began
/// with an opening of moves, the opening is played from the game's start
/// when that reaches the record's `start` exactly (every game whose start
/// does not depend on the seed; the run seed that made the opening is not
/// in the record, so the game's `initial_state(seed)` is tried), so the
/// opening's positions count towards a repetition as they did in play;
/// otherwise, and for an opening given as a position text, the `start`
/// position text.
fn replay_start<G: Game>(game: &G, rec: &Record) -> Result<G::State> {
    let start = game
        .parse_position(&rec.start)
        .map_err(|e| anyhow!("start: {e}"))?;
    let Some(opening) = rec.opening_moves.as_deref() else {
        return Ok(start);
    };
    let mut state = game.initial_state(rec.seed);
    for m in opening.split_whitespace() {
        let Ok(mv) = parse_legal_move(&state, m) else {
            return Ok(start);
        };
        state.apply(mv);
    }
    Ok(if state.to_text() == start.to_text() {
        state
    } else {
        start
    })
}

/// Writes the picture of `state` after `ply` plies into `dir`.
fn draw<S: engine::Research>(dir: &Path, ply: usize, state: &S) -> Result<()> {
    let Some(svg) = crate::output::svg::svg_of(state) else {
        bail!("this game has no board picture");
    };
    let path = dir.join(format!("ply-{ply:04}.svg"));
    std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))
}

/// Whether an end reason is a forfeit (`forfeit: crash|timeout|illegal move`).
fn is_forfeit(end: &Option<String>) -> bool {
    end.as_deref().is_some_and(|e| e.starts_with("forfeit"))
}

/// What replaying a record found.
struct Replayed {
    turns: u32,
    terminal: bool,
    /// The seat to move after the last move, if a seat is.
    to_move: Option<usize>,
    returns: Vec<f64>,
    end: Option<String>,
}

impl GameVisitor for ReplayVisitor<'_> {
    type Output = Result<Replayed>;
    fn visit<G: Game>(mut self, game: G) -> Result<Replayed> {
        let rec = self.rec;
        let n = game.num_seats();
        if rec.agents.len() != n {
            bail!("{} agents for a game of {n} seats", rec.agents.len());
        }
        // Read in the record's game: an agent may name the game's
        // evaluation weights (`w_<term>`).
        for a in &rec.agents {
            AgentSpec::parse_in(a, &rec.game).map_err(|e| anyhow!("{e}"))?;
        }
        let mut state = replay_start(&game, rec)?;
        if let Some(out) = self.out.as_deref_mut() {
            writeln!(out, "{} game {} seed {}", rec.game, rec.index, rec.seed)?;
            for (s, a) in rec.agents.iter().enumerate() {
                writeln!(out, "seat {s}: {a}")?;
            }
            writeln!(out, "\n{state}\nposition: {}\n", state.to_text())?;
        }
        if let Some(dir) = self.svg {
            draw(dir, 0, &state)?;
        }
        let mut turns = 0;
        for (i, m) in rec.moves.iter().enumerate() {
            let who = match state.to_move() {
                ToMove::Seat(s) => format!("seat {s}"),
                ToMove::Chance => "chance".to_string(),
                ToMove::Terminal => {
                    bail!("move {} {m:?}: the game is already over", i + 1)
                }
            };
            let mv = parse_legal_move(&state, m).map_err(|e| anyhow!("move {}: {e}", i + 1))?;
            state.apply(mv);
            turns += u32::from(!state.continues_turn());
            if let Some(dir) = self.svg {
                draw(dir, i + 1, &state)?;
            }
            if let Some(out) = self.out.as_deref_mut() {
                writeln!(
                    out,
                    "ply {}: {who} plays {m}\n{state}\nposition: {}\n",
                    i + 1,
                    state.to_text()
                )?;
            }
        }
        let r = state.returns();
        let end = state.end_reason().map(str::to_string);
        if let Some(out) = self.out.as_deref_mut() {
            let rs: Vec<String> = (0..n).map(|s| format!("seat {s} {}", r[s])).collect();
            writeln!(
                out,
                "returns: {}; end: {}",
                rs.join(", "),
                end.as_deref().unwrap_or("-")
            )?;
        }
        Ok(Replayed {
            turns,
            terminal: state.is_terminal(),
            to_move: match state.to_move() {
                ToMove::Seat(s) => Some(s),
                _ => None,
            },
            returns: r[..n].to_vec(),
            end,
        })
    }
}

fn replay_one<'a>(rec: &'a Record, out: Option<&'a mut dyn Write>) -> Result<Replayed> {
    replay_drawn(rec, out, None)
}

fn replay_drawn<'a>(
    rec: &'a Record,
    out: Option<&'a mut dyn Write>,
    svg: Option<&'a Path>,
) -> Result<Replayed> {
    visit_game(&rec.game, ReplayVisitor { rec, out, svg }).map_err(|e| anyhow!("{e}"))?
}

/// Prints the boards of one game of a records file ply by ply: the game
/// with index `index`, or the first record if `None`.
///
/// # Errors
/// An unreadable file or record, no game with that index, a move that does
/// not replay.
pub fn replay(path: &Path, index: Option<u64>, out: &mut dyn Write) -> Result<()> {
    replay_svg(path, index, out, None)
}

/// [`replay`], also drawing every position as an SVG file in `svg`
/// (`ply-0000.svg` the start, then one per ply); the folder is created.
///
/// # Errors
/// As [`replay`], and a folder or picture that cannot be written.
pub fn replay_svg(
    path: &Path,
    index: Option<u64>,
    out: &mut dyn Write,
    svg: Option<&Path>,
) -> Result<()> {
    if let Some(dir) = svg {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let records = read_records(path)?;
    let (line, rec) = match index {
        None => records
            .first()
            .ok_or_else(|| anyhow!("{} holds no records", path.display()))?,
        Some(i) => records
            .iter()
            .find(|(_, r)| r.index == i)
            .ok_or_else(|| anyhow!("{} holds no game with index {i}", path.display()))?,
    };
    replay_drawn(rec, Some(out), svg)
        .map(|_| ())
        .with_context(|| format!("{} line {line} (game {})", path.display(), rec.index))
}

/// Checks one record against its replay.
fn verify_one(rec: &Record) -> Result<()> {
    let mut got = replay_one(rec, None)?;
    if rec.plies as usize != rec.moves.len() {
        bail!("plies {} but {} moves recorded", rec.plies, rec.moves.len());
    }
    if is_forfeit(&rec.end) {
        // The seat to move forfeited: it loses, every other seat wins.
        let Some(seat) = got.to_move.filter(|_| !got.terminal) else {
            bail!("a forfeit recorded where no seat was to move");
        };
        got.terminal = true;
        got.returns = crate::run::play::forfeit_returns(rec.returns.len(), seat);
        got.end = rec.end.clone();
    }
    if !got.terminal {
        bail!("the game is not over after its {} moves", rec.moves.len());
    }
    if got.turns != rec.turns {
        bail!("turns {} recorded, {} replayed", rec.turns, got.turns);
    }
    if got.returns != rec.returns {
        bail!(
            "returns {:?} recorded, {:?} replayed",
            rec.returns,
            got.returns
        );
    }
    if winners(&got.returns) != rec.winners {
        bail!(
            "winners {:?} recorded, {:?} replayed",
            rec.winners,
            winners(&got.returns)
        );
    }
    if got.end != rec.end {
        bail!("end {:?} recorded, {:?} replayed", rec.end, got.end);
    }
    Ok(())
}

/// Replays every record of a file, checking each move's legality, that the
/// game is over after the last move, and the recorded plies, turns,
/// returns, winners and end reason. Returns the number of records.
///
/// # Errors
/// The first record that does not reproduce, named by its line.
pub fn verify(path: &Path) -> Result<usize> {
    let records = read_records(path)?;
    for (line, rec) in &records {
        verify_one(rec).map_err(|e| {
            anyhow!(
                "{} line {line} (game {}) does not reproduce: {e:#}",
                path.display(),
                rec.index
            )
        })?;
    }
    Ok(records.len())
}

/// The standard chess start, Royal Guard's default position text.
const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// For Royal Guard with `royal_powers=false` (FIDE chess): the moves in
/// SAN with move numbers (`1. f3 e5 2. g4 Qh4#`), replayed from the
/// record's start. `None` for every other game.
fn chess_movetext(rec: &Record) -> Result<Option<Vec<String>>> {
    let spec = engine::spec::Spec::parse(&rec.game).map_err(|e| anyhow!("{e}"))?;
    if spec.name != "royal_guard" {
        return Ok(None);
    }
    let game = engine::royal_guard::RoyalGuardGame::from_spec(&spec).map_err(|e| anyhow!("{e}"))?;
    if game.rules().royal_powers {
        return Ok(None);
    }
    let mut state = game
        .parse_position(&rec.start)
        .map_err(|e| anyhow!("start: {e}"))?;
    let fields: Vec<&str> = rec.start.split_whitespace().collect();
    let mut number: u32 = fields.get(5).and_then(|f| f.parse().ok()).unwrap_or(1);
    let mut white = fields.get(1) != Some(&"b");
    let mut words = Vec::new();
    for (i, m) in rec.moves.iter().enumerate() {
        let mv = parse_legal_move(&state, m).map_err(|e| anyhow!("move {}: {e}", i + 1))?;
        if white {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(state.san(mv));
        state.apply(mv);
        if !white {
            number += 1;
        }
        white = !white;
    }
    Ok(Some(words))
}

/// Words joined into lines of at most 79 characters (PGN's export format).
fn wrap(words: &[String]) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    for w in words {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.len() + 1 + w.len() > 79 {
            lines.push(w.clone());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(w);
        }
    }
    lines.join("\n")
}

/// A PGN tag value: backslashes and quotes escaped.
fn tag(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes the two-seat games of a records file as PGN: the seven-tag
/// roster (`Event` is `boardlab <game>`, `Round` the game index + 1,
/// `White` the seat-0 agent, `Black` the seat-1 agent, `Result` from seat
/// 0's returns), then `Game`, `Seed`, `Plies` and `End` tags, then the
/// moves and the result. Royal Guard with `royal_powers=false` is FIDE
/// chess: its moves are SAN with move numbers (and `SetUp`/`FEN` tags when
/// the game did not start from the standard position), so chess programs
/// read the games. Every other game's moves, in its own notation, go
/// inside one `{...}` comment, which chess parsers skip. Rating tools
/// (Ordo, BayesElo) need only the tags and the result, so every two-seat
/// game can be rated.
///
/// # Errors
/// An unreadable file or record, a game without two seats, an unwritable
/// output.
pub fn pgn(path: &Path, out: &mut dyn Write) -> Result<usize> {
    let records = read_records(path)?;
    let mut text = String::new();
    for (line, rec) in &records {
        if rec.agents.len() != 2 || rec.returns.len() != 2 {
            bail!(
                "{} line {line}: PGN holds two-seat games; game {} has {} seats",
                path.display(),
                rec.index,
                rec.agents.len()
            );
        }
        let result = if rec.returns[0] > rec.returns[1] {
            "1-0"
        } else if rec.returns[0] < rec.returns[1] {
            "0-1"
        } else {
            "1/2-1/2"
        };
        let _ = writeln!(text, "[Event \"boardlab {}\"]", tag(&rec.game));
        let _ = writeln!(text, "[Site \"boardlab {}\"]", tag(&rec.boardlab));
        let _ = writeln!(text, "[Date \"????.??.??\"]");
        let _ = writeln!(text, "[Round \"{}\"]", rec.index + 1);
        let _ = writeln!(text, "[White \"{}\"]", tag(&rec.agents[0]));
        let _ = writeln!(text, "[Black \"{}\"]", tag(&rec.agents[1]));
        let _ = writeln!(text, "[Result \"{result}\"]");
        let _ = writeln!(text, "[Game \"{}\"]", tag(&rec.game));
        let _ = writeln!(text, "[Seed \"{}\"]", rec.seed);
        let _ = writeln!(text, "[Plies \"{}\"]", rec.plies);
        let _ = writeln!(text, "[End \"{}\"]", tag(rec.end.as_deref().unwrap_or("-")));
        let chess = chess_movetext(rec)
            .map_err(|e| anyhow!("{} line {line} (game {}): {e:#}", path.display(), rec.index))?;
        if let Some(mut words) = chess {
            if rec.start != CHESS_START {
                let _ = writeln!(text, "[SetUp \"1\"]");
                let _ = writeln!(text, "[FEN \"{}\"]", tag(&rec.start));
            }
            words.push(result.to_string());
            let _ = writeln!(text, "\n{}\n", wrap(&words));
            continue;
        }
        let _ = writeln!(text);
        // The export format's lines of at most 79 characters, one comment.
        let mut lines = vec![String::from("{")];
        for m in &rec.moves {
            let m = m.replace('}', ")");
            let last = lines.last_mut().expect("one line");
            if last.len() + 1 + m.len() > 79 {
                lines.push(m);
            } else {
                if last.len() > 1 {
                    last.push(' ');
                }
                last.push_str(&m);
            }
        }
        let _ = writeln!(text, "{}}} {result}\n", lines.join("\n"));
    }
    out.write_all(text.as_bytes())?;
    Ok(records.len())
}
