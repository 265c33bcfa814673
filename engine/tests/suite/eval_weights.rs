//! The named evaluation weights (`SearchDefaults::eval_weights`,
//! `Search::evaluate_weighted`; alpha-beta's `w_<term>` parameters): which
//! games name them, that their defaults give the evaluation, that the
//! evaluation is the weighted sum of its terms, and terms checked against
//! counts made from the position text and against chess positions
//! evaluated by hand.

use engine::registry::{GAMES, search_defaults};
use engine::{Game, GameVisitor, Search, State, ToMove, visit_game};
use rand::SeedableRng;

/// Runs `check` on the positions of seeded random games of `game`.
struct AlongGames<F>(F);

impl<F: Fn(&str, &dyn Fn(&[i32]) -> i32, &dyn Fn() -> i32, &str)> GameVisitor for AlongGames<F> {
    type Output = usize;
    fn visit<G: Game>(self, game: G) -> usize {
        let mut seen = 0;
        let mut buf = Vec::new();
        for seed in 0..4u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut s = game.initial_state(seed);
            while let ToMove::Seat(_) = s.to_move() {
                let weighted = |w: &[i32]| s.evaluate_weighted(w);
                let plain = || s.evaluate();
                (self.0)(&game.game_string(), &weighted, &plain, &s.to_text());
                seen += 1;
                let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                s.apply(m);
            }
        }
        seen
    }
}

/// The capture games, and only they, name their evaluation's weights.
#[test]
fn the_capture_games_name_their_weights() {
    let named: Vec<&str> = GAMES
        .iter()
        .filter(|g| !search_defaults(g.name).unwrap().eval_weights.is_empty())
        .map(|g| g.name)
        .collect();
    assert_eq!(
        named,
        ["catapult", "royal_guard", "andalusia", "kings_colour"],
        "games naming weights, in registry order"
    );
    for game in [
        "catapult(dagger=true)",
        "catapult(royal=true)",
        "pie(catapult)",
        "royal_guard(royal_powers=false)",
    ] {
        assert!(
            !search_defaults(game).unwrap().eval_weights.is_empty(),
            "{game}"
        );
    }
    let chess: Vec<&str> = search_defaults("royal_guard(royal_powers=false)")
        .unwrap()
        .eval_weights
        .iter()
        .map(|w| w.name)
        .collect();
    assert_eq!(&chess[..5], ["knight", "bishop", "rook", "queen", "pst"]);
}

/// With the defaults the weighted evaluation is the evaluation, and (bar
/// chess's percentages, which round, and Royal's king en prise) it is the
/// sum of each term's value at weight 1 times its weight.
#[test]
fn default_weights_give_the_evaluation_and_terms_add_up() {
    for game in [
        "catapult",
        "catapult(size=9)",
        "catapult(dagger=true)",
        "catapult(royal=true)",
        "pie(catapult)",
        "andalusia",
        "kings_colour",
        "royal_guard",
        "royal_guard(royal_powers=false)",
    ] {
        let named = search_defaults(game).unwrap().eval_weights;
        let defaults: Vec<i32> = named.iter().map(|w| w.default).collect();
        let linear = !game.starts_with("royal_guard") && !game.contains("royal=true");
        let seen = visit_game(
            game,
            AlongGames(
                |g: &str, weighted: &dyn Fn(&[i32]) -> i32, plain: &dyn Fn() -> i32, text: &str| {
                    assert_eq!(weighted(&defaults), plain(), "{g} {text}");
                    if linear {
                        let sum: i32 = (0..named.len())
                            .map(|i| {
                                let mut unit = vec![0; named.len()];
                                unit[i] = 1;
                                defaults[i] * weighted(&unit)
                            })
                            .sum();
                        assert_eq!(sum, plain(), "{g} {text}: the terms' sum");
                    }
                },
            ),
        )
        .unwrap();
        assert!(seen > 100, "{game}: {seen} positions");
    }
}

/// Catapult's `material` term alone is the side to move's pieces less the
/// opponent's, counted here from the position text (`L`, `D`; the field
/// after the board names the side to move).
#[test]
fn catapult_material_counts_the_pieces_of_the_position_text() {
    let named = search_defaults("catapult").unwrap().eval_weights;
    let material: Vec<i32> = named
        .iter()
        .map(|w| i32::from(w.name == "material"))
        .collect();
    visit_game(
        "catapult",
        AlongGames(
            |g: &str, weighted: &dyn Fn(&[i32]) -> i32, _: &dyn Fn() -> i32, text: &str| {
                let mut fields = text.split(' ');
                let board = fields.next().unwrap();
                let mover = fields.next().unwrap();
                let count = |c: char| board.chars().filter(|&x| x == c).count() as i32;
                let (me, op) = if mover == "L" { ('L', 'D') } else { ('D', 'L') };
                assert_eq!(weighted(&material), count(me) - count(op), "{g} {text}");
            },
        ),
    )
    .unwrap();
}

