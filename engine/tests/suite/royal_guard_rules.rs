//! Royal Guard rule tests: one test per rule, ruling or worked example of
//! the rules (`docs/rules/royal_guard.md`), each citing its
//! section. Every expected value comes from the dossier (§3.5 examples,
//! §3.6 perft table, leaf statistics and the "+400" divide), from the
//! published chess perft results it cites ([CPW]), or is derived by hand in
//! the comment next to it; none is engine output pasted back.

use std::collections::BTreeSet;

use crate::common::perft_file;

use crate::common::{legal, play, pos, set};
use engine::Research;
use engine::royal_guard::{Outcome, RoyalGuardGame, RoyalGuardState, Rules, Side, perft};
use engine::spec::Spec;
use engine::{Game, Search, State, ToMove, apply_moves, parse_legal_move, visit_game};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn game(spec: &str) -> RoyalGuardGame {
    RoyalGuardGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn rg() -> RoyalGuardGame {
    game("royal_guard")
}

fn fide() -> RoyalGuardGame {
    game("royal_guard(royal_powers=false)")
}

// ---------------------------------------------------------------------------
// §3.6 perft suites (data file)
// ---------------------------------------------------------------------------

/// Node budget per entry for the module's own perft: larger published values
/// are checked by hand with `boardlab perft`.
const BUDGET: u64 = 20_000_000;

/// The suite in `engine/data/perft/royal_guard.txt` (the generic runner in
/// `perft.rs` checks the entries up to its smaller budget with
/// `engine::perft`), here with the module's fast board perft, which counts
/// the move-generation tree with no automatic draw.
#[test]
fn perft_suite() {
    let vectors = engine::testkit::parse_perft_vectors(&perft_file("royal_guard")).unwrap();
    let (mut checked, mut skipped) = (0, 0);
    for v in vectors {
        if v.count > BUDGET {
            skipped += 1;
            continue;
        }
        let s = pos(&game(&v.game), &v.position);
        assert_eq!(
            perft(s.board(), v.depth),
            v.count,
            "line {}: {}",
            v.line,
            v.source
        );
        checked += 1;
    }
    assert!(
        checked >= 46 && skipped <= 8,
        "{checked} checked, {skipped} skipped"
    );
}

// ---------------------------------------------------------------------------
// §3.5 worked examples
// ---------------------------------------------------------------------------

/// Example RG-1 (RG-3, RG-4): 11 moves in FIDE chess, 20 in Royal Guard.
#[test]
fn example_rg1_move_count() {
    let fen = "7k/8/8/8/4p3/2N1P3/8/K7 w - - 0 1";
    let king = "a1a2 a1b1 a1b2";
    let knight = "c3a2 c3a4 c3b1 c3b5 c3d1 c3d5 c3e2 c3e4";
    let f = legal(&pos(&fide(), fen));
    assert_eq!(f, set(&format!("{king} {knight}")));
    assert_eq!(f.len(), 11);
    let r = legal(&pos(&rg(), fen));
    let steps = "c3b2 c3b3 c3b4 c3c2 c3c4 c3d2 c3d3 c3d4";
    assert_eq!(r, set(&format!("{king} {knight} {steps} e3e4")));
    assert_eq!(r.len(), 20);
}

/// Example RG-2 (RG-2, RG-5): a King move makes a pawn royal and checks.
#[test]
fn example_rg2_check_by_king_move() {
    let fen = "8/8/8/4k3/r3P3/8/8/3K4 w - - 0 1";
    let five = set("d1c1 d1c2 d1d2 d1e1 d1e2");
    assert_eq!(legal(&pos(&fide(), fen)), five);
    assert_eq!(legal(&pos(&rg(), fen)), five);
    for (mv, checks) in [
        ("d1c1", false),
        ("d1c2", true),
        ("d1d2", false),
        ("d1e1", false),
        ("d1e2", true),
    ] {
        let mut s = pos(&rg(), fen);
        play(&mut s, mv);
        assert_eq!(s.in_check(), checks, "RG after {mv}");
        let mut f = pos(&fide(), fen);
        play(&mut f, mv);
        assert!(!f.in_check(), "FIDE after {mv}");
    }
    let mut f = pos(&fide(), fen);
    play(&mut f, "d1e2");
    // Ra4: a1-a3, a5-a8, b4-d4, xe4 = 11; K: d4 d6 e6 f4 f6 xe4 = 6.
    assert_eq!(f.count_legal_moves(), 17);
    let mut s = pos(&rg(), fen);
    play(&mut s, "d1e2");
    assert_eq!(legal(&s), set("a4e4 e5d4 e5d6 e5e4 e5e6 e5f4 e5f6"));
    // Kd5 and Kf5 stay illegal (the pawn's diagonal attack).
    assert!(!legal(&f).contains("e5d5") && !legal(&f).contains("e5f5"));
}

// ---------------------------------------------------------------------------
// §3.6: the "+400" divide at depth 3 and the leaf statistics
// ---------------------------------------------------------------------------

#[test]
fn plus_400_divide_at_depth_3() {
    let (r, f) = (rg().initial_state(0), fide().initial_state(0));
    let mut moves = Vec::new();
    r.legal_moves(&mut moves);
    assert_eq!(moves.len(), 20);
    let extra_per_move = [
        ("b1a3", 80),
        ("b1c3", 120),
        ("b2b3", 20),
        ("b2b4", 20),
        ("c2c3", 20),
        ("c2c4", 20),
        ("f2f3", 20),
        ("f2f4", 20),
        ("g2g3", 20),
        ("g2g4", 20),
        ("h2h3", 20),
        ("h2h4", 20),
    ];
    let mut total = 0;
    for &m in &moves {
        let text = r.move_to_text(m);
        let (mut rc, mut fc) = (r.clone(), f.clone());
        rc.apply(m);
        fc.apply(parse_legal_move(&fc, &text).unwrap());
        let diff = perft(rc.board(), 2) - perft(fc.board(), 2);
        let want = extra_per_move
            .iter()
            .find(|(t, _)| *t == text)
            .map_or(0, |&(_, n)| n);
        assert_eq!(diff, want, "divide {text}");
        total += diff;
    }
    assert_eq!(total, 400);
    assert_eq!(perft(r.board(), 3), 9302);
}

#[derive(Default, Debug, PartialEq)]
struct Leaves {
    captures: u64,
    forward_captures: Vec<String>,
    checks: u64,
    mates: u64,
}

/// Walks `depth` plies and classifies the moves of the last ply.
fn leaves(s: &RoyalGuardState, depth: u32, line: &mut Vec<String>, out: &mut Leaves) {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    for m in moves {
        let text = s.move_to_text(m);
        let mut c = s.clone();
        c.apply(m);
        if depth > 1 {
            line.push(text);
            leaves(&c, depth - 1, line, out);
            line.pop();
            continue;
        }
        let b = s.board();
        let (from, to) = (m.from(), m.to());
        let pawn = b.piece_at(from).map(|(_, p)| p) == Some(engine::royal_guard::Piece::Pawn);
        let captured = b.piece_at(to).is_some();
        if captured || (pawn && from % 8 != to % 8) {
            out.captures += 1;
        }
        if pawn && captured && from % 8 == to % 8 {
            out.forward_captures
                .push(format!("{} {text}", line.join(" ")));
        }
        if c.in_check() {
            out.checks += 1;
            if c.count_legal_moves() == 0 {
                out.mates += 1;
            }
        }
    }
}

/// §3.6 notes: leaf statistics from the start position.
#[test]
fn leaf_statistics_from_the_start() {
    let stats = |g: &RoyalGuardGame, d| {
        let mut out = Leaves::default();
        leaves(&g.initial_state(0), d, &mut Vec::new(), &mut out);
        out
    };
    let r3 = stats(&rg(), 3);
    assert_eq!((r3.captures, r3.checks, r3.mates), (34, 12, 0));
    let f3 = stats(&fide(), 3);
    assert_eq!((f3.captures, f3.checks), (34, 12));
    let r4 = stats(&rg(), 4);
    assert_eq!((r4.captures, r4.checks, r4.mates), (1640, 469, 0));
    let mut fwd = r4.forward_captures.clone();
    fwd.sort();
    let mut want: Vec<String> = [
        "e2e4 e7e6 e4e5 e6e5",
        "a2a4 a7a6 a4a5 a6a5",
        "c2c4 c7c6 c4c5 c6c5",
        "g2g4 g7g6 g4g5 g6g5",
        "g1f3 e7e6 f3e5 e6e5",
        "g1f3 g7g6 f3g5 g6g5",
        "g1h3 g7g6 h3g5 g6g5",
        "d2d3 g7g6 c1g5 g6g5",
        "d2d4 g7g6 c1g5 g6g5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    want.sort();
    assert_eq!(fwd, want, "the 9 royal forward captures at depth 4");
    let f4 = stats(&fide(), 4);
    assert_eq!((f4.captures, f4.checks, f4.mates), (1576, 469, 8));
    assert!(f4.forward_captures.is_empty());
}

/// §3.6: after 1.f3 e5 2.g4 Qh4+ the royal Ng1 blocks on f2 by a King step.
#[test]
fn fools_mate_is_no_mate_in_royal_guard() {
    let line = "f2f3 e7e5 g2g4 d8h4";
    let mut f = fide().initial_state(0);
    play(&mut f, line);
    assert_eq!(f.outcome(), Outcome::Checkmate(Side::Black));
    assert_eq!(f.returns()[..2], [-1.0, 1.0]);
    assert_eq!(f.to_move(), ToMove::Terminal);
    let mut r = rg().initial_state(0);
    play(&mut r, line);
    assert!(r.in_check());
    // Only the royal knight's step to f2 answers the check (g1 is the
    // knight's sub-grid (even, even) with Ke1).
    assert_eq!(legal(&r), set("g1f2"));
}

/// §3.6 note: in CPW position 5 White is in check from the royal Nf2.
#[test]
fn cpw5_white_in_check_by_royal_knight() {
    let fen = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
    assert!(pos(&rg(), fen).in_check());
    assert!(!pos(&fide(), fen).in_check());
    // §3.6: perft(1) = 2 under RG (44 in FIDE chess).
    assert_eq!(pos(&rg(), fen).count_legal_moves(), 2);
}

// ---------------------------------------------------------------------------
// RG-3, RG-4, RG-5, rulings RG-R1 … RG-R3
// ---------------------------------------------------------------------------

/// RG-3: a royal rook gains the diagonal King steps; pinned, it keeps only
/// the steps along its pin line.
#[test]
fn rg3_royal_rook_steps_and_pins() {
    // White Ka1 (even, even); Rc1 (even, even) is royal. Black Kh8.
    let fen = "7k/8/8/8/8/8/8/K1R5 w - - 0 1";
    let r = legal(&pos(&rg(), fen));
    for m in ["c1b2", "c1d2"] {
        assert!(r.contains(m), "{m}");
    }
    assert!(!legal(&pos(&fide(), fen)).contains("c1d2"));
    // Pinned on the diagonal a1-h8 by a black bishop on f6: Rc3 is royal
    // (c3 = (even, even)); it may step to b2 or d4 along the pin line only.
    let fen = "7k/8/5b2/8/8/2R5/8/K7 w - - 0 1";
    let s = pos(&rg(), fen);
    let rook: BTreeSet<String> = legal(&s)
        .into_iter()
        .filter(|m| m.starts_with("c3"))
        .collect();
    assert_eq!(rook, set("c3b2 c3d4"));
}

/// RG-4 and ruling RG-R1: a forward capture onto the last rank promotes.
#[test]
fn rg4_forward_capture_promotes() {
    // White Ka1 (even, even); Pe7 (even, even) is royal; black Re8.
    let fen = "4r3/4P3/7k/8/8/8/8/K7 w - - 0 1";
    assert_eq!(
        legal(&pos(&rg(), fen)),
        set("a1a2 a1b1 a1b2 e7e8q e7e8r e7e8b e7e8n")
    );
    assert_eq!(legal(&pos(&fide(), fen)), set("a1a2 a1b1 a1b2"));
    // Never two squares forward (RG-4): Pa2 with Kc2, both (even, odd), is
    // royal; the black knight two squares ahead on a4 may not be taken, and
    // it blocks the double step, so a2a3 is the pawn's only move.
    let fen = "7k/8/8/8/n7/8/P1K5/8 w - - 0 1";
    let r = legal(&pos(&rg(), fen));
    assert!(r.contains("a2a3") && !r.contains("a2a4"));
}

/// RG-5 and ruling RG-R2: the empty square in front of a royal pawn is
/// attacked, so a King may not step there.
#[test]
fn rg5_royal_pawn_attacks_the_empty_square_ahead() {
    // Black Ka8 (even, odd), Pe6 (even, odd) royal: e5 is attacked.
    let fen = "k7/8/4p3/8/4K3/8/8/8 w - - 0 1";
    let king = "e4d3 e4d4 e4e3 e4f3 e4f4";
    assert_eq!(legal(&pos(&rg(), fen)), set(king));
    assert_eq!(legal(&pos(&fide(), fen)), set(&format!("{king} e4e5")));
}

/// RG-6 and ruling RG-R3: castling may not cross a square a royal piece
/// attacks by its King step.
#[test]
fn rg6_castling_counts_royal_attacks() {
    // Black Kh8 (odd, odd), Rh2 (odd, odd) royal: its King step hits g1.
    let fen = "7k/8/8/8/8/8/7r/4K2R w K - 0 1";
    assert!(legal(&pos(&fide(), fen)).contains("e1g1"));
    assert!(!legal(&pos(&rg(), fen)).contains("e1g1"));
    // Queen side: Black Kb8 and Rb2, both (odd, odd): the royal rook's
    // King steps cover a1, c1, a3, c3 (its file and rank cover b1, b3, a2,
    // c2); O-O-O lands on c1.
    let fen = "1k6/8/8/8/8/8/1r6/R3K3 w Q - 0 1";
    assert!(legal(&pos(&fide(), fen)).contains("e1c1"));
    assert!(!legal(&pos(&rg(), fen)).contains("e1c1"));
}

/// RG-6: en passant is FIDE's (and only diagonal).
#[test]
fn rg6_en_passant() {
    let mut s = rg().initial_state(0);
    play(&mut s, "e2e4 a7a6 e4e5 d7d5");
    assert!(s.to_text().contains(" d6 "), "{}", s.to_text());
    let l = legal(&s);
    assert!(l.contains("e5d6"));
    play(&mut s, "e5d6");
    assert_eq!(
        s.to_text(),
        "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
}

// ---------------------------------------------------------------------------
// RG-8: game end
// ---------------------------------------------------------------------------

#[test]
fn rg8_checkmate_and_stalemate() {
    let mate = "6k1/8/8/8/8/8/6PP/r6K w - - 0 1";
    for g in [rg(), fide()] {
        let s = pos(&g, mate);
        assert_eq!(s.outcome(), Outcome::Checkmate(Side::Black));
        assert_eq!(s.returns()[..2], [-1.0, 1.0]);
        assert_eq!(s.count_legal_moves(), 0);
        let s = pos(&g, "k7/8/1Q6/8/8/8/8/7K b - - 0 1");
        assert_eq!(s.outcome(), Outcome::Stalemate);
        assert_eq!(s.returns()[..2], [0.0, 0.0]);
        assert!(s.is_terminal());
    }
}

/// Stalemates reached by a move whose only non-King piece is pinned: a
/// knight (pinned on the long diagonal) and a pawn free to push but for
/// its pin (each position worked out by hand: the King's two squares are
/// covered, it is not in check). The end test after a move asks only
/// whether a move exists, skipping pinned pieces; these check the skip.
#[test]
fn rg8_stalemate_with_only_pinned_pieces_after_a_move() {
    for (before, unpinned, mv) in [
        // Kf7 covers g8, the pawn g6 covers h7; Ng7 pinned by Ba1.
        (
            "7k/5Kn1/8/6P1/8/8/8/B7 w - - 0 1",
            "7k/5Kn1/8/6P1/8/8/8/8 w - - 0 1",
            "g5g6",
        ),
        // Kf7 covers g8, Ng5 covers h7; g7 pinned by Bc3 (g6 empty).
        (
            "7k/5Kp1/8/8/4N3/2B5/8/8 w - - 0 1",
            "7k/5Kp1/8/8/4N3/8/8/8 w - - 0 1",
            "e4g5",
        ),
    ] {
        let mut s = pos(&fide(), before);
        assert_eq!(s.outcome(), Outcome::Ongoing);
        play(&mut s, mv);
        assert_eq!(s.outcome(), Outcome::Stalemate, "{before} {mv}");
        assert!(s.is_terminal());
        assert_eq!(s.count_legal_moves(), 0);
        // Without the pinning bishop the same piece has moves.
        let mut s = pos(&fide(), unpinned);
        play(&mut s, mv);
        assert_eq!(s.outcome(), Outcome::Ongoing, "{unpinned} {mv}");
        assert_eq!(s.count_legal_moves(), legal(&s).len());
    }
}

#[test]
fn rg8_fifty_move_rule() {
    let fen = "6k1/5ppp/8/8/8/8/8/R6K w - - 99 80";
    let mut s = pos(&rg(), fen);
    play(&mut s, "h1g1");
    assert_eq!(s.outcome(), Outcome::FiftyMove);
    assert_eq!(s.returns()[..2], [0.0, 0.0]);
    let mut s = pos(&game("royal_guard(fifty_move=false)"), fen);
    play(&mut s, "h1g1");
    assert_eq!(s.outcome(), Outcome::Ongoing);
    // A mate on the 100th ply stands (FIDE 9.3 via RG-8).
    let mut s = pos(&rg(), fen);
    play(&mut s, "a1a8");
    assert_eq!(s.outcome(), Outcome::Checkmate(Side::White));
    // A capture or pawn move resets the clock.
    let mut s = pos(&rg(), "6k1/5ppp/8/8/8/8/7P/R6K w - - 99 80");
    play(&mut s, "h2h3");
    assert_eq!(s.outcome(), Outcome::Ongoing);
    assert!(s.to_text().ends_with(" 0 80"));
}

#[test]
fn rg8_threefold_repetition() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    let mut s = rg().initial_state(0);
    play(&mut s, shuffle);
    assert_eq!(s.occurrences(), 2);
    assert_eq!(s.outcome(), Outcome::Ongoing);
    play(&mut s, "g1f3 g8f6 f3g1");
    assert_eq!(s.outcome(), Outcome::Ongoing);
    play(&mut s, "f6g8");
    assert_eq!(s.occurrences(), 3);
    assert_eq!(s.outcome(), Outcome::Repetition);
    assert!(s.is_terminal() && s.count_legal_moves() == 0);
    let mut s = game("royal_guard(repetition=off)").initial_state(0);
    play(&mut s, &format!("{shuffle} {shuffle} {shuffle}"));
    assert_eq!(s.outcome(), Outcome::Ongoing);
    let mut s = game("royal_guard(repetition=2)").initial_state(0);
    play(&mut s, shuffle);
    assert_eq!(s.outcome(), Outcome::Repetition);
    // Castling rights are part of the position (FIDE 9.2): after Ke1-e2-e1
    // the rights are gone, so the first position does not recur.
    let mut s = rg()
        .parse_position("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
        .unwrap();
    play(&mut s, "e1e2 e8d8 e2e1 d8e8 e1e2 e8d8 e2e1 d8e8");
    // Positions after ply 4 and 8 match (no rights), the start does not:
    // occurrences of the final position = 2.
    assert_eq!(s.occurrences(), 2);
    assert_eq!(s.outcome(), Outcome::Ongoing);
}

/// `perft_after` (the generic perft's last ply, copy-make on the board)
/// sees the draws `apply` would find: a move that makes the third
/// occurrence counts 0, as does one into the fifty-move draw.
#[test]
fn perft_after_sees_repetition_and_fifty_move_draws() {
    let mut s = rg().initial_state(0);
    play(&mut s, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    let rep = parse_legal_move(&s, "f6g8").unwrap();
    assert_eq!(s.perft_after(rep), 0);
    let other = parse_legal_move(&s, "f6h5").unwrap();
    let mut c = s.clone();
    c.apply(other);
    assert_eq!(s.perft_after(other), c.count_legal_moves() as u64);
    assert!(s.perft_after(other) > 0);
    let s = pos(&rg(), "6k1/5ppp/8/8/8/8/7P/R6K w - - 99 80");
    assert_eq!(s.perft_after(parse_legal_move(&s, "a1a2").unwrap()), 0);
    // A pawn move resets the clock.
    assert!(s.perft_after(parse_legal_move(&s, "h2h3").unwrap()) > 0);
    // Perft with the draws on agrees with the draws off where none is met.
    let fide = game("royal_guard(royal_powers=false)").initial_state(0);
    assert_eq!(engine::perft(&fide, 4), 197_281);
}

/// Repetition is exact however far apart the occurrences are (a regression test: the
/// history used to be a ring of 100 keys, so with `fifty_move=false` a
/// repetition more than 100 plies apart was missed). White's king walks a
/// closed tour of 31 squares (odd) while Black's shuttles g8-h8, so the
/// start position first recurs after 2 · 31 white moves, 124 plies, with no
/// other position repeated on the way.
#[test]
fn rg8_repetition_is_exact_beyond_100_plies() {
    let tour = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "h2", "h3", "h4", "g4", "g3", "g2", "f2",
        "f3", "f4", "e4", "e3", "e2", "d2", "d3", "d4", "c4", "c3", "c2", "b2", "b3", "b4", "a3",
        "a2",
    ];
    assert_eq!(tour.len(), 31);
    let g = game("royal_guard(repetition=2,fifty_move=false,dead=off)");
    let mut s = pos(&g, "6k1/8/8/8/8/8/8/K7 w - - 0 1");
    let black = ["g8", "h8"];
    for k in 0..2 * tour.len() {
        assert_eq!(s.outcome(), Outcome::Ongoing, "ply {}", 2 * k);
        let (from, to) = (tour[k % 31], tour[(k + 1) % 31]);
        play(&mut s, &format!("{from}{to}"));
        assert_eq!(s.outcome(), Outcome::Ongoing, "ply {}", 2 * k + 1);
        play(&mut s, &format!("{}{}", black[k % 2], black[(k + 1) % 2]));
    }
    assert_eq!(s.occurrences(), 2);
    assert_eq!(s.outcome(), Outcome::Repetition);
    // A clone carries the whole history and is small (no 100-key ring).
    let c = s.clone();
    assert_eq!(c.occurrences(), 2);
    let size = std::mem::size_of::<RoyalGuardState>();
    eprintln!("size_of::<RoyalGuardState>() = {size} bytes");
    assert!(size <= 256, "RoyalGuardState is {size} bytes");
}

/// Ruling RG-R4: only K v K is dead by default.
#[test]
fn rg8_dead_position_ruling() {
    let kk = "8/8/8/4k3/8/8/8/4K3 w - - 0 1";
    let knk = "8/8/8/4k3/8/8/8/4KN2 w - - 0 1";
    assert_eq!(pos(&rg(), kk).outcome(), Outcome::DeadPosition);
    assert_eq!(pos(&rg(), knk).outcome(), Outcome::Ongoing);
    let fide_dead = game("royal_guard(royal_powers=false,dead=fide)");
    assert_eq!(pos(&fide_dead, knk).outcome(), Outcome::DeadPosition);
    assert_eq!(
        pos(&fide_dead, "8/8/8/4k3/8/8/8/4KR2 w - - 0 1").outcome(),
        Outcome::Ongoing
    );
    let off = game("royal_guard(dead=off)");
    assert_eq!(pos(&off, kk).outcome(), Outcome::Ongoing);
    // A capture that leaves K v K ends the game.
    let mut s = pos(&rg(), "8/8/8/4k3/4n3/8/8/4K3 b - - 0 1");
    assert_eq!(s.outcome(), Outcome::Ongoing);
    let mut s2 = pos(&rg(), "8/8/8/4k3/8/8/3n4/4K3 w - - 0 1");
    play(&mut s2, "e1d2");
    assert_eq!(s2.outcome(), Outcome::DeadPosition);
    play(&mut s, "e4f2");
    assert_eq!(s.outcome(), Outcome::Ongoing);
}

// ---------------------------------------------------------------------------
// Text: FEN, UCI, SAN; bad input
// ---------------------------------------------------------------------------

#[test]
fn fen_round_trips_and_san() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/4k3/r3P3/8/8/3K4 b - - 12 40",
    ] {
        let s = pos(&rg(), fen);
        assert_eq!(s.to_text(), fen);
        assert_eq!(s.zobrist(), s.zobrist_from_scratch());
    }
    // Four fields are accepted; the clocks default to 0 1.
    let s = pos(&rg(), "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -");
    assert_eq!(s.to_text(), "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    // An en-passant square no pawn can use is dropped (FIDE 9.2 equality).
    let s = pos(
        &rg(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    );
    assert!(s.to_text().contains(" - 0 1"));
    // SAN.
    let mut s = rg().initial_state(0);
    let san = |s: &RoyalGuardState, t: &str| s.san(parse_legal_move(s, t).unwrap());
    assert_eq!(san(&s, "g1f3"), "Nf3");
    assert_eq!(san(&s, "e2e4"), "e4");
    play(&mut s, "f2f3 e7e5 g2g4");
    assert_eq!(san(&s, "d8h4"), "Qh4+");
    let mut f = fide().initial_state(0);
    play(&mut f, "f2f3 e7e5 g2g4");
    assert_eq!(san(&f, "d8h4"), "Qh4#");
    let mut s = rg().initial_state(0);
    play(&mut s, "e2e4 e7e6 e4e5");
    assert_eq!(san(&s, "e6e5"), "exe5");
    let s = pos(&rg(), "4r3/4P3/7k/8/8/8/8/K7 w - - 0 1");
    assert_eq!(san(&s, "e7e8q"), "exe8=Q");
}

#[test]
fn bad_fen_is_a_one_line_error() {
    for (fen, needle) in [
        ("", "fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            "fields",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
            "fields",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "digit",
        ),
        (
            "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "expected 8",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "more than 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "piece letter",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            "2 white kings",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "0 black kings",
        ),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "rank 1 or 8"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "not to move"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",
            "twice",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "rook on h1"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
            "rank 6",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "double-stepped",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
            "en-passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "half-move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "full-move",
        ),
    ] {
        let e = rg().parse_position(fen).expect_err(fen).to_string();
        assert!(e.contains(needle), "{fen:?}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
    // RG-5 in the check test: the side not to move in check only through a
    // royal power (Black Kh8, Rh2 royal, next to White Kg1).
    let fen = "7k/8/8/8/8/8/7r/6K1 b - - 0 1";
    assert!(fide().parse_position(fen).is_ok());
    let e = rg().parse_position(fen).unwrap_err().to_string();
    assert!(e.contains("not to move"), "{e}");
}

#[test]
fn bad_moves_are_one_line_errors() {
    let s = rg().initial_state(0);
    for (text, needle) in [
        ("", "expected UCI"),
        ("e2", "expected UCI"),
        ("e2e9", "expected UCI"),
        ("i2i4", "expected UCI"),
        ("e2e4e5", "expected UCI"),
        ("e7e8x", "promotion letter"),
        ("e2e5", "not legal"),
        ("e7e5", "not legal"),
        ("e1g1", "not legal"),
        ("a1a1", "not legal"),
        ("e2e4q", "not legal"),
    ] {
        let e = parse_legal_move(&s, text).expect_err(text).to_string();
        assert!(e.contains(needle), "{text:?}: {e}");
    }
    let mut s = fide().initial_state(0);
    play(&mut s, "f2f3 e7e5 g2g4 d8h4");
    let e = parse_legal_move(&s, "e2e4").unwrap_err().to_string();
    assert!(e.contains("already over"), "{e}");
    let mut s = rg().initial_state(0);
    let e = apply_moves(&mut s, "e2e4 e7e5 e4e5")
        .unwrap_err()
        .to_string();
    assert!(e.contains("move 3"), "{e}");
}

#[test]
fn game_strings() {
    struct Name;
    impl engine::GameVisitor for Name {
        type Output = String;
        fn visit<G: Game>(self, g: G) -> String {
            g.game_string()
        }
    }
    assert_eq!(
        visit_game("royal_guard", Name).unwrap(),
        "royal_guard(royal_powers=true,repetition=3,fifty_move=true,dead=kk)"
    );
    let s = visit_game(
        "royal_guard(royal_powers=false,repetition=off,dead=fide)",
        Name,
    )
    .unwrap();
    assert_eq!(visit_game(&s, Name).unwrap(), s);
    for (bad, needle) in [
        ("royal_guard(royal_powers=maybe)", "true|false"),
        ("royal_guard(repetition=1)", "2..=9|off"),
        ("royal_guard(dead=all)", "kk|fide|off"),
        ("royal_guard(ply_cap=9)", "unknown parameter"),
    ] {
        let e = visit_game(bad, Name).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
    }
    let r = Rules::default();
    assert!(r.royal_powers && r.fifty_move && r.repetition == Some(3));
}

#[test]
fn seats_and_eval() {
    let s = rg().initial_state(0);
    assert_eq!(s.first_mover_seat(), Some(0));
    assert_eq!(s.seat_role(0).colour, "white");
    assert_eq!(s.to_move(), ToMove::Seat(0));
    // Symmetric start: equal for both sides.
    assert_eq!(s.evaluate(), 0);
    let mut t = s.clone();
    play(&mut t, "e2e4 e7e5");
    assert_eq!(t.evaluate(), 0);
    // A queen up is good for the side that has it.
    let q = pos(&rg(), "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(q.evaluate() > 800);
    let q = pos(&rg(), "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    assert!(q.evaluate() < -800);
}

#[test]
fn board_and_state_sizes() {
    // The perft board is copied at every node; the state carries the
    // repetition ring (see the module docs).
    assert_eq!(std::mem::size_of::<engine::royal_guard::Board>(), 80);
    assert!(std::mem::size_of::<RoyalGuardState>() <= 1024);
}

/// The FEN of `fen`'s colours swapped and the board flipped top to bottom
/// (castling and en passant dropped): the same position for the other side.
fn mirrored(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let ranks: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    format!("{} {side} - - 0 1", ranks.join("/"))
}

#[test]
fn chess_eval_is_colour_symmetric_and_rewards_structure() {
    // With powers off the evaluation adds mobility, the bishop pair and
    // pawn structure: a position and its colour mirror score the same for
    // the side to move.
    for fen in [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 0 1",
        "8/5pk1/6p1/1P6/8/6P1/5PK1/8 w - - 0 1",
        "2r3k1/pp3ppp/8/3p4/3P4/8/PP3PPP/2R3K1 b - - 0 1",
        "4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1",
    ] {
        let (a, b) = (pos(&fide(), fen), pos(&fide(), &mirrored(fen)));
        assert_eq!(a.evaluate(), b.evaluate(), "{fen}");
    }
    // A passed pawn on the sixth: b6 against g7 (both passed) beats b6
    // against a7 (neither), the same material and pawn squares otherwise.
    let passed = pos(&fide(), "4k3/6p1/1P6/8/8/8/8/4K3 w - - 0 1");
    let held = pos(&fide(), "4k3/p7/1P6/8/8/8/8/4K3 w - - 0 1");
    assert!(
        passed.evaluate() > held.evaluate() + 40,
        "{} {}",
        passed.evaluate(),
        held.evaluate()
    );
    // Doubled and isolated pawns cost: a2 a3 against a2 b2.
    let doubled = pos(&fide(), "4k3/8/8/8/8/P7/P7/4K3 w - - 0 1");
    let healthy = pos(&fide(), "4k3/8/8/8/8/8/PP6/4K3 w - - 0 1");
    assert!(doubled.evaluate() < healthy.evaluate());
    // Royal Guard keeps its own evaluation: the same structure scores as
    // material and piece squares only.
    let royal = pos(&rg(), "4k3/6p1/1P6/8/8/8/8/4K3 w - - 0 1");
    let royal_held = pos(&rg(), "4k3/p7/1P6/8/8/8/8/4K3 w - - 0 1");
    assert!(royal.evaluate() < passed.evaluate());
    assert!(royal.evaluate() - royal_held.evaluate() < 40);
}

// ---------------------------------------------------------------------------
// Illegal moves: the reason a player is given (Research::illegal_reason)
// ---------------------------------------------------------------------------

/// Each illegal move is answered with the rule it breaks; the expected
/// words come from the rule cited. Sub-grids (RG-G1) by hand: (file parity,
/// rank parity) with a = 0 and rank 1 = 0.
#[test]
fn illegal_moves_say_the_rule_they_break() {
    let why = |s: &RoyalGuardState, t: &str| {
        s.illegal_reason(t)
            .unwrap_or_else(|| panic!("{t} is legal in {}", s.to_text()))
    };
    let s = rg().initial_state(0);
    // One's own piece must move (RG-1, FIDE).
    assert_eq!(why(&s, "e3e4"), "no piece on e3");
    assert_eq!(
        why(&s, "e7e5"),
        "the piece on e7 is Black's, and White is to move"
    );
    assert_eq!(
        why(&s, "d1d2"),
        "d2 holds a White piece, and no piece captures its own (RG-1)"
    );
    // Sliders stop at the first piece: e2 stands between f1 and c4.
    assert_eq!(
        why(&s, "f1c4"),
        "f1-c4 is blocked by the piece on e2 (RG-1)"
    );
    // Pawns: one square forward, two from the first rank, diagonally only
    // to capture.
    assert!(why(&s, "e2e5").starts_with("a Pawn moves one square forward"));
    assert!(why(&s, "e2d3").starts_with("a Pawn moves diagonally only to capture"));
    // RG-6: f1 and g1 must be empty to castle king side.
    assert_eq!(
        why(&s, "e1g1"),
        "castling needs the squares between King and Rook empty, and f1 is not (RG-6)"
    );
    assert_eq!(s.illegal_reason("g1f3"), None);

    // RG-2, RG-3: the King e1 is on sub-grid (even, even). Nb1 (odd file)
    // is not royal, so b1-b2 (a King step) is illegal; Ng1 (even, even) is
    // royal and may step to g2.
    let mut s = s;
    play(&mut s, "b2b4 a7a6 g2g4 a6a5");
    assert_eq!(
        why(&s, "b1b2"),
        "the Knight on b1 is not on its King's sub-grid, so not royal (RG-2), and only a royal \
         Knight also steps like a King (RG-3)"
    );
    assert_eq!(s.illegal_reason("g1g2"), None);
    // RG-1: a Pawn steps two squares only from its first rank.
    assert!(why(&s, "b4b6").starts_with("a Pawn steps two squares only from its first rank"));
    // In FIDE chess the Knight has no King step at all.
    let mut f = fide().initial_state(0);
    play(&mut f, "b2b4 a7a6");
    assert!(why(&f, "b1b2").starts_with("a Knight leaps two squares one way and one the other"));

    // RG-4 (example 1, §3.5): Pe3 on King a1's sub-grid (even, even) is
    // royal and captures e4 straight ahead; in FIDE chess it may not.
    let ex1 = "7k/8/8/8/4p3/2N1P3/8/K7 w - - 0 1";
    assert_eq!(pos(&rg(), ex1).illegal_reason("e3e4"), None);
    assert_eq!(
        why(&pos(&fide(), ex1), "e3e4"),
        "a Pawn captures diagonally, not straight ahead (RG-1)"
    );
    // Pd3 (odd file) is not on King a1's sub-grid: no forward capture.
    let s = pos(&rg(), "7k/8/8/8/3p4/3P4/8/K7 w - - 0 1");
    assert!(why(&s, "d3d4").contains("only a royal Pawn, on its King's sub-grid"));

    // RG-5 (example 2, §3.5): after Kd1-e2, Pe4 shares the King's sub-grid
    // (even, odd), so it is royal and attacks e5: Black is in check, and a
    // Rook move that neither takes e4 nor blocks leaves it so.
    let mut s = pos(&rg(), "8/8/8/4k3/r3P3/8/8/3K4 w - - 0 1");
    play(&mut s, "d1e2");
    assert_eq!(
        why(&s, "a4a3"),
        "would leave the Black King in check (RG-5)"
    );
    assert_eq!(s.illegal_reason("a4e4"), None);
    // f5 is attacked by the Pawn's diagonal capture.
    assert_eq!(
        why(&s, "e5f5"),
        "f5 is attacked, and the King may not move into check (RG-5)"
    );

    // RG-7: a Pawn reaching the last rank must promote; nothing else does.
    let s = pos(&rg(), "7k/P7/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(
        why(&s, "a7a8"),
        "a Pawn reaching the last rank promotes: add q, r, b or n, e.g. a7a8q (RG-7)"
    );
    assert_eq!(
        why(&s, "a1a2q"),
        "only a Pawn reaching the last rank promotes (RG-7)"
    );

    // RG-6 with RG-5's attacks (RG-R3): Black's King h8 is on (odd, odd),
    // so Rh2 (odd, odd) is royal and attacks g1 by a King step: White may
    // not castle onto g1. In FIDE chess nothing attacks g1.
    let fen = "7k/8/8/8/8/8/7r/R3K2R w KQ - 0 1";
    assert_eq!(
        why(&pos(&rg(), fen), "e1g1"),
        "g1 is attacked, and the King may not castle into check (RG-5, RG-6)"
    );
    assert_eq!(pos(&fide(), fen).illegal_reason("e1g1"), None);
    // A Rook on f8 attacks f1, which the King crosses (RG-6, RG-R3).
    let s = pos(&rg(), "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        why(&s, "e1g1"),
        "the King may not cross f1, which Black attacks (RG-6, RG-R3)"
    );
    // No right: lost by a King or Rook move (RG-6).
    let s = pos(&rg(), "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
    assert!(why(&s, "e1g1").starts_with("White has lost the right to castle king side"));
    assert_eq!(s.illegal_reason("e1c1"), None);
    // Malformed text keeps the parser's message.
    assert!(why(&s, "e1").starts_with("bad move"));
}

/// The material a chess move wins (`Search::capture_gain`, alpha-beta's
/// capture order and delta pruning), at the textbook values pawn 100,
/// knight 320, bishop 330, rook 500, queen 900 centipawns: the captured
/// piece, a pawn en passant, a promotion's piece less the pawn added; a
/// quiet move gains nothing (`None`). Positions and moves written by hand.
#[test]
fn capture_gain_is_the_material_a_move_wins() {
    let cases: [(&str, &str, Option<i32>); 8] = [
        // Pawn takes queen.
        ("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5", Some(900)),
        // Knight takes rook.
        ("4k3/8/8/8/8/1r6/8/N3K3 w - - 0 1", "a1b3", Some(500)),
        // For Black: a queen's quiet move, then one taking a bishop.
        ("4k3/8/8/8/8/8/2B4K/q7 b - - 0 1", "a1c3", None),
        ("4k3/8/8/8/8/2B5/7K/q7 b - - 0 1", "a1c3", Some(330)),
        // En passant: a pawn, though the target square is empty.
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", Some(100)),
        // Promotion to a queen: 900 - 100; taking a rook as it promotes.
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", Some(800)),
        ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", Some(1300)),
        // A quiet move.
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h5", None),
    ];
    for (fen, mv, gain) in cases {
        let s = fide()
            .parse_position(fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = parse_legal_move(&s, mv).unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
        assert_eq!(s.capture_gain(m), gain, "{fen} {mv}");
        assert_eq!(s.is_capture(m), gain.is_some(), "{fen} {mv}");
    }
}

/// As `chess_eval_is_colour_symmetric_and_rewards_structure`, along
/// seeded random games: every position and its colour mirror, the other
/// side to move, get the same value (a check on each term's direction).
#[test]
fn the_chess_evaluation_is_colour_symmetric_along_random_games() {
    use rand::{Rng, SeedableRng};
    let g = fide();
    let mut moves = Vec::new();
    let mut seen = 0;
    for seed in 0..12u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut s = g.initial_state(seed);
        for _ in 0..120 {
            if s.is_terminal() {
                break;
            }
            let fen = s.to_text();
            // Castling rights and the en-passant square dropped: the
            // evaluation does not read them.
            let flipped = pos(&g, &mirrored(&fen));
            assert_eq!(s.evaluate(), flipped.evaluate(), "{fen}");
            seen += 1;
            s.legal_moves(&mut moves);
            s.apply(moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(seen > 1000, "{seen} positions");
}

/// The static exchange evaluation of a chess capture
/// (`Search::exchange_value`, alpha-beta's `see` switch): the material the
/// mover ends with when both sides recapture on the square with their
/// least valuable piece, each free to stop, at pawn 100, knight 320,
/// bishop 330, rook 500, queen 900. Positions written by hand, values
/// worked out by hand.
#[test]
fn exchange_value_is_the_material_the_capture_nets() {
    let cases: [(&str, &str, Option<i32>); 9] = [
        // A knight takes a pawn that a pawn defends: 100 - 320.
        ("4k3/8/3p4/4p3/8/3N4/8/4K3 w - - 0 1", "d3e5", Some(-220)),
        // A queen takes an undefended rook.
        ("4k3/8/8/8/8/1r6/8/1Q2K3 w - - 0 1", "b1b3", Some(500)),
        // Two rooks against one defender: the second rook, behind the
        // first (an x-ray), takes back; the mover nets the pawn.
        ("4k3/4r3/8/4p3/8/8/4R3/4RK2 w - - 0 1", "e2e5", Some(100)),
        // One rook: it is lost for the pawn.
        ("4k3/4r3/8/4p3/8/8/4R3/5K2 w - - 0 1", "e2e5", Some(-400)),
        // En passant, undefended, then defended (a pawn for a pawn).
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", Some(100)),
        ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", Some(0)),
        // Taking a rook as the pawn promotes: 500 + 900 - 100; with a
        // knight guarding the square the new queen is lost: 1300 - 900.
        ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", Some(1300)),
        ("1r2k3/P7/2n5/8/8/8/8/4K3 w - - 0 1", "a7b8q", Some(400)),
        // A quiet move has no exchange.
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h5", None),
    ];
    for (fen, mv, value) in cases {
        let s = pos(&fide(), fen);
        let m = parse_legal_move(&s, mv).unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
        assert_eq!(s.exchange_value(m), value, "{fen} {mv}");
    }
    // Royal Guard has none: royal status changes attacks as pieces go.
    let s = pos(&rg(), "4k3/8/8/8/8/1r6/8/1Q2K3 w - - 0 1");
    let m = parse_legal_move(&s, "b1b3").unwrap();
    assert_eq!(s.exchange_value(m), None);
}
