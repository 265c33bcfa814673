//! The Sly board's geometry (§2.1, §2.2): spaces, rows, columns, fields,
//! bands and centres as bit sets, shifts the Sly way, headings and slides,
//! corner reflections and row/column occupancy words.

use crate::board::bits::B192;
use crate::board::grid::SquareGrid;

/// Spaces per row and per column.
pub const SIDE: u32 = 12;

/// Spaces on the board.
pub const SQUARES: u32 = SIDE * SIDE;

/// The bit index of 0-based row `r` (0 = row 1, the top) and column `c`
/// (0 = A).
#[inline(always)]
pub const fn square(r: u32, c: u32) -> u32 {
    r * SIDE + c
}

/// The 0-based row of a space (0 = row 1, the top).
#[inline(always)]
pub const fn row_of(sq: u32) -> u32 {
    sq / SIDE
}

/// The 0-based column of a space (0 = A).
#[inline(always)]
pub const fn col_of(sq: u32) -> u32 {
    sq % SIDE
}

/// The field of a space, `4 * band + field column`, 0..16 (§2.2).
#[inline(always)]
pub const fn field_of(sq: u32) -> u32 {
    (row_of(sq) / 3) * 4 + col_of(sq) / 3
}

/// Whether a space is a field centre (§2.2: `r % 3 == 1 && c % 3 == 1`).
#[inline(always)]
pub const fn is_centre(sq: u32) -> bool {
    row_of(sq) % 3 == 1 && col_of(sq) % 3 == 1
}

/// The centre space of field `f` (0..16): `(3 * (f / 4) + 1, 3 * (f % 4) + 1)`.
#[inline(always)]
pub const fn centre_of_field(f: u32) -> u32 {
    square(3 * (f / 4) + 1, 3 * (f % 4) + 1)
}

const fn build_rows() -> [B192; 12] {
    let mut t = [B192([0; 3]); 12];
    let mut r = 0;
    while r < SIDE {
        let mut c = 0;
        while c < SIDE {
            t[r as usize] = t[r as usize].with(square(r, c));
            c += 1;
        }
        r += 1;
    }
    t
}

const fn build_cols() -> [B192; 12] {
    let mut t = [B192([0; 3]); 12];
    let mut c = 0;
    while c < SIDE {
        let mut r = 0;
        while r < SIDE {
            t[c as usize] = t[c as usize].with(square(r, c));
            r += 1;
        }
        c += 1;
    }
    t
}

const fn build_fields() -> [B192; 16] {
    let mut t = [B192([0; 3]); 16];
    let mut sq = 0;
    while sq < SQUARES {
        let f = field_of(sq) as usize;
        t[f] = t[f].with(sq);
        sq += 1;
    }
    t
}

const fn union_of<const N: usize>(sets: &[B192; N], from: usize, to: usize) -> B192 {
    let mut u = B192([0; 3]);
    let mut i = from;
    while i < to {
        u = u.union(sets[i]);
        i += 1;
    }
    u
}

const fn build_bands() -> [B192; 4] {
    let mut t = [B192([0; 3]); 4];
    let mut k = 0;
    while k < 4 {
        t[k] = union_of(&ROWS, 3 * k, 3 * k + 3);
        k += 1;
    }
    t
}

const fn build_field_columns() -> [B192; 4] {
    let mut t = [B192([0; 3]); 4];
    let mut k = 0;
    while k < 4 {
        t[k] = union_of(&COLS, 3 * k, 3 * k + 3);
        k += 1;
    }
    t
}

const fn build_centres() -> B192 {
    let mut u = B192([0; 3]);
    let mut f = 0;
    while f < 16 {
        u = u.with(centre_of_field(f));
        f += 1;
    }
    u
}

/// Row masks, `ROWS[r]` for 0-based row `r` (0 = row 1, the top).
pub const ROWS: [B192; 12] = build_rows();

/// Column masks, `COLS[c]` for 0-based column `c` (0 = A).
pub const COLS: [B192; 12] = build_cols();

/// Field masks, `FIELDS[4 * band + field column]` (§2.2).
pub const FIELDS: [B192; 16] = build_fields();

/// Band masks: band k is rows `3k+1 ..= 3k+3` (1-based), a row of four
/// fields (Sniggle's tracks, §4.1 N-SET-2).
pub const BANDS: [B192; 4] = build_bands();

/// Field-column masks: field column k is columns `3k ..= 3k+2` (A–C, D–F,
/// G–I, J–L) over all rows.
pub const FIELD_COLUMNS: [B192; 4] = build_field_columns();