/// Chess terms on positions counted by hand: after 1.e4 d5 2.exd5 White is
/// a pawn up with doubled d-pawns, neither side has an isolated pawn, both
/// keep the bishop pair; Black is to move. Then the King's pawn shield and
/// the King attack on two positions made for them.
#[test]
fn chess_weights_on_a_position_counted_by_hand() {
    struct At(&'static str, Vec<(&'static str, i32)>);
    impl GameVisitor for At {
        type Output = i32;
        fn visit<G: Game>(self, game: G) -> i32 {
            let s = game.parse_position(self.0).unwrap();
            let named = s.search_defaults().eval_weights;
            let w: Vec<i32> = named
                .iter()
                .map(|n| {
                    self.1
                        .iter()
                        .find(|(k, _)| *k == n.name)
                        .map_or(0, |(_, v)| *v)
                })
                .collect();
            s.evaluate_weighted(&w)
        }
    }
    let chess = "royal_guard(royal_powers=false)";
    let fen = "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2";
    // Queens and four rooks (not an endgame); Black's King on g8 behind
    // f7 and h7 (one rank ahead: 2 each) and g6 (two ahead: 1), White's
    // without pawns; White to move.
    let shield = "r2q1rk1/5p1p/6p1/8/8/8/8/R2Q1RK1 w - - 0 1";
    // Black's King zone is h8, g8, g7, h7. White's rook on g1 reaches g7
    // and g8 (2 squares, 3 units each), the queen on f5 h7 (5 units): 11
    // units, two attackers, a queen. Black's knights reach no square next
    // to White's King. Three minor or major pieces and a queen: not an
    // endgame. White to move.
    let attack = "3nn2k/8/8/5Q2/8/1K6/8/6R1 w - - 0 1";
    let attack_black = "3nn2k/8/8/5Q2/8/1K6/8/6R1 b - - 0 1";
    // White's e4 pawn attacks the knight on d5 and the bishop on f5: two
    // threats. Black's b4 pawn and d5 knight both attack the rook on c3:
    // one threat (a piece counts once). The rook reaches no queen.
    let threats = "4k3/8/8/3n1b2/1p2P3/2R5/8/4K3 w - - 0 1";
    let threats_alone = "4k3/8/8/3n1b2/4P3/8/8/4K3 w - - 0 1";
    // No queens, six rooks and bishops. Piece-square terms alone (`pst`
    // 100): the rooks score 0 off the seventh rank, the bishops on c1 and
    // c8 cancel; an endgame centralises the Kings (20 − 6 × distance from
    // the centre: e3 14, g8 −10), a middlegame tucks them away (e3, two
    // ranks up: −20; g8, on the back rank at the side: 20).
    let queenless = "r1b2rk1/8/8/8/8/4K3/8/R1B2R2 w - - 0 1";
    for (fen, weights, expected) in [
        // Pawns only (100 each; every weight 0): Black is a pawn down.
        (fen, vec![], -100),
        // Equal pieces count nothing.
        (
            fen,
            vec![
                ("knight", 320),
                ("bishop", 330),
                ("rook", 500),
                ("queen", 900),
            ],
            -100,
        ),
        // White's d2 and d5 are doubled: 12 off White, so +12 for Black.
        (fen, vec![("doubled", 12)], -88),
        // No pawn of either side lacks a neighbour on a next file.
        (fen, vec![("isolated", 10)], -100),
        // Both keep the bishop pair.
        (fen, vec![("bishop_pair", 30)], -100),
        // Black: three pawns (300) and a shield of 2 + 2 + 1, half of it
        // times 10: 25.
        (shield, vec![("shield", 10)], -325),
        (shield, vec![], -300),
        // 8 × 11² / 64 = 15.1, rounded down.
        (attack, vec![("king_attack", 8)], 15),
        (attack, vec![("king_attack", 64)], 121),
        (attack_black, vec![("king_attack", 64)], -121),
        (attack, vec![], 0),
        // Pawns 100 each, the pieces at 0: 100 - 100 + 20 × (2 - 1).
        (threats, vec![("threat", 20)], 20),
        (threats, vec![], 0),
        // 100 + 20 × 2.
        (threats_alone, vec![("threat", 20)], 140),
        // With the weight 0 (off; Royal Guard's default, and every
        // weight here is 0 unless given), every position without queens
        // is an endgame.
        (queenless, vec![("pst", 100)], 24),
        // A middlegame from six such pieces on; an endgame again when it
        // takes seven.
        (
            queenless,
            vec![("pst", 100), ("queenless_middlegame", 6)],
            -40,
        ),
        (
            queenless,
            vec![("pst", 100), ("queenless_middlegame", 7)],
            24,
        ),
    ] {
        assert_eq!(
            visit_game(chess, At(fen, weights.clone())).unwrap(),
            expected,
            "{fen} {weights:?}"
        );
    }
}

