//! A heuristic evaluation for alpha-beta, in centipawns from the side to
//! move: material, piece-square terms (formulas, not copied tables), and
//! with royal powers on, royal mobility (the King steps a royal R/B/N can
//! make, RG-3, and royal pawns' forward threats, RG-4). With royal powers
//! off (FIDE chess) it adds [`chess_terms`]: piece mobility, the bishop
//! pair, passed, doubled and isolated pawns, rooks on open files, and
//! king safety (the attack on the enemy King's zone and the own King's
//! pawn shield; chess's weights 8 and 10 since they gained at 100 ms a
//! move, results/search-switches). In chess, material and placement come
//! from tapered piece-square tables fitted to games by Texel tuning
//! (`tune --texel`; [`tuned_tables`], `texel.csv`), which replace the
//! material weights and the piece-square formulas there; chess's default,
//! the second model ([`tuned_model`], `texel2.csv`), fits the chess terms'
//! weights, middlegame and endgame, with the tables. Those
//! are measured on chess only (results/stockfish-scale); Royal Guard keeps
//! its evaluation until a run shows they help there too. Chess's weights
//! are tuned ([`EvalWeights::CHESS`], results/tune); Royal Guard's are set
//! by hand.

use super::attacks::{KING, KNIGHT, sliders};
use super::position::Board;
use super::{MoveKind, Piece, RoyalGuardMove, RoyalGuardState, Side};
use crate::api::{Search, SearchDefaults};

/// Material values in centipawns, by [`Piece`], for exchanges and
/// capture gains (static exchange evaluation, move order, delta pruning);
/// the evaluation reads its own, [`EvalWeights`] (Royal Guard's the same; chess's
/// tuned, [`EvalWeights::CHESS`]).
pub const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

crate::api::eval_weights! {
    /// The weights of [`evaluate_with`], in centipawns (a pawn is 100, not
    /// a weight: the unit). The chess terms (mobility to `passed`) count
    /// with royal powers off only; the royal terms with them on only.
    pub struct EvalWeights {
        /// Per knight.
        knight: 320,
        /// Per bishop.
        bishop: 330,
        /// Per rook.
        rook: 500,
        /// Per queen.
        queen: 900,
        /// Percent of the piece-square terms (centralisation, pawn
        /// advance, the King's shelter).
        pst: 100,
        /// Per safe square a knight reaches above 4 (below: negative).
        mob_knight: 4,
        /// Per safe square a bishop reaches above 6.
        mob_bishop: 5,
        /// Per safe square a rook reaches above 7.
        mob_rook: 3,
        /// Per safe square a queen reaches above 13.
        mob_queen: 1,
        /// For the bishop pair.
        bishop_pair: 30,
        /// Subtracted per extra pawn on a file.
        doubled: 12,
        /// Subtracted per pawn with no own pawn on a neighbouring file.
        isolated: 10,
        /// Per rook on a file without pawns.
        rook_open: 20,
        /// Per rook on a file without own pawns but with enemy ones.
        rook_half: 10,
        /// Percent of the passed-pawn table (by rank, bigger in the
        /// endgame).
        passed: 100,
        /// King attack: the square of the attack units on the enemy King's
        /// zone (its square and the King's steps from it: a knight or
        /// bishop counts 2 a zone square it reaches, a rook 3, a queen 5),
        /// times this, over 64, with at least two attackers and a queen.
        /// Chess only; 0 (off) here, 8 in [`EvalWeights::CHESS`]: with
        /// `king_attack=8` and `shield=10` alpha-beta at 100 ms a move
        /// scored +33.6 [+8.9, +58.6] Elo, SPRT H1 after 384 games
        /// (results/search-switches, "King safety at 100 ms").
        king_attack: 0,
        /// Per own pawn in front of a King on its first two ranks (one
        /// rank ahead on its own and the neighbouring files; half for two
        /// ranks ahead), outside the endgame. Chess only; 0 here, 10 in
        /// [`EvalWeights::CHESS`], as `king_attack`.
        shield: 0,
        /// Per enemy piece attacked by a less valuable own piece (a
        /// knight, bishop, rook or queen by a pawn, a rook or queen by a
        /// knight or bishop, a queen by a rook), each counted once. Chess
        /// only; 0 (off) here.
        threat: 0,
        /// The fewest knights, bishops and rooks (both sides together)
        /// with which a position without queens still counts as a
        /// middlegame (King shelter, pawn shield, the middlegame's pawn
        /// advance and passed-pawn tables); 0 (off): every position
        /// without queens is an endgame, as is any with two such pieces
        /// or fewer. Chess only; 0 here, 7 in [`EvalWeights::CHESS`]: with
        /// `queenless_middlegame=7` alpha-beta at 100 ms a move scored
        /// +24.9 [+6.1, +43.8] Elo, SPRT H1 after 896 games
        /// (results/search-switches, "A queenless middlegame at 100 ms").
        queenless_middlegame: 0,
        /// Chess only: 1 evaluates material and piece placement with the
        /// tapered piece-square tables tuned from games by `tune --texel`
        /// ([`tuned_tables`], `texel.csv` beside this file), in place of
        /// the material weights and the hand-made piece-square terms; 0
        /// (off) keeps those. 2 (or more) evaluates with the second model
        /// instead ([`tuned_model`], `texel2.csv`): tapered tables and a
        /// middlegame and an endgame weight for each chess term, fitted
        /// together, in place of every other weight here. 0 here, 2 in
        /// [`EvalWeights::CHESS`] (1 from 7 December to the second
        /// model's test the same evening).
        texel: 0,
        /// Per free King step of a royal R/B/N (RG-3).
        royal_step: 3,
        /// Per royal piece (the status itself: extra defence of its
        /// King's neighbourhood).
        royal_piece: 8,
    }
}

