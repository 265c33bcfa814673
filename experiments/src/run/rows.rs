//! The tournament CSV: its columns, reading and writing rows, the
//! configuration file beside it, and the checks a resumed file must pass.
//!
//! Rows are read and written through one serde struct, [`GameRow`], by
//! column name: a file's header says which columns it has (one to four
//! seats' columns).
//!
//! Two shapes exist. The current one ([`header`]) keeps one kind of value
//! per column, for pandas and R: `seed` as hexadecimal text, `winner_seat`,
//! `winner_team` and `winner_agent` as integers or empty, a `draw` flag,
//! and separate `role_s`, `colour_s` and `team_s` columns. Files written
//! before the pandas-ready shape of commit fe5bbf3 ([`header_v1`]: the winners joined by `+` or `draw`, the
//! seed in decimal, one `role_s` label such as `setter/teal`; `turns`,
//! `end`, `opening` and `opening_moves` possibly missing) are still read;
//! a run that resumes one rewrites it in the current shape first
//! (`super::upgrade`), so one file never mixes the two.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize, Serializer};

use super::TournamentConfig;
use super::jobs::JobTable;
use super::play::GameRecord;
use super::storage;
use crate::output::csvfmt::{parse_seed, seed_text};

/// The columns of a tournament CSV for a game of `n` seats, in order.
pub fn header(n: usize) -> Vec<String> {
    let mut h: Vec<String> = vec!["game".into(), "game_index".into(), "seed".into()];
    for s in 0..n {
        h.push(format!("agent_{s}"));
        h.push(format!("spec_{s}"));
    }
    for c in ["winner_seat", "winner_team", "winner_agent", "draw"] {
        h.push(c.into());
    }
    h.extend((0..n).map(|s| format!("return_{s}")));
    h.extend((0..n).map(|s| format!("role_{s}")));
    h.extend((0..n).map(|s| format!("colour_{s}")));
    h.extend((0..n).map(|s| format!("team_{s}")));
    h.extend(tail_columns());
    h.push("start".into());
    h
}

/// The columns of a tournament CSV written before commit fe5bbf3 gave every
/// column one kind of value (read, never written: see the module notes).
pub fn header_v1(n: usize) -> Vec<String> {
    let mut h: Vec<String> = vec!["game".into(), "game_index".into(), "seed".into()];
    for s in 0..n {
        h.push(format!("agent_{s}"));
        h.push(format!("spec_{s}"));
    }
    h.push("winner_seat".into());
    h.push("winner_agent".into());
    h.extend((0..n).map(|s| format!("return_{s}")));
    h.extend((0..n).map(|s| format!("role_{s}")));
    h.extend(tail_columns());
    h
}

/// The last columns of both shapes (the current one then adds `start`).
fn tail_columns() -> Vec<String> {
    let mut h = Vec::new();
    for c in [
        "first_mover_seat",
        "setter_seat",
        "plies",
        "turns",
        "wall_ms",
        "moves",
        "end",
        "opening",
        "opening_moves",
    ] {
        h.push(c.into());
    }
    h
}

/// Columns a file in the first shape may lack (written before they
/// existed).
const OPTIONAL: &[&str] = &["turns", "end", "opening", "opening_moves"];

/// The two shapes of a tournament CSV (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Written before commit fe5bbf3: joined winners, decimal seeds, one role
    /// label per seat.
    V1,
    /// The current columns ([`header`]).
    Current,
}

/// Writes a float as Rust prints it (`1`, `-1`, `0.5`), as the files always
/// have.
fn plain_float<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => s.serialize_str(&x.to_string()),
        None => s.serialize_none(),
    }
}

