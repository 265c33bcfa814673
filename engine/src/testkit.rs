//! The generic consistency kit every game runs (after board-game-rs and
//! shakmaty's fuzz checks): invariants of the [`State`] API that hold for
//! any correct engine, checked along seeded random playouts.
//!
//! It does not replace a game's reference generator or its dossier
//! examples; it catches the API-level mistakes those do not look for.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use std::collections::HashMap;

use crate::api::{Decisions, Game, Research, State, ToMove, apply_moves, perft, perft_turns};
use crate::registry::{GameVisitor, visit_game};

/// What [`check_playouts`] saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KitReport {
    /// Games played to the end.
    pub games: usize,
    /// Positions checked.
    pub positions: usize,
    /// Chance nodes checked.
    pub chance_nodes: usize,
    /// Longest game in plies.
    pub max_plies: u32,
}

/// Plays `games` random games of `game` (seeds from `seed`) and checks, at
/// every position:
/// * `legal_moves` is non-empty exactly at seat nodes, has no duplicates,
///   and has `count_legal_moves` entries;
/// * every listed move prints to text that parses back to the same move
///   (`State::parse_move`), and `push_move_text` appends that same text;
/// * `sample_legal_move` returns a listed move;
/// * `perft_after` agrees with applying the move and counting;
/// * chance outcomes are non-empty at chance nodes, have positive
///   probabilities summing to 1, and nothing is listed elsewhere;
/// * the incremental Zobrist key equals the recomputed one;
/// * the position text parses back to a state with the same text and key;
/// * terminal states (and only they) give an end reason
///   ([`Research::end_reason`]), list no moves, and returns are within [−1, 1] except in
///   one-seat games; before the end returns are all 0;
/// * every declared board symmetry maps each legal move to a legal move
///   ([`Research::symmetry_count`], [`Research::transform_move`]);
/// * the game ends within `max_plies`.
///
/// # Errors
/// The first broken invariant, with the position text.
pub fn check_playouts<G: Game>(
    game: &G,
    games: usize,
    seed: u64,
    max_plies: u32,
) -> Result<KitReport, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut report = KitReport::default();
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    let mut outcomes = Vec::new();
    for g in 0..games {
        let mut state = game.initial_state(rng.random());
        loop {
            report.positions += 1;
            check_state(game, &state, &mut moves, &mut buf, &mut outcomes, &mut rng)?;
            let mv = match state.to_move() {
                ToMove::Terminal => break,
                ToMove::Chance => {
                    report.chance_nodes += 1;
                    state
                        .sample_chance(&mut rng, &mut outcomes)
                        .ok_or("chance node without outcomes")?
                }
                ToMove::Seat(_) => moves[rng.random_range(0..moves.len())],
            };
            state.apply(mv);
            if state.ply() > max_plies {
                return Err(format!(
                    "game {g} passed {max_plies} plies: {}",
                    state.to_text()
                ));
            }
        }
        report.games += 1;
        report.max_plies = report.max_plies.max(state.ply());
    }
    Ok(report)
}

