//! Attack tables of the 8×8 chess board (a1 = bit 0, h8 = bit 63):
//! leaper tables (knight, king, pawn) and `between`/`line` tables computed
//! by `const fn` at compile time, slider attacks by magic bitboards whose
//! multipliers are searched once at start-up (a seeded SplitMix64 search,
//! about 20 ms) and kept in a `OnceLock`.

use std::sync::OnceLock;

use crate::board::zobrist::SplitMix64;

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

const fn leaper(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if on_board(nf, nr) {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Knight moves from each square.
pub const KNIGHT: [u64; 64] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// King steps from each square (also the royal powers of RG-3 and RG-5 a).
pub const KING: [u64; 64] = leaper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);

/// `PAWN_ATTACKS[c][sq]`: the squares a pawn of colour `c` (0 White, 1
/// Black) on `sq` attacks diagonally.
pub const PAWN_ATTACKS: [[u64; 64]; 2] = [leaper(&[(1, 1), (-1, 1)]), leaper(&[(1, -1), (-1, -1)])];

const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

const fn build_lines(between: bool) -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let (f, r) = ((a % 8) as i32, (a / 8) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            // Walk from a towards each target b along d.
            let mut path = 0u64;
            let (mut nf, mut nr) = (f + df, r + dr);
            while on_board(nf, nr) {
                let b = (nr * 8 + nf) as usize;
                if between {
                    t[a][b] = path;
                } else {
                    // The full line through a and b, both directions.
                    let mut full = 1u64 << a;
                    let mut k = 0;
                    while k < 2 {
                        let (sf, sr) = if k == 0 { (df, dr) } else { (-df, -dr) };
                        let (mut xf, mut xr) = (f + sf, r + sr);
                        while on_board(xf, xr) {
                            full |= 1u64 << (xr * 8 + xf);
                            xf += sf;
                            xr += sr;
                        }
                        k += 1;
                    }
                    t[a][b] = full;
                }
                path |= 1u64 << b;
                nf += df;
                nr += dr;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` on a shared
/// rank, file or diagonal; 0 if they share none.
pub static BETWEEN: [[u64; 64]; 64] = build_lines(true);

/// `LINE[a][b]`: the whole rank, file or diagonal through `a` and `b`
/// (edge to edge); 0 if they share none.
pub static LINE: [[u64; 64]; 64] = build_lines(false);

fn slide(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut nf, mut nr) = (f + df, r + dr);
        while on_board(nf, nr) {
            let b = 1u64 << (nr * 8 + nf);
            out |= b;
            if occ & b != 0 {
                break;
            }
            nf += df;
            nr += dr;
        }
    }
    out
}

/// Slider attacks by ray walking (slow; used to build the magic tables and
/// by tests).
pub fn slow_rook(sq: usize, occ: u64) -> u64 {
    slide(sq, occ, &DIRS[..4])
}

/// Slider attacks by ray walking (slow; used to build the magic tables and
/// by tests).
pub fn slow_bishop(sq: usize, occ: u64) -> u64 {
    slide(sq, occ, &DIRS[4..])
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    mult: u64,
    shift: u32,
    offset: u32,
}

/// Magic-bitboard slider tables ("fancy" magics: one shared table, a
/// per-square offset and shift).
pub struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
}

fn relevant_mask(sq: usize, rook: bool) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let dirs: &[(i32, i32)] = if rook { &DIRS[..4] } else { &DIRS[4..] };
    let mut m = 0;
    for &(df, dr) in dirs {
        let (mut nf, mut nr) = (f + df, r + dr);
        // Stop before the edge: the last square's occupancy never matters.
        while on_board(nf + df, nr + dr) {
            m |= 1u64 << (nr * 8 + nf);
            nf += df;
            nr += dr;
        }
    }
    m
}

fn find_magic(sq: usize, rook: bool, rng: &mut SplitMix64, table: &mut Vec<u64>) -> Magic {
    let mask = relevant_mask(sq, rook);
    let bits = mask.count_ones();
    let n = 1usize << bits;
    let mut occs = Vec::with_capacity(n);
    let mut atts = Vec::with_capacity(n);
    // Carry-Rippler enumeration of the subsets of `mask`.
    let mut sub = 0u64;
    loop {
        occs.push(sub);
        atts.push(if rook {
            slow_rook(sq, sub)
        } else {
            slow_bishop(sq, sub)
        });
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let shift = 64 - bits;
    let mut used = vec![0u64; n];
    let mut stamp = vec![0u32; n];
    let mut attempt = 0u32;
    loop {
        let mult = rng.next() & rng.next() & rng.next();
        if (mask.wrapping_mul(mult) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for (o, a) in occs.iter().zip(&atts) {
            let idx = (o.wrapping_mul(mult) >> shift) as usize;
            if stamp[idx] != attempt {
                stamp[idx] = attempt;
                used[idx] = *a;
            } else if used[idx] != *a {
                ok = false;
                break;
            }
        }
        if ok {
            let offset = table.len() as u32;
            table.extend_from_slice(&used);
            return Magic {
                mask,
                mult,
                shift,
                offset,
            };
        }
    }
}

impl Sliders {
    fn build() -> Sliders {
        let mut rng = SplitMix64(0x5259_414C_4755_4152);
        let mut table = Vec::with_capacity(110_000);
        let mut rook = [Magic::default(); 64];
        let mut bishop = [Magic::default(); 64];
        for (sq, m) in rook.iter_mut().enumerate() {
            *m = find_magic(sq, true, &mut rng, &mut table);
        }
        for (sq, m) in bishop.iter_mut().enumerate() {
            *m = find_magic(sq, false, &mut rng, &mut table);
        }
        Sliders {
            rook,
            bishop,
            table,
        }
    }

    /// Rook attacks from `sq` with blockers `occ` (blockers included).
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u64) -> u64 {
        let m = &self.rook[sq];
        let idx = ((occ & m.mask).wrapping_mul(m.mult) >> m.shift) as usize;
        self.table[m.offset as usize + idx]
    }

    /// Bishop attacks from `sq` with blockers `occ` (blockers included).
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u64) -> u64 {
        let m = &self.bishop[sq];
        let idx = ((occ & m.mask).wrapping_mul(m.mult) >> m.shift) as usize;
        self.table[m.offset as usize + idx]
    }
}

/// The slider tables, built on first use.
#[inline(always)]
pub fn sliders() -> &'static Sliders {
    static S: OnceLock<Sliders> = OnceLock::new();
    S.get_or_init(Sliders::build)
}

/// The sub-grid masks of RG-G1 (§3.2), indexed by `(file & 1) | (rank & 1) << 1`.
pub const SUBGRID: [u64; 4] = [
    0x0055_0055_0055_0055,
    0x00AA_00AA_00AA_00AA,
    0x5500_5500_5500_5500,
    0xAA00_AA00_AA00_AA00,
];

/// The sub-grid mask of square `sq` (RG-G1).
#[inline(always)]
pub fn subgrid_of(sq: usize) -> u64 {
    SUBGRID[(sq & 1) | ((sq >> 3) & 1) << 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_match_ray_walks() {
        let s = sliders();
        let mut rng = SplitMix64(3);
        for sq in 0..64 {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(s.rook(sq, occ), slow_rook(sq, occ));
                assert_eq!(s.bishop(sq, occ), slow_bishop(sq, occ));
            }
        }
    }

    #[test]
    fn tables() {
        assert_eq!(KNIGHT[0], (1 << 10) | (1 << 17));
        assert_eq!(KING[0], (1 << 1) | (1 << 8) | (1 << 9));
        assert_eq!(BETWEEN[0][63].count_ones(), 6);
        assert_eq!(BETWEEN[0][10], 0);
        assert_eq!(LINE[0][9], LINE[63][54]);
        // The masks of §3.2: each is 16 squares, disjoint, covering the board.
        assert_eq!(SUBGRID.iter().fold(0, |a, m| a | m), u64::MAX);
        assert!(SUBGRID.iter().all(|m| m.count_ones() == 16));
        assert_eq!(subgrid_of(4), SUBGRID[0]); // e1
        assert_eq!(subgrid_of(28), SUBGRID[2]); // e4: even file, odd rank
    }
}
