//! `boardlab study FILE`: a research question kept as a file and answered
//! into one folder.
//!
//! A study file (`studies/<name>.toml`, TOML) states the question, the
//! seed, the cap of games per cell, the stopping rule (`until`, as
//! `--until`), the openings, and the cells: `[[block]]`s (an agent playing
//! itself in a game, as one `balance` block) and `[[compare]]`s (two blocks'
//! first-mover scores compared, as `balance --compare`). [`load`] turns it
//! into a checked [`Study`]; [`run`] plays (or resumes, or extends) every
//! block through the `balance` layer ([`balance::block_tournament`],
//! [`balance::block_row`]) and the comparisons through
//! [`compare::merge`], and writes into one folder:
//!
//! * `<block>.csv` per block (its games; the exact game and agent strings
//!   are in its configuration, `<block>.csv.config.json`, and its rows);
//! * with `[ratings]`: per game, `ratings/<block>.csv` (named after the
//!   game's first block), a paired round robin of the game's agents (the
//!   `rungs`, then the blocks' agents), and `ratings.csv`, one row per game
//!   and agent of its Bradley–Terry fit (the game's first agent at Elo 0),
//!   whose ratings also fill the blocks' `elo` columns;
//! * `balance.csv`: one row per block, in the file's order, each interval
//!   at level 0.05/m for the m blocks, p-values Holm-adjusted over them;
//! * `compare.csv`: one row per comparison (level 0.05/c, Holm over c);
//! * `study.toml`: the study file as run.
//!
//! The README and the plots are written above this layer (`report::study`).
//!
//! **Shards.** With `shard = Some((k, n))` every block plays only the
//! k-th of n slices of its games (as `tournament --shard`) into
//! `shards/<block>.<k>of<n>.csv`, and nothing else is written; a block with
//! a stopping rule plays its slice of the whole cap (the rule reads the
//! games in order, which shards do not have). A later unsharded run (or
//! `merge`, which plays nothing new) merges each block's complete set of
//! shards with [`crate::run::merge::merge`] into `<block>.csv` first, then
//! summarises; the rule is then applied to the merged games.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::Deserialize;

use crate::research::balance::{self, BalanceArgs, BalanceRow};
use crate::research::compare::{self, CompareRow};
use crate::research::pool::PoolRow;
use crate::research::rate;
use crate::run::{self, OpeningsRequest, Schedule, TournamentArgs};
use crate::stats::sequential::{ALPHA, Until};

/// The extension of every block's games file, in one place: gzip-compressed
/// games files (`run::storage`), configuration `<name>.csv.config.json`.
pub const GAMES_EXT: &str = "csv.gz";

/// Names a block or comparison may not take: the folder's other files.
const RESERVED: [&str; 8] = [
    "balance", "compare", "README", "study", "shards", "plots", "report", "ratings",
];

/// The study file as written (TOML). Unknown keys are errors.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StudyFile {
    question: String,
    #[serde(default = "default_seed")]
    seed: u64,
    games: toml::Spanned<u32>,
    until: Option<toml::Spanned<String>>,
    threads: Option<usize>,
    openings: Option<OpeningsFile>,
    #[serde(default)]
    block: Vec<BlockFile>,
    #[serde(default)]
    compare: Vec<CompareFile>,
    ratings: Option<RatingsFile>,
    #[serde(default)]
    answer: Vec<AnswerFile>,
    truth: Option<TruthFile>,
}

fn default_seed() -> u64 {
    1
}

/// `[openings]`: as `--openings`, `--opening-plies`, `--openings-file`,
/// `--opening-filter`, `--opening-margin`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OpeningsFile {
    count: Option<u32>,
    plies: Option<u32>,
    file: Option<PathBuf>,
    filter: Option<String>,
    margin: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockFile {
    name: toml::Spanned<String>,
    game: toml::Spanned<String>,
    agent: toml::Spanned<String>,
}

