//! Each game's own search defaults (`Search::search_defaults`), as specs
//! read for a game (`AgentSpec::parse_in`) spell them out. The expected
//! values are the outcomes of games at equal time, not of this code: on
//! Bagel and Big Bagel `mcts` with playouts cut off after 4 plies lost to
//! plain `uct` (7–25 and 16–48 in `sprt` at 50 ms a move) and played to
//! the end it was level or ahead (20–20, 57–43), and on two-seat Sniggle
//! the cut-off lost (H0, 245–267) where playouts to the end won (58–38)
//! and `c=0.916` (from SPSA) beat `c=0.7` (284–228); on three-seat
//! Sniggle against two `uct` seats (fair share 1/3) `mcts` won 8 of 64
//! games with the generic values and 49 of 201 with two-seat Sniggle's,
//! and 72 of 201 as UCT with reuse (`cutoff=end,c=1.4,solver=false`), the
//! values of its three- and four-seat forms;
//! on Slingshot and Line Up SPSA's `c`, `cutoff` and `scale` beat the
//! generic ones (results/tune);
//! on Solitaire Sly only
//! `mcts` as UCT (`c=1.4`, no solver, to the end) matched `uct`'s mean
//! return over 100 seeded layouts; in chess, alpha-beta with
//! check extensions beat the same search without (docs/cli.md, "Per-game
//! defaults").

use agents::AgentSpec;

fn read(agent: &str, game: &str) -> String {
    AgentSpec::parse_in(agent, game).unwrap().canonical()
}

/// The canonical strings of `on` and `off` in `game`, checked to end with
/// `on_end` and `off_end` (a switch on by the game's default, and turned
/// off by the spec, is spelled both ways) and to read back as themselves.
fn spelled_both_ways(
    game: &str,
    (on, on_end): (&str, &str),
    (off, off_end): (&str, &str),
) -> (String, String) {
    let (a, b) = (read(on, game), read(off, game));
    assert!(a.ends_with(on_end), "{game}: {a}");
    assert!(b.ends_with(off_end), "{game}: {b}");
    assert_eq!(read(&a, game), a);
    assert_eq!(read(&b, game), b);
    (a, b)
}

#[test]
fn bagel_and_sniggle_play_their_mcts_playouts_to_the_end() {
    for game in [
        "bagel",
        "bagel(base=5)",
        "pie(bagel)",
        "sniggle(players=2)",
        "sniggle(players=3)",
        "sniggle(players=4,teams=true)",
    ] {
        let m = read("mcts(iterations=50)", game);
        assert!(m.contains(",cutoff=end,"), "{game}: {m}");
        // A cut-off the spec gives is kept.
        let m = read("mcts(iterations=50,cutoff=4)", game);
        assert!(m.contains(",cutoff=4,"), "{game}: {m}");
        // The canonical spec reads back to itself.
        assert_eq!(read(&m, game), m);
    }
    // Elsewhere the generic cut-off, and the generic reading is unchanged.
    for game in [
        "catapult(size=9)",
        "royal_guard(royal_powers=false)",
        "empire(players=3)",
        "gateway(players=4,teams=true)",
    ] {
        assert!(read("mcts", game).contains(",cutoff=4,"), "{game}");
    }
    // Two-seat Sniggle's exploration constant: SPSA's 0.916 beat 0.7 at
    // 50 ms a move (H1 after 512 games, 284–228), with the solver; three
    // and four seats play as UCT, without it.
    let two = read("mcts", "sniggle(players=2)");
    assert!(
        two.contains(",c=0.916,") && two.contains(",solver=true,"),
        "{two}"
    );
    for game in ["sniggle(players=3)", "sniggle(players=4,teams=true)"] {
        let m = read("mcts", game);
        assert!(m.contains(",c=1.4,") && m.contains(",solver=false,"), "{m}");
    }
    assert!(read("mcts", "bagel").contains(",c=0.7,"));
    let generic = AgentSpec::parse("mcts").unwrap().canonical();
    assert!(generic.contains(",cutoff=4,"), "{generic}");
}

