//! Helpers every game's test module shares: build a game or a position from
//! text, list legal moves as text, play a record, run the generic kit on a
//! game string, read a data file. A game's module keeps only its own vectors.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use engine::testkit::{KitReport, check_playouts};
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