/// `[ratings]`: `games` per pairing of a game's agents, and the `rungs`
/// rated with the blocks' agents (the first rung the anchor, Elo 0).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RatingsFile {
    games: toml::Spanned<u32>,
    rungs: Option<toml::Spanned<Vec<toml::Spanned<String>>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareFile {
    name: toml::Spanned<String>,
    block: toml::Spanned<String>,
    reference: toml::Spanned<String>,
}

/// `[[answer]]`: a row of the report's answers table, read from blocks of
/// one game, the agent's budgets weakest first.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerFile {
    name: toml::Spanned<String>,
    blocks: toml::Spanned<Vec<toml::Spanned<String>>>,
}

/// `[truth]`: the first mover's exact score where the game is solved.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TruthFile {
    value: toml::Spanned<f64>,
    source: toml::Spanned<String>,
}

/// The first mover's exact score in a solved game (`[truth]`): every block
/// of the study plays that game, and the report checks each block's
/// estimate against it (calibration).
#[derive(Clone, Debug, PartialEq)]
pub struct Truth {
    /// The first mover's score under perfect play: 1 a forced win, ½ a
    /// draw, 0 a forced loss.
    pub value: f64,
    /// Where the value comes from (a proof, a committed solve), as written.
    pub source: String,
}

/// One row of the answers (`[[answer]]`): the game's verdict is read from
/// `blocks` (indices into [`Study::blocks`], one game, the budgets of one
/// agent family weakest first) and is a strong-play verdict when the top
/// two agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The row's label, e.g. `Catapult 8×8`.
    pub name: String,
    /// The blocks, weakest budget first.
    pub blocks: Vec<usize>,
}

/// One block of a study: `agent` in every seat of `game`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The block's name: its games file is `<name>.csv`.
    pub name: String,
    /// Canonical game string.
    pub game: String,
    /// Seats of the game.
    pub seats: usize,
    /// Canonical agent spec.
    pub agent: String,
    /// The agent spec as the study file writes it, without white space:
    /// one spec reads as another canonical agent in a game whose search
    /// defaults differ (the per-game `mcts` values, say).
    pub written: String,
}

/// One comparison: block `block`'s first-mover score against block
/// `reference`'s (indices into [`Study::blocks`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The comparison's name.
    pub name: String,
    /// The block compared.
    pub block: usize,
    /// The reference block.
    pub reference: usize,
}

/// One game's rating round robin (`[ratings]`).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingGroup {
    /// Its games file's stem, `ratings/<name>.csv`: the game's first block.
    pub name: String,
    /// Canonical game string.
    pub game: String,
    /// Canonical agent specs: the rungs, then the blocks' agents not among
    /// them, in the file's order; the first is the anchor (Elo 0).
    pub agents: Vec<String>,
}

