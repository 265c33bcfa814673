//! Fuzzing of the engine's parsers and invariants, on stable
//! Rust with proptest: generated inputs with shrinking, so a failure is
//! reported as a minimal input. Targets:
//!
//! * `game_strings`: `visit_game` on mutated and random game strings;
//! * `positions`: `Game::parse_position` on mutated position texts of
//!   random-playout positions of every variant (an accepted text must be a
//!   position that passes every check of the consistency kit);
//! * `moves`: `State::parse_move`, `parse_legal_move` and `apply_moves` on
//!   mutated move texts at those positions;
//! * `walks`: arbitrary move-index sequences (up to 31 plies; an index
//!   picks a move modulo the list's length) from the start (seed 0) or from
//!   a random seed's set-up. At every position: each listed move's text
//!   reads back to it, the incremental Zobrist key equals the recomputed
//!   one, the position text round-trips with its key, moves are listed
//!   exactly when a seat is to move (a terminal state lists none); the move
//!   played and one other listed move are applied to copies (the engines'
//!   debug-build legality checks run, `parse_legal_move` of their text gives
//!   them back, and the child's key is checked); at the walk's last
//!   position every check of the consistency kit
//!   (`testkit::check_position`).
//!
//! Every parser error must be one non-empty line. The number of inputs per
//! target is `BOARDLAB_FUZZ_CASES` (a short smoke run by default) and the
//! seed `BOARDLAB_FUZZ_SEED` (0 by default, so CI is deterministic); each
//! target prints `fuzz TARGET: N inputs in T s` on stderr. The long run is
//! in the README.

use engine::testkit::{check_position, mutate};
use engine::{Game, GameVisitor, State, ToMove, apply_moves, parse_legal_move, visit_game};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::Name;
use crate::fuzz_runner::fuzz;

/// Every variant the consistency kit runs (`kit.rs` and the kit rows of
/// the game files), and the pie wrapper.
pub const VARIANTS: &[&str] = &[
    "slingshot(size=7)",
    "slingshot(size=9)",
    "slingshot(size=7,supply=12)",
    "slingshot(size=9,corners=neutral)",
    "slingshot(size=7,stuck=lose,supply=10)",
    "slingshot(size=9,supply=unlimited)",
    "catapult",
    "catapult(size=9)",
    "catapult(royal=true)",
    "catapult(size=9,royal=true)",
    "catapult(dagger=true)",
    "catapult(dagger=true,dagger_move_then_pass=false)",
    "catapult(size=9,dagger=true)",
    "catapult(royal=true,dagger=true)",
    "sniggle",
    "sniggle(players=3)",
    "sniggle(players=4)",
    "sniggle(players=4,teams=true)",
    "sniggle(players=4,teams=true,triangles=true)",
    "sniggle(triangles=true,triangle_at=ACB)",
    "sly_solitaire",
    "sly_solitaire(layout=random)",
    "sly_solitaire(area=window)",
    "spinner",
    "spinner(goals=crossed)",
    "spinner(size=7)",
    "spinner(size=11,stars=none)",
    "bagel",
    "bagel(base=5)",
    "bagel(reserve=5)",
    "bagel(colours=3,end=either)",
    "royal_guard",
    "royal_guard(royal_powers=false)",
    "royal_guard(repetition=2,dead=fide)",
    "royal_guard(royal_powers=false,dead=off,repetition=off)",
    "andalusia",
    "andalusia(stalemate=draw,repetitions=2,quiet_plies=20)",
    "kings_colour",
    "kings_colour(capture=wide)",
    "kings_colour(king_captures=false)",
    "kings_colour(stalemate=loss)",
    "kings_colour(repetition=off,ply_cap=150)",
    "kings_colour(repetition=2)",
    "empire",
    "empire(players=3)",
    "empire(players=4)",
    "empire(players=4,teams=true)",
    "empire(players=4,teams=true,partner_capture=true,coronation=standing)",
    "gateway",
    "gateway(players=3)",
    "gateway(players=4)",
    "gateway(players=4,teams=true)",
    "gateway(players=4,teams=true,entry=optional,line=blocked,enemies=per_colour,stuck=pass)",
    "line_up",
    "line_up(repetitions=3,first_seat=1)",
    "blockade",
    "blockade(side_edge=turn,enemy_king=stop,clear=neighbours,first=north)",
    "blockade(north=5B,south=8K,zero_turns=forbidden,first_turn=checked)",
    "pie(catapult)",
    "pie(spinner)",
    "pie(slingshot(size=7))",
];