fn check_state<G: Game, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &mut Vec<<G::State as State>::Move>,
    buf: &mut Vec<<G::State as State>::Move>,
    outcomes: &mut Vec<(<G::State as State>::Move, f64)>,
    rng: &mut R,
) -> Result<(), String> {
    let at = || state.to_text();
    state.legal_moves(moves);
    state.chance_outcomes(outcomes);
    if state.zobrist() != state.zobrist_from_scratch() {
        return Err(format!(
            "incremental Zobrist key differs from the recomputed one at {}",
            at()
        ));
    }
    let text = state.to_text();
    let back = game
        .parse_position(&text)
        .map_err(|e| format!("position text does not parse back: {e}"))?;
    if back.to_text() != text || back.zobrist() != state.zobrist() {
        return Err(format!(
            "position text does not round-trip: {text} -> {}",
            back.to_text()
        ));
    }
    let seats = state.num_seats();
    let r = state.returns();
    match state.to_move() {
        ToMove::Seat(s) => {
            if s >= seats || moves.is_empty() || !outcomes.is_empty() {
                return Err(format!(
                    "seat node with seat {s}, {} moves, {} outcomes at {}",
                    moves.len(),
                    outcomes.len(),
                    at()
                ));
            }
            if state.count_legal_moves() != moves.len() {
                return Err(format!(
                    "count_legal_moves {} but {} moves at {}",
                    state.count_legal_moves(),
                    moves.len(),
                    at()
                ));
            }
            let mut sorted: Vec<String> = moves.iter().map(|&m| state.move_to_text(m)).collect();
            for (t, &m) in sorted.iter().zip(moves.iter()) {
                let parsed = state
                    .parse_move(t)
                    .map_err(|e| format!("{e} at {}", at()))?;
                if parsed != m {
                    return Err(format!(
                        "move text {t:?} parses to another move at {}",
                        at()
                    ));
                }
                let mut pushed = String::from("e2 ");
                state.push_move_text(m, &mut pushed);
                if pushed[3..] != *t {
                    return Err(format!(
                        "push_move_text wrote {pushed:?} after \"e2 \", move_to_text {t:?}, at {}",
                        at()
                    ));
                }
            }
            sorted.sort();
            sorted.dedup();
            if sorted.len() != moves.len() {
                return Err(format!("duplicate moves at {}", at()));
            }
            for sym in 1..state.symmetry_count() {
                for &m in moves.iter() {
                    let t = state.transform_move(m, sym);
                    if !moves.contains(&t) {
                        return Err(format!(
                            "symmetry {sym} maps legal {} to {}, which is not legal at {}",
                            state.move_to_text(m),
                            state.move_to_text(t),
                            at()
                        ));
                    }
                }
            }
            let m = state
                .sample_legal_move(rng, buf)
                .ok_or("no sample at a seat node")?;
            if !moves.contains(&m) {
                return Err(format!(
                    "sample_legal_move gave an unlisted move at {}",
                    at()
                ));
            }
            for &mv in std::iter::once(&m).chain(moves.first()) {
                let mut child = state.clone();
                child.apply(mv);
                let want = crate::api::perft_leaves(&child);
                let got = state.perft_after(mv);
                if got != want {
                    return Err(format!(
                        "perft_after({}) = {got}, but {want} after applying it at {}",
                        state.move_to_text(mv),
                        at()
                    ));
                }
            }
        }
        ToMove::Chance => {
            let sum: f64 = outcomes.iter().map(|o| o.1).sum();
            if outcomes.is_empty()
                || outcomes.iter().any(|o| o.1 <= 0.0)
                || (sum - 1.0).abs() > 1e-9
                || !moves.is_empty()
            {
                return Err(format!(
                    "chance outcomes sum to {sum} ({} outcomes) at {}",
                    outcomes.len(),
                    at()
                ));
            }
        }
        ToMove::Terminal => {
            if !moves.is_empty() || !outcomes.is_empty() || state.count_legal_moves() != 0 {
                return Err(format!("terminal state lists moves at {}", at()));
            }
            if seats > 1 && r[..seats].iter().any(|x| !(-1.0..=1.0).contains(x)) {
                return Err(format!("returns {r:?} out of range at {}", at()));
            }
        }
    }
    if state.is_terminal() != state.end_reason().is_some() {
        return Err(format!(
            "end reason {:?} at a {} state: {}",
            state.end_reason(),
            if state.is_terminal() {
                "terminal"
            } else {
                "running"
            },
            at()
        ));
    }
    if state.to_move() != ToMove::Terminal && r.iter().any(|&x| x != 0.0) {
        return Err(format!("non-zero returns before the end at {}", at()));
    }
    Ok(())
}