impl EvalWeights {
    /// Chess's weights (royal powers off): [`EvalWeights::DEFAULT`] with
    /// the material, piece-square, passed-pawn, knight and rook mobility
    /// and bishop-pair weights that SPSA found at 20,000 nodes a move
    /// (2,000 iterations, 4,000 games; rounded), which gained +24.0
    /// [+6.7, +41.4] Elo at 100 ms a move, SPRT H1 after 928 games
    /// (results/tune/README.md, "chess's evaluation weights"); and the
    /// king-safety weights `king_attack` 8 and `shield` 10, which gained
    /// +33.6 [+8.9, +58.6] Elo at 100 ms a move, SPRT H1 after 384 games
    /// (results/search-switches, "King safety at 100 ms"); and a position
    /// without queens counted as a middlegame while seven knights, bishops
    /// and rooks or more are left (`queenless_middlegame` 7), which gained
    /// +24.9 [+6.1, +43.8] Elo at 100 ms a move, SPRT H1 after 896 games
    /// (results/search-switches, "A queenless middlegame at 100 ms"); and
    /// material and placement from the tapered piece-square tables that
    /// `tune --texel` fitted to 11,216 of the project's chess games
    /// (`texel` 1, [`tuned_tables`]), which gained +112.3 [+61.9, +167.8]
    /// Elo at 100 ms a move, SPRT H1 after 128 games (results/search-switches,
    /// "Texel-tuned tables at 100 ms"); with them the material weights
    /// and `pst` above no longer count in chess. Since then the second
    /// Texel model (`texel` 2, [`tuned_model`]): the tables and a
    /// middlegame and an endgame weight for each chess term fitted
    /// together to the same games, which gained +47.3 [+16.9, +78.6] Elo
    /// over the first at 100 ms a move, SPRT H1 after 384 games
    /// (results/search-switches, "The second Texel model at 100 ms"); with
    /// it no other weight here counts in chess.
    pub const CHESS: EvalWeights = EvalWeights {
        knight: 311,
        bishop: 360,
        rook: 529,
        queen: 980,
        pst: 89,
        mob_knight: 6,
        mob_rook: 4,
        bishop_pair: 12,
        passed: 96,
        king_attack: 8,
        shield: 10,
        queenless_middlegame: 7,
        texel: 2,
        ..EvalWeights::DEFAULT
    };

    /// The default weights of a board: chess's with royal powers off.
    pub fn of(b: &Board) -> &'static EvalWeights {
        if b.royal_powers() {
            &EvalWeights::DEFAULT
        } else {
            &EvalWeights::CHESS
        }
    }
}

/// Chess's weights by name, with its defaults ([`EvalWeights::CHESS`]).
static CHESS_NAMED: [crate::api::EvalWeight; EvalWeights::NAMED.len()] =
    EvalWeights::named_with(&EvalWeights::CHESS);

/// Distance from the centre, 0 (d4, e4, d5, e5) to 6 (corners).
#[inline]
fn centre_dist(sq: usize) -> i32 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// The piece-square term for a piece of `c` on `sq`.
#[inline]
fn pst(c: Side, p: Piece, sq: usize, endgame: bool) -> i32 {
    // Ranks counted from the piece's own side.
    let rel_rank = if c == Side::White { sq / 8 } else { 7 - sq / 8 } as i32;
    let cd = centre_dist(sq);
    match p {
        Piece::Pawn => {
            let file = (sq % 8) as i32;
            let central = if (2..=5).contains(&file) { 4 } else { 0 };
            (rel_rank - 1) * if endgame { 12 } else { 6 } + central * (rel_rank - 1).min(2)
        }
        Piece::Knight => 18 - 6 * cd,
        Piece::Bishop => 10 - 3 * cd,
        Piece::Rook => {
            if rel_rank == 6 {
                15
            } else {
                0
            }
        }
        Piece::Queen => 4 - cd,
        Piece::King => {
            if endgame {
                20 - 6 * cd
            } else if rel_rank == 0 {
                // On the back rank, best tucked away at the side.
                let file = (sq % 8) as i32;
                if file <= 2 || file >= 6 { 20 } else { 0 }
            } else {
                -10 * rel_rank
            }
        }
    }
}

/// The files, a-file first.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The typical count of reachable squares by piece (knight, bishop, rook,
/// queen): mobility scores the count above it. Reachable: attacked, not
/// held by an own piece, not attacked by an enemy pawn.
const TYPICAL_MOBILITY: [i32; 4] = [4, 6, 7, 13];

/// Centipawns for a passed pawn by its rank counted from its own side
/// (rank 2 = index 1), middlegame and endgame, at `passed` 100.
const PASSED: [[i32; 8]; 2] = [
    [0, 5, 8, 15, 28, 48, 80, 0],
    [0, 10, 15, 28, 48, 80, 130, 0],
];