/// Chess's default weights are the ones SPSA found (results/tune/README.md,
/// "chess's evaluation weights": the rounded final θ of
/// `chess-eval-spsa.csv`), the king-safety and queenless-middlegame weights
/// of the 100 ms SPRTs (results/search-switches); Royal Guard keeps the
/// hand-set ones.
#[test]
fn chess_defaults_are_the_tuned_weights_and_royal_guard_keeps_its_own() {
    let of = |game: &str| -> Vec<(&'static str, i32)> {
        search_defaults(game)
            .unwrap()
            .eval_weights
            .iter()
            .map(|w| (w.name, w.default))
            .collect()
    };
    let chess = of("royal_guard(royal_powers=false)");
    let royal = of("royal_guard");
    let tuned = [
        ("knight", 311, 320),
        ("bishop", 360, 330),
        ("rook", 529, 500),
        ("queen", 980, 900),
        ("pst", 89, 100),
        ("passed", 96, 100),
        ("mob_knight", 6, 4),
        ("mob_bishop", 5, 5),
        ("mob_rook", 4, 3),
        ("bishop_pair", 12, 30),
        ("doubled", 12, 12),
        // King safety: chess's since the 100 ms SPRT (results/search-switches).
        ("king_attack", 8, 0),
        ("shield", 10, 0),
        // A queenless middlegame: chess's since its 100 ms SPRT (the same).
        ("queenless_middlegame", 7, 0),
        // The tables Texel tuning fitted: chess's since their 100 ms SPRT
        // (the same).
        ("texel", 2, 0),
    ];
    for (name, c, r) in tuned {
        assert!(chess.contains(&(name, c)), "chess {name}: {chess:?}");
        assert!(royal.contains(&(name, r)), "royal guard {name}: {royal:?}");
    }
    assert_eq!(chess.len(), royal.len());
}

/// The tuned tables of `royal_guard/texel.csv`, read here: parameter
/// name to its `tuned` value.
fn texel_values() -> std::collections::HashMap<String, i32> {
    tuned_values(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/royal_guard/texel.csv"
    ))
}

/// The second model's parameters (`royal_guard/texel2.csv`), read here.
fn texel2_values() -> std::collections::HashMap<String, i32> {
    tuned_values(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/royal_guard/texel2.csv"
    ))
}

/// A `parameter,start,tuned` CSV: parameter name to its `tuned` value.
fn tuned_values(path: &str) -> std::collections::HashMap<String, i32> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[2].parse().unwrap())
        })
        .collect()
}

/// Chess's weights with `texel` on and every other weight 0: the
/// evaluation is the tapered tables alone.
fn texel_only(game_weights: &[engine::EvalWeight]) -> Vec<i32> {
    game_weights
        .iter()
        .map(|w| i32::from(w.name == "texel"))
        .collect()
}

