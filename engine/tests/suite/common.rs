//! Helpers every game's test module shares: build a game or a position from
//! text, list legal moves as text, play a record, run the generic kit on a
//! game string, read a data file. A game's module keeps only its own vectors.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use engine::testkit::{KitReport, PERFT_FILES, check_playouts};
use engine::{Game, GameVisitor, State, parse_legal_move, visit_game};

/// The legal moves of `s` as text, checking on the way that the list has no
/// duplicate and that `count_legal_moves` agrees with it.
pub fn legal<S: State>(s: &S) -> BTreeSet<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let set: BTreeSet<String> = v.iter().map(|&m| s.move_to_text(m)).collect();
    assert_eq!(set.len(), v.len(), "duplicate moves in {}", s.to_text());
    assert_eq!(s.count_legal_moves(), v.len(), "count in {}", s.to_text());
    set
}

/// A set of move texts from a whitespace-separated list.
pub fn set(items: &str) -> BTreeSet<String> {
    items.split_whitespace().map(str::to_string).collect()
}

/// A set of move texts from a list.
pub fn set_of(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The position of `g` given by its position text, failing the test on an
/// error.
pub fn pos<G: Game>(g: &G, text: &str) -> G::State {
    g.parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Applies a whitespace-separated record move by move, failing the test on
/// the first malformed or illegal move, and checks after each move that the
/// incremental Zobrist key equals the recomputed one.
pub fn play<S: State>(s: &mut S, record: &str) {
    for text in record.split_whitespace() {
        let m =
            parse_legal_move(s, text).unwrap_or_else(|e| panic!("{text} in {}: {e}", s.to_text()));
        s.apply(m);
        assert_eq!(s.zobrist(), s.zobrist_from_scratch(), "after {text}");
    }
}

/// The text of a file under `engine/tests/suite/data/`.
pub fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs [`check_playouts`] on the game built from a game string.
pub struct Kit {
    /// Random games to play.
    pub games: usize,
    /// Their seed.
    pub seed: u64,
    /// The longest game allowed, in plies.
    pub max_plies: u32,
}

impl GameVisitor for Kit {
    type Output = Result<KitReport, String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        check_playouts(&game, self.games, self.seed, self.max_plies)
    }
}

/// The generic kit on `game_string`; fails the test on a broken invariant.
pub fn kit(game_string: &str, games: usize, seed: u64, max_plies: u32) -> KitReport {
    visit_game(
        game_string,
        Kit {
            games,
            seed,
            max_plies,
        },
    )
    .unwrap_or_else(|e| panic!("{game_string}: {e}"))
    .unwrap_or_else(|e| panic!("{game_string}: {e}"))
}

/// A Sly board text (`sly::write_cells`'s form) from `(square, token)`
/// pairs such as `("1A", "C1")`; rows and columns are read from the names
/// here, independently of the engine.
pub fn sly_board(pieces: &[(&str, &str)]) -> String {
    let mut rows = vec![vec![".".to_string(); 12]; 12];
    for (sq, tok) in pieces {
        let (r, c) = sq.split_at(sq.len() - 1);
        let r: usize = r.parse::<usize>().unwrap() - 1;
        let c = (c.as_bytes()[0] - b'A') as usize;
        rows[r][c] = tok.to_string();
    }
    rows.iter()
        .map(|r| r.concat())
        .collect::<Vec<_>>()
        .join("/")
}

/// The canonical game string and seat count of a game string.
pub struct Name;
impl GameVisitor for Name {
    type Output = (String, usize);
    fn visit<G: Game>(self, game: G) -> (String, usize) {
        (game.game_string(), game.num_seats())
    }
}

/// Random edits (1-3 characters from `alphabet`) of the position and move
/// texts of one random game of `game`: every edit is an error or a
/// position whose text reads back to itself, never a panic.
pub fn mangled_input_never_panics<G: Game>(game: &G, alphabet: &str, seed: u64, edits: usize) {
    use rand::{Rng, SeedableRng};
    let alphabet: Vec<char> = alphabet.chars().collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut s = game.initial_state(0);
    let mut texts = vec![s.to_text()];
    let mut buf = Vec::new();
    while !s.is_terminal() && texts.len() < 600 {
        let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
        texts.push(s.move_to_text(m));
        s.apply(m);
        texts.push(s.to_text());
    }
    for _ in 0..edits {
        let base = &texts[rng.random_range(0..texts.len())];
        let mut chars: Vec<char> = base.chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(0..=chars.len());
            let ch = alphabet[rng.random_range(0..alphabet.len())];
            if i < chars.len() && rng.random_bool(0.5) {
                chars[i] = ch;
            } else if i < chars.len() {
                chars.remove(i);
            } else {
                chars.push(ch);
            }
        }
        let t: String = chars.into_iter().collect();
        if let Ok(p) = game.parse_position(&t) {
            assert_eq!(
                game.parse_position(&p.to_text()).unwrap().to_text(),
                p.to_text()
            );
        }
        let _ = s.parse_move(&t);
    }
}

/// The perft data file of `game` (`engine/data/perft/<game>.txt`), as the
/// library embeds it ([`PERFT_FILES`]).
pub fn perft_file(game: &str) -> String {
    PERFT_FILES
        .iter()
        .find(|(name, _)| *name == game)
        .unwrap_or_else(|| panic!("no perft file for {game}"))
        .1
        .to_string()
}

/// The vectors of `engine/data/perft/<game>.txt`: `(game string, position,
/// depth, count)` per line, comments and blank lines skipped.
pub fn perft_vectors(game: &str) -> Vec<(String, String, u32, u64)> {
    perft_file(game)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap_or_else(|_| panic!("depth in {l}")),
                f[3].parse().unwrap_or_else(|_| panic!("count in {l}")),
            )
        })
        .collect()
}

/// The player count and teams flag a game string asks for (defaults: 2,
/// no teams).
pub fn players_and_teams(spec: &str) -> (usize, bool) {
    let players = (2..=4)
        .find(|k| spec.contains(&format!("players={k}")))
        .unwrap_or(2);
    (players, spec.contains("teams=true"))
}
