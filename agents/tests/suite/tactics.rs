//! Tactics: positions of the capture games where the side to move forces a
//! win within at most 3 plies, kept as data (`agents/tests/data/
//! tactics.txt`), and MCTS asked to find the win.
//!
//! The set is made by [`make_tactics`] (run by hand with `--ignored
//! --nocapture`; it prints the file): seeded random games of each game,
//! and at every third position past ply 6 with at most 80 legal moves the
//! plain full-width minimax of [`wins_within`] (no pruning, no table, none
//! of the agents' code) finds the fewest plies `d` (1, 2 or 3) in which
//! the seat to move forces a win, and every first move that forces it in
//! `d`. A position is kept where some legal move does not win (at most one
//! 1-ply win a game, one position per random game, five per game). Each
//! line of the file is `game<TAB>position<TAB>d<TAB>moves` (moves
//! separated by spaces); lines starting with `#` are comments.
//!
//! Counted on the 35 positions of the file (7 wins in 1 ply, 28 in 3):
//! `mcts(iterations=20000,minimax=0)` plays a quickest win in 29 (the same
//! 29 before the solver backed up distances, by `boardlab analyse --seed 1`
//! on each position), `mcts(iterations=20000,minimax=3)` in all 35; the
//! games of the set search with `minimax=3` by default, so
//! `mcts(iterations=20000)` finds all 35.

use agents::{AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig};
use engine::spec::Spec;
use engine::{Game, GameVisitor, State, ToMove, parse_legal_move, visit_game};

use crate::common::wins_within;

/// The games and how many positions of each the set keeps.
const GAMES: &[&str] = &[
    "catapult",
    "catapult(royal=true)",
    "royal_guard",
    "royal_guard(royal_powers=false)",
    "andalusia",
    "kings_colour",
    "slingshot(size=7)",
];

/// Positions per game, at most.
const PER_GAME: usize = 5;

/// The fewest plies (1..=3) in which the seat to move forces a win, and the
/// first moves that force it in that many.
fn quickest_wins<S: State>(s: &S) -> Option<(u32, Vec<S::Move>)> {
    let ToMove::Seat(me) = s.to_move() else {
        return None;
    };
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    (1..=3).find_map(|d| {
        let wins: Vec<S::Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut c = s.clone();
                c.apply(m);
                wins_within(&c, me, d - 1)
            })
            .collect();
        (!wins.is_empty()).then_some((d, wins))
    })
}

/// Prints the tactics file (see the module docs).
#[test]
#[ignore]
fn make_tactics() {
    struct Maker;
    impl GameVisitor for Maker {
        type Output = ();
        fn visit<G: Game>(self, game: G) {
            use rand::SeedableRng;
            let mut kept = 0;
            let mut by_plies = [0usize; 4];
            let mut buf = Vec::new();
            'games: for seed in 0..200u64 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut s = game.initial_state(seed);
                while let ToMove::Seat(_) = s.to_move() {
                    // Mostly 2- and 3-ply wins: at most one 1-ply win per
                    // game; and some move must not win.
                    if s.ply() > 6
                        && s.ply() % 3 == 0
                        && s.count_legal_moves() <= 80
                        && let Some((d, wins)) = quickest_wins(&s)
                        && (d > 1 || by_plies[1] == 0)
                        && wins.len() < s.count_legal_moves()
                    {
                        by_plies[d as usize] += 1;
                        kept += 1;
                        let moves: Vec<String> = wins.iter().map(|&m| s.move_to_text(m)).collect();
                        println!(
                            "{}\t{}\t{d}\t{}",
                            game.game_string(),
                            s.to_text().replace('\n', " / "),
                            moves.join(" ")
                        );
                        if kept == PER_GAME {
                            break 'games;
                        }
                        // One position per game played.
                        continue 'games;
                    }
                    let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                    s.apply(m);
                }
            }
        }
    }
    for g in GAMES {
        visit_game(g, Maker).unwrap();
    }
}

/// One line of the tactics file.
struct Tactic<'a> {
    game: &'a str,
    position: &'a str,
    plies: u32,
    moves: Vec<&'a str>,
}

fn tactics() -> Vec<Tactic<'static>> {
    include_str!("../data/tactics.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{l}");
            Tactic {
                game: f[0],
                position: f[1],
                plies: f[2].parse().unwrap(),
                moves: f[3].split(' ').collect(),
            }
        })
        .collect()
}

/// Whether `config` plays one of the winning moves of `t`.
struct Finds<'a> {
    t: &'a Tactic<'a>,
    config: MctsConfig,
    check_reference: bool,
}