/// With `texel` on, material and placement come from the tuned tables:
/// a table entry is its piece's material plus its square's entry, Black's
/// squares mirrored, the middlegame's weighted by the phase (knight and
/// bishop 1, rook 2, queen 4, of 24) and the endgame's by the rest.
/// Expected values from the committed CSV and that rule.
#[test]
fn texel_tables_on_positions_counted_by_hand() {
    struct At(&'static str);
    impl GameVisitor for At {
        type Output = i32;
        fn visit<G: Game>(self, game: G) -> i32 {
            let s = game.parse_position(self.0).unwrap();
            s.evaluate_weighted(&texel_only(s.search_defaults().eval_weights))
        }
    }
    let v = texel_values();
    let e = |name: &str| v[name];
    let chess = "royal_guard(royal_powers=false)";
    // Kings on e1 and e8 (mirrored: the same entry) cancel; phase 0:
    // the endgame's pawn on e2 alone.
    assert_eq!(
        visit_game(chess, At("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")).unwrap(),
        e("eg_pawn") + e("eg_pawn_e2")
    );
    // The same from Black's side.
    assert_eq!(
        visit_game(chess, At("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")).unwrap(),
        -(e("eg_pawn") + e("eg_pawn_e2"))
    );
    // A White knight on g1 against a Black rook on a8 (a1 mirrored):
    // phase 1 + 2 = 3 of 24.
    let mg = e("mg_knight") + e("mg_knight_g1") - e("mg_rook") - e("mg_rook_a1");
    let eg = e("eg_knight") + e("eg_knight_g1") - e("eg_rook") - e("eg_rook_a1");
    assert_eq!(
        visit_game(chess, At("r3k3/8/8/8/8/8/8/4K1N1 w - - 0 1")).unwrap(),
        (mg * 3 + eg * 21) / 24
    );
    // The start position: equal on both sides.
    assert_eq!(
        visit_game(
            chess,
            At("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        )
        .unwrap(),
        0
    );
}

/// With `texel` 2 the second model evaluates: the tables as with 1, and
/// each chess term's count times its middlegame weight and its endgame
/// weight, tapered alike. Expected values from the committed CSV and the
/// terms' definitions (docs/cli.md), counted by hand.
#[test]
fn texel2_model_on_positions_counted_by_hand() {
    struct At(&'static str);
    impl GameVisitor for At {
        type Output = i32;
        fn visit<G: Game>(self, game: G) -> i32 {
            let s = game.parse_position(self.0).unwrap();
            let w: Vec<i32> = s
                .search_defaults()
                .eval_weights
                .iter()
                .map(|n| if n.name == "texel" { 2 } else { 0 })
                .collect();
            s.evaluate_weighted(&w)
        }
    }
    let v = texel2_values();
    let e = |name: &str| v[name];
    let chess = "royal_guard(royal_powers=false)";
    // Phase 0: the endgame's weights alone. White's pawn on e2 is passed
    // (no Black pawn ahead on d-f), on its second rank, and isolated (no
    // White pawn on d or f); it stands one rank ahead of its King on e1,
    // a shield count of 2. The Kings' entries cancel (e1, e8 mirrored).
    assert_eq!(
        visit_game(chess, At("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")).unwrap(),
        e("eg_pawn") + e("eg_pawn_e2") + e("eg_passed_r2") - e("eg_isolated") + 2 * e("eg_shield")
    );
    // A White rook on a1 against a Black rook on h8 (h1 mirrored), Kings
    // on e1 and e8, no pawns: phase 4 of 24. Each rook stands on an open
    // file (they cancel) and reaches no square of the enemy King's zone;
    // White's reaches 10 squares (a2-a8, b1-d1), 3 above the typical 7,
    // Black's 9 (h7-h1, g8-f8), 2 above; the Kings' shield counts are 0.
    let mg = e("mg_rook_a1") - e("mg_rook_h1") + e("mg_mob_rook");
    let eg = e("eg_rook_a1") - e("eg_rook_h1") + e("eg_mob_rook");
    assert_eq!(
        visit_game(chess, At("4k2r/8/8/8/8/8/8/R3K3 w - - 0 1")).unwrap(),
        (mg * 4 + eg * 20) / 24
    );
}

/// Texel tuning's view of chess's evaluation (`Search::linear_terms`):
/// its rest plus each term's coefficient times the tuned value of its
/// parameter (`Search::linear_params` names them) is the evaluation with
/// `texel` 2 (the second model, `texel2.csv`), within the rounding of the
/// taper; Royal Guard has no such parameters.
#[test]
fn texel_terms_add_up_to_the_evaluation() {
    struct Along;
    impl GameVisitor for Along {
        type Output = usize;
        fn visit<G: Game>(self, game: G) -> usize {
            let v = texel2_values();
            let mut seen = 0;
            let (mut buf, mut terms) = (Vec::new(), Vec::new());
            for seed in 0..4u64 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut s = game.initial_state(seed);
                let names: Vec<String> = s.linear_params().into_iter().map(|(n, _)| n).collect();
                assert_eq!(names.len(), 778 + 36);
                let named = s.search_defaults().eval_weights;
                let w: Vec<i32> = named
                    .iter()
                    .map(|n| if n.name == "texel" { 2 } else { n.default })
                    .collect();
                while let ToMove::Seat(_) = s.to_move() {
                    let rest = s.linear_terms(&mut terms);
                    let sum: f64 = f64::from(rest)
                        + terms
                            .iter()
                            .map(|&(i, c)| f64::from(c) * f64::from(v[&names[i as usize]]))
                            .sum::<f64>();
                    let e = s.evaluate_weighted(&w);
                    assert!(
                        (sum - f64::from(e)).abs() <= 1.01,
                        "{} {sum} {e}",
                        s.to_text()
                    );
                    seen += 1;
                    let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
                    s.apply(m);
                }
            }
            seen
        }
    }
    assert!(visit_game("royal_guard(royal_powers=false)", Along).unwrap() > 100);
    struct Royal;
    impl GameVisitor for Royal {
        type Output = usize;
        fn visit<G: Game>(self, game: G) -> usize {
            game.initial_state(0).linear_params().len()
        }
    }
    assert_eq!(visit_game("royal_guard", Royal).unwrap(), 0);
}