/// The squares `c`'s pawns attack.
fn pawn_attacks(pawns: u64, c: Side) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match c {
        Side::White => ((pawns << 7) & not_h) | ((pawns << 9) & not_a),
        Side::Black => ((pawns >> 9) & not_h) | ((pawns >> 7) & not_a),
    }
}

/// The file `f` (0 = a) and the files beside it.
fn file_and_neighbours(f: usize) -> u64 {
    (FILE_A << f)
        | if f > 0 { FILE_A << (f - 1) } else { 0 }
        | if f < 7 { FILE_A << (f + 1) } else { 0 }
}

/// Attack units a zone square reached, by piece (knight, bishop, rook,
/// queen), for the King attack term.
const ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

/// The King attack term cap, in attack units (beyond it the square stops
/// growing).
const ATTACK_UNITS_CAP: i32 = 40;

/// The pawn shield of `c`'s King: own pawns one rank ahead of it on its
/// file and the neighbouring files count 2, two ranks ahead 1, when the
/// King stands on its first or second rank; else 0.
fn shield_count(b: &Board, c: Side) -> i32 {
    let k = b.king_sq(c);
    if k >= 64 {
        return 0;
    }
    let (f, r) = (k % 8, k / 8);
    let rel = if c == Side::White { r } else { 7 - r };
    if rel > 1 {
        return 0;
    }
    let files = file_and_neighbours(f);
    let rank = |d: usize| -> u64 {
        let rr = if c == Side::White { r + d } else { r - d };
        0xFFu64 << (8 * rr)
    };
    let pawns = b.pieces(c, Piece::Pawn) & files;
    2 * (pawns & rank(1)).count_ones() as i32 + (pawns & rank(2)).count_ones() as i32
}

/// What the chess terms count for one side, before any weight: the
/// evaluation's hand-weighted terms ([`chess_terms`]) and the second Texel
/// model's tuned ones ([`Counts::terms`]) read the same counts.
#[derive(Clone, Copy, Default)]
struct Counts {
    /// Safe squares reached above the typical count, by piece (knight,
    /// bishop, rook, queen), summed over the side's pieces.
    mobility: [i32; 4],
    /// 1 with two bishops or more.
    bishop_pair: i32,
    /// Extra pawns on a file (a file with n pawns counts n − 1).
    doubled: i32,
    /// Pawns with no own pawn on a neighbouring file.
    isolated: i32,
    /// Rooks on files without pawns.
    rook_open: i32,
    /// Rooks on files without own pawns but with enemy ones.
    rook_half: i32,
    /// Passed pawns by rank counted from the side's own (index 1: its
    /// second rank).
    passed: [i32; 8],
    /// The King's pawn shield ([`shield_count`]).
    shield: i32,
    /// The square of the attack units on the enemy King's zone (capped at
    /// [`ATTACK_UNITS_CAP`]), with two attackers or more and a queen; else
    /// 0.
    king_units_sq: i32,
    /// Enemy pieces attacked by a less valuable own piece.
    threats: i32,
}

/// The terms of the second Texel model ([`Counts::terms`]), in its
/// parameters' order, each with a middlegame and an endgame weight.
const TERM_NAMES: [&str; TERMS] = [
    "mob_knight",
    "mob_bishop",
    "mob_rook",
    "mob_queen",
    "bishop_pair",
    "doubled",
    "isolated",
    "rook_open",
    "rook_half",
    "passed_r2",
    "passed_r3",
    "passed_r4",
    "passed_r5",
    "passed_r6",
    "passed_r7",
    "shield",
    "king_attack",
    "threat",
];

/// The count of [`TERM_NAMES`].
const TERMS: usize = 18;

impl Counts {
    /// The second Texel model's terms, in [`TERM_NAMES`]' order: penalties
    /// (doubled and isolated pawns) count negative, and the King attack
    /// counts its units squared over 16.
    fn terms(&self) -> [i32; TERMS] {
        let m = self.mobility;
        let p = self.passed;
        [
            m[0],
            m[1],
            m[2],
            m[3],
            self.bishop_pair,
            -self.doubled,
            -self.isolated,
            self.rook_open,
            self.rook_half,
            p[1],
            p[2],
            p[3],
            p[4],
            p[5],
            p[6],
            self.shield,
            self.king_units_sq / 16,
            self.threats,
        ]
    }

    /// The terms' start values for `tune --texel`, middlegame or endgame:
    /// chess's hand-set and SPSA-tuned weights ([`EvalWeights::CHESS`]),
    /// as [`chess_terms`] applies them (the passed-pawn table at its
    /// `passed` percentage; the shield and King attack in the middlegame
    /// only).
    fn start(endgame: bool) -> [i32; TERMS] {
        let w = &EvalWeights::CHESS;
        let passed = |r: usize| PASSED[endgame as usize][r] * w.passed / 100;
        let mg = |v: i32| if endgame { 0 } else { v };
        [
            w.mob_knight,
            w.mob_bishop,
            w.mob_rook,
            w.mob_queen,
            w.bishop_pair,
            w.doubled,
            w.isolated,
            w.rook_open,
            w.rook_half,
            passed(1),
            passed(2),
            passed(3),
            passed(4),
            passed(5),
            passed(6),
            mg(w.shield / 2),
            mg(w.king_attack / 4),
            w.threat,
        ]
    }
}