/// A checked study.
#[derive(Clone, Debug)]
pub struct Study {
    /// The study's name: the file's stem.
    pub name: String,
    /// The question, as written.
    pub question: String,
    /// Run seed of every block.
    pub seed: u64,
    /// Games per block: the cap when `until` is given.
    pub games: u32,
    /// The stopping rule of every block.
    pub until: Option<Until>,
    /// Worker threads the file asks for (0 or absent: one per core).
    pub threads: Option<usize>,
    /// Openings of every block.
    pub openings: OpeningsRequest,
    /// The blocks, in the file's order.
    pub blocks: Vec<Block>,
    /// The comparisons, in the file's order.
    pub comparisons: Vec<Comparison>,
    /// With `[ratings]`: one rating round robin per game, in the order of
    /// the games' first blocks; empty without.
    pub ratings: Vec<RatingGroup>,
    /// Games per pairing of the rating round robins (paired: both seatings
    /// of each seed).
    pub rating_games: u32,
    /// The rows this study gives the report's answers table.
    pub answers: Vec<Answer>,
    /// With `[truth]`: the solved game's exact first-mover score.
    pub truth: Option<Truth>,
    /// The file's text.
    pub text: String,
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// An error at `span` of the study file `label`, naming its line and field.
fn at(
    label: &str,
    text: &str,
    span: std::ops::Range<usize>,
    field: &str,
    msg: &str,
) -> anyhow::Error {
    anyhow!(
        "{label}: line {}, field `{field}`: {msg}",
        line_of(text, span.start)
    )
}

/// The field a TOML error is about: named in the message (`missing field
/// `x``, `unknown field `x``), else the key on the error's line.
fn field_of(text: &str, span: &std::ops::Range<usize>, msg: &str) -> String {
    for pat in ["missing field `", "unknown field `", "duplicate key `"] {
        if let Some(rest) = msg.split(pat).nth(1)
            && let Some(name) = rest.split('`').next()
        {
            return name.to_string();
        }
    }
    let start = text[..span.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = text[start..].lines().next().unwrap_or("");
    match line.split_once('=') {
        Some((key, _)) => key.trim().to_string(),
        None => line.trim().to_string(),
    }
}

/// Reads and checks the study file `path`.
///
/// # Errors
/// An unreadable file; a malformed one (the one-line message names the
/// line and the field); an unknown game or agent, or an agent that cannot
/// play its game (the registry's one-line error, with the line); a bad
/// `until` rule; names missing, repeated, reserved or not plain; a
/// comparison of blocks that are not in the file or differ in agent.
pub fn load(path: &Path) -> Result<Study> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the study file {}", path.display()))?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse(&text, &path.display().to_string(), &name)
}

/// Checks a study file's `text`; `label` names it in errors and `name` is
/// the study's name. See [`load`].
///
/// # Errors
/// As [`load`].
pub fn parse(text: &str, label: &str, name: &str) -> Result<Study> {
    let file: StudyFile = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().replace('\n', "; ");
        match e.span() {
            Some(span) => at(
                label,
                text,
                span.clone(),
                &field_of(text, &span, &msg),
                &msg,
            ),
            None => anyhow!("{label}: {msg}"),
        }
    })?;
    let here =
        |s: &toml::Spanned<String>, field: &str, msg: &str| at(label, text, s.span(), field, msg);
    if *file.games.get_ref() == 0 {
        return Err(at(
            label,
            text,
            file.games.span(),
            "games",
            "must be at least 1",
        ));
    }
    let until = match &file.until {
        Some(u) => Some(Until::parse(u.get_ref()).map_err(|e| here(u, "until", &e.to_string()))?),
        None => None,
    };
    if file.block.is_empty() {
        bail!("{label}: no [[block]]: a study needs at least one block (name, game, agent)");
    }
    let mut names: Vec<String> = Vec::new();
    let mut check_name = |n: &toml::Spanned<String>| -> Result<String> {
        let s = n.get_ref();
        if s.is_empty()
            || !s
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(here(
                n,
                "name",
                &format!("{s:?}: a name is letters, digits, - and _ (it names files)"),
            ));
        }
        if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(s)) {
            return Err(here(
                n,
                "name",
                &format!("{s:?} names another file of the study's folder; choose another"),
            ));
        }
        if names.iter().any(|x| x.eq_ignore_ascii_case(s)) {
            return Err(here(n, "name", &format!("{s:?} is used twice")));
        }
        names.push(s.clone());
        Ok(s.clone())
    };
    let mut blocks: Vec<Block> = Vec::new();
    for b in &file.block {
        let name = check_name(&b.name)?;
        let (game, seats) = balance::canonical(b.game.get_ref())
            .map_err(|e| here(&b.game, "game", &e.to_string()))?;
        let spec = agents::AgentSpec::parse_in(b.agent.get_ref(), &game)
            .map_err(|e| here(&b.agent, "agent", &e.to_string()))?;
        spec.check_game(seats)
            .map_err(|e| here(&b.agent, "agent", &format!("cannot play {game}: {e}")))?;
        let agent = spec.canonical();
        if let Some(other) = blocks.iter().find(|x| x.game == game && x.agent == agent) {
            return Err(here(
                &b.name,
                "name",
                &format!(
                    "the same game and agent as block {:?}: one block is enough",
                    other.name
                ),
            ));
        }
        let written = b.agent.get_ref().split_whitespace().collect();
        blocks.push(Block {
            name,
            game,
            seats,
            agent,
            written,
        });
    }
    let mut comparisons = Vec::new();
    for c in &file.compare {
        let name = check_name(&c.name)?;
        let find = |s: &toml::Spanned<String>, field: &str| {
            blocks
                .iter()
                .position(|b| b.name == *s.get_ref())
                .ok_or_else(|| {
                    let known: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
                    here(
                        s,
                        field,
                        &format!(
                            "no block named {:?}; the blocks are {}",
                            s.get_ref(),
                            known.join(", ")
                        ),
                    )
                })
        };
        let (block, reference) = (find(&c.block, "block")?, find(&c.reference, "reference")?);
        let (b, r) = (&blocks[block], &blocks[reference]);
        if block == reference {
            return Err(here(
                &c.reference,
                "reference",
                "a block compared with itself",
            ));
        }
        // One agent: the same spec as written (each game reads it with its
        // own search defaults) or the same agent as played (perhaps spelled
        // before a game's default changed).
        if (b.written != r.written && !agents::same_agent(&b.agent, &r.agent)) || b.seats != r.seats
        {
            return Err(here(
                &c.reference,
                "reference",
                &format!(
                    "blocks {:?} ({}, {}) and {:?} ({}, {}) must have the same agent and seat count",
                    b.name, b.game, b.agent, r.name, r.game, r.agent
                ),
            ));
        }
        comparisons.push(Comparison {
            name,
            block,
            reference,
        });
    }
    let mut answers: Vec<Answer> = Vec::new();
    for a in &file.answer {
        if a.name.get_ref().trim().is_empty() {
            return Err(here(
                &a.name,
                "name",
                "an answer needs a label, e.g. \"Catapult 8×8\"",
            ));
        }
        if a.blocks.get_ref().is_empty() {
            return Err(at(
                label,
                text,
                a.blocks.span(),
                "blocks",
                "an answer reads at least one block (the top two budgets give a strong-play verdict)",
            ));
        }
        let mut idx: Vec<usize> = Vec::new();
        for n in a.blocks.get_ref() {
            let i = blocks
                .iter()
                .position(|b| b.name == *n.get_ref())
                .ok_or_else(|| {
                    let known: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
                    here(
                        n,
                        "blocks",
                        &format!(
                            "no block named {:?}; the blocks are {}",
                            n.get_ref(),
                            known.join(", ")
                        ),
                    )
                })?;
            if let Some(&first) = idx.first()
                && blocks[first].game != blocks[i].game
            {
                return Err(here(
                    n,
                    "blocks",
                    &format!(
                        "blocks {:?} ({}) and {:?} ({}) play different games: an answer is about one game",
                        blocks[first].name, blocks[first].game, blocks[i].name, blocks[i].game
                    ),
                ));
            }
            if idx.contains(&i) {
                return Err(here(
                    n,
                    "blocks",
                    &format!("{:?} is listed twice", n.get_ref()),
                ));
            }
            idx.push(i);
        }
        answers.push(Answer {
            name: a.name.get_ref().trim().to_string(),
            blocks: idx,
        });
    }
    let truth = match &file.truth {
        Some(t) => Some(truth(label, text, t, &blocks)?),
        None => None,
    };
    let (ratings, rating_games) = match &file.ratings {
        Some(r) => (rating_groups(label, text, r, &blocks)?, *r.games.get_ref()),
        None => (Vec::new(), 0),
    };
    let openings = file
        .openings
        .map_or_else(OpeningsRequest::default, |o| OpeningsRequest {
            count: o.count,
            plies: o.plies,
            file: o.file,
            filter: o.filter,
            margin: o.margin,
        });
    Ok(Study {
        name: name.to_string(),
        question: file.question.trim().to_string(),
        seed: file.seed,
        games: *file.games.get_ref(),
        until,
        threads: file.threads,
        openings,
        blocks,
        comparisons,
        ratings,
        rating_games,
        answers,
        truth,
        text: text.to_string(),
    })
}