/// An error message must be one non-empty line.
fn one_line(msg: &str) -> Result<(), String> {
    if msg.trim().is_empty() || msg.contains(['\n', '\r']) {
        return Err(format!("error message is not one line: {msg:?}"));
    }
    Ok(())
}

/// Runs `f` (a parser on `text`), turning a panic into an error that
/// names the text, so a failure shows the input the parser was given.
fn guarded<T>(what: &str, text: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("{what} panicked on {text:?}: {msg}")
    })
}

/// Mutation ops for [`mutate`]: up to four per input.
fn ops() -> impl Strategy<Value = Vec<(u8, u32, u32)>> {
    proptest::collection::vec((any::<u8>(), any::<u32>(), any::<u32>()), 0..5)
}

/// Short random text over the characters game, position and move texts
/// use, or any characters.
fn noise() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789()=,/;:-+x*.[] _|"
            .chars()
            .collect();
    prop_oneof![
        3 => proptest::collection::vec(proptest::sample::select(alphabet), 0..40)
            .prop_map(String::from_iter),
        1 => ".{0,40}",
    ]
}

/// The state after `plies` random plies (chance included) from the initial
/// state of `seed`.
fn playout<G: Game>(game: &G, seed: u64, plies: u32) -> G::State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = game.initial_state(seed);
    let (mut buf, mut outs) = (Vec::new(), Vec::new());
    for _ in 0..plies {
        let mv = match s.to_move() {
            ToMove::Terminal => break,
            ToMove::Chance => s.sample_chance(&mut rng, &mut outs),
            ToMove::Seat(_) => s.sample_legal_move(&mut rng, &mut buf),
        };
        s.apply(mv.expect("a move at a non-terminal state"));
    }
    s
}

/// The moves (or chance outcomes) of `s`.
fn moves_of<S: State>(s: &S) -> Vec<S::Move> {
    let mut moves = Vec::new();
    if s.to_move() == ToMove::Chance {
        let mut outs = Vec::new();
        s.chance_outcomes(&mut outs);
        moves.extend(outs.iter().map(|&(m, _)| m));
    } else {
        s.legal_moves(&mut moves);
    }
    moves
}

/// Applies `mv` to a copy of `s` and checks the child's Zobrist key and
/// that the move's text reads back to it as a legal move.
fn apply_checked<S: State>(s: &S, mv: S::Move) -> Result<S, String> {
    let text = s.move_to_text(mv);
    match parse_legal_move(s, &text) {
        Ok(m) if m == mv => {}
        other => {
            return Err(format!(
                "listed move {text:?} reads back as {other:?} at {}",
                s.to_text()
            ));
        }
    }
    let mut child = s.clone();
    child.apply(mv);
    if child.zobrist() != child.zobrist_from_scratch() {
        return Err(format!(
            "after {text}: incremental Zobrist key differs from the recomputed one at {}",
            child.to_text()
        ));
    }
    Ok(child)
}

#[test]
fn fuzz_game_strings() {
    let mut base: Vec<String> = VARIANTS.iter().map(|s| s.to_string()).collect();
    base.extend(VARIANTS.iter().map(|v| visit_game(v, Name).unwrap().0));
    base.push("pie(game=catapult)".into());
    let input = prop_oneof![
        3 => (proptest::sample::select(base), ops()).prop_map(|(b, o)| mutate(&b, &o)),
        1 => noise(),
    ];
    fuzz("game_strings", 300, input, |text| {
        match visit_game(&text, Name) {
            Ok((canonical, seats)) => {
                // An accepted string names a game whose canonical string reads
                // back to itself.
                match visit_game(&canonical, Name) {
                    Ok((again, s)) if again == canonical && s == seats => Ok(()),
                    other => Err(format!("{text:?} -> {canonical:?} -> {other:?}")),
                }
            }
            Err(e) => one_line(&e.0),
        }
    });
}