/// The chess terms' counts for side `c`.
fn counts(b: &Board, c: Side) -> Counts {
    let own = b.color(c);
    let occ = b.occupied();
    let my_pawns = b.pieces(c, Piece::Pawn);
    let their_pawns = b.pieces(c.other(), Piece::Pawn);
    let safe = !own & !pawn_attacks(their_pawns, c.other());
    let their_king = b.king_sq(c.other());
    let zone = if their_king < 64 {
        KING[their_king] | (1u64 << their_king)
    } else {
        0
    };
    let (mut attackers, mut units) = (0, 0);
    // What the knights and bishops, and the rooks, attack: for threats.
    let (mut by_minor, mut by_rook) = (0u64, 0u64);
    let sl = sliders();
    let mut n = Counts::default();
    for (i, p) in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .into_iter()
        .enumerate()
    {
        let mut bb = b.pieces(c, p);
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            let reach = match p {
                Piece::Knight => KNIGHT[sq],
                Piece::Bishop => sl.bishop(sq, occ),
                Piece::Rook => sl.rook(sq, occ),
                _ => sl.bishop(sq, occ) | sl.rook(sq, occ),
            };
            n.mobility[i] += (reach & safe).count_ones() as i32 - TYPICAL_MOBILITY[i];
            match p {
                Piece::Knight | Piece::Bishop => by_minor |= reach,
                Piece::Rook => by_rook |= reach,
                _ => {}
            }
            let hits = (reach & zone).count_ones() as i32;
            if hits > 0 {
                attackers += 1;
                units += ATTACK_UNITS[i] * hits;
            }
            if p == Piece::Rook {
                let file = FILE_A << (sq % 8);
                if file & (my_pawns | their_pawns) == 0 {
                    n.rook_open += 1;
                } else if file & my_pawns == 0 {
                    n.rook_half += 1;
                }
            }
            bb &= bb - 1;
        }
    }
    n.bishop_pair = i32::from(b.pieces(c, Piece::Bishop).count_ones() >= 2);
    let them = c.other();
    let queens = b.pieces(them, Piece::Queen);
    let majors = b.pieces(them, Piece::Rook) | queens;
    let pieces = majors | b.pieces(them, Piece::Knight) | b.pieces(them, Piece::Bishop);
    let threatened =
        (pawn_attacks(my_pawns, c) & pieces) | (by_minor & majors) | (by_rook & queens);
    n.threats = threatened.count_ones() as i32;
    if attackers >= 2 && b.pieces(c, Piece::Queen) != 0 {
        let u = units.min(ATTACK_UNITS_CAP);
        n.king_units_sq = u * u;
    }
    n.shield = shield_count(b, c);
    for f in 0..8 {
        let on_file = (my_pawns & (FILE_A << f)).count_ones() as i32;
        if on_file == 0 {
            continue;
        }
        n.doubled += on_file - 1;
        let left = if f > 0 { FILE_A << (f - 1) } else { 0 };
        let right = if f < 7 { FILE_A << (f + 1) } else { 0 };
        if my_pawns & (left | right) == 0 {
            n.isolated += on_file;
        }
    }
    let mut bb = my_pawns;
    while bb != 0 {
        let sq = bb.trailing_zeros() as usize;
        let (f, r) = (sq % 8, sq / 8);
        let files = file_and_neighbours(f);
        // The squares in front on the three files (pawns never stand on
        // the first or last rank, so the shifts stay below 64).
        let ahead = match c {
            Side::White => files & !((1u64 << (8 * (r + 1))) - 1),
            Side::Black => files & ((1u64 << (8 * r)) - 1),
        };
        if ahead & their_pawns == 0 {
            let rel = if c == Side::White { r } else { 7 - r };
            n.passed[rel] += 1;
        }
        bb &= bb - 1;
    }
    n
}

/// The chess terms for side `c` with weights `w` (White's view; the caller
/// signs them): mobility of knights, bishops, rooks and queens, the bishop
/// pair, passed pawns (bigger in the endgame), doubled and isolated pawns,
/// rooks on open and half-open files, threats (enemy pieces attacked by a
/// less valuable piece), and outside the endgame the King attack on the
/// enemy King and the own King's pawn shield.
pub fn chess_terms(b: &Board, c: Side, endgame: bool, w: &EvalWeights) -> i32 {
    let n = counts(b, c);
    let mobility = [w.mob_knight, w.mob_bishop, w.mob_rook, w.mob_queen];
    let mut s: i32 = (0..4).map(|i| mobility[i] * n.mobility[i]).sum();
    s += w.rook_open * n.rook_open + w.rook_half * n.rook_half;
    s += w.bishop_pair * n.bishop_pair;
    s += w.threat * n.threats;
    if !endgame {
        s += w.king_attack * n.king_units_sq / 64;
        s += w.shield * n.shield / 2;
    }
    s -= w.doubled * n.doubled + w.isolated * n.isolated;
    let passed: i32 = (0..8)
        .map(|r| n.passed[r] * PASSED[endgame as usize][r])
        .sum();
    s + passed * w.passed / 100
}

/// The King's value in an exchange: more than everything else on the
/// board, so that a sequence in which it is taken back is never chosen.
const KING_IN_EXCHANGE: i32 = 20_000;