/// Checks `[truth]`: a score in [0, 1] with its source, for a study whose
/// blocks all play one game.
fn truth(label: &str, text: &str, t: &TruthFile, blocks: &[Block]) -> Result<Truth> {
    let value = *t.value.get_ref();
    let err = |field: &str, msg: &str| {
        let span = if field == "value" {
            t.value.span()
        } else {
            t.source.span()
        };
        at(label, text, span, field, msg)
    };
    if !(0.0..=1.0).contains(&value) {
        return Err(err(
            "value",
            &format!(
                "{value} is not a score: 1 is a forced win of the first mover, 0.5 a draw, 0 a loss"
            ),
        ));
    }
    if t.source.get_ref().trim().is_empty() {
        return Err(err(
            "source",
            "say where the value comes from (a proof, a committed solve)",
        ));
    }
    if let Some(b) = blocks.iter().find(|b| b.game != blocks[0].game) {
        return Err(err(
            "value",
            &format!(
                "blocks {:?} ({}) and {:?} ({}) play different games: a truth is about one game",
                blocks[0].name, blocks[0].game, b.name, b.game
            ),
        ));
    }
    Ok(Truth {
        value,
        source: t.source.get_ref().trim().to_string(),
    })
}

/// Checks `[ratings]` and groups the agents to rate by game.
fn rating_groups(
    label: &str,
    text: &str,
    r: &RatingsFile,
    blocks: &[Block],
) -> Result<Vec<RatingGroup>> {
    let here =
        |span: std::ops::Range<usize>, field: &str, msg: &str| at(label, text, span, field, msg);
    if *r.games.get_ref() == 0 {
        return Err(here(r.games.span(), "games", "must be at least 1"));
    }
    // Errors about the agents to rate point at `rungs`, else at `games`.
    let rungs_span = r.rungs.as_ref().map_or(r.games.span(), |x| x.span());
    let mut rungs = Vec::new();
    for rung in r.rungs.iter().flat_map(|x| x.get_ref()) {
        rungs.push((rung.get_ref().clone(), rung.span()));
    }
    let mut groups: Vec<RatingGroup> = Vec::new();
    for b in blocks {
        if let Some(g) = groups.iter_mut().find(|g| g.game == b.game) {
            if !g.agents.contains(&b.agent) {
                g.agents.push(b.agent.clone());
            }
            continue;
        }
        if b.seats != 2 {
            return Err(here(
                r.games.span(),
                "ratings",
                &format!(
                    "block {:?} plays {} ({} seats): ratings are fitted from two-seat games",
                    b.name, b.game, b.seats
                ),
            ));
        }
        let mut agents: Vec<String> = Vec::new();
        for (text, span) in &rungs {
            // As the game reads it (its own search defaults and, for
            // alpha-beta, its evaluation's weights).
            let spec = agents::AgentSpec::parse_in(text, &b.game)
                .map_err(|e| here(span.clone(), "rungs", &e.to_string()))?;
            spec.check_game(b.seats).map_err(|e| {
                here(
                    span.clone(),
                    "rungs",
                    &format!("cannot play {}: {e}", b.game),
                )
            })?;
            let a = spec.canonical();
            if !agents.contains(&a) {
                agents.push(a);
            }
        }
        if !agents.contains(&b.agent) {
            agents.push(b.agent.clone());
        }
        groups.push(RatingGroup {
            name: b.name.clone(),
            game: b.game.clone(),
            agents,
        });
    }
    if let Some(g) = groups.iter().find(|g| g.agents.len() < 2) {
        return Err(here(
            rungs_span,
            "rungs",
            &format!(
                "{} has one agent to rate ({}): add rungs to rate it against, e.g. rungs = [\"random\"]",
                g.game, g.agents[0]
            ),
        ));
    }
    Ok(groups)
}