/// Checks one position with every invariant [`check_playouts`] checks at
/// each position of its playouts (moves, counts, move text, Zobrist keys,
/// position text, symmetries, terminal states, returns), for fuzzing from
/// arbitrary positions and move sequences; `seed` draws the sample checked
/// by `sample_legal_move`.
///
/// # Errors
/// The first broken invariant, with the position text.
pub fn check_position<G: Game>(game: &G, state: &G::State, seed: u64) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    check_state(
        game,
        state,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut Vec::new(),
        &mut rng,
    )
}

/// Text fragments [`mutate`] inserts: numbers at and past the integer
/// limits, separators of the game, move and position notations, and
/// characters parsers that slice bytes trip on.
pub const MUTATION_TOKENS: &[&str] = &[
    "0",
    "1",
    "-1",
    "255",
    "256",
    "65536",
    "2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "-9223372036854775809",
    "1e309",
    "NaN",
    "inf",
    "-0",
    "0x10",
    "+",
    "(",
    ")",
    ",",
    "=",
    "/",
    ";",
    ":",
    "-",
    "x",
    "*",
    "[",
    "]",
    "\"",
    " ",
    "\n",
    "\t",
    "\0",
    "\u{e9}",
    "\u{1F600}",
    "\u{FFFD}",
];