/// The **static exchange evaluation** of the capture `m` on `b` (FIDE
/// chess: royal powers off): the material the side to move ends with
/// when both sides go on capturing on the target square with their least
/// valuable attacker, each free to stop, sliders behind the pieces that
/// leave (x-rays) joining in; in centipawns at [`VALUE`]. Pins, checks
/// and promotions after the first capture are not seen (the usual
/// approximation). The capture's own promotion counts: the pawn becomes
/// the promoted piece. A quiet move scores 0.
pub fn static_exchange(b: &Board, m: RoyalGuardMove) -> i32 {
    let (from, to) = (m.from(), m.to());
    let mut occ = b.occupied();
    let mut side = b.side;
    let victim = match m.kind() {
        MoveKind::EnPassant => {
            occ &= !(1u64 << (to ^ 8));
            VALUE[Piece::Pawn as usize]
        }
        _ => match b.piece_at(to) {
            Some((c, p)) if c != side => VALUE[p as usize],
            _ => 0,
        },
    };
    let mover = match b.piece_at(from) {
        Some((_, p)) => p,
        None => return 0,
    };
    // The piece standing on the square after each capture, and its value.
    let (mut on_square, mut gain0) = (mover, victim);
    if let Some(p) = m.kind().promotion() {
        on_square = p;
        gain0 += VALUE[p as usize] - VALUE[Piece::Pawn as usize];
    }
    let worth = |p: Piece| {
        if p == Piece::King {
            KING_IN_EXCHANGE
        } else {
            VALUE[p as usize]
        }
    };
    // gain[d]: what the side making capture d (0: the move itself) has
    // gained if the exchange stops right after it; then, from the last
    // capture back, each side takes the better of stopping and capturing.
    let mut gain = [0i32; 34];
    gain[0] = gain0;
    occ &= !(1u64 << from);
    let mut d = 0;
    loop {
        side = side.other();
        let attackers = b.attackers_to(to, side, occ, 0);
        if attackers == 0 {
            break;
        }
        let Some((p, sq)) = Piece::ALL.into_iter().find_map(|p| {
            let bb = attackers & b.pieces(side, p);
            (bb != 0).then(|| (p, bb.trailing_zeros() as usize))
        }) else {
            break;
        };
        d += 1;
        gain[d] = worth(on_square) - gain[d - 1];
        if d + 1 == gain.len() {
            break;
        }
        on_square = p;
        occ &= !(1u64 << sq);
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether the position counts as an endgame for the hand-made terms:
/// no queens (unless `queenless_middlegame` knights, bishops and rooks
/// are left), or two such pieces or fewer.
fn is_endgame(b: &Board, w: &EvalWeights) -> bool {
    let queens = b.by_piece[Piece::Queen as usize].count_ones();
    let minors_majors = (b.by_piece[Piece::Knight as usize]
        | b.by_piece[Piece::Bishop as usize]
        | b.by_piece[Piece::Rook as usize])
        .count_ones() as i32;
    let queenless_middlegame =
        w.queenless_middlegame > 0 && minors_majors >= w.queenless_middlegame;
    (queens == 0 && !queenless_middlegame) || minors_majors <= 2
}

/// Chess's piece-square tables with material, by game phase (0 the
/// middlegame, 1 the endgame), [`Piece`] and square from White's side (a
/// Black piece reads the square mirrored, `sq ^ 56`), in centipawns.
pub type Tables = [[[i32; 64]; 6]; 2];

/// Game phase per piece, by [`Piece`]: the sum over the board, at most
/// [`FULL_PHASE`], is the middlegame's share in 24ths.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The phase of the start position: 4 knights, 4 bishops, 4 rooks, 2
/// queens.
const FULL_PHASE: i32 = 24;

/// The phase of `b`: 24 at the start, 0 with pawns and Kings alone.
fn phase(b: &Board) -> i32 {
    let p: i32 = (1..5)
        .map(|k| PHASE[k] * b.by_piece[k].count_ones() as i32)
        .sum();
    p.min(FULL_PHASE)
}

/// The piece names of the tables' parameters, by [`Piece`].
const PIECE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The parameter name of a table entry: `mg_knight_e4`, `eg_king_g1`.
pub fn table_param(phase: usize, piece: usize, sq: usize) -> String {
    format!(
        "{}_{}_{}{}",
        ["mg", "eg"][phase],
        PIECE_NAMES[piece],
        (b'a' + (sq % 8) as u8) as char,
        sq / 8 + 1
    )
}

/// Material values per phase and piece (pawn to queen) in the tables'
/// parameters: `mg_knight`, `eg_queen`.
pub fn material_param(phase: usize, piece: usize) -> String {
    format!("{}_{}", ["mg", "eg"][phase], PIECE_NAMES[piece])
}

/// The parameters of chess's tables, as `tune --texel` tunes them: the
/// square entries (`mg_knight_e4`, [`table_param`]; index `phase × 384 +
/// piece × 64 + square`), then the material (`mg_knight`,
/// [`material_param`]; index `768 + phase × 5 + piece`, no King): a
/// table entry is its piece's material plus its square's entry. Their
/// hand-made start values: chess's material weights
/// ([`EvalWeights::CHESS`]) and the piece-square formulas at its `pst`
/// percentage, the middlegame's and the endgame's.
pub fn start_params() -> Vec<(String, i32)> {
    let w = &EvalWeights::CHESS;
    let value = [100, w.knight, w.bishop, w.rook, w.queen];
    let mut out = Vec::with_capacity(TABLE_PARAMS);
    for ph in 0..2 {
        for p in Piece::ALL {
            for sq in 0..64 {
                let v = pst(Side::White, p, sq, ph == 1) * w.pst / 100;
                out.push((table_param(ph, p as usize, sq), v));
            }
        }
    }
    for ph in 0..2 {
        for (p, &v) in value.iter().enumerate() {
            out.push((material_param(ph, p), v));
        }
    }
    out
}

/// The count of [`start_params`]: 768 square entries and 10 material
/// values.
const TABLE_PARAMS: usize = 2 * 6 * 64 + 2 * 5;

/// Tables from parameter values in [`start_params`]'s order.
fn tables_of(values: &[i32]) -> Tables {
    let mut t = [[[0; 64]; 6]; 2];
    for (ph, table) in t.iter_mut().enumerate() {
        for (p, squares) in table.iter_mut().enumerate() {
            let material = if p < 5 { values[768 + ph * 5 + p] } else { 0 };
            for (sq, v) in squares.iter_mut().enumerate() {
                *v = material + values[ph * 384 + p * 64 + sq];
            }
        }
    }
    t
}

/// Reads tables from the CSV `tune --texel` wrote for the first model
/// (`texel` 1): a header, then one `parameter,start,tuned` row per
/// parameter of [`start_params`], in any order; the `tuned` column is
/// taken.
///
/// # Errors
/// A row that does not parse, an unknown or repeated parameter, or a
/// missing one.
pub fn parse_tables(text: &str) -> Result<Tables, String> {
    Ok(tables_of(&parse_values(text, &start_params())?))
}

/// The `tuned` column of a `parameter,start,tuned` CSV, in the order of
/// `params` (every one of them, each once, no other).
fn parse_values(text: &str, params: &[(String, i32)]) -> Result<Vec<i32>, String> {
    let index: std::collections::HashMap<&str, usize> = params
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    let mut values: Vec<Option<i32>> = vec![None; params.len()];
    for (i, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (Some(name), Some(tuned)) = (f.first(), f.get(2)) else {
            return Err(format!("line {}: expected parameter,start,tuned", i + 1));
        };
        let &k = index
            .get(*name)
            .ok_or_else(|| format!("line {}: unknown parameter {name:?}", i + 1))?;
        let v = tuned
            .trim()
            .parse()
            .map_err(|_| format!("line {}: bad value {tuned:?}", i + 1))?;
        if values[k].replace(v).is_some() {
            return Err(format!("line {}: {name} again", i + 1));
        }
    }
    let values: Option<Vec<i32>> = values.into_iter().collect();
    values.ok_or_else(|| format!("expected all {} parameters", params.len()))
}

/// Chess's second Texel model (`texel` 2): tapered tables as the first
/// has, and a middlegame and an endgame weight for each of the chess
/// terms ([`TERM_NAMES`]), all fitted together.
pub struct Model {
    tables: Tables,
    /// By phase (0 the middlegame) and term.
    terms: [[i32; TERMS]; 2],
}

/// The parameters of the second model, as `tune --texel` tunes them:
/// [`start_params`] (index 0 to 777), then the terms' weights
/// (`mg_mob_knight`, `eg_passed_r7`; index `778 + phase × 18 + term`),
/// starting from chess's weights ([`Counts::start`]).
pub fn model_params() -> Vec<(String, i32)> {
    let mut out = start_params();
    for (ph, phase) in ["mg", "eg"].into_iter().enumerate() {
        let start = Counts::start(ph == 1);
        for (name, v) in TERM_NAMES.iter().zip(start) {
            out.push((format!("{phase}_{name}"), v));
        }
    }
    out
}

/// Reads the second model from the CSV `tune --texel` writes (every
/// parameter of [`model_params`]).
///
/// # Errors
/// As [`parse_tables`].
pub fn parse_model(text: &str) -> Result<Model, String> {
    let v = parse_values(text, &model_params())?;
    let mut terms = [[0; TERMS]; 2];
    for (ph, row) in terms.iter_mut().enumerate() {
        row.copy_from_slice(&v[TABLE_PARAMS + ph * TERMS..][..TERMS]);
    }
    Ok(Model {
        tables: tables_of(&v),
        terms,
    })
}

/// The model chess evaluates with when `texel` is 2: `texel2.csv` beside
/// this file, written by `tune --texel` (results/tune/README.md, "Texel
/// tuning").
pub fn tuned_model() -> &'static Model {
    static TUNED: std::sync::OnceLock<Model> = std::sync::OnceLock::new();
    TUNED.get_or_init(|| {
        parse_model(include_str!("texel2.csv"))
            .unwrap_or_else(|e| panic!("royal_guard/texel2.csv: {e}"))
    })
}

/// The second model's evaluation of `b`, White's score minus Black's.
fn modelled(b: &Board, m: &Model) -> i32 {
    let mut mg_eg = table_sums(b, &m.tables);
    for (c, sign) in [(Side::White, 1), (Side::Black, -1)] {
        let t = counts(b, c).terms();
        for (ph, sum) in mg_eg.iter_mut().enumerate() {
            let weighted: i32 = t.iter().zip(&m.terms[ph]).map(|(n, w)| n * w).sum();
            *sum += sign * weighted;
        }
    }
    taper(b, mg_eg)
}

/// The tables chess evaluates with when `texel` is on: `texel.csv`
/// beside this file, written by `tune --texel` (results/tune/README.md,
/// "Texel tuning").
pub fn tuned_tables() -> &'static Tables {
    static TUNED: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TUNED.get_or_init(|| {
        parse_tables(include_str!("texel.csv"))
            .unwrap_or_else(|e| panic!("royal_guard/texel.csv: {e}"))
    })
}