/// The folder a study writes to unless told: `runs/<name>/` (git ignores
/// `runs/`; committed studies are run with `--out results/<name>`).
pub fn default_out(study: &Study) -> PathBuf {
    Path::new("runs").join(&study.name)
}

/// The games file of block `name` in the study folder `dir`.
pub fn games_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.{GAMES_EXT}"))
}

/// The folder of the rating round robins' games in the study folder `dir`.
pub fn ratings_dir(dir: &Path) -> PathBuf {
    dir.join("ratings")
}

/// The games file of shard `k` of `n` of block `name`.
pub fn shard_path(dir: &Path, name: &str, (k, n): (u32, u32)) -> PathBuf {
    dir.join("shards")
        .join(format!("{name}.{k}of{n}.{GAMES_EXT}"))
}

/// The shards of block `name` present in `dir/shards/`, in order.
fn shards_of(dir: &Path, name: &str) -> Result<Vec<PathBuf>> {
    let folder = dir.join("shards");
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Ok(Vec::new());
    };
    let prefix = format!("{name}.");
    let suffix = format!(".{GAMES_EXT}");
    let mut found = Vec::new();
    for e in entries {
        let e = e.with_context(|| format!("cannot read {}", folder.display()))?;
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(mid) = file
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(&suffix))
        else {
            continue;
        };
        if let Some((k, n)) = mid.split_once("of")
            && let (Ok(k), Ok(_)) = (k.parse::<u32>(), n.parse::<u32>())
        {
            found.push((k, e.path()));
        }
    }
    found.sort();
    Ok(found.into_iter().map(|x| x.1).collect())
}