/// One row of a tournament CSV, column by column (the columns are documented
/// in `docs/results-format.md`). Seat columns past the game's seat count are
/// absent from the file and `None` here.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct GameRow {
    pub game: String,
    pub game_index: u64,
    pub seed: String,
    #[serde(default)]
    pub agent_0: Option<usize>,
    #[serde(default)]
    pub spec_0: Option<String>,
    #[serde(default)]
    pub agent_1: Option<usize>,
    #[serde(default)]
    pub spec_1: Option<String>,
    #[serde(default)]
    pub agent_2: Option<usize>,
    #[serde(default)]
    pub spec_2: Option<String>,
    #[serde(default)]
    pub agent_3: Option<usize>,
    #[serde(default)]
    pub spec_3: Option<String>,
    /// Current shape: the winning seat when exactly one seat won, else
    /// empty. First shape: the winning seats joined by `+`, or `draw`.
    #[serde(default)]
    pub winner_seat: String,
    /// The winning team (team games), else empty.
    #[serde(default)]
    pub winner_team: Option<usize>,
    /// Current shape: the agent index of the winning seats when they all
    /// hold one agent, else empty. First shape: indices joined by `+`.
    #[serde(default)]
    pub winner_agent: String,
    /// 1 for a draw (every seat's return equal), else 0.
    #[serde(default)]
    pub draw: Option<u8>,
    #[serde(default, serialize_with = "plain_float")]
    pub return_0: Option<f64>,
    #[serde(default, serialize_with = "plain_float")]
    pub return_1: Option<f64>,
    #[serde(default, serialize_with = "plain_float")]
    pub return_2: Option<f64>,
    #[serde(default, serialize_with = "plain_float")]
    pub return_3: Option<f64>,
    #[serde(default)]
    pub role_0: Option<String>,
    #[serde(default)]
    pub role_1: Option<String>,
    #[serde(default)]
    pub role_2: Option<String>,
    #[serde(default)]
    pub role_3: Option<String>,
    #[serde(default)]
    pub colour_0: Option<String>,
    #[serde(default)]
    pub colour_1: Option<String>,
    #[serde(default)]
    pub colour_2: Option<String>,
    #[serde(default)]
    pub colour_3: Option<String>,
    #[serde(default)]
    pub team_0: Option<usize>,
    #[serde(default)]
    pub team_1: Option<usize>,
    #[serde(default)]
    pub team_2: Option<usize>,
    #[serde(default)]
    pub team_3: Option<usize>,
    pub first_mover_seat: Option<usize>,
    pub setter_seat: Option<usize>,
    pub plies: u32,
    #[serde(default)]
    pub turns: Option<u32>,
    pub wall_ms: u64,
    pub moves: String,
    #[serde(default)]
    pub end: Option<String>,
    #[serde(default)]
    pub opening: Option<u32>,
    #[serde(default)]
    pub opening_moves: Option<String>,
    /// The position text the moves start from (after the opening, if
    /// any); absent from files written before the column existed.
    #[serde(default)]
    pub start: Option<String>,
}

impl GameRow {
    /// The agent spec of each of the first `n` seats (empty where a row
    /// has none).
    pub fn specs(&self, n: usize) -> Vec<String> {
        (0..n)
            .map(|s| self.agent(s).1.unwrap_or_default().to_string())
            .collect()
    }

    fn agent(&self, s: usize) -> (Option<usize>, Option<&str>) {
        let (a, spec) = match s {
            0 => (self.agent_0, &self.spec_0),
            1 => (self.agent_1, &self.spec_1),
            2 => (self.agent_2, &self.spec_2),
            _ => (self.agent_3, &self.spec_3),
        };
        (a, spec.as_deref())
    }

    fn seat_return(&self, s: usize) -> Option<f64> {
        [self.return_0, self.return_1, self.return_2, self.return_3][s]
    }

    fn role(&self, s: usize) -> Option<&String> {
        [&self.role_0, &self.role_1, &self.role_2, &self.role_3][s].as_ref()
    }

    fn colour(&self, s: usize) -> Option<&String> {
        [
            &self.colour_0,
            &self.colour_1,
            &self.colour_2,
            &self.colour_3,
        ][s]
            .as_ref()
    }

    fn team(&self, s: usize) -> Option<usize> {
        [self.team_0, self.team_1, self.team_2, self.team_3][s]
    }