/// The tables' middlegame and endgame sums for `b`, White's minus
/// Black's.
fn table_sums(b: &Board, t: &Tables) -> [i32; 2] {
    let mut mg_eg = [0; 2];
    for (c, sign, mirror) in [(Side::White, 1, 0), (Side::Black, -1, 56)] {
        for p in Piece::ALL {
            let mut bb = b.pieces(c, p);
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize ^ mirror;
                mg_eg[0] += sign * t[0][p as usize][sq];
                mg_eg[1] += sign * t[1][p as usize][sq];
                bb &= bb - 1;
            }
        }
    }
    mg_eg
}

/// The middlegame score weighted by the phase and the endgame score by
/// the rest, over [`FULL_PHASE`].
fn taper(b: &Board, [mg, eg]: [i32; 2]) -> i32 {
    let ph = phase(b);
    (mg * ph + eg * (FULL_PHASE - ph)) / FULL_PHASE
}

/// The tapered material and placement of `b` with tables `t`, White's
/// score minus Black's.
fn tapered(b: &Board, t: &Tables) -> i32 {
    taper(b, table_sums(b, t))
}

/// White's score minus Black's, then from the side to move, with the
/// default weights ([`EvalWeights::of`]: chess's with royal powers off).
pub fn evaluate(b: &Board) -> i32 {
    evaluate_with(b, EvalWeights::of(b))
}

