//! The chess position behind a Royal Guard state: bitboards by piece kind
//! and colour, side to move, castling rights, en-passant square, the move
//! clocks and the Zobrist key. `Copy` and 80 bytes, so copy-make is cheap
//! (perft and search copy it at every node).

use super::attacks::{KING, KNIGHT, PAWN_ATTACKS, sliders, subgrid_of};
use super::{MoveKind, Piece, RoyalGuardMove, Side};

/// Castling-right bits: White king side, White queen side, Black king side,
/// Black queen side.
pub const WK: u8 = 1;
/// White queen-side castling right.
pub const WQ: u8 = 2;
/// Black king-side castling right.
pub const BK: u8 = 4;
/// Black queen-side castling right.
pub const BQ: u8 = 8;

/// "No en-passant square".
pub const NO_EP: u8 = 64;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys: 768 piece-square keys (`(colour * 6 + kind) * 64 + sq`),
/// then side to move (Black), 16 castling-right sets, 8 en-passant files.
const fn build_keys() -> [u64; 768 + 1 + 16 + 8] {
    let mut k = [0u64; 793];
    let mut s = 0x526F_7961_6C47_7561u64; // "RoyalGua"
    let mut i = 0;
    while i < 793 {
        let (ns, v) = splitmix(s);
        s = ns;
        k[i] = v;
        i += 1;
    }
    // The empty castling set hashes to 0.
    k[769] = 0;
    k
}

static KEYS: [u64; 793] = build_keys();

#[inline(always)]
pub(super) fn key_piece(c: Side, p: Piece, sq: usize) -> u64 {
    KEYS[(c as usize * 6 + p as usize) * 64 + sq]
}
#[inline(always)]
fn key_side() -> u64 {
    KEYS[768]
}
#[inline(always)]
fn key_castle(rights: u8) -> u64 {
    KEYS[769 + rights as usize]
}
#[inline(always)]
fn key_ep(sq: u8) -> u64 {
    if sq == NO_EP {
        0
    } else {
        KEYS[785 + (sq & 7) as usize]
    }
}

/// Rights kept when a piece leaves or lands on each square (a rook or king
/// moving, or a rook captured on its corner).
const fn castle_masks() -> [u8; 64] {
    let mut m = [0xFu8; 64];
    m[0] = !WQ & 0xF; // a1
    m[7] = !WK & 0xF; // h1
    m[4] = !(WK | WQ) & 0xF; // e1
    m[56] = !BQ & 0xF; // a8
    m[63] = !BK & 0xF; // h8
    m[60] = !(BK | BQ) & 0xF; // e8
    m
}
static CASTLE_MASK: [u8; 64] = castle_masks();

/// A chess position (Royal Guard or FIDE, by [`Board::royal`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Pieces by kind ([`Piece`] index), both colours.
    pub(super) by_piece: [u64; 6],
    /// Pieces by colour.
    pub(super) by_color: [u64; 2],
    pub(super) side: Side,
    /// [`WK`] | [`WQ`] | [`BK`] | [`BQ`].
    pub(super) castling: u8,
    /// The en-passant target square, or [`NO_EP`]. Kept only when a pawn of
    /// the side to move stands beside the pawn that double-stepped (so equal
    /// positions in the sense of FIDE 9.2 get equal keys).
    pub(super) ep: u8,
    /// Plies since the last capture or pawn move (FIDE 9.3).
    pub(super) halfmove: u16,
    /// The FEN full-move number (starts at 1, grows after Black's move).
    pub(super) fullmove: u16,
    /// Royal powers on (RG-2..RG-5); off = FIDE chess.
    pub(super) royal: bool,
    pub(super) hash: u64,
}

impl Board {
    /// An empty board, White to move, no rights.
    pub(super) fn empty(royal: bool) -> Board {
        Board {
            by_piece: [0; 6],
            by_color: [0; 2],
            side: Side::White,
            castling: 0,
            ep: NO_EP,
            halfmove: 0,
            fullmove: 1,
            royal,
            hash: 0,
        }
    }

    /// Puts a piece on an empty square (no key update).
    pub(super) fn put(&mut self, c: Side, p: Piece, sq: usize) {
        self.by_piece[p as usize] |= 1 << sq;
        self.by_color[c as usize] |= 1 << sq;
    }

