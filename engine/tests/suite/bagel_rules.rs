//! Bagel rules, checked against the rules (`docs/rules/bagel.md`)
//! and hand-worked positions: the BAGEL-L1 sample layout and everything
//! §1.9 computes on it, the hole example of B-9, the tie-breaks B-12/B-13,
//! the pie rule B-5, the end test B-R4, Big Bagel's 4-windows, bad input.

use engine::Research;
use engine::bagel::{BAGEL_L1, BagelGame, BagelMove, Side, random_layout};
use engine::registry::{GameVisitor, visit_game};
use engine::testkit::check_playouts;
use engine::{Game, State, ToMove, apply_moves, parse_legal_move};

fn l1(extra: &str) -> BagelGame {
    let spec = format!("bagel(layout={BAGEL_L1}{extra})");
    BagelGame::from_spec(&engine::spec::Spec::parse(&spec).unwrap()).unwrap()
}

fn play(g: &BagelGame, moves: &str) -> engine::bagel::BagelState {
    let mut s = g.initial_state(0);
    apply_moves(&mut s, moves).unwrap();
    s
}

fn move_texts(s: &engine::bagel::BagelState) -> Vec<String> {
    let mut v = Vec::new();
    s.legal_moves(&mut v);
    v.iter().map(|&m| s.move_to_text(m)).collect()
}

/// §1.9 table "Aligned same-colour pairs on the empty board": each line's
/// tiles and its Σ C(k, 2). Checked line by line: after an opening disc
/// off the line, the pair moves with both tiles on the line number exactly
/// the table's value.
#[test]
fn l1_aligned_pairs_per_line() {
    let table: &[(&str, usize)] = &[
        ("a1 a2 a3 a4", 1),
        ("b1 b2 b3 b4 b5", 1),
        ("c1 c2 c3 c4 c5 c6", 2),
        ("d1 d2 d3 d5 d6 d7", 2),
        ("e2 e3 e4 e5 e6 e7", 6),
        ("f3 f4 f5 f6 f7", 3),
        ("g4 g5 g6 g7", 1),
        ("a1 b1 c1 d1", 2),
        ("a2 b2 c2 d2 e2", 2),
        ("a3 b3 c3 d3 e3 f3", 6),
        ("a4 b4 c4 e4 f4 g4", 2),
        ("b5 c5 d5 e5 f5 g5", 4),
        ("c6 d6 e6 f6 g6", 1),
        ("d7 e7 f7 g7", 2),
        ("a1 b2 c3 e5 f6 g7", 3),
        ("a2 b3 c4 d5 e6 f7", 7),
        ("a3 b4 c5 d6 e7", 6),
        ("a4 b5 c6 d7", 3),
        ("b1 c2 d3 e4 f5 g6", 3),
        ("c1 d2 e3 f4 g5", 2),
        ("d1 e2 f3 g4", 1),
    ];
    let g = l1("");
    let total: usize = table.iter().map(|t| t.1).sum();
    assert_eq!(total, 60);
    for (tiles, want) in table {
        let on: Vec<&str> = tiles.split(' ').collect();
        // An opening cell on none of this line's tiles and not aligned
        // with a same-colour pair on it: any cell off the line will do,
        // since a disc only removes pairs through itself.
        let opening = ["a1", "g7", "d1", "a4"]
            .into_iter()
            .find(|c| !on.contains(c))
            .unwrap();
        let s = play(&g, opening);
        let n = move_texts(&s)
            .iter()
            .filter(|m| {
                m.split_once('+')
                    .is_some_and(|(a, b)| on.contains(&a) && on.contains(&b))
            })
            .count();
        assert_eq!(n, *want, "line {tiles}");
    }
}