/// How to run a study.
#[derive(Clone, Debug)]
pub struct StudyArgs {
    /// The folder written.
    pub out: PathBuf,
    /// Only this slice `(k, n)` of every block's games, into `shards/`.
    pub shard: Option<(u32, u32)>,
    /// Merge the blocks' shards and summarise; refuse a block with
    /// neither games nor shards.
    pub merge: bool,
    /// Worker threads (0: the file's `threads`, else one per core).
    pub threads: usize,
    /// A progress bar per cell.
    pub progress: bool,
    /// Replace block files made with another configuration.
    pub overwrite: bool,
}

/// What a run of a study gives.
#[derive(Clone, Debug, Default)]
pub struct StudyOutcome {
    /// One row per block, in the file's order (empty for a shard).
    pub rows: Vec<BalanceRow>,
    /// One row per comparison, in the file's order.
    pub comparisons: Vec<CompareRow>,
    /// Games played by this invocation.
    pub played: usize,
    /// Finished games in the study's block files.
    pub games: u64,
    /// The sum of every finished game's wall time, in milliseconds.
    pub wall_ms: u64,
    /// Per block, the game count at which its rule was met (`until`).
    pub stopped_at: Vec<Option<u64>>,
    /// Blocks merged from their shards by this invocation.
    pub merged: Vec<String>,
}

impl StudyOutcome {
    /// Counts a block's run: its games played now, its finished games and
    /// their wall time.
    fn add(&mut self, result: &run::TournamentResult) {
        self.played += result.played;
        self.games += result.games;
        self.wall_ms += result.records.iter().map(|r| r.wall_ms).sum::<u64>();
    }
}

/// The rating round robin of `group` into `out`: paired, every pairing of
/// its agents, the study's seed and openings.
fn rating_tournament(
    study: &Study,
    args: &StudyArgs,
    group: &RatingGroup,
    out: PathBuf,
) -> TournamentArgs {
    let mut t = TournamentArgs::new(
        &group.game,
        &group.agents,
        study.rating_games,
        study.seed,
        out,
    );
    t.paired = true;
    t.schedule = Schedule::RoundRobin;
    t.threads = balance_args(study, args).threads;
    t.progress = args.progress;
    t.overwrite = args.overwrite;
    t.overwrite_changed_only = true;
    t.openings = study.openings.clone();
    t
}

/// Every games file of the study as (folder, stem): the blocks', then the
/// rating round robins'.
fn cells(study: &Study, out: &Path) -> Vec<(PathBuf, String)> {
    let blocks = study
        .blocks
        .iter()
        .map(|b| (out.to_path_buf(), b.name.clone()));
    let ratings = study
        .ratings
        .iter()
        .map(|g| (ratings_dir(out), g.name.clone()));
    blocks.chain(ratings).collect()
}