/// The 16 field centres (§2.2).
pub const CENTRES: B192 = build_centres();

/// All 144 spaces.
pub const FULL: B192 = union_of(&ROWS, 0, 12);

/// The board as a [`SquareGrid`] (12 × 12): grid rank 0 is row 1 (top),
/// grid file 0 is column A. Edge masks: `first_rank` = row 1, `last_rank`
/// = row 12, `first_file` = A, `last_file` = L.
pub const GRID: SquareGrid<B192> = SquareGrid {
    w: SIDE,
    h: SIDE,
    full: FULL,
    first_file: COLS[0],
    last_file: COLS[11],
    first_rank: ROWS[0],
    last_rank: ROWS[11],
};

/// Each member moved one row up (towards row 1); row 1 falls off.
#[inline(always)]
pub fn up(b: B192) -> B192 {
    GRID.south(b)
}

/// Each member moved one row down (towards row 12); row 12 falls off.
#[inline(always)]
pub fn down(b: B192) -> B192 {
    GRID.north(b)
}

/// Each member moved one column left; column A falls off.
#[inline(always)]
pub fn left(b: B192) -> B192 {
    GRID.west(b)
}

/// Each member moved one column right; column L falls off.
#[inline(always)]
pub fn right(b: B192) -> B192 {
    GRID.east(b)
}

/// One of the four orthogonal headings on the Sly board, in clockwise
/// order, so a right turn is `+1` and a left turn `+3` (mod 4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Heading {
    /// Towards row 1 (the top edge).
    Up = 0,
    /// Towards column L.
    Right = 1,
    /// Towards row 12 (the bottom edge).
    Down = 2,
    /// Towards column A.
    Left = 3,
}

impl Heading {
    /// The four headings, clockwise from [`Heading::Up`].
    pub const ALL: [Heading; 4] = [Heading::Up, Heading::Right, Heading::Down, Heading::Left];

    /// The heading after a 90° turn to the right (clockwise).
    #[inline(always)]
    pub fn turn_right(self) -> Heading {
        Heading::ALL[(self as usize + 1) & 3]
    }

    /// The heading after a 90° turn to the left.
    #[inline(always)]
    pub fn turn_left(self) -> Heading {
        Heading::ALL[(self as usize + 3) & 3]
    }

    /// The opposite heading.
    #[inline(always)]
    pub fn reverse(self) -> Heading {
        Heading::ALL[(self as usize + 2) & 3]
    }

    /// The spaces of the edge this heading runs off: row 1 for
    /// [`Heading::Up`], column L for [`Heading::Right`], and so on.
    #[inline(always)]
    pub fn edge(self) -> B192 {
        match self {
            Heading::Up => ROWS[0],
            Heading::Right => COLS[11],
            Heading::Down => ROWS[11],
            Heading::Left => COLS[0],
        }
    }

    /// Each member moved one space this way; members on [`Heading::edge`]
    /// fall off.
    #[inline(always)]
    pub fn step(self, b: B192) -> B192 {
        match self {
            Heading::Up => up(b),
            Heading::Right => right(b),
            Heading::Down => down(b),
            Heading::Left => left(b),
        }
    }

    /// The space one step from `sq` this way, or `None` off the board.
    #[inline(always)]
    pub fn step_square(self, sq: u32) -> Option<u32> {
        let (r, c) = (row_of(sq), col_of(sq));
        match self {
            Heading::Up => (r > 0).then(|| sq - SIDE),
            Heading::Right => (c + 1 < SIDE).then(|| sq + 1),
            Heading::Down => (r + 1 < SIDE).then(|| sq + SIDE),
            Heading::Left => (c > 0).then(|| sq - 1),
        }
    }
}

/// Occluded fill (Kogge-Stone): `from` together with every space reached
/// from a member of `from` by repeated single steps `heading`-wards through
/// spaces of `free` (a slide that stops before the first space not in
/// `free` or at the edge). `from` need not be in `free`. Four shift rounds
/// (1, 2, 4, 8 spaces) cover the 11 steps of a row or column.
#[inline(always)]
pub fn slide_fill(heading: Heading, from: B192, free: B192) -> B192 {
    let (mut g, mut p) = (from, free & FULL);
    match heading {
        Heading::Down => {
            for k in [1u32, 2, 4, 8] {
                g |= p & (g << (SIDE * k));
                p &= p << (SIDE * k);
            }
        }
        Heading::Up => {
            for k in [1u32, 2, 4, 8] {
                g |= p & (g >> (SIDE * k));
                p &= p >> (SIDE * k);
            }
        }
        Heading::Right => {
            // A step right from column L would wrap to column A.
            p &= !COLS[0];
            for k in [1u32, 2, 4, 8] {
                g |= p & (g << k);
                p &= p << k;
            }
        }
        Heading::Left => {
            p &= !COLS[11];
            for k in [1u32, 2, 4, 8] {
                g |= p & (g >> k);
                p &= p >> k;
            }
        }
    }
    g
}