    /// The game record of a row of an `n`-seat game in a file of `shape`;
    /// with a configuration, also checks the game string and the agent
    /// specs against it.
    ///
    /// # Errors
    /// A missing seat column, a seed that is not a 64-bit number, winner
    /// columns that do not fit the returns (first shape: a winner that is
    /// not `draw` or seats joined by `+`), or (with a configuration)
    /// another run's game or agents.
    pub fn to_record(
        &self,
        n: usize,
        shape: Shape,
        config: Option<&TournamentConfig>,
    ) -> Result<GameRecord> {
        if let Some(c) = config
            && self.game != c.game
        {
            bail!("game {:?} is not this run's {:?}", self.game, c.game);
        }
        let mut seats = Vec::new();
        let mut returns = Vec::new();
        let mut roles = Vec::new();
        let mut colours = Vec::new();
        let mut teams = Vec::new();
        for s in 0..n {
            let (a, spec) = self.agent(s);
            let a = a.ok_or_else(|| anyhow!("seat {s}: no agent index"))?;
            if let Some(c) = config
                && (a >= c.agents.len() || spec != Some(c.agents[a].as_str()))
            {
                bail!(
                    "seat {s}: agent {a} {:?} is not one of this run's agents",
                    spec.unwrap_or("")
                );
            }
            seats.push(a);
            returns.push(
                self.seat_return(s)
                    .ok_or_else(|| anyhow!("seat {s}: no return"))?,
            );
            roles.push(self.role(s).cloned().unwrap_or_default());
            colours.push(self.colour(s).cloned().unwrap_or_default());
            teams.push(self.team(s));
        }
        let winners = match shape {
            Shape::V1 if self.winner_seat == "draw" => Vec::new(),
            Shape::V1 => self
                .winner_seat
                .split('+')
                .map(|x| match x.parse::<usize>() {
                    Ok(s) if s < n => Ok(s),
                    _ => Err(anyhow!(
                        "winner_seat {:?} is not draw or seats joined by +",
                        self.winner_seat
                    )),
                })
                .collect::<Result<Vec<usize>>>()?,
            Shape::Current => {
                let w = crate::run::records::winners(&returns);
                let seat = match w[..] {
                    [s] => s.to_string(),
                    _ => String::new(),
                };
                if self.winner_seat != seat || self.draw != Some(u8::from(w.is_empty())) {
                    bail!(
                        "winner_seat {:?} and draw {:?} do not match the returns",
                        self.winner_seat,
                        self.draw
                    );
                }
                w
            }
        };
        Ok(GameRecord {
            index: self.game_index,
            seed: parse_seed(&self.seed)?,
            seats,
            winners,
            returns,
            roles,
            colours,
            teams,
            first_mover: self.first_mover_seat,
            setter: self.setter_seat,
            plies: self.plies,
            turns: self.turns,
            wall_ms: self.wall_ms,
            moves: self.moves.clone(),
            end: self.end.clone().filter(|e| !e.is_empty()),
            opening: self.opening,
            opening_moves: self.opening_moves.clone().filter(|o| !o.is_empty()),
            start: self.start.clone().filter(|s| !s.is_empty()),
        })
    }
}

/// Writes the field of `column` of game `r` of the run `config` to `w`,
/// formatted as the columns are specified in `docs/results-format.md`
/// (empty for an absent value; a return as Rust writes an `f64`: `1`, `-1`,
/// `0.5`), straight from the record: no intermediate row is built, so a
/// row costs no copy of its move text. `num` is scratch space.
fn write_field<W: std::io::Write>(
    config: &TournamentConfig,
    r: &GameRecord,
    column: Column,
    w: &mut csv::Writer<W>,
    num: &mut String,
) -> csv::Result<()> {
    use std::fmt::Write as _;
    let mut number = |v: Option<&dyn std::fmt::Display>| {
        num.clear();
        if let Some(v) = v {
            // Writing to a String cannot fail.
            let _ = write!(num, "{v}");
        }
        w.write_field(num.as_bytes())
    };
    let seat = |s: usize| r.seats.get(s).copied();
    let team = |s: usize| r.teams.get(s).copied().flatten();
    // The value every winning seat shares, if there are winners and they
    // all share one.
    let common = |of: &dyn Fn(usize) -> Option<usize>| {
        let (&first, rest) = r.winners.split_first()?;
        let x = of(first)?;
        rest.iter().all(|&s| of(s) == Some(x)).then_some(x)
    };
    match column {
        Column::Game => w.write_field(&config.game),
        Column::GameIndex => number(Some(&r.index)),
        Column::Seed => w.write_field(seed_text(r.seed)),
        Column::Agent(s) => number(seat(s).as_ref().map(|a| a as _)),
        Column::Spec(s) => w.write_field(seat(s).map_or("", |a| config.agents[a].as_str())),
        Column::WinnerSeat => match r.winners[..] {
            [s] => number(Some(&s)),
            _ => number(None),
        },
        Column::WinnerTeam => number(common(&team).as_ref().map(|t| t as _)),
        Column::WinnerAgent => number(common(&seat).as_ref().map(|a| a as _)),
        Column::Draw => number(Some(&u8::from(r.winners.is_empty()))),
        Column::Return(s) => number(r.returns.get(s).map(|x| x as _)),
        Column::Role(s) => w.write_field(r.roles.get(s).map_or("", String::as_str)),
        Column::Colour(s) => w.write_field(r.colours.get(s).map_or("", String::as_str)),
        Column::Team(s) => number(team(s).as_ref().map(|t| t as _)),
        Column::FirstMoverSeat => number(r.first_mover.as_ref().map(|x| x as _)),
        Column::SetterSeat => number(r.setter.as_ref().map(|x| x as _)),
        Column::Plies => number(Some(&r.plies)),
        Column::Turns => number(r.turns.as_ref().map(|x| x as _)),
        Column::WallMs => number(Some(&r.wall_ms)),
        Column::Moves => w.write_field(&r.moves),
        Column::End => w.write_field(r.end.as_deref().unwrap_or_default()),
        Column::Opening => number(r.opening.as_ref().map(|x| x as _)),
        Column::OpeningMoves => w.write_field(r.opening_moves.as_deref().unwrap_or_default()),
        Column::Start => w.write_field(r.start.as_deref().unwrap_or_default()),
    }
}