/// [`evaluate`] with the weights `w`.
#[inline]
pub fn evaluate_with(b: &Board, w: &EvalWeights) -> i32 {
    if w.texel >= 2 && !b.royal_powers() {
        let score = modelled(b, tuned_model());
        return if b.side() == Side::White {
            score
        } else {
            -score
        };
    }
    let endgame = is_endgame(b, w);
    if w.texel != 0 && !b.royal_powers() {
        let score = tapered(b, tuned_tables()) + chess_terms(b, Side::White, endgame, w)
            - chess_terms(b, Side::Black, endgame, w);
        return if b.side() == Side::White {
            score
        } else {
            -score
        };
    }
    let value = [100, w.knight, w.bishop, w.rook, w.queen, 0];
    let mut score = 0;
    for c in [Side::White, Side::Black] {
        let sign = if c == Side::White { 1 } else { -1 };
        let (mut s, mut squares) = (0, 0);
        for p in Piece::ALL {
            let mut bb = b.pieces(c, p);
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                s += value[p as usize];
                squares += pst(c, p, sq, endgame);
                bb &= bb - 1;
            }
        }
        s += squares * w.pst / 100;
        if !b.royal_powers() {
            s += chess_terms(b, c, endgame, w);
        }
        let royal = b.royal_set(c);
        if royal != 0 {
            let own = b.color(c);
            let opp = b.color(c.other());
            let mut nbr = royal & !b.by_piece[Piece::Pawn as usize];
            while nbr != 0 {
                let sq = nbr.trailing_zeros() as usize;
                s += w.royal_piece + w.royal_step * (KING[sq] & !own).count_ones() as i32;
                nbr &= nbr - 1;
            }
            let rp = royal & b.by_piece[Piece::Pawn as usize];
            let ahead = match c {
                Side::White => rp << 8,
                Side::Black => rp >> 8,
            };
            s += w.royal_piece * rp.count_ones() as i32 + 10 * (ahead & opp).count_ones() as i32;
        }
        score += sign * s;
    }
    if b.side() == Side::White {
        score
    } else {
        -score
    }
}

impl Search for RoyalGuardState {
    fn evaluate(&self) -> i32 {
        evaluate(self.board())
    }

    fn evaluate_weighted(&self, w: &[i32]) -> i32 {
        evaluate_with(self.board(), &EvalWeights::from_slice(w))
    }

    /// Chess only: the second model's parameters ([`model_params`]): the
    /// tapered tables' square entries and material, hand-made, and the
    /// chess terms' weights, chess's.
    fn linear_params(&self) -> Vec<(String, i32)> {
        if self.board().royal_powers() {
            return Vec::new();
        }
        model_params()
    }

    /// Chess only: the evaluation with `texel` 2 (the second model), all
    /// of it linear: each piece's middlegame square entry and material,
    /// and each chess term's middlegame weight, weighted by the phase over
    /// 24, the endgame ones by the rest, signed for the side to move; the
    /// rest 0.
    fn linear_terms(&self, terms: &mut Vec<(u32, f32)>) -> i32 {
        terms.clear();
        let b = self.board();
        if b.royal_powers() {
            return self.evaluate();
        }
        let stm = if b.side() == Side::White { 1.0 } else { -1.0 };
        let ph = phase(b) as f32 / FULL_PHASE as f32;
        for (c, sign, mirror) in [(Side::White, 1.0, 0), (Side::Black, -1.0, 56)] {
            let (mg, eg) = (stm * sign * ph, stm * sign * (1.0 - ph));
            for p in Piece::ALL {
                let mut bb = b.pieces(c, p);
                while bb != 0 {
                    let sq = bb.trailing_zeros() as usize ^ mirror;
                    let square = (p as usize * 64 + sq) as u32;
                    terms.push((square, mg));
                    terms.push((square + 384, eg));
                    if p != Piece::King {
                        let material = 768 + p as u32;
                        terms.push((material, mg));
                        terms.push((material + 5, eg));
                    }
                    bb &= bb - 1;
                }
            }
            for (t, n) in counts(b, c).terms().into_iter().enumerate() {
                if n != 0 {
                    let index = (TABLE_PARAMS + t) as u32;
                    terms.push((index, mg * n as f32));
                    terms.push((index + TERMS as u32, eg * n as f32));
                }
            }
        }
        0
    }

