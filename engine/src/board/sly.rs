//! The Sly board: Sid Sackson's *Sly* game system (six games on one board:
//! Solitaire Sly, Sniggle, Line Up, Blockade, Empire, Gateway). Geometry
//! from `docs/rules/sly-board.md` §2.
//!
//! * **Board** (§1.1, §2.1): 12 × 12 spaces. Rows are numbered **1–12 from
//!   the top**, columns lettered **A–L from the left**, and a space is named
//!   row first, as the rule book writes it: `5E` is row 5, column E.
//! * **Fields** (§2.2): 16 fields of 3 × 3. The field of `(r, c)` (0-based)
//!   is `(r / 3, c / 3)`, numbered `4 * (r / 3) + c / 3`. Field rows are
//!   called **bands** (band k = rows `3k+1 ..= 3k+3`, 0-based k), field
//!   columns **field columns** (columns `3k ..= 3k+2`).
//! * **Centres** (§2.2): the middle space of each field (circled on the
//!   board): rows {2, 5, 8, 11} × columns {B, E, H, K}.
//! * **Headings** ([`Heading`]) and the occluded [`slide_fill`]: the four
//!   orthogonal directions with turns, and a bitboard slide through free
//!   spaces (Blockade's guard moves and escape search, §6).
//!
//! ## Bits
//! Space `(r, c)` (0-based, `r = row − 1`, `c = column − 'A'`) is bit
//! `r * 12 + c` of a [`B192`] (144 of its 192 bits). [`GRID`] is the
//! [`SquareGrid`] over those bits: its "rank 0" is row 1 at the **top**, so
//! the grid's `north` moves *down* the Sly board; [`up`], [`down`], [`left`]
//! and [`right`] say it the Sly way. All of the toolkit's flood fills and
//! connection tests work on [`GRID`] unchanged.
//!
//! Every table here is a constant built at compile time.

use super::bits::B192;
use super::grid::SquareGrid;
use crate::error::GameError;

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

/// The rule book's name of a space: row number then column letter, `5E`
/// (§2.1).
pub fn square_name(sq: u32) -> String {
    format!("{}{}", row_of(sq) + 1, (b'A' + col_of(sq) as u8) as char)
}

/// Parses a space name: a row 1–12 then a column letter A–L (either case),
/// `5E` or `10c`.
///
/// # Errors
/// Anything else; the message names the text and the expected form.
pub fn parse_square(text: &str) -> Result<u32, GameError> {
    let bad = || {
        GameError::new(format!(
            "bad Sly square {text:?}: expected a row 1-12 then a column A-L, e.g. 5E"
        ))
    };
    let t = text.as_bytes();
    if t.len() < 2 || t.len() > 3 {
        return Err(bad());
    }
    let (digits, letter) = t.split_at(t.len() - 1);
    if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
        return Err(bad());
    }
    let row: u32 = text[..digits.len()].parse().map_err(|_| bad())?;
    let col = letter[0].to_ascii_uppercase();
    if !(1..=SIDE).contains(&row) || !(b'A'..=b'L').contains(&col) {
        return Err(bad());
    }
    Ok(square(row - 1, (col - b'A') as u32))
}