/// A column of a games file, resolved once from its name in the header so
/// that writing a row neither looks names up nor builds an intermediate
/// value per field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Game,
    GameIndex,
    Seed,
    Agent(usize),
    Spec(usize),
    WinnerSeat,
    WinnerTeam,
    WinnerAgent,
    Draw,
    Return(usize),
    Role(usize),
    Colour(usize),
    Team(usize),
    FirstMoverSeat,
    SetterSeat,
    Plies,
    Turns,
    WallMs,
    Moves,
    End,
    Opening,
    OpeningMoves,
    Start,
}

impl Column {
    /// The column named `name` (`agent_2`, `plies`, ...).
    ///
    /// # Errors
    /// A name that is no column of a games file.
    fn parse(name: &str) -> Result<Column> {
        let seat = |prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|k| k.parse::<usize>().ok())
                .filter(|&k| k < 4)
        };
        type PerSeat = fn(usize) -> Column;
        let per_seat: [(&str, PerSeat); 6] = [
            ("agent_", Column::Agent),
            ("spec_", Column::Spec),
            ("return_", Column::Return),
            ("role_", Column::Role),
            ("colour_", Column::Colour),
            ("team_", Column::Team),
        ];
        for (prefix, make) in &per_seat {
            if let Some(k) = seat(prefix) {
                return Ok(make(k));
            }
        }
        Ok(match name {
            "game" => Column::Game,
            "game_index" => Column::GameIndex,
            "seed" => Column::Seed,
            "winner_seat" => Column::WinnerSeat,
            "winner_team" => Column::WinnerTeam,
            "winner_agent" => Column::WinnerAgent,
            "draw" => Column::Draw,
            "first_mover_seat" => Column::FirstMoverSeat,
            "setter_seat" => Column::SetterSeat,
            "plies" => Column::Plies,
            "turns" => Column::Turns,
            "wall_ms" => Column::WallMs,
            "moves" => Column::Moves,
            "end" => Column::End,
            "opening" => Column::Opening,
            "opening_moves" => Column::OpeningMoves,
            "start" => Column::Start,
            _ => bail!("no column {name:?} in a game row"),
        })
    }
}

/// The path of the configuration written beside `out`: `FILE.config.json`
/// (for a compressed `FILE.gz`, too).
pub fn config_path(out: &Path) -> PathBuf {
    let mut p = super::storage::base_name(out).as_os_str().to_owned();
    p.push(".config.json");
    PathBuf::from(p)
}

/// The seat count and shape a header implies, if it is a tournament CSV's:
/// the columns of [`header`] in order, or those of [`header_v1`] with an
/// [`OPTIONAL`] one possibly missing.
pub fn seats_of_header(head: &[&str]) -> Option<(usize, Shape)> {
    let n = head.iter().filter(|h| h.starts_with("agent_")).count();
    if n == 0 {
        return None;
    }
    // The current columns; files written before the `start` column lack
    // only that one.
    let current = header(n);
    let without_start = &current[..current.len() - 1];
    if head.iter().copied().eq(current.iter().map(String::as_str))
        || head
            .iter()
            .copied()
            .eq(without_start.iter().map(String::as_str))
    {
        return Some((n, Shape::Current));
    }
    let old = header_v1(n);
    // The old header in order, where optional columns may be missing.
    let fits = head.iter().copied().eq(old
        .iter()
        .map(String::as_str)
        .filter(|c| !OPTIONAL.contains(c) || head.contains(c)));
    fits.then_some((n, Shape::V1))
}