/// Applies byte-level mutations to `text` (after AFL's havoc stage): each
/// `(op, at, arg)` flips a bit, deletes, truncates, duplicates or swaps a
/// range, inserts a [`MUTATION_TOKENS`] entry, replaces a run of digits by
/// a huge number, or overwrites a byte with one from elsewhere in the text;
/// `at` and `arg` are reduced modulo the text's length. The bytes are read
/// back as UTF-8 with invalid sequences replaced by U+FFFD, so the result
/// is always a `&str` a parser can be given. Deterministic: the same
/// arguments give the same text.
pub fn mutate(text: &str, ops: &[(u8, u32, u32)]) -> String {
    let mut b = text.as_bytes().to_vec();
    for &(op, at, arg) in ops {
        let len = b.len();
        let at = if len == 0 { 0 } else { at as usize % len };
        let span = 1 + arg as usize % 8;
        let end = (at + span).min(len);
        match op % 9 {
            0 if len > 0 => b[at] ^= 1 << (arg % 8),
            1 => {
                b.drain(at..end);
            }
            2 => b.truncate(at),
            3 => {
                let copy = b[at..end].to_vec();
                b.splice(end..end, copy);
            }
            4 | 5 => {
                let t = MUTATION_TOKENS[arg as usize % MUTATION_TOKENS.len()];
                b.splice(at..at, t.bytes());
            }
            6 => {
                // The digit run at or after `at`, replaced by a huge number.
                if let Some(s) = (at..len).find(|&i| b[i].is_ascii_digit()) {
                    let e = (s..len).find(|&i| !b[i].is_ascii_digit()).unwrap_or(len);
                    let t = MUTATION_TOKENS[6 + arg as usize % 7];
                    b.splice(s..e, t.bytes());
                }
            }
            7 if len > 0 => b[at] = b[arg as usize % len],
            8 if len > 0 => {
                let other = arg as usize % len;
                let (x, y) = (at.min(other), at.max(other));
                let (x_end, y_end) = ((x + span).min(y), (y + span).min(len));
                let second = b[y..y_end].to_vec();
                let first = b[x..x_end].to_vec();
                b.splice(y..y_end, first);
                b.splice(x..x_end, second);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Checks that [`State::sample_legal_move`] is uniform over the legal moves
/// of `state`: `samples` draws (seeded by `seed`), every draw a listed move,
/// every move drawn at least once, and Pearson's chi-square statistic under
/// a loose bound (degrees of freedom + 6 standard deviations + 10, so a
/// correct sampler fails with negligible probability while a sampler that
/// skews one move by a few per cent fails at once).
///
/// # Errors
/// An unlisted sample, a move never drawn, or a chi-square over the bound.
pub fn check_uniform<S: State>(state: &S, samples: usize, seed: u64) -> Result<(), String> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let k = moves.len();
    if k < 2 {
        return Err(format!(
            "{k} legal moves: nothing to sample at {}",
            state.to_text()
        ));
    }
    let index: HashMap<_, usize> = moves.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let mut counts = vec![0usize; k];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    for _ in 0..samples {
        let m = state
            .sample_legal_move(&mut rng, &mut buf)
            .ok_or_else(|| format!("no sample at {}", state.to_text()))?;
        let i = *index
            .get(&m)
            .ok_or_else(|| format!("sampled unlisted {m:?} at {}", state.to_text()))?;
        counts[i] += 1;
    }
    let expect = samples as f64 / k as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expect).powi(2) / expect)
        .sum();
    let dof = (k - 1) as f64;
    let bound = dof + 6.0 * (2.0 * dof).sqrt() + 10.0;
    if chi2 >= bound {
        return Err(format!(
            "chi-square {chi2:.1} > {bound:.1} over {k} moves at {}",
            state.to_text()
        ));
    }
    if counts.contains(&0) {
        return Err(format!("some move never sampled at {}", state.to_text()));
    }
    Ok(())
}

/// A recorded game kept as a golden file and replayed by a test (after
/// OpenSpiel's playthroughs): it catches any silent change of rules or
/// notation. The file is comment lines (`#`), among them `# final: <position
/// text>` and `# returns: <return per seat>`, then one move per line.
#[derive(Clone, Debug, PartialEq)]
pub struct Golden {
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// The final position text.
    pub final_text: String,
    /// The returns per seat at the end.
    pub returns: Vec<f64>,
}

impl Golden {
    /// The file text: `comments` (each line gets a `# ` prefix), the final
    /// position and returns, then the moves.
    pub fn to_file_text(&self, comments: &str) -> String {
        let mut out = String::new();
        for line in comments.lines() {
            out += &format!("# {line}\n");
        }
        out += &format!("# final: {}\n", self.final_text);
        let r: Vec<String> = self.returns.iter().map(|x| x.to_string()).collect();
        out += &format!("# returns: {}\n", r.join(" "));
        for m in &self.moves {
            out += m;
            out += "\n";
        }
        out
    }

    /// Reads a golden file's text.
    ///
    /// # Errors
    /// A missing `# final:` or `# returns:` line, or a return that is not a
    /// number.
    pub fn parse(text: &str) -> Result<Golden, String> {
        let (mut final_text, mut returns, mut moves) = (None, None, Vec::new());
        for line in text.lines().map(str::trim) {
            if let Some(c) = line.strip_prefix('#') {
                let c = c.trim();
                if let Some(f) = c.strip_prefix("final:") {
                    final_text = Some(f.trim().to_string());
                } else if let Some(v) = c.strip_prefix("returns:") {
                    let r: Result<Vec<f64>, _> = v.split_whitespace().map(str::parse).collect();
                    returns = Some(r.map_err(|e| format!("bad `# returns:` line: {e}"))?);
                }
            } else if !line.is_empty() {
                moves.push(line.to_string());
            }
        }
        Ok(Golden {
            moves,
            final_text: final_text.ok_or("no `# final:` line")?,
            returns: returns.ok_or("no `# returns:` line")?,
        })
    }
}

/// The perft data files, `engine/data/perft/<game>.txt`, built
/// into the library so that the tests and `boardlab evidence` read the same
/// vectors. A test checks that every file in that folder is listed here.
pub const PERFT_FILES: &[(&str, &str)] = &[
    ("andalusia", include_str!("../data/perft/andalusia.txt")),
    ("bagel", include_str!("../data/perft/bagel.txt")),
    ("blockade", include_str!("../data/perft/blockade.txt")),
    ("catapult", include_str!("../data/perft/catapult.txt")),
    ("empire", include_str!("../data/perft/empire.txt")),
    ("gateway", include_str!("../data/perft/gateway.txt")),
    (
        "kings_colour",
        include_str!("../data/perft/kings_colour.txt"),
    ),
    ("line_up", include_str!("../data/perft/line_up.txt")),
    ("royal_guard", include_str!("../data/perft/royal_guard.txt")),
    ("slingshot", include_str!("../data/perft/slingshot.txt")),
    (
        "sly_solitaire",
        include_str!("../data/perft/sly_solitaire.txt"),
    ),
    ("sniggle", include_str!("../data/perft/sniggle.txt")),
    ("spinner", include_str!("../data/perft/spinner.txt")),
];

/// One perft vector of a data file: `game | position | depth | count |
/// source [| turns]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftVector {
    /// 1-based line number in its file.
    pub line: usize,
    /// The game string.
    pub game: String,
    /// `start`, `start moves <record>`, or a position text.
    pub position: String,
    /// Depth in plies (in turns where `turns`).
    pub depth: u32,
    /// The expected leaf count.
    pub count: u64,
    /// Where the value comes from (a dossier section, a published table).
    pub source: String,
    /// Count whole turns ([`perft_turns`]) rather than plies.
    pub turns: bool,
}