/// A position of a variant: its index, the set-up seed and random plies.
fn position() -> impl Strategy<Value = (usize, u64, u32)> {
    (
        0..VARIANTS.len(),
        prop_oneof![Just(0u64), any::<u64>()],
        prop_oneof![0..8u32, 0..400u32],
    )
}

struct PositionTarget {
    seed: u64,
    plies: u32,
    ops: Vec<(u8, u32, u32)>,
}

impl GameVisitor for PositionTarget {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, game: G) -> Result<(), String> {
        let text = mutate(&playout(&game, self.seed, self.plies).to_text(), &self.ops);
        guarded("parse_position or the checks", &text, || {
            match game.parse_position(&text) {
                // An accepted position is one the kit's checks hold at, and
                // each of its moves keeps the Zobrist key.
                Ok(p) => {
                    check_position(&game, &p, self.seed)
                        .map_err(|e| format!("accepted {text:?}: {e}"))?;
                    for mv in moves_of(&p).into_iter().take(16) {
                        apply_checked(&p, mv).map_err(|e| format!("accepted {text:?}: {e}"))?;
                    }
                    Ok(())
                }
                Err(e) => one_line(&e.0),
            }
        })?
    }
}

#[test]
fn fuzz_positions() {
    fuzz(
        "positions",
        300,
        (position(), ops()),
        |((v, seed, plies), ops)| {
            visit_game(VARIANTS[v], PositionTarget { seed, plies, ops }).unwrap()
        },
    );
}

struct MoveTarget {
    seed: u64,
    plies: u32,
    pick: usize,
    ops: Vec<(u8, u32, u32)>,
    noise: Option<String>,
}

impl GameVisitor for MoveTarget {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, game: G) -> Result<(), String> {
        let s = playout(&game, self.seed, self.plies);
        let moves = moves_of(&s);
        let base = match (&self.noise, moves.is_empty()) {
            (Some(n), _) => n.clone(),
            (None, true) => "pass".to_string(),
            (None, false) => s.move_to_text(moves[self.pick % moves.len()]),
        };
        let text = mutate(&base, &self.ops);
        if let Err(e) = guarded("parse_move", &text, || s.parse_move(&text))? {
            one_line(&e.0)?;
        }
        match guarded("parse_legal_move", &text, || parse_legal_move(&s, &text))? {
            Ok(m) => {
                if !moves.contains(&m) {
                    return Err(format!(
                        "{text:?} accepted as a legal move but not listed at {}",
                        s.to_text()
                    ));
                }
                apply_checked(&s, m)?;
            }
            Err(e) => one_line(&e.0)?,
        }
        // A record: the move text, mutated, and a second listed move.
        let mut record = text.clone();
        if let Some(&m) = moves.get(self.pick.wrapping_mul(7) % moves.len().max(1)) {
            record = format!("{} {record}", s.move_to_text(m));
        }
        let mut t = s.clone();
        if let Err(e) = guarded("apply_moves", &record, || apply_moves(&mut t, &record))? {
            one_line(&e.0)?;
        }
        if t.zobrist() != t.zobrist_from_scratch() {
            return Err(format!("after record {record:?}: Zobrist key differs"));
        }
        Ok(())
    }
}

#[test]
fn fuzz_moves() {
    let input = (
        position(),
        any::<usize>(),
        ops(),
        proptest::option::weighted(0.2, noise()),
    );
    fuzz(
        "moves",
        300,
        input,
        |((v, seed, plies), pick, ops, noise)| {
            visit_game(
                VARIANTS[v],
                MoveTarget {
                    seed,
                    plies,
                    pick,
                    ops,
                    noise,
                },
            )
            .unwrap()
        },
    );
}

struct WalkTarget {
    seed: u64,
    indices: Vec<u16>,
}