/// The balance request of a study's blocks.
fn balance_args(study: &Study, args: &StudyArgs) -> BalanceArgs {
    BalanceArgs {
        games: study.blocks.iter().map(|b| b.game.clone()).collect(),
        agent: String::new(),
        games_per_block: study.games,
        seed: study.seed,
        out: args.out.join("balance.csv"),
        threads: if args.threads > 0 {
            args.threads
        } else {
            study.threads.unwrap_or(0)
        },
        progress: args.progress,
        baseline: false,
        overwrite: args.overwrite,
        openings: study.openings.clone(),
        until: study.until,
        family: study.blocks.len(),
    }
}

/// Plays (or resumes) each game's rating round robin, fits it (the first
/// agent at 0), writes `ratings.csv` and sets the blocks' Elo from it.
fn rate_groups(study: &Study, args: &StudyArgs, outcome: &mut StudyOutcome) -> Result<()> {
    if study.ratings.is_empty() {
        return Ok(());
    }
    let dir = ratings_dir(&args.out);
    let mut table = Vec::new();
    for (i, group) in study.ratings.iter().enumerate() {
        if args.progress {
            eprintln!(
                "[ratings {}/{}] {}: {} agents, {} games a pairing",
                i + 1,
                study.ratings.len(),
                group.game,
                group.agents.len(),
                study.rating_games
            );
        }
        let path = games_path(&dir, &group.name);
        let t = rating_tournament(study, args, group, path);
        let result = run::run(&t).with_context(|| format!("ratings {}", group.name))?;
        outcome.add(&result);
        let fit = rate::linked(&result.config, &result.records, 0)
            .with_context(|| format!("ratings {}", group.name))?;
        let label = format!("ratings/{}.{GAMES_EXT}", group.name);
        for (k, (agent, e)) in group.agents.iter().zip(&fit).enumerate() {
            let games = result
                .records
                .iter()
                .filter(|r| r.seats.contains(&k))
                .count();
            let bound = if e.lower.is_finite() {
                e.lower
            } else {
                e.upper
            };
            let in_block = study
                .blocks
                .iter()
                .any(|b| b.game == group.game && b.agent == *agent);
            table.push(PoolRow {
                game: group.game.clone(),
                agent: agent.clone(),
                source: if in_block { "block" } else { "rung" }.to_string(),
                rating: e.text(),
                linked: e.elo.is_some(),
                elo: e.elo.unwrap_or(bound),
                games: games as u64,
                games_csv: label.clone(),
            });
            for (b, row) in study.blocks.iter().zip(outcome.rows.iter_mut()) {
                if b.game == group.game && b.agent == *agent {
                    row.elo = e.elo;
                    row.elo_rating = e.text();
                }
            }
        }
    }
    crate::output::table::write_table(&args.out.join("ratings.csv"), &table)
}

