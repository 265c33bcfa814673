//! Openings: the positions a run's games start from, so that deterministic
//! agents play many different games and every opening is played with both
//! seatings.
//!
//! * `--openings K --opening-plies P`: K distinct openings, each made of P
//!   uniformly random legal moves (chance outcomes drawn by their
//!   probabilities) from the start `initial_state(run seed)` (so a game
//!   with a seeded set-up, such as Bagel's random layouts, plays every
//!   opening on one layout); openings reaching a position text already
//!   drawn are dropped, so the K openings are K distinct positions. A game
//!   is replayed as `initial_state(run seed)`, then `opening_moves`, then
//!   `moves`.
//! * `--opening-filter AGENT [--opening-margin M]` (with random openings):
//!   keep only openings where one search by AGENT (seeded from the run
//!   seed and the try) gives the seat to move a win probability within M
//!   (default 0.1) of ½; openings that end at a chance node are dropped,
//!   as there is no seat to ask. The K openings are the first K balanced
//!   distinct ones drawn.
//! * `--openings-file FILE`: one opening per line, either moves in the
//!   game's notation from the start (`initial_state(run seed)`) or a
//!   position text; empty lines and lines starting with `#` are skipped.
//!
//! Game `g` of a pairing starts from opening `(g / r) mod K`, where `r` is
//! the number of seatings that rotate (2 for two seats: games `2k` and
//! `2k + 1` play opening `k` with the seats swapped).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use agents::AgentSpec;
use engine::{Game, Search, State, ToMove, apply_moves};

use super::jobs::mix;

/// Mixed into the run seed for the openings' generator.
const OPENING_SALT: u64 = 0x0BE1_1165;

/// How many random openings to try per opening asked for before deciding
/// that fewer distinct ones exist.
const TRIES_PER_OPENING: u64 = 64;

/// The most openings a run may ask for (each is a state kept in memory).
const MAX_OPENINGS: u32 = 1_000_000;

/// Where a run's openings come from (part of its configuration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningsConfig {
    /// Number of openings.
    pub count: u32,
    /// Plies of each random opening (0 for a file).
    pub plies: u32,
    /// The openings file, if they were read from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// A 64-bit digest of every opening's text, so that a changed file is
    /// seen as a change of configuration.
    pub digest: String,
    /// The balance filter, `AGENT within M`, if one chose the openings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
}

/// What the command line asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpeningsRequest {
    /// `--openings K`.
    pub count: Option<u32>,
    /// `--opening-plies P`.
    pub plies: Option<u32>,
    /// `--openings-file FILE`.
    pub file: Option<PathBuf>,
    /// `--opening-filter AGENT`.
    pub filter: Option<String>,
    /// `--opening-margin M`.
    pub margin: Option<f64>,
}

impl OpeningsRequest {
    /// Whether any opening option was given.
    pub fn is_set(&self) -> bool {
        self.count.is_some()
            || self.plies.is_some()
            || self.file.is_some()
            || self.filter.is_some()
            || self.margin.is_some()
    }
}

/// The balance filter of random openings: an agent and a margin.
struct Filter {
    spec: AgentSpec,
    margin: f64,
}

impl Filter {
    fn new(req: &OpeningsRequest, game: &str, num_seats: usize) -> Result<Option<Filter>> {
        let Some(text) = &req.filter else {
            if req.margin.is_some() {
                bail!("--opening-margin applies with --opening-filter");
            }
            return Ok(None);
        };
        if req.file.is_some() {
            bail!("--opening-filter applies to random openings, not to --openings-file");
        }
        let margin = req.margin.unwrap_or(0.1);
        if !(0.0..=0.5).contains(&margin) {
            bail!("--opening-margin {margin}: give a number from 0 to 0.5");
        }
        let spec = AgentSpec::parse_in(text, game).map_err(|e| anyhow!("--opening-filter: {e}"))?;
        spec.check_game(num_seats)
            .map_err(|e| anyhow!("--opening-filter: {e}"))?;
        Ok(Some(Filter { spec, margin }))
    }

    fn text(&self) -> String {
        format!("{} within {}", self.spec.canonical(), self.margin)
    }

    /// The agent's win probability for the seat to move, if it reports
    /// one; `None` at a chance node.
    fn win_probability<S: State + Search + 'static>(
        &self,
        state: &S,
        seed: u64,
    ) -> Result<Option<f64>> {
        if !matches!(state.to_move(), ToMove::Seat(_)) {
            return Ok(None);
        }
        let mut agent = self.spec.build_plain::<S>(seed);
        let mut p = None;
        agent.select_reporting(state, &mut |info| p = Some(info.win_probability));
        match p {
            Some(p) => Ok(Some(p)),
            None => bail!(
                "--opening-filter {}: the agent reports no evaluation (use a searching agent: mcts, uct, alphabeta)",
                self.spec.canonical()
            ),
        }
    }
}