/// Tuned by SPSA and each beating the generic `c=0.7,cutoff=4` with the
/// evaluation's own scale at 50 ms a move (results/tune, H1): Slingshot
/// 7×7 +104 Elo, 9×9 +137, Line Up +39, King's Colour +238, two-seat
/// Empire +91, plain Catapult 8×8 +394, Andalusia +177 (in every rule
/// variant), Royal Guard +394 (not chess, which keeps the generic values),
/// Blockade +45 (its cut-off stays the generic 4).
#[test]
fn the_games_tuned_by_spsa_play_their_tuned_mcts() {
    for (game, want) in [
        (
            "slingshot(size=7)",
            ",c=0.491,ms=0,mb=256,cutoff=3,scale=12.5,",
        ),
        ("slingshot", ",c=0.352,ms=0,mb=256,cutoff=3,scale=6.9,"),
        (
            "pie(slingshot(size=7))",
            ",c=0.491,ms=0,mb=256,cutoff=3,scale=12.5,",
        ),
        ("line_up", ",c=0.818,ms=0,mb=256,cutoff=6,scale=33.5,"),
        ("kings_colour", ",c=0.177,ms=0,mb=256,cutoff=7,scale=133,"),
        ("empire", ",c=0.1,ms=0,mb=256,cutoff=10,scale=76.3,"),
        ("catapult", ",c=0.458,ms=0,mb=256,cutoff=0,scale=90.2,"),
        ("pie(catapult)", ",c=0.458,ms=0,mb=256,cutoff=0,scale=90.2,"),
        ("andalusia", ",c=0.509,ms=0,mb=256,cutoff=0,scale=152,"),
        (
            "andalusia(stalemate=draw)",
            ",c=0.509,ms=0,mb=256,cutoff=0,scale=152,",
        ),
        ("royal_guard", ",c=0.407,ms=0,mb=256,cutoff=0,scale=204,"),
        ("blockade", ",c=0.424,ms=0,mb=256,cutoff=4,scale=103.8,"),
        (
            "blockade(first=north)",
            ",c=0.424,ms=0,mb=256,cutoff=4,scale=103.8,",
        ),
    ] {
        let m = read("mcts(iterations=50)", game);
        assert!(m.contains(want), "{game}: {m}");
        assert_eq!(read(&m, game), m);
        // Given values are kept; `scale=auto` is the evaluation's scale.
        let given = read("mcts(iterations=50,c=0.7,cutoff=4,scale=auto)", game);
        assert!(
            given.contains(",c=0.7,ms=0,mb=256,cutoff=4,scale=auto,"),
            "{game}: {given}"
        );
        assert_eq!(read(&given, game), given);
    }
    // Elsewhere `scale` is the evaluation's own, written `auto`.
    for game in [
        "catapult(size=9)",
        "catapult(dagger=true)",
        "catapult(royal=true)",
        "royal_guard(royal_powers=false)",
        "bagel",
        "empire(players=4)",
    ] {
        let m = read("mcts", game);
        assert!(
            m.contains(",c=0.7,") && m.contains(",scale=auto,"),
            "{game}: {m}"
        );
    }
}

#[test]
fn solitaire_sly_plays_mcts_as_uct_with_reuse() {
    let m = read("mcts(iterations=50)", "sly_solitaire");
    assert!(
        m.contains(",c=1.4,") && m.contains(",cutoff=end,") && m.contains(",solver=false,"),
        "{m}"
    );
    assert_eq!(read(&m, "sly_solitaire"), m);
    let m = read("mcts(iterations=50,c=0.5,solver=true)", "sly_solitaire");
    assert!(m.contains(",c=0.5,") && m.contains(",solver=true,"), "{m}");
    let generic = read("mcts", "catapult(size=9)");
    assert!(
        generic.contains(",c=0.7,") && generic.contains(",solver=true,"),
        "{generic}"
    );
}