/// Reads a perft data file (`#` comments and blank lines skipped).
///
/// # Errors
/// A line without five or six `|`-separated fields, a bad number or an
/// unknown sixth field; the message names the line.
pub fn parse_perft_vectors(text: &str) -> Result<Vec<PerftVector>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let bad = |what: &str| format!("line {}: {what}: {line}", i + 1);
        if !(5..=6).contains(&f.len()) {
            return Err(bad(
                "expected `game | position | depth | count | source [| turns]`",
            ));
        }
        let turns = match f.get(5) {
            None => false,
            Some(&"turns") => true,
            Some(_) => return Err(bad("the sixth field can only be `turns`")),
        };
        out.push(PerftVector {
            line: i + 1,
            game: f[0].to_string(),
            position: f[1].to_string(),
            depth: f[2].parse().map_err(|_| bad("bad depth"))?,
            count: f[3].parse().map_err(|_| bad("bad count"))?,
            source: f[4].to_string(),
            turns,
        });
    }
    Ok(out)
}

/// Counts a vector's perft in its game's [`Game::perft_game`].
struct RunVector<'a>(&'a PerftVector);

impl GameVisitor for RunVector<'_> {
    type Output = Result<u64, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let v = self.0;
        let game = game.perft_game();
        let state = if let Some(rest) = v.position.strip_prefix("start") {
            let mut s = game.initial_state(0);
            if let Some(record) = rest.trim().strip_prefix("moves") {
                apply_moves(&mut s, record).map_err(|e| e.to_string())?;
            } else if !rest.trim().is_empty() {
                return Err(format!("bad position {:?}", v.position));
            }
            s
        } else {
            game.parse_position(&v.position)
                .map_err(|e| e.to_string())?
        };
        Ok(if v.turns {
            perft_turns(&state, v.depth)
        } else {
            perft(&state, v.depth)
        })
    }
}

/// The perft count of a vector, from its game string and position.
///
/// # Errors
/// A bad game string, position or move record.
pub fn run_perft_vector(v: &PerftVector) -> Result<u64, String> {
    visit_game(&v.game, RunVector(v)).map_err(|e| e.to_string())?
}