/// Checks rows against the run that should have made them: each game
/// index is a job of the run (and of its shard) at most once, with that
/// job's seed and seating, the game string, per-seat returns in range and
/// winners that match the returns. A row edited by hand or copied from
/// another run is an error, never silently counted.
///
/// # Errors
/// The first row that does not fit, named by its game index.
pub fn check_rows(
    config: &TournamentConfig,
    num_seats: usize,
    records: &[GameRecord],
) -> Result<()> {
    let table = JobTable::new(config, num_seats)?;
    let mut seen = IndexSet::default();
    for r in records {
        check_row(&table, num_seats, &mut seen, r)?;
    }
    Ok(())
}

/// A set of game indices, one bit each, grown as needed.
#[derive(Clone, Debug, Default)]
pub struct IndexSet(Vec<u64>);

impl IndexSet {
    /// Adds `i`; false if it was there.
    pub fn insert(&mut self, i: u64) -> bool {
        let (w, b) = ((i / 64) as usize, i % 64);
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        let had = self.0[w] >> b & 1 == 1;
        self.0[w] |= 1 << b;
        !had
    }

    /// Whether `i` is in the set.
    pub fn contains(&self, i: u64) -> bool {
        self.0
            .get((i / 64) as usize)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
}

/// Checks one row against the run's jobs (see [`check_rows`]); `seen`
/// holds the indices of the rows checked before.
///
/// # Errors
/// The row does not fit, named by its game index.
pub fn check_row(
    table: &JobTable<'_>,
    num_seats: usize,
    seen: &mut IndexSet,
    r: &GameRecord,
) -> Result<()> {
    let Some(job) = table.get(r.index) else {
        bail!(
            "row with game_index {} is not a game of this run (or of this shard)",
            r.index
        );
    };
    if !seen.insert(r.index) {
        bail!("game_index {} appears twice", r.index);
    }
    if r.seed != job.seed || r.seats != job.seats || r.opening != job.opening {
        bail!(
            "row {}: its seed or seating differs from the run's game {}",
            r.index,
            r.index
        );
    }
    if r.returns.len() != num_seats || r.returns.iter().any(|x| !x.is_finite()) {
        bail!("row {}: bad returns {:?}", r.index, r.returns);
    }
    if num_seats > 1 && r.returns.iter().any(|x| !(-1.0..=1.0).contains(x)) {
        bail!("row {}: returns {:?} out of [-1, 1]", r.index, r.returns);
    }
    let best = r.returns.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut winners: Vec<usize> = (0..num_seats).filter(|&s| r.returns[s] == best).collect();
    if winners.len() == num_seats && num_seats > 1 {
        winners.clear();
    }
    if winners != r.winners {
        bail!("row {}: winner_seat does not match the returns", r.index);
    }
    Ok(())
}

/// Reads a tournament CSV: its complete rows and the seat count its header
/// implies. A half-written last row is dropped with a warning; with
/// `repair` the file is rewritten without it (so appending can resume).
///
/// # Errors
/// An unreadable file or header, a header that is not a tournament's, or a
/// malformed complete row (named by its line).
pub fn read_rows(
    path: &Path,
    repair: bool,
    config: Option<&TournamentConfig>,
) -> Result<(Vec<GameRecord>, usize)> {
    let mut records = Vec::new();
    let (n, _) = for_each_row(path, repair, config, |r| {
        records.push(r);
        Ok(())
    })?;
    Ok((records, n))
}

/// The length of the complete lines of a file (up to and including its last
/// newline), found by reading backwards from its end.
pub fn complete_len(file: &mut File) -> std::io::Result<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.metadata()?.len();
    let mut end = len;
    let mut buf = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Streams the complete rows of a tournament CSV (plain, or compressed if
/// its name ends in `.gz`) to `f`, one at a time (memory does not grow
/// with the file), and returns the seat count and the columns its header
/// holds. A half-written last row (or the unfinished end of a compressed
/// file) is dropped with a warning; with `repair` the file is cut back to
/// its last complete row.
///
/// # Errors
/// An unreadable file or header, a header that is not a tournament's, a
/// malformed complete row (named by its line), or an error from `f`
/// (named by the row's line).
pub fn for_each_row(
    path: &Path,
    repair: bool,
    config: Option<&TournamentConfig>,
    mut f: impl FnMut(GameRecord) -> Result<()>,
) -> Result<(usize, Vec<String>)> {
    for_each_game_row(path, repair, |row, n, shape| {
        f(row.to_record(n, shape, config)?)
    })
}

/// [`for_each_row`] with each row as it stands in the file, with the
/// file's seat count and shape.
///
/// # Errors
/// As [`for_each_row`].
pub fn for_each_game_row(
    path: &Path,
    repair: bool,
    mut f: impl FnMut(GameRow, usize, Shape) -> Result<()>,
) -> Result<(usize, Vec<String>)> {
    let mut lines = storage::open(path)?;
    let mut reader = csv::ReaderBuilder::new().from_reader(&mut lines);
    let head = reader
        .headers()
        .with_context(|| format!("{}: unreadable header", path.display()))?
        .clone();
    let Some((n, shape)) = seats_of_header(&head.iter().collect::<Vec<_>>()) else {
        bail!(
            "{}: not a boardlab tournament CSV (its header differs)",
            path.display()
        );
    };
    let mut rec = csv::StringRecord::new();
    let mut line = 1;
    loop {
        line += 1;
        let more = reader
            .read_record(&mut rec)
            .with_context(|| format!("{}: row {line} unreadable", path.display()))?;
        if !more {
            break;
        }
        let row: GameRow = rec
            .deserialize(Some(&head))
            .with_context(|| format!("{}: row {line}", path.display()))?;
        f(row, n, shape).with_context(|| format!("{}: row {line}", path.display()))?;
    }
    drop(reader);
    let tail = lines.tail().clone();
    if tail.dropped() {
        let what = match &tail.broken {
            Some(e) => format!("an unfinished compressed end ({e})"),
            None => format!("a half-written last row ({} bytes)", tail.partial),
        };
        eprintln!(
            "warning: {}: dropped {what}; a game cut off there is played again",
            path.display()
        );
        if repair {
            if storage::is_compressed(path) {
                storage::repair(path)?;
            } else {
                let total = std::fs::metadata(path)
                    .with_context(|| format!("cannot read {}", path.display()))?
                    .len();
                OpenOptions::new()
                    .write(true)
                    .open(path)
                    .and_then(|f| f.set_len(total - tail.partial))
                    .with_context(|| format!("cannot rewrite {}", path.display()))?;
            }
        }
    }
    Ok((n, head.iter().map(str::to_string).collect()))
}

/// Reads the configuration written beside a tournament CSV.
///
/// # Errors
/// A missing or malformed `FILE.config.json`.
pub fn read_config(csv_path: &Path) -> Result<TournamentConfig> {
    let p = config_path(csv_path);
    let text =
        std::fs::read_to_string(&p).with_context(|| format!("cannot read {}", p.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{}: not a tournament configuration", p.display()))
}

/// Formats games as rows of a tournament CSV with given columns, into a
/// buffer of its own: the writer thread formats with one, and each worker
/// of a run with another, so that a run's games are formatted in parallel
/// and the one writer only copies bytes (see `super::run`).
pub struct RowFormat {
    columns: Vec<Column>,
    csv: csv::Writer<Vec<u8>>,
    /// Scratch space for formatting numbers.
    num: String,
}

impl RowFormat {
    /// A formatter for a file whose header is `columns`.
    ///
    /// # Errors
    /// A name that is no column of a games file.
    pub fn new(columns: &[String]) -> Result<RowFormat> {
        Ok(RowFormat::of(
            columns
                .iter()
                .map(|c| Column::parse(c))
                .collect::<Result<_>>()?,
        ))
    }

    fn of(columns: Vec<Column>) -> RowFormat {
        RowFormat {
            columns,
            csv: RowFormat::buffer(),
            num: String::new(),
        }
    }

    fn buffer() -> csv::Writer<Vec<u8>> {
        csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new())
    }

    /// Appends one game's row to the buffer.
    ///
    /// # Errors
    /// None in practice (the buffer is memory); kept for the CSV writer's
    /// signature.
    pub fn push(&mut self, config: &TournamentConfig, r: &GameRecord) -> Result<()> {
        for &c in &self.columns {
            write_field(config, r, c, &mut self.csv, &mut self.num)?;
        }
        self.csv.write_record(None::<&[u8]>)?;
        Ok(())
    }

    /// Bytes formatted and not yet taken, up to the CSV writer's own
    /// buffer (a lower bound).
    fn pending(&self) -> usize {
        self.csv.get_ref().len()
    }

    /// The rows formatted since the last call, leaving the buffer empty.
    pub fn take(&mut self) -> Vec<u8> {
        // A CSV writer over memory hands over its bytes and cannot fail.
        std::mem::replace(&mut self.csv, RowFormat::buffer())
            .into_inner()
            .unwrap_or_default()
    }
}

/// A second formatter with the same columns and an empty buffer.
impl Clone for RowFormat {
    fn clone(&self) -> RowFormat {
        RowFormat::of(self.columns.clone())
    }
}

/// Appends rows to a tournament CSV (compressed if its name ends in
/// `.gz`), following its columns. Rows are buffered: [`RowWriter::sync`]
/// makes them durable (the run calls it whenever no finished game is
/// waiting), [`RowWriter::finish`] ends the file.
pub struct RowWriter {
    format: RowFormat,
    sink: storage::Sink,
    path: PathBuf,
}

impl RowWriter {
    /// Formatted rows are handed to the sink in pieces of about this many
    /// bytes.
    const PIECE: usize = 64 * 1024;

    fn over(path: &Path, file: File, columns: &[String]) -> Result<RowWriter> {
        Ok(RowWriter {
            format: RowFormat::new(columns)?,
            sink: storage::Sink::new(file, storage::is_compressed(path)),
            path: path.to_path_buf(),
        })
    }

    /// A new file for an `n`-seat game, with the current header.
    ///
    /// # Errors
    /// An output that cannot be created.
    pub fn create(path: &Path, n: usize) -> Result<RowWriter> {
        let file = super::safety::create(path)?;
        let columns = header(n);
        let mut w = RowWriter::over(path, file, &columns)?;
        w.format.csv.write_record(&columns)?;
        w.sync()?;
        Ok(w)
    }

    /// Appends to an existing file whose header is `columns` (a compressed
    /// file gets a new gzip member).
    ///
    /// # Errors
    /// An output that cannot be opened for appending.
    pub fn append(path: &Path, columns: Vec<String>) -> Result<RowWriter> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        RowWriter::over(path, file, &columns)
    }

    /// A formatter for this file's columns, for rows formatted elsewhere
    /// (a worker thread) and written with [`RowWriter::write_formatted`].
    pub fn format(&self) -> RowFormat {
        self.format.clone()
    }

    /// Writes one game's row (buffered).
    ///
    /// # Errors
    /// An I/O error.
    pub fn write(&mut self, config: &TournamentConfig, r: &GameRecord) -> Result<()> {
        self.format.push(config, r)?;
        if self.format.pending() >= Self::PIECE {
            self.drain()?;
        }
        Ok(())
    }

    /// Writes rows made by a [`RowFormat`] of this file's columns
    /// (buffered), after any row written with [`RowWriter::write`].
    ///
    /// # Errors
    /// An I/O error.
    pub fn write_formatted(&mut self, rows: &[u8]) -> Result<()> {
        self.drain()?;
        self.put(rows)
    }

    fn drain(&mut self) -> Result<()> {
        let rows = self.format.take();
        self.put(&rows)
    }

    fn put(&mut self, rows: &[u8]) -> Result<()> {
        use std::io::Write as _;
        self.sink
            .write_all(rows)
            .with_context(|| format!("cannot write {}", self.path.display()))
    }

    /// Pushes every row written so far to the file.
    ///
    /// # Errors
    /// An I/O error.
    pub fn sync(&mut self) -> Result<()> {
        self.drain()?;
        self.sink
            .sync()
            .with_context(|| format!("cannot write {}", self.path.display()))
    }

    /// Ends the file (a compressed file's trailer).
    ///
    /// # Errors
    /// An I/O error.
    pub fn finish(mut self) -> Result<()> {
        self.drain()?;
        let path = self.path;
        self.sink
            .finish()
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// Writes `records` (sorted by game index) as a tournament CSV with its
/// configuration beside it.
///
/// # Errors
/// An output that cannot be written.
pub fn write_rows(
    path: &Path,
    config: &TournamentConfig,
    num_seats: usize,
    records: &[GameRecord],
) -> Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut w = RowWriter::create(path, num_seats)?;
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.index);
    for r in sorted {
        w.write(config, r)?;
    }
    w.finish()?;
    super::config::write_config_file(path, config, Vec::new())
}