    /// Chess (`royal_powers=false`): alpha-beta extends checks, orders
    /// captures first (most material first), reduces late quiet moves
    /// from the fourth on, logarithmically, prunes futile nodes with a
    /// margin of a pawn a ply, skips captures that lose in the exchange
    /// (`see`) in the quiescence search and searches evasions there when
    /// in check (`qcheck`), and orders each quiet move that last cut off
    /// after the opponent's previous move right after the killers
    /// (`countermove`), and prunes by null moves with reduction 3
    /// (`null=3`), and searches to the end of its budget, playing an
    /// interrupted iteration's better root move (`partial`), and scores a
    /// repetition below the root as a draw (`twofold`); each gained
    /// at equal time in `sprt` runs against the same search without
    /// (docs/cli.md, "Per-game defaults").
    fn search_defaults(&self) -> SearchDefaults {
        let chess = !self.board().royal_powers();
        let base = SearchDefaults::default();
        SearchDefaults {
            check_extensions: chess,
            capture_order: chess,
            late_move_reductions: if chess { 3 } else { 0 },
            log_reductions: chess,
            futility_margin: if chess { 100 } else { 0 },
            exchange_pruning: chess,
            quiescence_evasions: chess,
            countermoves: chess,
            null_move_reduction: if chess { 3 } else { 0 },
            partial_iterations: chess,
            twofold_repetition: chess,
            mcts_minimax: SearchDefaults::ROOT_WIN_PLIES,
            // mcts's c, cut-off and scale tuned by SPSA at 34,000
            // iterations a move on Royal Guard (results/tune, "mcts on the
            // games whose studies play alpha-beta"): +394.1 [+297.2,
            // +579.1] at 50 ms a move. Chess keeps the generic values (not
            // measured).
            playout_cutoff: if chess { base.playout_cutoff } else { Some(0) },
            mcts_c: if chess { base.mcts_c } else { 0.407 },
            mcts_scale: if chess { base.mcts_scale } else { Some(204.0) },
            eval_weights: if chess {
                &CHESS_NAMED
            } else {
                EvalWeights::NAMED
            },
            ..base
        }
    }

    fn null_move(&mut self) -> bool {
        RoyalGuardState::null_move(self)
    }

    fn in_check(&self) -> bool {
        RoyalGuardState::in_check(self)
    }

    /// Makes `mv` on a copy of the 80-byte board, without the end test.
    fn gives_check(&self, mv: RoyalGuardMove) -> bool {
        let mut b = *self.board();
        b.make(mv);
        b.checkers() != 0
    }

    /// The position occurred before since the last capture or pawn move.
    fn repeated(&self) -> bool {
        self.occurrences() > 1
    }

    /// Chess only ([`static_exchange`]); with royal powers on, pieces
    /// attack by their royal status, which an exchange changes: `None`.
    fn exchange_value(&self, mv: RoyalGuardMove) -> Option<i32> {
        let board = self.board();
        (!board.royal_powers() && self.is_capture(mv)).then(|| static_exchange(board, mv))
    }

    /// The material `mv` wins at most, in centipawns ([`VALUE`]): the
    /// captured piece (a pawn en passant), plus a promotion's piece less
    /// the pawn; for alpha-beta's capture order and delta pruning. `None`
    /// for a quiet move.
    fn capture_gain(&self, mv: RoyalGuardMove) -> Option<i32> {
        let board = self.board();
        let victim = match mv.kind() {
            MoveKind::EnPassant => VALUE[Piece::Pawn as usize],
            _ => match board.piece_at(mv.to()) {
                Some((side, p)) if side != board.side => VALUE[p as usize],
                _ => 0,
            },
        };
        let promo = match mv.kind() {
            MoveKind::PromoKnight => VALUE[Piece::Knight as usize],
            MoveKind::PromoBishop => VALUE[Piece::Bishop as usize],
            MoveKind::PromoRook => VALUE[Piece::Rook as usize],
            MoveKind::PromoQueen => VALUE[Piece::Queen as usize],
            _ => return (victim > 0).then_some(victim),
        };
        Some(victim + promo - VALUE[Piece::Pawn as usize])
    }

    /// Captures (en passant included) and promotions, for quiescence
    /// searches.
    fn is_capture(&self, mv: RoyalGuardMove) -> bool {
        let board = self.board();
        let them = board.by_color[1 - board.side as usize];
        them >> mv.to() & 1 != 0
            || matches!(
                mv.kind(),
                MoveKind::EnPassant
                    | MoveKind::PromoKnight
                    | MoveKind::PromoBishop
                    | MoveKind::PromoRook
                    | MoveKind::PromoQueen
            )
    }
}
