//! Golden playthroughs (after OpenSpiel's): one recorded game per game that
//! has no reference-checked playthrough of its own, replayed move by move
//! (each move checked legal); the final position text and the returns must
//! match the file. They catch any silent change of rules or notation.
//!
//! Files: `data/golden/<name>.txt`, in `engine::testkit::Golden`'s format
//! plus `# game: <game string>` and `# seed: <initial-state seed>` lines.
//! One variable for every golden file of the suite: `BOARDLAB_BLESS=1`
//! writes a missing file from a seeded random game and rewrites the final
//! position and returns of an existing one from its moves (the moves never
//! change); review the diff before committing it. The reference-checked
//! playthroughs of Slingshot, Catapult, Bagel and Royal Guard (in their
//! `*_reference` modules) use the same variable.

use std::path::PathBuf;

use engine::testkit::Golden;
use engine::{Game, GameVisitor, State, ToMove, parse_legal_move, visit_game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// `(file name, game string, initial-state seed, playout seed)`.
const GAMES: &[(&str, &str, u64, u64)] = &[
    ("andalusia", "andalusia", 0, 1),
    // From the default set-up North escapes on its first turn whatever
    // South places; with North on 2H each king's straight run meets the
    // other king (QB5), so a random game lasts (24 plies, both phases).
    ("blockade_north_2h", "blockade(north=2H)", 0, 17),
    ("empire_4", "empire(players=4)", 0, 5),
    ("gateway_teams", "gateway(players=4,teams=true)", 0, 6),
    ("kings_colour", "kings_colour", 0, 2),
    ("line_up", "line_up", 0, 8),
    ("sly_solitaire", "sly_solitaire", 0, 9),
    ("sniggle_4_teams", "sniggle(players=4,teams=true)", 0, 3),
    ("spinner", "spinner", 0, 4),
];

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/data/golden")
        .join(format!("{name}.txt"))
}

fn bless() -> bool {
    std::env::var_os("BOARDLAB_BLESS").is_some()
}

/// Replays (or, blessing a missing file, plays) one golden game.
struct Replay<'a> {
    name: &'a str,
    seed: u64,
    playout_seed: u64,
}

impl GameVisitor for Replay<'_> {
    type Output = Result<(), String>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        let p = path(self.name);
        let mut s = game.initial_state(self.seed);
        let moves: Vec<String> = match std::fs::read_to_string(&p) {
            Ok(text) => Golden::parse(&text)?.moves,
            Err(_) if bless() => {
                let mut rng = ChaCha8Rng::seed_from_u64(self.playout_seed);
                let (mut buf, mut outs, mut out) = (Vec::new(), Vec::new(), Vec::new());
                let mut t = s.clone();
                loop {
                    let m = match t.to_move() {
                        ToMove::Terminal => break,
                        ToMove::Chance => t.sample_chance(&mut rng, &mut outs),
                        ToMove::Seat(_) => t.sample_legal_move(&mut rng, &mut buf),
                    }
                    .ok_or("no move")?;
                    out.push(t.move_to_text(m));
                    t.apply(m);
                }
                out
            }
            Err(e) => {
                return Err(format!(
                    "{}: {e} (write it with BOARDLAB_BLESS=1)",
                    p.display()
                ));
            }
        };
        for (i, text) in moves.iter().enumerate() {
            let m = parse_legal_move(&s, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            s.apply(m);
            if s.zobrist() != s.zobrist_from_scratch() {
                return Err(format!("Zobrist key drifts after move {}", i + 1));
            }
        }
        if !s.is_terminal() {
            return Err(format!("the game is not over after {} moves", moves.len()));
        }
        let got = Golden {
            moves,
            final_text: s.to_text(),
            returns: s.returns()[..game.num_seats()].to_vec(),
        };
        if bless() {
            let comments = format!(
                "Golden playthrough: a seeded random game, replayed by engine/tests/suite/golden.rs.\ngame: {}\nseed: {}",
                game.game_string(),
                self.seed
            );
            std::fs::write(&p, got.to_file_text(&comments)).map_err(|e| e.to_string())?;
            return Ok(());
        }
        let want = Golden::parse(&std::fs::read_to_string(&p).map_err(|e| e.to_string())?)?;
        if got.final_text != want.final_text || got.returns != want.returns {
            return Err(format!(
                "final position or returns differ:\n got {} {:?}\nwant {} {:?}",
                got.final_text, got.returns, want.final_text, want.returns
            ));
        }
        Ok(())
    }
}

#[test]
fn golden_playthroughs_replay() {
    for &(name, game, seed, playout_seed) in GAMES {
        visit_game(
            game,
            Replay {
                name,
                seed,
                playout_seed,
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