/// The 12 bits of row `r` (0-based, 0 = row 1): bit `c` of the result is
/// column `c` (bit 0 = A). A row never needs more than one word boundary
/// crossing, so this is two shifts and a mask.
#[inline(always)]
pub fn row_bits(b: B192, r: u32) -> u16 {
    b.bits_at(r * SIDE, SIDE) as u16
}

/// The set of row `r` (0-based) holding the columns in the 12-bit `bits`
/// (bit `c` = column `c`).
#[inline(always)]
pub fn row_set(r: u32, bits: u16) -> B192 {
    B192::from((bits & 0xFFF) as u128) << (r * SIDE)
}

/// The columns (or rows) of the field centres as a 12-bit mask: B, E, H,
/// K (rows 2, 5, 8, 11), §2.2.
pub const CENTRE_LINES: u16 = 0b0100_1001_0010;

/// The four board corners, clockwise from the top left: `0` = TL (1A),
/// `1` = TR (1L), `2` = BR (12L), `3` = BL (12A). Names `TL TR BR BL`.
pub const CORNER_NAMES: [&str; 4] = ["TL", "TR", "BR", "BL"];

/// A square of the top-left corner's frame `(r, c)` (0-based) reflected
/// into `corner` (see [`CORNER_NAMES`]): TR mirrors the columns, BL the
/// rows, BR both (the point reflection). Armies and set-ups drawn for the
/// top-left corner are placed in the others this way (Empire E-SET-3).
#[inline]
pub const fn reflect_into(corner: u32, r: u32, c: u32) -> u32 {
    let rr = if corner == 2 || corner == 3 {
        SIDE - 1 - r
    } else {
        r
    };
    let cc = if corner == 1 || corner == 2 {
        SIDE - 1 - c
    } else {
        c
    };
    square(rr, cc)
}

/// Occupancy of every row and column as 12-bit masks (bit `c` of `rows[r]`
/// and bit `r` of `cols[c]` for a piece on `(r, c)`): the unblocked
/// orthogonal movement of Empire (E-1) and Gateway (G-1) reads a piece's
/// empty destinations from one row and one column word.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lines {
    /// Row `r` (0 = row 1): bit `c` set where `(r, c)` is occupied.
    pub rows: [u16; 12],
    /// Column `c` (0 = A): bit `r` set where `(r, c)` is occupied.
    pub cols: [u16; 12],
}

impl Lines {
    /// Adds or removes a piece on `sq`.
    #[inline(always)]
    pub fn toggle(&mut self, sq: u32) {
        let (r, c) = (row_of(sq), col_of(sq));
        self.rows[r as usize] ^= 1 << c;
        self.cols[c as usize] ^= 1 << r;
    }

    /// Whether `sq` is occupied.
    #[inline(always)]
    pub fn has(&self, sq: u32) -> bool {
        self.rows[row_of(sq) as usize] >> col_of(sq) & 1 == 1
    }

    /// The empty spaces of `sq`'s row (bit = column) and of its column
    /// (bit = row), as `(row mask, column mask)`; `sq` itself is occupied
    /// by the mover so it is never in either.
    #[inline(always)]
    pub fn empty_lines(&self, sq: u32) -> (u16, u16) {
        let (r, c) = (row_of(sq), col_of(sq));
        (
            !self.rows[r as usize] & 0xFFF,
            !self.cols[c as usize] & 0xFFF,
        )
    }
}

/// The squares at exactly `d` spaces from `sq` along its row and column
/// (up, down, left, right), where they are on the board: the exact-distance
/// captures of Empire (E-2). Calls `f(target)` for each.
#[inline(always)]
pub fn for_each_at_distance(sq: u32, d: u32, mut f: impl FnMut(u32)) {
    let (r, c) = (row_of(sq), col_of(sq));
    if r >= d {
        f(sq - d * SIDE);
    }
    if r + d < SIDE {
        f(sq + d * SIDE);
    }
    if c >= d {
        f(sq - d);
    }
    if c + d < SIDE {
        f(sq + d);
    }
}