#[test]
fn chess_alphabeta_extends_checks_orders_captures_and_reduces() {
    let chess = "royal_guard(royal_powers=false)";
    let a = read("alphabeta(depth=4)", chess);
    assert!(
        a.ends_with(
            ",aspiration=50,null=3,lmr=3,lmr_log=true,check_ext=true,mvv=true,futility=100,see=true,qcheck=true,countermove=true,partial=true,twofold=true)"
        ),
        "{a}"
    );
    // Null-move pruning off is spelled out too; Royal Guard with its
    // powers has none.
    let no_null = read("alphabeta(depth=4,null=0)", chess);
    assert!(
        no_null.contains(",aspiration=50,null=0,lmr=3,"),
        "{no_null}"
    );
    assert_eq!(read(&no_null, chess), no_null);
    assert!(!read("alphabeta(depth=4)", "royal_guard").contains("null"));
    // Switched off by the spec, it is spelled out, so the string still
    // says what was played.
    let off = read("alphabeta(depth=4,check_ext=false)", chess);
    assert!(
        off.ends_with(
            ",check_ext=false,mvv=true,futility=100,see=true,qcheck=true,countermove=true,partial=true,twofold=true)"
        ),
        "{off}"
    );
    let plain = read(
        "alphabeta(depth=4,lmr=0,lmr_log=false,check_ext=false,mvv=false,futility=0,see=false,qcheck=false,countermove=false,partial=false,twofold=false)",
        chess,
    );
    assert!(
        plain.ends_with(
            ",lmr=0,lmr_log=false,check_ext=false,mvv=false,futility=0,see=false,qcheck=false,countermove=false,partial=false,twofold=false)"
        ),
        "{plain}"
    );
    assert_eq!(read(&plain, chess), plain);
    // Reductions off: their logarithmic form lapses with them.
    let no_lmr = read("alphabeta(depth=4,lmr=0)", chess);
    assert!(
        no_lmr.ends_with(
            ",lmr=0,lmr_log=false,check_ext=true,mvv=true,futility=100,see=true,qcheck=true,countermove=true,partial=true,twofold=true)"
        ),
        "{no_lmr}"
    );
    assert_eq!(read(&off, chess), off);
    assert_eq!(read(&a, chess), a);
    assert_ne!(
        AgentSpec::parse_in(&off, chess).unwrap(),
        AgentSpec::parse_in(&a, chess).unwrap()
    );
    // Royal Guard with its royal powers, and other games: no extension, and
    // the spec string as before.
    for game in [
        "royal_guard",
        "catapult(size=9)",
        "catapult(dagger=true)",
        "catapult(royal=true)",
        "andalusia",
    ] {
        let s = read("alphabeta(depth=4)", game);
        for switch in [
            "check_ext",
            "mvv",
            "lmr",
            "null",
            "futility",
            "see",
            "lmp",
            "qcheck",
            "iir",
        ] {
            assert!(!s.contains(switch), "{game}: {s}");
        }
    }
}

/// Plain Catapult 8×8 (and under the pie rule) orders captures first by
/// default (`mvv`, H1 +81 at 50 ms: results/search-switches), so its
/// string spells it, and spells it off where a spec turns it off; that
/// spec and one from before the default (no `mvv`) are one agent.
#[test]
fn plain_catapult_orders_captures_first() {
    for game in ["catapult", "catapult(size=8)", "pie(catapult)"] {
        let (on, off) = spelled_both_ways(
            game,
            ("alphabeta(depth=4)", ",aspiration=50,mvv=true)"),
            ("alphabeta(depth=4,mvv=false)", ",aspiration=50,mvv=false)"),
        );
        let before = "alphabeta(depth=4,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50)";
        assert!(agents::same_agent(&off, before), "{game}: {off}");
        assert!(!agents::same_agent(&on, before), "{game}: {on}");
        // The generic search on another size: nothing to spell.
        assert_eq!(read("alphabeta(depth=4)", "catapult(size=9)"), before);
    }
}