/// One opening: its text (moves from the start, or a position text) and the
/// position it reaches.
#[derive(Clone, Debug)]
pub struct Opening<S> {
    /// The opening's moves from the start, space-separated, or the position
    /// text a file gave.
    pub text: String,
    /// The position the games start from.
    pub state: S,
}

/// A run's openings with their configuration.
pub type Openings<S> = (OpeningsConfig, Vec<Opening<S>>);

/// Makes the openings a request asks for, with their configuration.
///
/// # Errors
/// `--openings 0`, `--opening-plies` without `--openings` (or with a file),
/// plies past the end of every game, more openings than exist (the error
/// says how many were found), and an unreadable file or a line with a
/// malformed or illegal move (named by line and move).
pub fn make<G: Game>(
    game: &G,
    req: &OpeningsRequest,
    seed: u64,
) -> Result<Option<Openings<G::State>>> {
    if !req.is_set() {
        return Ok(None);
    }
    let list = match (&req.file, req.count, req.plies) {
        (Some(file), count, None) => {
            let mut list = read_file(game, file, seed)?;
            if let Some(k) = count {
                if k == 0 || k as usize > list.len() {
                    bail!(
                        "--openings {k}: {} holds {} openings",
                        file.display(),
                        list.len()
                    );
                }
                list.truncate(k as usize);
            }
            list
        }
        (Some(_), _, Some(_)) => {
            bail!("--opening-plies applies to random openings, not to --openings-file")
        }
        (None, Some(k), Some(p)) => random(
            game,
            k,
            p,
            seed,
            Filter::new(req, &game.game_string(), game.num_seats())?.as_ref(),
        )?,
        (None, _, _) => bail!("random openings need both --openings K and --opening-plies P"),
    };
    let mut digest = 0xCBF2_9CE4_8422_2325_u64;
    for o in &list {
        for b in o.text.bytes().chain([b'\n']) {
            digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    let config = OpeningsConfig {
        count: list.len() as u32,
        plies: if req.file.is_some() {
            0
        } else {
            req.plies.unwrap_or(0)
        },
        file: req.file.clone(),
        digest: format!("{digest:016x}"),
        filter: Filter::new(req, &game.game_string(), game.num_seats())?.map(|f| f.text()),
    };
    Ok(Some((config, list)))
}

/// `count` distinct random openings of `plies` plies (balanced by `filter`
/// if there is one).
fn random<G: Game>(
    game: &G,
    count: u32,
    plies: u32,
    seed: u64,
    filter: Option<&Filter>,
) -> Result<Vec<Opening<G::State>>> {
    if count == 0 {
        bail!("--openings must be at least 1");
    }
    if count > MAX_OPENINGS {
        bail!("--openings {count}: at most {MAX_OPENINGS}");
    }
    if plies > 1_000 {
        bail!("--opening-plies {plies}: at most 1000");
    }
    let base = mix(seed, OPENING_SALT);
    let mut rng = ChaCha8Rng::seed_from_u64(base);
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut ended = 0u64;
    let mut unbalanced = 0u64;
    let most = u64::from(count) * TRIES_PER_OPENING + 1_000;
    // Tries since the last new position: when they reach this many per
    // position found, fewer distinct openings exist than were asked for.
    let mut since_new = 0u64;
    let mut tries = 0u64;
    // Whether the filter, if there is one, judges a position balanced (its
    // search seeded by `salt`).
    let balanced = |s: &G::State, salt: u64| -> Result<bool> {
        Ok(match filter {
            Some(f) => f
                .win_probability(s, mix(base, salt))?
                .is_some_and(|p| (p - 0.5).abs() <= f.margin),
            None => true,
        })
    };
    for t in 0..most {
        if out.len() == count as usize
            || since_new > TRIES_PER_OPENING * (seen.len() as u64 + 1) + 1_000
        {
            break;
        }
        tries += 1;
        since_new += 1;
        let mut s = game.initial_state(seed);
        let mut text = Vec::new();
        for _ in 0..plies {
            let mv = match s.to_move() {
                ToMove::Terminal => break,
                ToMove::Chance => s
                    .sample_chance(&mut rng, &mut outcomes)
                    .expect("a chance node has outcomes"),
                ToMove::Seat(_) => {
                    s.legal_moves(&mut moves);
                    moves[rng.random_range(0..moves.len())]
                }
            };
            text.push(s.move_to_text(mv));
            s.apply(mv);
        }
        if text.len() < plies as usize || s.is_terminal() {
            ended += 1;
            continue;
        }
        if !seen.insert(s.to_text()) {
            continue;
        }
        since_new = 0;
        if !balanced(&s, t)? {
            unbalanced += 1;
            continue;
        }
        out.push(Opening {
            text: text.join(" "),
            state: s,
        });
    }
    // The random walk reaches rare openings rarely (on Blockade, where most
    // first placements let a king escape, each of the 33 two-ply openings
    // turns up about once in 2,000 tries): before saying fewer exist,
    // count them exhaustively where the tree is small and has no chance.
    let mut counted = None;
    if out.len() < count as usize
        && let Some(all) = enumerate(game, plies, seed)
    {
        counted = Some(all.len());
        let mut rest: Vec<_> = all
            .into_iter()
            .filter(|(_, s)| !seen.contains(&s.to_text()))
            .collect();
        // A seeded shuffle (Fisher–Yates), so that K of them are a random K.
        for i in (1..rest.len()).rev() {
            rest.swap(i, rng.random_range(0..=i));
        }
        for (i, (text, s)) in (0u64..).zip(rest) {
            if out.len() == count as usize {
                break;
            }
            if !balanced(&s, most + i)? {
                unbalanced += 1;
                continue;
            }
            out.push(Opening {
                text: text.join(" "),
                state: s,
            });
        }
    }
    if out.is_empty() && ended > 0 && counted.is_none_or(|n| n == 0) {
        bail!(
            "--opening-plies {plies}: every one of {ended} random games ended before ply {plies}"
        );
    }
    if out.len() < count as usize
        && let Some(f) = filter
    {
        bail!(
            "--openings {count}: only {} of {} distinct openings of {plies} plies were balanced by {} (found in {tries} random tries); widen --opening-margin or ask for at most {}",
            out.len(),
            out.len() as u64 + unbalanced,
            f.text(),
            out.len()
        );
    }
    if out.len() < count as usize {
        match counted {
            Some(n) => bail!(
                "--openings {count}: only {n} distinct openings of {plies} plies exist (counted exhaustively); ask for at most {n}"
            ),
            None => bail!(
                "--openings {count}: found only {} distinct openings of {plies} plies in {tries} random tries (the tree is too large or has chance to count them all); ask for at most {}",
                out.len(),
                out.len()
            ),
        }
    }
    Ok(out)
}

/// The most positions `enumerate` visits before giving up.
const ENUMERATE_NODES: u64 = 2_000_000;

/// Every distinct position `plies` plies from the start that is not over,
/// each with the first move sequence (depth first, in move order) that
/// reaches it; `None` where the tree passes a chance node or holds more
/// than `ENUMERATE_NODES` positions.
fn enumerate<G: Game>(game: &G, plies: u32, seed: u64) -> Option<Vec<(Vec<String>, G::State)>> {
    fn walk<S: State>(
        s: &S,
        left: u32,
        line: &mut Vec<String>,
        nodes: &mut u64,
        seen: &mut HashSet<String>,
        out: &mut Vec<(Vec<String>, S)>,
    ) -> Option<()> {
        *nodes += 1;
        if *nodes > ENUMERATE_NODES {
            return None;
        }
        match s.to_move() {
            ToMove::Terminal => return Some(()),
            ToMove::Chance => return None,
            ToMove::Seat(_) => {}
        }
        if left == 0 {
            if seen.insert(s.to_text()) {
                out.push((line.clone(), s.clone()));
            }
            return Some(());
        }
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        for mv in moves {
            let mut next = s.clone();
            line.push(s.move_to_text(mv));
            next.apply(mv);
            walk(&next, left - 1, line, nodes, seen, out)?;
            line.pop();
        }
        Some(())
    }
    let mut out = Vec::new();
    walk(
        &game.initial_state(seed),
        plies,
        &mut Vec::new(),
        &mut 0,
        &mut HashSet::new(),
        &mut out,
    )?;
    Some(out)
}

/// The openings of a file: moves from the start, or a position text.
fn read_file<G: Game>(game: &G, path: &Path, seed: u64) -> Result<Vec<Opening<G::State>>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{} line {}", path.display(), i + 1);
        let mut s = game.initial_state(seed);
        let state = match apply_moves(&mut s, line) {
            Ok(()) => s,
            Err(move_err) => match game.parse_position(line) {
                Ok(p) => p,
                Err(_) => bail!("{}: {move_err}", at()),
            },
        };
        if state.is_terminal() {
            bail!("{}: the opening ends the game", at());
        }
        out.push(Opening {
            text: line.to_string(),
            state,
        });
    }
    if out.is_empty() {
        return Err(anyhow!("openings file {} holds no opening", path.display()));
    }
    Ok(out)
}
