//! The `pie(G)` wrapper, the no-swap view and the reduction of openings by
//! board symmetry, as the swap maps of `boardlab pie` use them.

use engine::Research;
use engine::pie::{NoSwap, Pie, PieMove, PieStage, opening_classes};
use engine::registry::visit_game;
use engine::slingshot::SlingshotGame;
use engine::{Game, GameVisitor, State, ToMove, apply_moves, parse_legal_move};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn slingshot(text: &str) -> SlingshotGame {
    SlingshotGame::from_spec(&engine::spec::Spec::parse(text).unwrap()).unwrap()
}

struct Name;
impl GameVisitor for Name {
    type Output = String;
    fn visit<G: Game>(self, game: G) -> String {
        game.game_string()
    }
}

#[test]
fn pie_game_strings_and_errors() {
    assert_eq!(
        visit_game("pie(catapult)", Name).unwrap(),
        "pie(catapult(size=8,royal=false,dagger=false,dagger_move_then_pass=true,ply_cap=2000))"
    );
    // The canonical string parses back to the same game.
    let s = visit_game("pie(catapult(dagger=true))", Name).unwrap();
    assert_eq!(visit_game(&s, Name).unwrap(), s);
    for (bad, want) in [
        (
            "pie(sniggle(players=3))",
            "needs a two-seat game, this one has 3 seats",
        ),
        ("pie(pie(catapult))", "applies once"),
        ("pie()", "expected one two-seat game"),
        ("pie(catapult,slingshot)", "expected one two-seat game"),
        ("pie(chess)", "unknown game \"chess\""),
    ] {
        let e = visit_game(bad, Name).unwrap_err();
        assert!(e.0.contains(want), "{bad}: {e}");
    }
}