impl GameVisitor for WalkTarget {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, game: G) -> Result<(), String> {
        let mut s = game.initial_state(self.seed);
        for (ply, &i) in self.indices.iter().enumerate() {
            walk_checks(&game, &s).map_err(|e| format!("ply {ply}: {e}"))?;
            let moves = moves_of(&s);
            if moves.is_empty() {
                break;
            }
            let i = i as usize;
            // One more listed move, besides the one played, applied to a copy.
            apply_checked(&s, moves[(i / 3 + 1 + i) % moves.len()])?;
            s = apply_checked(&s, moves[i % moves.len()])?;
        }
        // Every check of the kit at the walk's last position.
        check_position(&game, &s, 0)
    }
}

/// The invariants checked at every position of a walk (the rest of the
/// kit's checks run at its last position): each listed move's text reads
/// back to it, the incremental Zobrist key equals the recomputed one, the
/// position text round-trips with its key, and a state lists moves exactly
/// when a seat is to move.
fn walk_checks<G: Game>(game: &G, s: &G::State) -> Result<(), String> {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    for &m in &moves {
        let t = s.move_to_text(m);
        if s.parse_move(&t) != Ok(m) {
            return Err(format!(
                "listed move {t:?} does not read back at {}",
                s.to_text()
            ));
        }
    }
    if s.zobrist() != s.zobrist_from_scratch() {
        return Err(format!(
            "Zobrist key differs from the recomputed one at {}",
            s.to_text()
        ));
    }
    let text = s.to_text();
    match game.parse_position(&text) {
        Ok(b) if b.to_text() == text && b.zobrist() == s.zobrist() => {}
        other => {
            return Err(format!(
                "{text:?} reads back as {:?}",
                other.map(|b| b.to_text())
            ));
        }
    }
    match s.to_move() {
        ToMove::Seat(_) if moves.is_empty() => {
            Err(format!("no move for the seat to move at {text}"))
        }
        ToMove::Chance | ToMove::Terminal if !moves.is_empty() => {
            Err(format!("moves listed at a chance or terminal state {text}"))
        }
        _ => Ok(()),
    }
}

#[test]
fn fuzz_walks() {
    let input = (
        0..VARIANTS.len(),
        prop_oneof![Just(0u64), any::<u64>()],
        proptest::collection::vec(any::<u16>(), 0..32),
    );
    fuzz("walks", 150, input, |(v, seed, indices)| {
        visit_game(VARIANTS[v], WalkTarget { seed, indices }).unwrap()
    });
}

/// Every crash the fuzzers found, with its minimal input (a game string and
/// a position text) and the error it gives now (a part of its message).
#[test]
fn crashes_found_by_fuzzing() {
    struct Parse(String);
    impl GameVisitor for Parse {
        type Output = Result<String, String>;
        fn visit<G: Game>(self, game: G) -> Result<String, String> {
            game.parse_position(&self.0)
                .map(|s| s.to_text())
                .map_err(|e| e.0)
        }
    }
    let cases: &[(&str, &str, &str)] = &[
        // A run-length count near u32::MAX after pieces overflowed the
        // column count (attempt to add with overflow).
        (
            "sly_solitaire",
            "12/12/12/3BLDLBO4294967295/3LOLBOD3/3ODBLDB3/3DBODBL3/3BLDOLO3/3LDOBOD3/12/12/12 0",
            "row 4 has the empty count \"4294967295\", more than its 12 spaces",
        ),
        // A ply near u32::MAX was accepted; the next move overflowed the
        // ply counter (every game with a ply field now caps it at MAX_PLY).
        (
            "slingshot(size=7)",
            "7/7/7/7/7/7/7 setup C 0 - 4294967295",
            "ply \"4294967295\", expected a whole number up to 1000000000",
        ),
        // A reserve near u32::MAX overflowed the disc total.
        (
            "bagel",
            "RGGGOBOOGORGBBGORROROBBOBBBGBRGGRRRO .......................w............ b pie 4294967295 20 0 1",
            "white has 1 discs on the board and 4294967295 in reserve",
        ),
    ];
    for &(game, text, expected) in cases {
        let got = visit_game(game, Parse(text.to_string())).unwrap();
        match got {
            Err(e) => assert!(e.contains(expected), "{game} {text:?}: {e}"),
            Ok(t) => panic!("{game} {text:?} accepted as {t:?}"),
        }
    }
}