/// Plays `games` random games of `game` (seeds from `seed`, at most
/// `max_plies` plies each) and checks the learning interface
/// ([`crate::api::Learning`]) at every position:
/// * every move of the node (legal moves, or chance outcomes) has one to
///   [`crate::api::MAX_DECISIONS`] action ids, each inside the space; no two
///   moves share their ids and none is a proper prefix of another's;
/// * the first decisions the node allows ([`Decisions::legal_actions`]) are
///   exactly the first ids of its moves, so a mask built from them equals
///   the legal list, and at every later decision of a compound move the
///   same holds for the moves that start with the ids taken;
/// * taking a move's ids one by one ([`Decisions::apply_action`]) applies
///   that move: id → move round-trips; an id outside the legal ones is
///   refused;
/// * the space and the observation's shape stay those of the initial state,
///   and the observation writes every entry of a buffer of that size with
///   a finite number, at every decision.
///
/// Returns the number of positions checked.
///
/// # Errors
/// The first broken invariant, with the position text.
pub fn check_learning<G: Game>(
    game: &G,
    games: usize,
    seed: u64,
    max_plies: u32,
) -> Result<usize, String> {
    use crate::api::Learning;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = game.initial_state(seed);
    let (space, shape) = (first.num_actions(), first.observation_shape());
    let len = shape.iter().product::<usize>();
    if space == 0 || len == 0 {
        return Err(format!("empty space {space} or shape {shape:?}"));
    }
    let mut obs = vec![f32::NAN; len];
    let mut positions = 0;
    let mut moves = Vec::new();
    let mut ids = Vec::new();
    for g in 0..games {
        let mut d = Decisions::new(game.initial_state(seed ^ (g as u64) << 20));
        while !d.state.is_terminal() && d.state.ply() < max_plies {
            positions += 1;
            let s = &d.state;
            let at = || format!("{} at {}", game.game_string(), s.to_text());
            if s.num_actions() != space || s.observation_shape() != shape {
                return Err(format!("space or shape changed: {}", at()));
            }
            d.node_moves(&mut moves);
            let seqs: Vec<Vec<u32>> = moves
                .iter()
                .map(|&m| s.move_actions(m).ids().to_vec())
                .collect();
            for (i, a) in seqs.iter().enumerate() {
                if a.is_empty() || a.iter().any(|&id| id as usize >= space) {
                    return Err(format!(
                        "{:?} has ids {a:?} outside 0..{space}: {}",
                        moves[i],
                        at()
                    ));
                }
                for (j, b) in seqs.iter().enumerate() {
                    if i != j && b.len() >= a.len() && b[..a.len()] == a[..] {
                        return Err(format!(
                            "{:?} ({a:?}) and {:?} ({b:?}) share a prefix: {}",
                            moves[i],
                            moves[j],
                            at()
                        ));
                    }
                }
            }
            // Take a random move's ids one by one, checking the legal ids at
            // each decision.
            let k = rng.random_range(0..moves.len());
            let (want, seq) = (moves[k], seqs[k].clone());
            let mut expect = d.state.clone();
            expect.apply(want);
            for (step, &id) in seq.iter().enumerate() {
                d.legal_actions(&mut ids);
                let mut firsts: Vec<u32> = seqs
                    .iter()
                    .filter(|a| a.len() > step && a[..step] == seq[..step])
                    .map(|a| a[step])
                    .collect();
                firsts.sort_unstable();
                firsts.dedup();
                if ids != firsts {
                    return Err(format!(
                        "legal ids {ids:?}, moves give {firsts:?}: {}",
                        d.state.to_text()
                    ));
                }
                obs.fill(f32::NAN);
                d.observe(&mut obs);
                if obs.iter().any(|v| !v.is_finite()) {
                    return Err(format!(
                        "observation not all written: {}",
                        d.state.to_text()
                    ));
                }
                if let Some(bad) = (0..space as u32).find(|i| ids.binary_search(i).is_err())
                    && d.clone().apply_action(bad).is_ok()
                {
                    return Err(format!("illegal id {bad} accepted: {}", d.state.to_text()));
                }
                let done = d.apply_action(id).map_err(|e| e.0)?;
                if done.is_some() != (step + 1 == seq.len()) || done.is_some_and(|m| m != want) {
                    return Err(format!("ids {seq:?} gave {done:?}, not {want:?}"));
                }
            }
            if d.state.zobrist() != expect.zobrist() || d.state.to_text() != expect.to_text() {
                return Err(format!("ids {seq:?} did not apply {want:?}"));
            }
        }
    }
    Ok(positions)
}