/// The board field of a position text (Sniggle, Blockade): rows 1 to 12
/// (top first) separated by `/`, a run of empty spaces written as its
/// length, an occupied space as `cell(sq)`'s letter: `12/4k7/...`.
pub fn rows_text(cell: impl Fn(u32) -> Option<char>) -> String {
    let mut rows = Vec::with_capacity(SIDE as usize);
    for r in 0..SIDE {
        let mut row = String::new();
        let mut run = 0;
        for c in 0..SIDE {
            match cell(square(r, c)) {
                Some(ch) => {
                    if run > 0 {
                        row.push_str(&run.to_string());
                        run = 0;
                    }
                    row.push(ch);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// Reads the board field written by [`rows_text`], calling `put(sq, ch)`
/// for each occupied space in reading order; `put` rejects a letter with a
/// message.
///
/// # Errors
/// Not 12 rows, a row not of 12 spaces, a run of 0, or `put`'s message,
/// each naming the row.
pub fn parse_rows(
    text: &str,
    mut put: impl FnMut(u32, char) -> Result<(), String>,
) -> Result<(), String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIDE as usize {
        return Err(format!("{} rows, expected 12", rows.len()));
    }
    for (r, row) in rows.iter().enumerate() {
        let r = r as u32;
        let mut c = 0u32;
        let mut digits = 0u32;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                digits = digits.saturating_mul(10).saturating_add(d);
                if chars.peek().is_some_and(|x| x.is_ascii_digit()) {
                    continue;
                }
                if digits == 0 {
                    return Err(format!("row {}: an empty run of 0", r + 1));
                }
                c = c.saturating_add(digits);
                digits = 0;
                continue;
            }
            if c >= SIDE {
                return Err(format!("row {} is longer than 12 spaces", r + 1));
            }
            put(square(r, c), ch).map_err(|e| format!("{e} in row {}", r + 1))?;
            c += 1;
        }
        if c != SIDE {
            return Err(format!("row {} has {c} spaces, expected 12", r + 1));
        }
    }
    Ok(())
}

/// The board as the dossier draws it (§2.1): column letters on top, row
/// numbers on the left, `|` and `-` between fields. `cell(sq)` gives the
/// character of a space, or `None` for an empty one, drawn `o` on a centre
/// and `.` elsewhere. Twelve rows plus header and separators, no trailing
/// newline.
pub fn diagram(cell: impl Fn(u32) -> Option<char>) -> String {
    let mut out = String::from("      A  B  C    D  E  F    G  H  I    J  K  L");
    for r in 0..SIDE {
        if r > 0 && r % 3 == 0 {
            out.push_str("\n     ---------+----------+----------+---------");
        }
        out.push_str(&format!("\n{:>3}   ", r + 1));
        for c in 0..SIDE {
            if c > 0 {
                out.push_str(if c % 3 == 0 { " |  " } else { "  " });
            }
            let sq = square(r, c);
            let ch = cell(sq).unwrap_or(if is_centre(sq) { 'o' } else { '.' });
            out.push(ch);
        }
    }
    out
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

/// Writes a board of typed, owned pieces as position text: rows 1 to 12
/// separated by `/`, each space a `.` when empty or a piece's kind letter
/// followed by its seat number (1-based), e.g. `C1A1H1A1........`.
/// `cell(sq)` gives `(kind letter, 0-based seat)`.
pub fn write_cells(cell: impl Fn(u32) -> Option<(char, usize)>) -> String {
    let mut out = String::new();
    for r in 0..SIDE {
        if r > 0 {
            out.push('/');
        }
        for c in 0..SIDE {
            match cell(square(r, c)) {
                Some((k, s)) => {
                    out.push(k);
                    out.push((b'1' + s as u8) as char);
                }
                None => out.push('.'),
            }
        }
    }
    out
}

/// Reads the board text of [`write_cells`]: 12 rows of 12 spaces, each `.`
/// or a letter of `kinds` (either case) then a seat number `1..=seats`.
/// Returns per square `(kind index in kinds, 0-based seat)`.
///
/// # Errors
/// A wrong number of rows or spaces in a row, an unknown letter, a missing
/// or out-of-range seat number; the message names the row.
pub fn parse_cells(
    text: &str,
    kinds: &str,
    seats: usize,
) -> Result<[Option<(u8, u8)>; 144], GameError> {
    let mut out = [None; 144];
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIDE as usize {
        crate::bail!("{} rows, expected 12 separated by /", rows.len());
    }
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0u32;
        let mut chars = row.chars();
        while let Some(ch) = chars.next() {
            if c >= SIDE {
                crate::bail!("row {} is longer than 12 spaces", r + 1);
            }
            if ch != '.' {
                let Some(k) = kinds.find(ch.to_ascii_uppercase()) else {
                    crate::bail!(
                        "unknown piece letter {ch:?} in row {} (expected . or one of {kinds} then a seat 1-{seats})",
                        r + 1
                    );
                };
                let seat = chars.next().and_then(|d| d.to_digit(10)).unwrap_or(0) as usize;
                if !(1..=seats).contains(&seat) {
                    crate::bail!(
                        "piece {ch:?} in row {} needs a seat number 1-{seats} after it",
                        r + 1
                    );
                }
                out[square(r as u32, c) as usize] = Some((k as u8, (seat - 1) as u8));
            }
            c += 1;
        }
        if c != SIDE {
            crate::bail!("row {} has {c} spaces, expected 12", r + 1);
        }
    }
    Ok(out)
}

/// Seats, sides and results of the multi-player Sly games (§2.3: turn order
/// to the left, partners alternating, so teams are seats 0+2 and 1+3).
pub mod seats {
    use crate::api::{MAX_SEATS, Returns};
    use crate::board::zobrist;
    use crate::error::GameError;

    /// The seats on `seat`'s side as a bit mask: itself, and with teams its
    /// partner (`seat ^ 2`).
    #[inline(always)]
    pub fn side_mask(teams: bool, seat: usize) -> u8 {
        if teams {
            0b0101 << (seat & 1)
        } else {
            1 << seat
        }
    }

    /// Returns when the seats in `winners` (a bit mask) have won: +1 for
    /// them, −1 for every other of the `players` seats.
    pub fn win_returns(winners: u8, players: usize) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        for (k, x) in r.iter_mut().enumerate().take(players) {
            *x = if winners >> k & 1 == 1 { 1.0 } else { -1.0 };
        }
        r
    }

    /// The seats of a bit mask, in order.
    pub fn of_mask(mask: u8) -> Vec<usize> {
        (0..MAX_SEATS).filter(|&s| mask >> s & 1 == 1).collect()
    }

    /// The seats of a bit mask, 1-based, joined by `+` (`1+3`).
    pub fn mask_text(mask: u8) -> String {
        let w: Vec<String> = of_mask(mask).iter().map(|k| (k + 1).to_string()).collect();
        w.join("+")
    }

    /// Reads a per-seat placement parameter (`corners=13`, `colours=24`):
    /// `auto` gives `default`, else one digit 1-4 per seat, all different,
    /// stored 0-based.
    ///
    /// # Errors
    /// Another length, a digit outside 1-4 or a repeated one; the message
    /// names the parameter and says what `what` (e.g. "corner (1=TL ...)")
    /// each digit is.
    pub fn parse_places(
        game: &str,
        name: &str,
        text: &str,
        players: u8,
        default: [u8; 4],
        what: &str,
    ) -> Result<[u8; 4], GameError> {
        if text.eq_ignore_ascii_case("auto") {
            return Ok(default);
        }
        let digits: Vec<u8> = text.bytes().map(|d| d.wrapping_sub(b'1')).collect();
        if digits.len() != players as usize || digits.iter().any(|&d| d > 3) {
            crate::bail!(
                "game {game}: {name}={text:?} is not valid (expected auto or {players} digits 1-4, one {what} per seat)"
            );
        }
        if (1..digits.len()).any(|i| digits[..i].contains(&digits[i])) {
            crate::bail!(
                "game {game}: {name} must give {players} different digits 1-4, one {what} per seat"
            );
        }
        let mut out = [0u8; 4];
        out[..digits.len()].copy_from_slice(&digits);
        Ok(out)
    }

    /// The checks every multi-player Sly game makes of its seat parameters:
    /// 2–4 players, teams only with 4, a first seat among them, a ply cap
    /// in `1..=1000000`.
    ///
    /// # Errors
    /// The first that fails, named.
    pub fn check(
        game: &str,
        players: u8,
        teams: bool,
        first_seat: u8,
        ply_cap: u32,
    ) -> Result<(), GameError> {
        if !(2..=4).contains(&players) {
            crate::bail!("game {game}: players={players} is not valid (expected one of 2|3|4)");
        }
        if teams && players != 4 {
            crate::bail!(
                "game {game}: teams=true needs players=4 (partners are seats 0+2 against 1+3, §2.3), not players={players}"
            );
        }
        if first_seat >= players {
            crate::bail!(
                "game {game}: first_seat={first_seat} is not valid (expected 0..={})",
                players - 1
            );
        }
        if !(1..=1_000_000).contains(&ply_cap) {
            crate::bail!(
                "game {game}: ply_cap={ply_cap} is not valid (expected integer 1..=1000000)"
            );
        }
        Ok(())
    }

    /// Zobrist keys for three piece kinds of four seats on the Sly board,
    /// the seat to move and one flag (e.g. the game is over).
    pub struct PieceKeys {
        /// `piece[seat][kind][square]`.
        pub piece: [[[u64; 144]; 3]; MAX_SEATS],
        /// The seat to move.
        pub seat: [u64; MAX_SEATS],
        /// A flag of the game's choosing.
        pub flag: u64,
    }

    impl PieceKeys {
        /// The keys drawn from `seed` (one seed per game).
        pub fn new(seed: u64) -> PieceKeys {
            let k = zobrist::keys(seed, MAX_SEATS * 3 * 144 + MAX_SEATS + 1);
            let mut it = k.into_iter();
            let mut take = || it.next().expect("enough keys");
            let mut keys = PieceKeys {
                piece: [[[0; 144]; 3]; MAX_SEATS],
                seat: [0; MAX_SEATS],
                flag: 0,
            };
            for seat in keys.piece.iter_mut() {
                for kind in seat.iter_mut() {
                    kind.iter_mut().for_each(|x| *x = take());
                }
            }
            keys.seat.iter_mut().for_each(|x| *x = take());
            keys.flag = take();
            keys
        }

        /// The key of a mailbox: `board[sq]` is 0 for empty or
        /// `1 + 3 * seat + kind`; plus the seat to move.
        pub fn of_board(&self, board: &[u8; 144], to_move: usize) -> u64 {
            let mut h = self.seat[to_move];
            for (sq, &v) in board.iter().enumerate() {
                if v != 0 {
                    h ^= self.piece[(v as usize - 1) / 3][(v as usize - 1) % 3][sq];
                }
            }
            h
        }
    }

    /// The board diagram (`super::diagram`) of a mailbox game, then its
    /// position text: a piece's letter upper case for seats 1 and 3, lower
    /// case for seats 2 and 4 (the seat itself is in the position text).
    pub fn diagram(cell: impl Fn(u32) -> Option<(char, usize)>, text: &str) -> String {
        let d = super::diagram(|sq| {
            cell(sq).map(|(k, s)| {
                if s % 2 == 0 {
                    k
                } else {
                    k.to_ascii_lowercase()
                }
            })
        });
        format!("{d}\n{text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Bits;

    #[test]
    fn geometry_matches_the_dossier() {
        // §2.2: the sixteen centres, by name.
        let names: Vec<String> = CENTRES.iter().map(square_name).collect();
        assert_eq!(
            names.join(" "),
            "2B 2E 2H 2K 5B 5E 5H 5K 8B 8E 8H 8K 11B 11E 11H 11K"
        );
        assert_eq!(FULL.count(), 144);
        for f in 0..16 {
            assert_eq!(FIELDS[f as usize].count(), 9);
            assert!(FIELDS[f as usize].has(centre_of_field(f)));
            assert_eq!(field_of(centre_of_field(f)), f);
        }
        // Field of 5E is band 1 (rows 4-6), field column 1 (D-F).
        let e5 = parse_square("5E").unwrap();
        assert_eq!((row_of(e5), col_of(e5), field_of(e5)), (4, 4, 5));
        assert!(is_centre(e5) && !is_centre(parse_square("5D").unwrap()));
        assert_eq!(BANDS[1].count(), 36);
        assert!(BANDS[1].has(parse_square("4A").unwrap()));
        assert!(!BANDS[1].has(parse_square("7A").unwrap()));
        assert_eq!(FIELD_COLUMNS[3], COLS[9] | COLS[10] | COLS[11]);
        // Row 1 is at the top: `up` from row 1 falls off, `down` goes to row 2.
        let a1 = parse_square("1A").unwrap();
        assert_eq!(up(B192::bit(a1)), B192::ZERO);
        assert_eq!(down(B192::bit(a1)), B192::bit(parse_square("2A").unwrap()));
        assert_eq!(left(B192::bit(a1)), B192::ZERO);
        assert_eq!(right(B192::bit(e5)), B192::bit(parse_square("5F").unwrap()));
        assert_eq!(right(B192::bit(parse_square("5L").unwrap())), B192::ZERO);
        // The toolkit's flood fill works on the Sly grid: a column joins
        // row 1 to row 12.
        assert!(GRID.connects4(COLS[4], GRID.first_rank, GRID.last_rank));
        assert!(!GRID.connects4(COLS[4] ^ B192::bit(e5), ROWS[0], ROWS[11]));
    }

    #[test]
    fn names_round_trip_and_rows_extract() {
        for sq in 0..SQUARES {
            assert_eq!(parse_square(&square_name(sq)).unwrap(), sq);
        }
        assert_eq!(square_name(0), "1A");
        assert_eq!(square_name(143), "12L");
        assert_eq!(parse_square("10c").unwrap(), square(9, 2));
        for bad in [
            "", "5", "E5", "0A", "13A", "5M", "05E", "5EE", "5 E", "-1A", "100A",
        ] {
            assert!(parse_square(bad).is_err(), "{bad:?}");
        }
        let b = B192::bit(square(5, 0)) | B192::bit(square(5, 11)) | B192::bit(square(6, 3));
        assert_eq!(row_bits(b, 5), 0b1000_0000_0001);
        assert_eq!(row_bits(b, 6), 0b1000);
        assert_eq!(row_set(5, 0b1000_0000_0001) | row_set(6, 0b1000), b);
        for r in 0..12 {
            assert_eq!(row_bits(FULL, r), 0xFFF);
            assert_eq!(row_set(r, 0xFFF), ROWS[r as usize]);
        }
    }

    #[test]
    fn headings_and_slide_fill() {
        let sq = |t: &str| parse_square(t).unwrap();
        assert_eq!(Heading::Up.turn_right(), Heading::Right);
        assert_eq!(Heading::Up.turn_left(), Heading::Left);
        assert_eq!(Heading::Left.reverse(), Heading::Right);
        assert_eq!(Heading::Down.step_square(sq("12A")), None);
        assert_eq!(Heading::Right.step_square(sq("5L")), None);
        assert_eq!(Heading::Left.step_square(sq("5B")), Some(sq("5A")));
        // From 5E with a blocker on 5I: right fills 5E..5H; left runs to 5A.
        let free = FULL ^ B192::bit(sq("5I"));
        let from = B192::bit(sq("5E"));
        let names = |b: B192| b.iter().map(square_name).collect::<Vec<_>>().join(" ");
        assert_eq!(names(slide_fill(Heading::Right, from, free)), "5E 5F 5G 5H");
        assert_eq!(
            names(slide_fill(Heading::Left, from, free)),
            "5A 5B 5C 5D 5E"
        );
        // No wrap from column L to the next row's column A.
        let l = B192::bit(sq("5K"));
        assert_eq!(names(slide_fill(Heading::Right, l, FULL)), "5K 5L");
        assert_eq!(
            names(slide_fill(Heading::Left, B192::bit(sq("6B")), FULL)),
            "6A 6B"
        );
        // Columns: up from 12C through everything to 1C; down from 1C
        // stopped by 7C.
        assert_eq!(slide_fill(Heading::Up, B192::bit(sq("12C")), FULL), COLS[2]);
        let stop = FULL ^ B192::bit(sq("7C"));
        assert_eq!(
            names(slide_fill(Heading::Down, B192::bit(sq("1C")), stop)),
            "1C 2C 3C 4C 5C 6C"
        );
        // Several sources at once.
        let two = B192::bit(sq("1A")) | B192::bit(sq("1L"));
        assert_eq!(slide_fill(Heading::Down, two, FULL), COLS[0] | COLS[11]);
    }

    #[test]
    fn rows_text_round_trips() {
        let marks = [square(0, 0), square(1, 4), square(11, 11)];
        let t = rows_text(|sq| marks.contains(&sq).then_some('x'));
        assert_eq!(t, "x11/4x7/12/12/12/12/12/12/12/12/12/11x");
        let mut seen = Vec::new();
        parse_rows(&t, |sq, ch| {
            seen.push((sq, ch));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, marks.map(|m| (m, 'x')));
        for bad in [
            "12",
            "13/12/12/12/12/12/12/12/12/12/12/12",
            "0x11/12/12/12/12/12/12/12/12/12/12/12",
        ] {
            assert!(parse_rows(bad, |_, _| Ok(())).is_err(), "{bad}");
        }
        let e = parse_rows(&t, |_, _| Err("no".into())).unwrap_err();
        assert_eq!(e, "no in row 1");
    }

    #[test]
    fn diagram_has_fields_and_centres() {
        let d = diagram(|sq| (sq == square(3, 0)).then_some('X'));
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines.len(), 16);
        assert_eq!(lines[0], "      A  B  C    D  E  F    G  H  I    J  K  L");
        assert_eq!(lines[2], "  2   .  o  . |  .  o  . |  .  o  . |  .  o  .");
        assert_eq!(lines[4], "     ---------+----------+----------+---------");
        assert_eq!(lines[5], "  4   X  .  . |  .  .  . |  .  .  . |  .  .  .");
    }

    #[test]
    fn corners_lines_distances_and_cells() {
        // E-SET-3: the template's 1C reflects to 1J (TR), 12J (BR), 12C (BL).
        let names: Vec<String> = (0..4).map(|k| square_name(reflect_into(k, 0, 2))).collect();
        assert_eq!(names, ["1C", "1J", "12J", "12C"]);
        let mut l = Lines::default();
        l.toggle(square(4, 4));
        l.toggle(square(4, 7));
        assert!(l.has(square(4, 7)) && !l.has(square(4, 5)));
        let (row, col) = l.empty_lines(square(4, 4));
        assert_eq!((row.count_ones(), col.count_ones()), (10, 11));
        let mut seen = Vec::new();
        for_each_at_distance(square(0, 0), 3, |t| seen.push(square_name(t)));
        assert_eq!(seen, ["4A", "1D"]);
        for k in 0..12 {
            assert_eq!(CENTRE_LINES >> k & 1 == 1, k % 3 == 1);
        }
        let text = write_cells(|sq| (sq == 1).then_some(('H', 2)));
        assert!(text.starts_with(".H3........../"), "{text}");
        let cells = parse_cells(&text, "CHA", 4).unwrap();
        assert_eq!(cells[1], Some((1, 2)));
        assert_eq!(cells.iter().flatten().count(), 1);
        assert!(parse_cells(&text, "CHA", 2).is_err());
        assert!(parse_cells(&text.replacen("H3", "Q3", 1), "CHA", 4).is_err());
        assert!(parse_cells(&text.replacen("H3", "H", 1), "CHA", 4).is_err());
        assert!(parse_cells(&text.replacen('.', "", 1), "CHA", 4).is_err());
    }
}