/// The swap is offered exactly on the second player's first turn, on top of
/// G's own moves, and nowhere else.
#[test]
fn swap_only_on_the_second_players_first_turn() {
    let inner = slingshot("slingshot(size=7)");
    let pie = Pie::new(inner.clone()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for game in 0..30 {
        let mut g = inner.initial_state(0);
        let mut p = pie.initial_state(0);
        let swap_at_offer = game % 2 == 0;
        let mut offers = 0;
        let (mut gm, mut pm) = (Vec::new(), Vec::new());
        let mut buf = Vec::new();
        while !g.is_terminal() {
            g.legal_moves(&mut gm);
            p.legal_moves(&mut pm);
            let mut expect: Vec<_> = gm.iter().map(|&m| PieMove::Inner(m)).collect();
            let first_turn_of_seat_1 = offers == 0 && g.to_move() == ToMove::Seat(1);
            if first_turn_of_seat_1 {
                expect.push(PieMove::Swap);
                offers += 1;
                assert_eq!(p.stage(), PieStage::Offer);
                if swap_at_offer {
                    p.apply(PieMove::Swap);
                    assert_eq!(p.to_move(), ToMove::Seat(0), "the opener answers");
                    p.legal_moves(&mut pm);
                    assert!(!pm.contains(&PieMove::Swap));
                    expect.pop();
                }
            }
            assert_eq!(pm, expect);
            assert_eq!(p.count_legal_moves(), expect.len());
            let mv = g.sample_legal_move(&mut rng, &mut buf).unwrap();
            g.apply(mv);
            p.apply(PieMove::Inner(mv));
        }
        assert_eq!(offers, 1);
        let (gr, pr) = (g.returns(), p.returns());
        if swap_at_offer {
            assert_eq!((pr[0], pr[1]), (gr[1], gr[0]));
            assert_eq!(p.first_mover_seat(), g.first_mover_seat().map(|s| 1 - s));
            assert!(
                p.seat_role(1).role == "chooser" && p.seat_role(1).colour == g.seat_role(0).colour
            );
        } else {
            assert_eq!((pr[0], pr[1]), (gr[0], gr[1]));
            assert_eq!(p.first_mover_seat(), g.first_mover_seat());
        }
    }
}

#[test]
fn pie_text_and_bad_input() {
    let pie = Pie::new(slingshot("slingshot(size=7)")).unwrap();
    let mut s = pie.initial_state(0);
    apply_moves(&mut s, "d4,a1").unwrap();
    assert!(s.to_text().ends_with("\npie=offer"), "{}", s.to_text());
    apply_moves(&mut s, "swap").unwrap();
    let back = pie.parse_position(&s.to_text()).unwrap();
    assert_eq!(back.to_text(), s.to_text());
    assert_eq!(back.zobrist(), s.zobrist());
    let e = apply_moves(&mut s, "swap").unwrap_err();
    assert!(e.0.contains("not legal"), "{e}");
    assert!(parse_legal_move(&pie.initial_state(0), "swap").is_err());
    for bad in ["", "pie=offer", "x\npie=maybe"] {
        assert!(pie.parse_position(bad).is_err(), "{bad:?}");
    }
    // pie=open where the chooser is to move, and the reverse.
    let t = s.to_text().replace("pie=swapped", "pie=open");
    assert!(pie.parse_position(&t).is_err());
}

/// Without swaps, Slingshot's chooser can only leave Black to the setter,
/// and `pie(G)`'s chooser only play on.
#[test]
fn no_swap_removes_exactly_the_swaps() {
    let g = NoSwap(slingshot("slingshot(size=7)"));
    let mut s = g.initial_state(0);
    apply_moves(&mut s.0, "d4,a1").unwrap();
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    let texts: Vec<String> = v.iter().map(|&m| s.move_to_text(m)).collect();
    assert_eq!(texts, ["chooser=T"]);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..50 {
        let m = s.sample_legal_move(&mut rng, &mut v).unwrap();
        assert_eq!(s.move_to_text(m), "chooser=T");
    }
    let p = NoSwap(Pie::new(slingshot("slingshot(size=7)")).unwrap());
    let mut s = p.initial_state(0);
    apply_moves(&mut s.0, "d4,a1").unwrap();
    let mut w = Vec::new();
    s.legal_moves(&mut w);
    // Both swaps go: the wrapper's and Slingshot's own `chooser=B`.
    let texts: Vec<String> = w.iter().map(|&m| s.move_to_text(m)).collect();
    assert_eq!(texts, ["chooser=T"]);
}

/// Burnside's lemma over the four goal-keeping symmetries (identity, two
/// mirrors, half turn) counts the unordered set-up pairs by hand:
/// 7×7: (1176 + 42 + 42 + 24) / 4 = 321; 9×9: (3240 + 72 + 72 + 40) / 4 = 856.
#[test]
fn slingshot_setups_reduce_to_burnside_counts() {
    for (size, classes, total) in [(7, 321, 1176), (9, 856, 3240)] {
        let g = slingshot(&format!("slingshot(size={size})"));
        let s = g.initial_state(0);
        let cls = opening_classes(&s);
        assert_eq!(cls.len(), classes, "size {size}");
        let mut all = Vec::new();
        s.legal_moves(&mut all);
        assert_eq!(all.len(), total);
        // Every opening lies in exactly one orbit, and each orbit member maps
        // back onto its representative by some symmetry.
        for &m in &all {
            let homes: Vec<_> = cls.iter().filter(|c| c.orbit.contains(&m)).collect();
            assert_eq!(homes.len(), 1, "{}", s.move_to_text(m));
            let rep = homes[0].representative;
            assert!((0..4).any(|k| s.transform_move(m, k) == rep));
        }
        let sum: usize = cls.iter().map(|c| c.orbit.len()).sum();
        assert_eq!(sum, total);
    }
    // The corner pair a1+g7 and its images: {a1,g7}, {g1,a7}.
    let g = slingshot("slingshot(size=7)");
    let s = g.initial_state(0);
    let m = parse_legal_move(&s, "a1,g7").unwrap();
    let c = opening_classes(&s)
        .into_iter()
        .find(|c| c.orbit.contains(&m))
        .unwrap();
    let mut texts: Vec<String> = c.orbit.iter().map(|&m| s.move_to_text(m)).collect();
    texts.sort();
    assert_eq!(texts.len(), 2, "{texts:?}");
}