/// `lmp` and `iir` are off unless asked for (`see` and `qcheck` too, but in
/// chess), then spelled out, and their bad values are one-line errors.
#[test]
fn exchange_and_late_move_pruning_are_spelled_out_when_on() {
    let chess = "royal_guard(royal_powers=false)";
    // Chess's defaults have `see` and `qcheck` on (game defaults, so
    // spelled out).
    let plain = read("alphabeta(depth=4)", chess);
    assert!(
        plain.ends_with(",see=true,qcheck=true,countermove=true,partial=true,twofold=true)"),
        "{plain}"
    );
    for switch in ["lmp", "iir", "malus"] {
        assert!(!plain.contains(switch), "{plain}");
    }
    let on = read(
        "alphabeta(depth=4,lmp=3,iir=true,malus=true,countermove=true)",
        chess,
    );
    assert!(
        on.ends_with(
            ",see=true,lmp=3,qcheck=true,iir=true,malus=true,countermove=true,partial=true,twofold=true)"
        ),
        "{on}"
    );
    assert_eq!(read(&on, chess), on);
    // Written off where no game turns it on: one agent with it left out.
    let off = read("alphabeta(depth=4,malus=false)", chess);
    assert_eq!(off, plain);
    // Chess turns countermoves on, so a spec that turns them off says so.
    let no_counter = read("alphabeta(depth=4,countermove=false)", chess);
    assert!(
        no_counter.ends_with(",qcheck=true,countermove=false,partial=true,twofold=true)"),
        "{no_counter}"
    );
    for bad in [
        "alphabeta(see=1)",
        "alphabeta(lmp=1001)",
        "alphabeta(lmp=-1)",
        "alphabeta(qcheck=yes)",
        "alphabeta(iir=1)",
        "alphabeta(malus=1)",
        "alphabeta(countermove=on)",
    ] {
        let e = AgentSpec::parse_in(bad, chess).unwrap_err().to_string();
        assert!(!e.contains('\n') && e.contains("alphabeta"), "{bad}: {e}");
    }
}

#[test]
fn a_bad_game_is_an_error_not_a_panic() {
    let e = AgentSpec::parse_in("mcts", "no_such_game").unwrap_err();
    assert!(e.to_string().contains("unknown game"), "{e}");
}

/// The games of the tactics set (agents/tests/data/tactics.txt) search
/// with MCTS's root win search 3 plies deep by default, so that
/// `mcts(iterations=20000)` finds every forced win within 3 plies there
/// (tactics.rs); its cost at equal time is measured in
/// results/minimax-equal-time. Catapult with the Dagger does not (a ply
/// there is ~600 compound actions), nor do the games outside the set.
#[test]
fn capture_games_search_forced_wins_at_the_root() {
    for game in [
        "catapult",
        "catapult(royal=true)",
        "catapult(size=9)",
        "pie(catapult)",
        "royal_guard",
        "royal_guard(royal_powers=false)",
        "andalusia",
        "kings_colour",
        "slingshot",
        "slingshot(size=7)",
    ] {
        // Switched off, it is spelled out, so the string says what played.
        spelled_both_ways(
            game,
            ("mcts(iterations=50)", ",minimax=3)"),
            ("mcts(iterations=50,minimax=0)", ",minimax=0)"),
        );
    }
    for game in [
        "catapult(dagger=true)",
        "line_up",
        "bagel",
        "spinner",
        "empire",
        "gateway",
        "blockade",
    ] {
        let m = read("mcts(iterations=50)", game);
        assert!(!m.contains("minimax"), "{game}: {m}");
        let on = read("mcts(iterations=50,minimax=2)", game);
        assert!(on.ends_with(",minimax=2)"), "{game}: {on}");
    }
}