    /// The piece and colour on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: usize) -> Option<(Side, Piece)> {
        let b = 1u64 << sq;
        let c = if self.by_color[0] & b != 0 {
            Side::White
        } else if self.by_color[1] & b != 0 {
            Side::Black
        } else {
            return None;
        };
        Some((c, self.kind_at(sq)))
    }

    /// The kind of the (present) piece on `sq`.
    #[inline(always)]
    fn kind_at(&self, sq: usize) -> Piece {
        let b = 1u64 << sq;
        for (i, p) in Piece::ALL.iter().enumerate() {
            if self.by_piece[i] & b != 0 {
                return *p;
            }
        }
        Piece::King
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The pieces of kind `p` and colour `c`.
    #[inline(always)]
    pub fn pieces(&self, c: Side, p: Piece) -> u64 {
        self.by_piece[p as usize] & self.by_color[c as usize]
    }

    /// All pieces of colour `c`.
    #[inline(always)]
    pub fn color(&self, c: Side) -> u64 {
        self.by_color[c as usize]
    }

    /// All pieces.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// The king square of `c`.
    #[inline(always)]
    pub fn king_sq(&self, c: Side) -> usize {
        self.pieces(c, Piece::King).trailing_zeros() as usize
    }

    /// Whether royal powers are on.
    pub fn royal_powers(&self) -> bool {
        self.royal
    }

    /// The Zobrist key.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// RG-2 / §3.4: `c`'s royal pieces, the Rooks, Bishops, Knights and
    /// Pawns on its King's sub-grid (empty with powers off).
    #[inline(always)]
    pub fn royal_set(&self, c: Side) -> u64 {
        if !self.royal {
            return 0;
        }
        let own = self.by_color[c as usize];
        subgrid_of(self.king_sq(c))
            & own
            & !(self.by_piece[Piece::Queen as usize] | self.by_piece[Piece::King as usize])
    }

    /// RG-5 / §3.4: the pieces of colour `by` (restricted to `occ`) that
    /// attack `sq`, given `by`'s royal set `royal_by`: FIDE attacks, plus
    /// King steps of royal N/B/R, plus the square in front of a royal pawn.
    #[inline(always)]
    pub(super) fn attackers_to(&self, sq: usize, by: Side, occ: u64, royal_by: u64) -> u64 {
        let s = sliders();
        let them = self.by_color[by as usize] & occ;
        let p = &self.by_piece;
        let diag = p[Piece::Bishop as usize] | p[Piece::Queen as usize];
        let orth = p[Piece::Rook as usize] | p[Piece::Queen as usize];
        let mut a = (PAWN_ATTACKS[by.other() as usize][sq] & p[Piece::Pawn as usize])
            | (KNIGHT[sq] & p[Piece::Knight as usize])
            | (KING[sq] & p[Piece::King as usize])
            | (s.bishop(sq, occ) & diag)
            | (s.rook(sq, occ) & orth);
        if royal_by != 0 {
            let royal = royal_by & occ;
            let nbr = royal & !p[Piece::Pawn as usize];
            let rp = royal & p[Piece::Pawn as usize];
            // A `by` pawn attacks the square straight ahead of it.
            let behind = match by {
                Side::White => (1u64 << sq) >> 8,
                Side::Black => (1u64 << sq) << 8,
            };
            a |= (KING[sq] & nbr) | (behind & rp);
        }
        a & them
    }

    /// Whether `sq` is attacked by `by` in this position (RG-5).
    pub fn is_attacked(&self, sq: usize, by: Side) -> bool {
        self.attackers_to(sq, by, self.occupied(), self.royal_set(by)) != 0
    }

    /// The pieces giving check to the side to move (RG-5).
    #[inline]
    pub fn checkers(&self) -> u64 {
        let them = self.side.other();
        self.attackers_to(
            self.king_sq(self.side),
            them,
            self.occupied(),
            self.royal_set(them),
        )
    }

    /// The key recomputed from the position.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for c in [Side::White, Side::Black] {
            for p in Piece::ALL {
                let mut b = self.pieces(c, p);
                while b != 0 {
                    h ^= key_piece(c, p, b.trailing_zeros() as usize);
                    b &= b - 1;
                }
            }
        }
        if self.side == Side::Black {
            h ^= key_side();
        }
        h ^ key_castle(self.castling) ^ key_ep(self.ep)
    }

    /// Whether a pawn of the side to move could take en passant on `ep`
    /// (pseudo-legally): the rule for keeping the square.
    pub(super) fn ep_capturable(&self, ep: usize) -> bool {
        PAWN_ATTACKS[self.side.other() as usize][ep] & self.pieces(self.side, Piece::Pawn) != 0
    }

    #[inline(always)]
    fn toggle(&mut self, c: Side, p: Piece, sq: usize) {
        let b = 1u64 << sq;
        self.by_piece[p as usize] ^= b;
        self.by_color[c as usize] ^= b;
        self.hash ^= key_piece(c, p, sq);
    }

    /// Passes the turn (a null move, for searches): the other side to
    /// move, no en-passant square, the clocks on by one ply.
    pub(super) fn make_null(&mut self) {
        self.hash ^= key_ep(self.ep) ^ key_side();
        self.ep = NO_EP;
        self.halfmove = self.halfmove.saturating_add(1);
        if self.side == Side::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.other();
    }

    /// Plays a legal move (from this position's generator).
    #[inline]
    pub fn make(&mut self, m: RoyalGuardMove) {
        let us = self.side;
        let them = us.other();
        let (from, to) = (m.from(), m.to());
        let piece = self.kind_at(from);
        let kind = m.kind();
        self.hash ^= key_ep(self.ep) ^ key_castle(self.castling) ^ key_side();
        self.ep = NO_EP;
        self.halfmove = self.halfmove.saturating_add(1);
        if kind == MoveKind::EnPassant {
            self.toggle(them, Piece::Pawn, to ^ 8);
            self.halfmove = 0;
        } else if self.by_color[them as usize] & (1u64 << to) != 0 {
            let cap = self.kind_at(to);
            self.toggle(them, cap, to);
            self.halfmove = 0;
        }
        self.toggle(us, piece, from);
        match kind.promotion() {
            Some(p) => self.toggle(us, p, to),
            None => self.toggle(us, piece, to),
        }
        if piece == Piece::Pawn {
            self.halfmove = 0;
            if kind == MoveKind::DoublePush {
                let ep = (from + to) / 2;
                self.side = them;
                if self.ep_capturable(ep) {
                    self.ep = ep as u8;
                }
            }
        } else if kind == MoveKind::Castle {
            // The rook jumps to the square the king crossed.
            let (rf, rt) = if to > from {
                (to + 1, to - 1)
            } else {
                (to - 2, to + 1)
            };
            self.toggle(us, Piece::Rook, rf);
            self.toggle(us, Piece::Rook, rt);
        }
        self.castling &= CASTLE_MASK[from] & CASTLE_MASK[to];
        if us == Side::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.hash ^= key_ep(self.ep) ^ key_castle(self.castling);
    }
}