impl GameVisitor for Finds<'_> {
    type Output = bool;
    fn visit<G: Game>(self, game: G) -> bool {
        let s = game
            .parse_position(&self.t.position.replace(" / ", "\n"))
            .unwrap_or_else(|e| panic!("{}: {e}", self.t.position));
        if self.check_reference {
            // The stored answer is still the reference's (the rules or
            // notation have not moved under the file).
            let (d, wins) = quickest_wins(&s).expect("a forced win");
            let texts: Vec<String> = wins.iter().map(|&m| s.move_to_text(m)).collect();
            assert_eq!(d, self.t.plies, "{} {}", self.t.game, self.t.position);
            assert_eq!(texts, self.t.moves, "{} {}", self.t.game, self.t.position);
        }
        let mut m = Mcts::<G::State>::new(self.config, 1);
        let mv = m.search(&s);
        let text = s.move_to_text(mv);
        assert!(parse_legal_move(&s, &text).is_ok());
        self.t.moves.contains(&text.as_str())
    }
}

/// How many positions of the set `mcts` as `spec` solves, read for each
/// position's game (with the game's own defaults), and the ones it missed.
fn count_found(spec: &str, check_reference: bool) -> (usize, Vec<String>) {
    let set = tactics();
    let mut missed = Vec::new();
    for t in &set {
        let defaults = engine::registry::search_defaults(t.game).unwrap();
        let config = MctsConfig::from_spec_with(&Spec::parse(spec).unwrap(), &defaults).unwrap();
        let found = visit_game(
            t.game,
            Finds {
                t,
                config,
                check_reference,
            },
        )
        .unwrap();
        if !found {
            missed.push(format!("{} {} ({} plies)", t.game, t.position, t.plies));
        }
    }
    (set.len() - missed.len(), missed)
}

/// `mcts(iterations=20000)`, with each game's defaults (the root win
/// search, `minimax=3`, among them), finds the quickest win in every
/// position of the set; the set's answers are re-proved by the reference.
#[test]
fn mcts_finds_every_tactic_with_the_games_defaults() {
    let (found, missed) = count_found("mcts(iterations=20000)", true);
    assert!(missed.is_empty(), "found {found}; missed {missed:#?}");
    assert!(found >= 20, "only {found} positions in the set");
}

/// The count without the win search (`minimax=0`), for the record: run by
/// hand with `--ignored --nocapture`.
#[test]
#[ignore]
fn tactics_count_without_the_win_search() {
    let (found, missed) = count_found("mcts(iterations=20000,minimax=0)", false);
    println!(
        "mcts(iterations=20000,minimax=0): found {found} of {}",
        tactics().len()
    );
    for m in missed {
        println!("missed: {m}");
    }
}

/// Whether alpha-beta with `config` plays one of the winning moves of `t`.
struct AlphaBetaFinds<'a> {
    t: &'a Tactic<'a>,
    config: AlphaBetaConfig,
}

impl GameVisitor for AlphaBetaFinds<'_> {
    type Output = bool;
    fn visit<G: Game>(self, game: G) -> bool {
        let s = game
            .parse_position(&self.t.position.replace(" / ", "\n"))
            .unwrap_or_else(|e| panic!("{}: {e}", self.t.position));
        let mut ab = AlphaBeta::<G::State>::new(self.config, 1);
        let (mv, v) = ab.search(&s);
        // A quickest win, and scored as one.
        self.t.moves.contains(&s.move_to_text(mv).as_str())
            && v == agents::alphabeta::WIN - self.t.plies as i32
    }
}

/// `alphabeta(depth=4)` plays a quickest win in every position of the set
/// and scores it at its distance, with each of null-move pruning (`null`),
/// late-move reductions (`lmr`, and `lmr_log`), check extensions
/// (`check_ext`) and the capture order (`mvv`) on, and with all of them.
#[test]
fn alphabeta_finds_every_tactic_with_each_pruning_switch() {
    let base = AlphaBetaConfig {
        depth: 4,
        ..AlphaBetaConfig::default()
    };
    let configs = [
        base.clone(),
        AlphaBetaConfig {
            null: 1,
            ..base.clone()
        },
        AlphaBetaConfig {
            null: 2,
            ..base.clone()
        },
        AlphaBetaConfig {
            lmr: 1,
            ..base.clone()
        },
        AlphaBetaConfig {
            check_ext: true,
            ..base.clone()
        },
        AlphaBetaConfig {
            null: 2,
            lmr: 3,
            check_ext: true,
            ..base.clone()
        },
        AlphaBetaConfig {
            mvv: true,
            ..base.clone()
        },
        AlphaBetaConfig {
            lmr: 2,
            lmr_log: true,
            ..base.clone()
        },
        AlphaBetaConfig {
            null: 2,
            lmr: 3,
            lmr_log: true,
            check_ext: true,
            mvv: true,
            ..base.clone()
        },
        AlphaBetaConfig {
            mvv: true,
            see: true,
            qcheck: true,
            iir: true,
            futility: 100,
            ..base.clone()
        },
    ];
    let set = tactics();
    for config in configs {
        let missed: Vec<String> = set
            .iter()
            .filter(|t| {
                !visit_game(
                    t.game,
                    AlphaBetaFinds {
                        t,
                        config: config.clone(),
                    },
                )
                .unwrap()
            })
            .map(|t| format!("{} {} ({} plies)", t.game, t.position, t.plies))
            .collect();
        assert!(
            missed.is_empty(),
            "{}: missed {missed:#?}",
            config.canonical()
        );
    }
}