#[test]
fn alphabeta_names_the_evaluation_weights_it_changes() {
    let a = read("alphabeta(depth=2,w_range=7,w_material=100)", "catapult");
    // The default material weight is not written; the changed range is.
    assert!(
        a.ends_with(",w_range=7)") && !a.contains("w_material"),
        "{a}"
    );
    assert_eq!(read(&a, "catapult"), a);
    assert_eq!(
        read("alphabeta(depth=2,w_range=5)", "catapult"),
        read("alphabeta(depth=2)", "catapult")
    );
    assert!(read("alphabeta(depth=2,w_range=7)", "pie(catapult)").ends_with(",w_range=7)"));
    let chess = read(
        "alphabeta(depth=2,w_knight=300)",
        "royal_guard(royal_powers=false)",
    );
    assert!(
        chess.ends_with(",qcheck=true,countermove=true,partial=true,twofold=true,w_knight=300)"),
        "{chess}"
    );
    for (spec, game, needle) in [
        (
            "alphabeta(w_foo=3)",
            "catapult",
            "unknown evaluation weight \"w_foo\" (this game's: w_material, w_range, w_progress, w_attack)",
        ),
        (
            "alphabeta(w_range=3)",
            "bagel",
            "w_range: this game's evaluation has no named weights",
        ),
        (
            "alphabeta(w_range=x)",
            "catapult",
            "w_range=\"x\" is not valid (expected an integer)",
        ),
        ("alphabeta(w_range=3,w_range=4)", "catapult", "given twice"),
        ("alphabeta(w_range=3)", "", "no named weights"),
    ] {
        let e = if game.is_empty() {
            AgentSpec::parse(spec).unwrap_err().to_string()
        } else {
            AgentSpec::parse_in(spec, game).unwrap_err().to_string()
        };
        assert!(
            e.contains(needle) && !e.contains('\n'),
            "{spec} in {game}: {e}"
        );
    }
}

/// A switch written off because the game's default is on, and the same
/// switch left out where the default is off (as every spec made before
/// the game's default changed has it), are one agent by `spec_key`; a
/// switch on is another.
#[test]
fn a_switch_written_off_and_left_out_are_one_agent() {
    let all_off = "alphabeta(depth=3,null=0,lmr=0,lmr_log=false,check_ext=false,mvv=false,futility=0,see=false,lmp=0,qcheck=false,iir=false,malus=false,countermove=false,partial=false,twofold=false)";
    // Chess turns several on by default, so its spec writes them off;
    // Bagel turns none on, so its spec leaves them all out.
    let chess = read(all_off, "royal_guard(royal_powers=false)");
    assert!(
        chess.contains(",mvv=false,") && chess.contains(",see=false,"),
        "{chess}"
    );
    let bagel = read(all_off, "bagel");
    assert_eq!(
        bagel,
        "alphabeta(depth=3,ms=0,tt_mb=16,qdepth=8,pvs=true,aspiration=50)"
    );
    assert_eq!(agents::spec_key(&chess), bagel);
    assert_eq!(agents::spec_key(&bagel), bagel);
    let mvv = read(
        &all_off.replace("mvv=false", "mvv=true"),
        "royal_guard(royal_powers=false)",
    );
    assert_ne!(agents::spec_key(&mvv), bagel);
    // mcts's minimax=0 on Catapult (default 3) and on Bagel (default 0).
    let m = read(
        "mcts(iterations=50,c=0.7,cutoff=4,scale=auto,minimax=0)",
        "catapult",
    );
    assert!(m.ends_with(",minimax=0)"), "{m}");
    let b = read(
        "mcts(iterations=50,c=0.7,cutoff=4,scale=auto,minimax=0)",
        "bagel",
    );
    assert!(!b.contains("minimax"), "{b}");
    assert_eq!(agents::spec_key(&m), b);
    let three = read("mcts(iterations=50,c=0.7,cutoff=4,scale=auto)", "catapult");
    assert_ne!(agents::spec_key(&three), b);
}