/// §1.9: the six pairs across the hole are legal two-disc moves (B-4: "tiles
/// on opposite sides of the centre hole can be selected").
#[test]
fn l1_pairs_across_the_hole() {
    let s = play(&l1(""), "c4");
    let moves = move_texts(&s);
    for m in ["d1+d5", "d2+d6", "a4+e4", "a1+e5", "b2+g7", "c3+f6"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
}

/// §1.9 "The Figure 2–4 game on BAGEL-L1": legal-move counts before each
/// move and the scores after.
#[test]
fn l1_figure_game() {
    let g = l1("");
    let mut s = g.initial_state(0);
    let rows = [
        (36, "c4", 0, 0),
        (93, "c3+d3", 0, 0),
        (82, "a2+b3", 1, 0),
        (76, "e3+e6", 1, 1),
    ];
    for (count, mv, w, b) in rows {
        assert_eq!(s.count_legal_moves(), count, "before {mv}");
        assert_eq!(move_texts(&s).len(), count, "before {mv}");
        let m = parse_legal_move(&s, mv).unwrap();
        s.apply(m);
        assert_eq!(
            (s.score(Side::White), s.score(Side::Black)),
            (w, b),
            "after {mv}"
        );
    }
    // Turn 5: 29 singles + 39 pairs.
    assert_eq!(s.count_legal_moves(), 68);
    let pairs = move_texts(&s).iter().filter(|m| m.contains('+')).count();
    assert_eq!(pairs, 39);
    // Both Figure 4 candidates add one window (B-9).
    let mut a = s.clone();
    a.apply(parse_legal_move(&a, "c5+c6").unwrap());
    assert_eq!(a.score(Side::White), 2);
    let mut b = s;
    b.apply(parse_legal_move(&b, "d5+f5").unwrap());
    assert_eq!(b.score(Side::White), 2);
    // d5 makes the 4-run a2-b3-c4-d5 ("worth two 3-in-a-rows").
    let (runs, n) = b.runs(Side::White);
    assert_eq!(&runs[..n], &[4]);
    let (_, n) = a.runs(Side::White);
    assert_eq!(n, 0);
}

/// B-9 hole example: White on a4 b4 c4 e4 f4 g4 scores 2 (two 3-runs, not
/// a 6-run), reached by play (a4+e4 is a pair across the hole) and by
/// position text.
#[test]
fn hole_example() {
    let g = l1("");
    let s = play(&g, "c4 d7 a4+e4 e7 f4+g4 a1");
    assert_eq!(s.score(Side::White), 1); // e4 f4 g4
    let s = play(&g, "c4 d7 a4+e4 e7 f4+g4 a1 b4");
    assert_eq!(s.score(Side::White), 2);
    assert_eq!(s.score(Side::Black), 0);
    let (_, n) = s.runs(Side::White);
    assert_eq!(n, 0, "no 4-run across the hole");
    // The same discs from a position text.
    let t = s.to_text();
    let p = g.parse_position(&t).unwrap();
    assert_eq!(p.score(Side::White), 2);
    assert_eq!(p.zobrist(), s.zobrist());
}

/// The discs string (B-G6 order) with the given white and black cells.
fn discs(white: &str, black: &str) -> String {
    let names = engine::bagel::tile_names(4);
    names
        .iter()
        .map(|n| {
            if white.split(' ').any(|w| w == n) {
                'w'
            } else if black.split(' ').any(|b| b == n) {
                'b'
            } else {
                '.'
            }
        })
        .collect()
}

fn position(extra: &str, white: &str, black: &str, tail: &str) -> engine::bagel::BagelState {
    let g = l1(extra);
    let text = format!("{BAGEL_L1} {} {tail}", discs(white, black));
    g.parse_position(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// B-12 and B-13 on hand-built finished positions (small reserves so the
/// mover has none left, B-R4).
#[test]
fn tie_breaks() {
    // A: 2-2. White's column a1-a4 is a 4-run (2 points); Black has two
    // 3-runs b1-b3, c1-c3 (rows and diagonals through them are at most
    // 2-runs). Runs >= 4: White [4], Black [] -> White (B-12).
    let (w, b) = ("a1 a2 a3 a4 f7 g7", "b1 b2 b3 c1 c2 c3");
    let s = position(",reserve=6", w, b, "w play 0 0 0 12");
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!((s.score(Side::White), s.score(Side::Black)), (2, 2));
    assert_eq!(s.winner(), Some(Side::White));
    assert_eq!(s.returns()[..2], [1.0, -1.0]);
    // With tiebreak_min=5 both lists are empty: Black wins (B-13), the
    // dossier's note that a threshold of 5 can change the result.
    let s5 = position(",reserve=6,tiebreak_min=5", w, b, "w play 0 0 0 12");
    assert_eq!(s5.winner(), Some(Side::Black));
    // tiebreak_min=3: White [4] against Black [3, 3]: White.
    let s3 = position(",reserve=6,tiebreak_min=3", w, b, "w play 0 0 0 12");
    assert_eq!(s3.winner(), Some(Side::White));

    // B: 1-1, no run of 4 on either side: Black wins (B-13); after a swap
    // that is seat 0.
    let (w, b) = ("a1 a2 a3", "b1 b2 b3");
    let s = position(",reserve=3", w, b, "w play 0 0 0 6");
    assert_eq!((s.score(Side::White), s.score(Side::Black)), (1, 1));
    assert_eq!(s.winner(), Some(Side::Black));
    assert_eq!(s.returns()[..2], [-1.0, 1.0]);
    let s = position(",reserve=3", w, b, "w play 0 0 1 7");
    assert_eq!(s.winner(), Some(Side::Black));
    assert_eq!(s.returns()[..2], [1.0, -1.0]);
    assert_eq!(s.scores().unwrap()[..2], [1.0, 1.0]);

    // C: 4-4. White has two 4-runs (column a, row 7): [4, 4]; Black a 4-run
    // b1-b4 and 3-runs c1-c3, e2-e4: [4]. Black's list is a strict prefix
    // of White's: White wins (B-R5).
    let (w, b) = ("a1 a2 a3 a4 d7 e7 f7 g7", "b1 b2 b3 b4 c1 c2 c3 e2 e3 e4");
    let s = position(",reserve=10", w, b, "b play 2 0 0 14");
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!((s.score(Side::White), s.score(Side::Black)), (4, 4));
    assert_eq!(s.winner(), Some(Side::White));
    // Higher score wins outright (B-11): Black's score only.
    let s = position(",reserve=10", "a1 a2 a3 d7 e7 f7 g7", b, "b play 3 0 0 14");
    assert_eq!((s.score(Side::White), s.score(Side::Black)), (3, 4));
    assert_eq!(s.winner(), Some(Side::Black));
}

/// B-1 (one disc), B-2/B-5 (swap on Black's first turn only, in colour
/// terms), B-6 alternation; seat roles and the first mover after a swap.
#[test]
fn pie_rule() {
    let g = l1("");
    let s = g.initial_state(0);
    assert_eq!(s.to_move(), ToMove::Seat(0));
    assert!(move_texts(&s).iter().all(|m| !m.contains('+')), "B-1");
    let mut s = play(&g, "c4");
    assert_eq!(s.to_move(), ToMove::Seat(1));
    assert!(move_texts(&s).contains(&"swap".to_string()));
    assert_eq!(s.first_mover_seat(), None);
    let before = s.zobrist();
    s.apply(parse_legal_move(&s, "swap").unwrap());
    assert_ne!(s.zobrist(), before);
    // Black still to move, now seat 0; colours flipped.
    assert_eq!(s.colour_to_move(), Side::Black);
    assert_eq!(s.to_move(), ToMove::Seat(0));
    assert!(s.swapped());
    assert_eq!(s.seat_role(0).to_string(), "first/black");
    assert_eq!(s.seat_role(1).to_string(), "second/white");
    assert_eq!(s.first_mover_seat(), Some(1));
    assert_eq!(s.setter_seat(), Some(0));
    assert!(!move_texts(&s).contains(&"swap".to_string()));
    assert_eq!(s.count_legal_moves(), 35 + 57);
    // Black's first ordinary turn, then White (seat 1).
    s.apply(parse_legal_move(&s, "c3+d3").unwrap());
    assert_eq!(s.to_move(), ToMove::Seat(1));
    s.apply(parse_legal_move(&s, "a2+b3").unwrap());
    assert_eq!(s.scores().unwrap()[..2], [0.0, 1.0]);
    // No swap: roles keep their colours.
    let s = play(&g, "c4 c3+d3");
    assert_eq!(s.seat_role(0).to_string(), "first/white");
    assert_eq!(s.seat_role(1).to_string(), "second/black");
    assert_eq!(s.first_mover_seat(), Some(0));
}

/// B-10 / B-R4: the game ends when the player to move has no disc (or no
/// empty tile); the other player still gets a turn. B-R3: with one disc
/// left, singles only. `end=either` ends at once.
#[test]
fn end_test_and_last_disc() {
    let g = l1(",reserve=2");
    let s = play(&g, "c4 c3+d3");
    // White has 1 disc: singles only (B-R3).
    assert_eq!(s.reserve(Side::White), 1);
    assert_eq!(s.count_legal_moves(), 33);
    assert!(move_texts(&s).iter().all(|m| !m.contains('+')));
    let e = parse_legal_move(&s, "a2+b3").unwrap_err();
    assert!(e.0.contains("B-R3"), "{e}");
    // Black has none left, but White still places (B-R4)...
    assert_eq!(s.to_move(), ToMove::Seat(0));
    let s = play(&g, "c4 c3+d3 a1");
    // ...then Black to move with an empty reserve: the end.
    assert_eq!(s.to_move(), ToMove::Terminal);
    assert_eq!(s.winner(), Some(Side::Black)); // 0-0, B-13
    // end=either: over as soon as Black's reserve is empty.
    let s = play(&l1(",reserve=2,end=either"), "c4 c3+d3");
    assert_eq!(s.to_move(), ToMove::Terminal);
    // A full board ends the game (B-10): random play always fills or
    // exhausts.
    let g = l1("");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    use rand::SeedableRng;
    let mut buf = Vec::new();
    for _ in 0..200 {
        let mut s = g.initial_state(0);
        while let ToMove::Seat(_) = s.to_move() {
            let m = s.sample_legal_move(&mut rng, &mut buf).unwrap();
            s.apply(m);
        }
        let c = s.colour_to_move();
        assert!(s.empty() == 0 || s.reserve(c) == 0);
    }
}

/// B-V1, B-V2: Big Bagel scores filled 4-windows; the hole is e5.
#[test]
fn big_bagel_scores_fours() {
    let g = BagelGame::from_spec(&engine::spec::Spec::parse("bagel(base=5)").unwrap()).unwrap();
    assert_eq!(
        g.game_string(),
        "bagel(base=5,reserve=32,colours=4,tiebreak_min=4,end=mover,layout=random)"
    );
    let s = g.initial_state(7);
    assert_eq!(s.count_legal_moves(), 60);
    assert_eq!(s.reserve(Side::White), 32);
    assert!(s.parse_move("e5").is_err(), "the hole");
    // White on column a (a1-a5): one 5-run = 2 four-windows; three in a row
    // score nothing.
    let layout = s.layout_text().to_string();
    let names = engine::bagel::tile_names(5);
    let d: String = names
        .iter()
        .map(|n| match n.as_str() {
            "a1" | "a2" | "a3" | "a4" | "a5" => 'w',
            "i5" | "i6" | "i7" => 'b',
            _ => '.',
        })
        .collect();
    let p = g
        .parse_position(&format!("{layout} {d} w play 27 29 0 8"))
        .unwrap();
    assert_eq!((p.score(Side::White), p.score(Side::Black)), (2, 0));
}

/// B-S2, B-R1: the layout is drawn from the game's seed: the same seed
/// gives the same layout, each colour 9 (15) times; a given layout
/// overrides the seed.
#[test]
fn layouts_from_seeds() {
    let g = BagelGame::from_spec(&engine::spec::Spec::parse("bagel").unwrap()).unwrap();
    let a = g.initial_state(11).layout_text().to_string();
    assert_eq!(a, g.initial_state(11).layout_text());
    assert_ne!(a, g.initial_state(12).layout_text());
    for ch in ['R', 'O', 'G', 'B'] {
        assert_eq!(a.chars().filter(|&c| c == ch).count(), 9);
        assert_eq!(
            random_layout(5, 4, 3).chars().filter(|&c| c == ch).count(),
            15
        );
    }
    assert_eq!(l1("").initial_state(11).layout_text(), BAGEL_L1);
    // Every colour at every cell about a quarter of the time.
    let mut counts = vec![[0u32; 4]; 36];
    for seed in 0..4000 {
        for (i, ch) in random_layout(4, 4, seed).bytes().enumerate() {
            counts[i][b"ROGB".iter().position(|&c| c == ch).unwrap()] += 1;
        }
    }
    for c in counts.iter().flatten() {
        assert!((850..1150).contains(c), "{c}");
    }
}

#[test]
fn consistency_kit_both_bases() {
    for spec in [
        "bagel",
        "bagel(base=5)",
        "bagel(reserve=5)",
        "bagel(colours=3,end=either)",
    ] {
        let g = BagelGame::from_spec(&engine::spec::Spec::parse(spec).unwrap()).unwrap();
        let r = check_playouts(&g, 40, 9, 200).unwrap();
        assert_eq!(r.games, 40, "{spec}");
    }
}

/// Bad input: one-line errors, never a panic.
#[test]
fn bad_input() {
    struct Build;
    impl GameVisitor for Build {
        type Output = ();
        fn visit<G: Game>(self, _g: G) {}
    }
    let err = |spec: &str| visit_game(spec, Build).unwrap_err().0;
    let e = err("bagel(layout=GGOR)");
    assert!(e.contains("expected 36 letters"), "{e}");
    let e = err(&format!(
        "bagel(layout={})",
        BAGEL_L1.replace("GGOR", "GGGR")
    ));
    assert!(e.contains("expected 9 tiles of each colour"), "{e}");
    let e = err(&format!(
        "bagel(layout={})",
        BAGEL_L1.replace("GGOR", "GGXR")
    ));
    assert!(e.contains("not a tile colour"), "{e}");
    let e = err(&format!("bagel(base=5,layout={BAGEL_L1})"));
    assert!(e.contains("expected 60 letters"), "{e}");
    for (spec, what) in [
        ("bagel(base=6)", "4|5"),
        ("bagel(reserve=0)", "reserve"),
        ("bagel(colours=5)", "colours=5"),
        ("bagel(tiebreak_min=2)", "tiebreak_min"),
        ("bagel(end=never)", "mover|either"),
        ("bagel(size=4)", "unknown parameter"),
    ] {
        let e = err(spec);
        assert!(e.contains(what), "{spec}: {e}");
    }
    let g = l1("");
    let s = play(&g, "c4");
    for (mv, what) in [
        ("c3+c4", "occupied"),
        ("c3+c5", "two tiles of one colour"),
        ("a3+b1", "not on one column, row or diagonal"),
        ("d4", "centre hole"),
        ("h1", "expected a column a-g"),
        ("c0", "expected a column"),
        ("", "expected a cell"),
        ("c3+", "bad move"),
        ("c3+c3", "two different tiles"),
    ] {
        let e = s.parse_move(mv).unwrap_err().0;
        assert!(e.contains(what), "{mv}: {e}");
        assert!(!e.contains('\n'));
    }
    let s0 = g.initial_state(0);
    let e = s0.parse_move("a2+b3").unwrap_err().0;
    assert!(e.contains("B-1"), "{e}");
    let e = s0.parse_move("swap").unwrap_err().0;
    assert!(e.contains("B-5"), "{e}");
    let s2 = play(&g, "c4 c3+d3");
    let e = parse_legal_move(&s2, "swap").unwrap_err().0;
    assert!(e.contains("only on Black's first turn"), "{e}");
    // Malformed positions.
    let start = s0.to_text();
    let empty = ".".repeat(36);
    for (text, what) in [
        (String::new(), "0 fields"),
        (start.replace(" 0 0", " 0"), "7 fields"),
        (
            format!("GGOR {empty} w open 20 20 0 0"),
            "expected 36 letters",
        ),
        (
            format!("{BAGEL_L1} {} w open 20 20 0 0", &empty[1..]),
            "discs field",
        ),
        (start.replace(" w open", " x open"), "colour to move"),
        (start.replace(" open", " middle"), "stage"),
        (start.replace("20 20", "19 20"), "expected 20 in all"),
        (start.replace("20 20 0", "20 20 2"), "white seat"),
        (start.replace(" 0 0", " 0 x"), "ply"),
        (start.replace(" w open", " b open"), "stage open"),
        (
            format!("{BAGEL_L1} {} b pie 19 19 0 2", discs("c4", "d1")),
            "stage pie",
        ),
        (
            format!(
                "{BAGEL_L1} {} w open 20 20 0 0",
                empty.replacen('.', "x", 1)
            ),
            "disc 'x'",
        ),
    ] {
        let e = g.parse_position(&text).unwrap_err().0;
        assert!(e.contains(what), "{text}: {e}");
        assert!(!e.contains('\n'));
    }
    // A position on another layout than the game's layout=.
    let other = random_layout(4, 4, 1);
    let e = g
        .parse_position(&format!("{other} {empty} w open 20 20 0 0"))
        .unwrap_err()
        .0;
    assert!(e.contains("differs from the game's layout"), "{e}");
    // The random-layout game reads any layout.
    let any = BagelGame::from_spec(&engine::spec::Spec::parse("bagel").unwrap()).unwrap();
    let p = any
        .parse_position(&format!("{other} {empty} w open 20 20 0 0"))
        .unwrap();
    assert_eq!(p.layout_text(), other);
    // Moves at a terminal state: a clear error from parse_legal_move.
    let t = position(",reserve=3", "a1 a2 a3", "b1 b2 b3", "w play 0 0 0 6");
    let e = parse_legal_move(&t, "c4").unwrap_err().0;
    assert!(e.contains("already over"), "{e}");
    let _ = BagelMove::Swap;
}

/// The golden playthrough (OpenSpiel-style): a recorded game on BAGEL-L1
/// replays to the same final position and returns.
#[test]
fn golden_playthrough() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/suite/data/bagel_playthrough_l1.txt"
    ))
    .unwrap();
    let golden = engine::testkit::Golden::parse(&text).unwrap();
    let g = l1("");
    let mut s = g.initial_state(0);
    for m in &golden.moves {
        let mv = parse_legal_move(&s, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        s.apply(mv);
    }
    assert_eq!(s.to_text(), golden.final_text);
    assert_eq!(s.returns()[..2].to_vec(), golden.returns);
    assert!(s.is_terminal());
}

/// Each illegal move on BAGEL-L1 (`GGOROBGBROROGBBGBOGBRRRRGRBOOGOROBGB` in
/// B-G6 order: a1 G, a2 G, a3 O, b3 G, c3 O, d3 O, ...) is answered with
/// the rule it breaks; the expected words come from the rule cited.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let g = l1("");
    let why = |s: &engine::bagel::BagelState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    let s = g.initial_state(0);
    // B-1, B-R2: the opening places one disc, even on a good pair (c3 and
    // d3 are both O on row 3).
    assert_eq!(
        why(&s, "c3+d3"),
        "the opening turn places exactly one disc (B-1, B-R2)"
    );
    // B-5: the swap is Black's, on its first turn only.
    assert_eq!(
        why(&s, "swap"),
        "swap is allowed only on Black's first turn (B-5)"
    );
    // B-G1, B-3: d4 is the hole, with no tile.
    assert_eq!(why(&s, "d4"), "d4 is the centre hole (B-3)");
    assert_eq!(s.illegal_reason("c4"), None);

    let s = play(&g, "c4");
    // B-3: discs go on empty tiles.
    assert_eq!(why(&s, "c4"), "c4 is occupied (B-3)");
    // B-4: a1 is G and a3 is O; a1 and b3 are both G but (a, 1) to (b, 3)
    // is no column, row or diagonal step.
    assert_eq!(
        why(&s, "a1+a3"),
        "a1+a3: the tiles are G and O; two discs need two tiles of one colour (B-4)"
    );
    assert_eq!(
        why(&s, "a1+b3"),
        "a1+b3: the tiles are not on one column, row or diagonal (B-4)"
    );
    assert_eq!(s.illegal_reason("c3+d3"), None);
    assert_eq!(s.illegal_reason("swap"), None);

    // B-R3: with reserve 2, White has one disc left after c4: singles only
    // (a2 and b3 are both G on a diagonal).
    let g2 = l1(",reserve=2");
    let s = play(&g2, "c4 c3+d3");
    assert_eq!(
        why(&s, "a2+b3"),
        "one disc left in reserve: single placements only (B-R3)"
    );
    // B-R4: Black to move with an empty reserve: the game is over.
    let s = play(&g2, "c4 c3+d3 a1");
    assert_eq!(why(&s, "b1"), "the game is already over");
    // Malformed text keeps the parser's message.
    assert!(why(&s, "z9").starts_with("bad move"));
}