/// Runs (or resumes, extends, or merges) a study into `args.out`; with a
/// shard, plays only that slice of every block. See the module
/// documentation for the files.
///
/// # Errors
/// An output that cannot be written or is being written by another run; a
/// block file that holds another configuration (without `overwrite`);
/// incomplete or mismatched shards; with `merge`, a block with neither
/// games nor shards.
pub fn run(study: &Study, args: &StudyArgs) -> Result<StudyOutcome> {
    let b = balance_args(study, args);
    let m = study.blocks.len();
    let alpha = ALPHA / m as f64;
    let mut outcome = StudyOutcome::default();
    if let Some(shard) = args.shard {
        for (i, block) in study.blocks.iter().enumerate() {
            let path = shard_path(&args.out, &block.name, shard);
            if args.progress {
                eprintln!(
                    "[{}/{m}] {} (shard {}/{}): {}  {}",
                    i + 1,
                    block.name,
                    shard.0,
                    shard.1,
                    block.game,
                    block.agent
                );
            }
            let mut t =
                balance::block_tournament(&b, &block.game, block.seats, &block.agent, path, alpha);
            t.also_writes.clear();
            if let Some(rule) = study.until {
                // Refused now, not after the cluster has played every slice.
                let (total, group) = run::until_shape(&t, block.seats)?;
                rule.check_reachable(total / group, group, alpha)
                    .with_context(|| {
                        format!(
                            "block {} (the cap is `games` in the study file)",
                            block.name
                        )
                    })?;
            }
            t.shard = Some(shard);
            t.until = None;
            let result = run::run(&t).with_context(|| format!("block {}", block.name))?;
            outcome.add(&result);
        }
        for group in &study.ratings {
            let path = shard_path(&ratings_dir(&args.out), &group.name, shard);
            let mut t = rating_tournament(study, args, group, path);
            t.shard = Some(shard);
            let result = run::run(&t).with_context(|| format!("ratings {}", group.name))?;
            outcome.add(&result);
        }
        return Ok(outcome);
    }
    // One unsharded run of the folder at a time: it rewrites the summaries.
    let _lock = run::safety::lock_output(&args.out.join("study.toml"))?;
    std::fs::write(args.out.join("study.toml"), &study.text)
        .with_context(|| format!("cannot write {}", args.out.join("study.toml").display()))?;
    for (dir, name) in cells(study, &args.out) {
        let path = games_path(&dir, &name);
        if path.exists() {
            continue;
        }
        let shards = shards_of(&dir, &name)?;
        let what = if dir == args.out {
            format!("block {name}")
        } else {
            format!("ratings {name}")
        };
        if shards.is_empty() {
            if args.merge {
                bail!(
                    "{what}: neither {} nor shards of it in {}; run the study (or all its shards) first",
                    path.display(),
                    dir.join("shards").display()
                );
            }
            continue;
        }
        run::merge::merge(&shards, &path, false)
            .with_context(|| format!("{what}: merging its shards"))?;
        outcome.merged.push(what);
    }
    for (i, block) in study.blocks.iter().enumerate() {
        let path = games_path(&args.out, &block.name);
        if args.progress {
            eprintln!(
                "[{}/{m}] {}: {}  {}  ({} {})",
                i + 1,
                block.name,
                block.game,
                block.agent,
                if study.until.is_some() {
                    "cap"
                } else {
                    "games"
                },
                study.games
            );
        }
        let t = balance::block_tournament(&b, &block.game, block.seats, &block.agent, path, alpha);
        let result = run::run(&t).with_context(|| format!("block {}", block.name))?;
        if let Some(w) = result.summary.line_note() {
            eprintln!("{}: {w}", block.name);
        }
        let label = format!("{}.{GAMES_EXT}", block.name);
        let row = balance::block_row(&b, &result, &block.agent, &label)?;
        outcome.add(&result);
        outcome.stopped_at.push(result.stopped_at);
        outcome.rows.push(row);
    }
    rate_groups(study, args, &mut outcome)?;
    balance::adjust(&mut outcome.rows);
    balance::write_balance(&b.out, &outcome.rows)?;
    let pairs: Vec<_> = study
        .comparisons
        .iter()
        .map(|c| {
            let (r, x) = (&outcome.rows[c.reference], &outcome.rows[c.block]);
            (compare::Block::from(r), compare::Block::from(x))
        })
        .collect();
    let path = compare::compare_path(&b.out);
    if pairs.is_empty() {
        // A study that no longer compares leaves no stale comparisons.
        if path.exists() {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
    } else {
        let rows = compare::merge(&[], &pairs, &args.out, Until::margin(study.until))?;
        // In the file's order (merge sorts by game).
        outcome.comparisons = pairs
            .iter()
            .filter_map(|(a, x)| {
                rows.iter()
                    .find(|r| r.reference == a.game && r.game == x.game && r.agent == x.agent)
                    .cloned()
            })
            .collect();
        crate::output::table::write_table(&path, &outcome.comparisons)?;
    }
    Ok(outcome)
}
