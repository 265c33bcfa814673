//! A position as a picture (`Research::board_picture`): the
//! picture model and the drawing helpers games share (square boards, the
//! Alquerque lines, the Sly board).

/// A board position as a picture ([`crate::api::Research::board_picture`]), in cell
/// units: a square cell is 1 wide, a hex cell's centres are 1 apart.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardPicture {
    /// How each cell is drawn.
    pub cell_shape: CellShape,
    /// Every cell of the board.
    pub cells: Vec<CellPicture>,
    /// Lines to draw between cells (indices into `cells`): Andalusia's
    /// Alquerque lines.
    pub links: Vec<(usize, usize)>,
}

/// The outline of a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellShape {
    /// A unit square.
    Square,
    /// A hexagon with flat top and bottom.
    HexFlat,
    /// A hexagon with a point at top and bottom.
    HexPointy,
    /// A point where lines meet (no outline; see [`BoardPicture::links`]).
    Point,
}

/// One cell of a [`BoardPicture`].
#[derive(Clone, Debug, PartialEq)]
pub struct CellPicture {
    /// Centre, x to the right, in cell units.
    pub x: f64,
    /// Centre, y downwards, in cell units.
    pub y: f64,
    /// The cell's name in the game's notation (`e4`, `D4`).
    pub name: String,
    /// What the cell is.
    pub kind: CellKind,
    /// A circle on the cell: the Sly board's field centres.
    pub circled: bool,
    /// What stands on it.
    pub piece: Option<PiecePicture>,
}

/// What a cell is, for its fill.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// An ordinary light cell.
    Light,
    /// An ordinary dark cell (chequered boards, alternate Sly fields).
    Dark,
    /// A coloured tile (Bagel), by colour index.
    Tile(u8),
    /// A castle cell of a seat's colour (King's Colour).
    Castle(usize),
    /// A wall cell of a seat's colour (King's Colour).
    Wall(usize),
    /// No tile: a hole in the board (Bagel's centre).
    Hole,
}

/// A piece (or a stack) on a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PiecePicture {
    /// The colour index (0, 1, ...: the game's colours, first mover's
    /// first), `None` for a neutral piece.
    pub colour: Option<usize>,
    /// The letter(s) drawn on it: its kind, or a stack's height.
    pub label: String,
}

/// A square board's picture from its run-length rows (the first field of
/// the position text, top rank first; see [`crate::board::text`]): cell
/// `(file, rank)` is named `a1` at the bottom left. `piece` reads one
/// piece's text (`two_char`: a letter and a digit, as `A1` on the Sly war
/// games; else one character; `.` is an empty cell in both). `None` where
/// the rows are not all of one width.
pub fn square_picture(
    rows: &str,
    two_char: bool,
    piece: impl Fn(&str) -> Option<PiecePicture>,
    kind: impl Fn(u32, u32) -> CellKind,
) -> Option<BoardPicture> {
    // Each row as its cells' occupants, left to right.
    let mut grid: Vec<Vec<Option<PiecePicture>>> = Vec::new();
    for line in rows.split('/') {
        let chars: Vec<char> = line.chars().collect();
        let mut row = Vec::new();
        let mut k = 0;
        while k < chars.len() {
            let ch = chars[k];
            if ch.is_ascii_digit() {
                let mut run = 0usize;
                while k < chars.len() && chars[k].is_ascii_digit() {
                    run = run
                        .saturating_mul(10)
                        .saturating_add(chars[k] as usize - '0' as usize);
                    k += 1;
                }
                if run > 64 {
                    return None;
                }
                row.extend(std::iter::repeat_n(None, run));
            } else if ch == '.' {
                row.push(None);
                k += 1;
            } else {
                let len = if two_char && chars.get(k + 1).is_some_and(|c| c.is_ascii_digit()) {
                    2
                } else {
                    1
                };
                let text: String = chars[k..k + len].iter().collect();
                row.push(piece(&text));
                k += len;
            }
        }
        grid.push(row);
    }
    let height = grid.len();
    let width = grid[0].len();
    if width == 0 || width > 26 || grid.iter().any(|r| r.len() != width) {
        return None;
    }
    let mut cells = Vec::new();
    for (i, row) in grid.into_iter().enumerate() {
        let rank = (height - 1 - i) as u32;
        for (file, occupant) in row.into_iter().enumerate() {
            cells.push(CellPicture {
                x: file as f64 + 0.5,
                y: i as f64 + 0.5,
                name: format!("{}{}", (b'a' + file as u8) as char, rank + 1),
                kind: kind(file as u32, rank),
                circled: false,
                piece: occupant,
            });
        }
    }
    Some(BoardPicture {
        cell_shape: CellShape::Square,
        cells,
        links: Vec::new(),
    })
}

/// Renames a 12 × 12 Sly board picture's cells in the Sly notation: row
/// number from the top, then column letter (`5E`; docs/rules/sly-board.md §2.1).
fn sly_names(p: &mut BoardPicture) {
    for c in &mut p.cells {
        let (col, row) = ((c.x - 0.5) as u8, (c.y - 0.5) as u32);
        c.name = format!("{}{}", row + 1, (b'A' + col) as char);
    }
}

/// The links of a `size` × `size` Alquerque board with every other
/// horizontal and vertical line removed (Andalusia, docs/rules/andalusia.md
/// A-B1): horizontal links on odd ranks, vertical links on odd files
/// (1-based), diagonals through every point with `file + rank` even, as
/// indices into a [`square_picture`]'s cells (top rank first).
pub fn alquerque_links(size: u32) -> Vec<(usize, usize)> {
    let at = |file: u32, rank: u32| ((size - 1 - rank) * size + file) as usize;
    let mut links = Vec::new();
    for rank in 0..size {
        for file in 0..size {
            if rank % 2 == 0 && file + 1 < size {
                links.push((at(file, rank), at(file + 1, rank)));
            }
            if file % 2 == 0 && rank + 1 < size {
                links.push((at(file, rank), at(file, rank + 1)));
            }
            if (file + rank) % 2 == 0 && rank + 1 < size {
                if file + 1 < size {
                    links.push((at(file, rank), at(file + 1, rank + 1)));
                }
                if file > 0 {
                    links.push((at(file, rank), at(file - 1, rank + 1)));
                }
            }
        }
    }
    links
}

/// The first field of a position text: its board rows.
pub fn board_field(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// A piece of colour `colour` labelled `label`.
pub fn piece(colour: Option<usize>, label: &str) -> Option<PiecePicture> {
    Some(PiecePicture {
        colour,
        label: label.to_string(),
    })
}

/// A chess-like piece letter: upper case colour 0, lower case colour 1.
pub fn cased_piece(text: &str) -> Option<PiecePicture> {
    let ch = text.chars().next()?;
    let colour = if ch.is_ascii_uppercase() {
        Some(0)
    } else if ch.is_ascii_lowercase() {
        Some(1)
    } else {
        None
    };
    Some(PiecePicture {
        colour,
        label: ch.to_ascii_uppercase().to_string(),
    })
}

/// The chequered colouring of square boards (a1 dark).
pub fn chequered(file: u32, rank: u32) -> CellKind {
    if (file + rank).is_multiple_of(2) {
        CellKind::Dark
    } else {
        CellKind::Light
    }
}

/// The Sly board's colouring: its 3 × 3 fields alternate (docs/rules/sly-board.md
/// §2.2).
fn sly_fields(file: u32, rank: u32) -> CellKind {
    if (file / 3 + rank / 3).is_multiple_of(2) {
        CellKind::Light
    } else {
        CellKind::Dark
    }
}

/// A 12 × 12 Sly board's picture from a position text: the cells of
/// [`square_picture`] (`two_char` and `piece` as there) in the Sly field
/// colouring, the 16 field centres circled and the cells named in the Sly
/// notation (docs/rules/sly-board.md §2). The picture of every Sly game.
pub fn sly_picture(
    text: &str,
    two_char: bool,
    piece: impl Fn(&str) -> Option<PiecePicture>,
) -> Option<BoardPicture> {
    let mut p = square_picture(board_field(text), two_char, piece, sly_fields)?;
    circle_sly_centres(&mut p);
    sly_names(&mut p);
    Some(p)
}

/// A Sly war-game piece written as its kind letter then its colour number
/// from 1 (`A2`: colour index 1), as Empire and Gateway write them.
pub fn numbered_piece(text: &str) -> Option<PiecePicture> {
    let colour = text.get(1..)?.parse::<usize>().ok()?.checked_sub(1)?;
    piece(Some(colour), &text[..1])
}

/// Circles the 16 field centres of a 12 × 12 Sly board picture (0-based
/// row and column `3k + 1`, docs/rules/sly-board.md §2.2).
fn circle_sly_centres(p: &mut BoardPicture) {
    for c in &mut p.cells {
        let (col, row) = ((c.x - 0.5) as u32, (c.y - 0.5) as u32);
        c.circled = col % 3 == 1 && row % 3 == 1;
    }
}

impl BoardPicture {
    /// The cells whose names occur in `text` (a move in the game's
    /// notation), as indices into [`BoardPicture::cells`], in the order they
    /// occur: `c3-d4` gives c3 then d4, `c3-b2;b2xa1` c3, b2, b2, a1. At each
    /// place the longest name wins and a name ending in a digit must not
    /// run on into another digit (so `a10` is not read as `a1`). Front ends use it to
    /// let a person click a move's cells, and the generic illegal-move
    /// reason to find a move's origin, with no game-specific code.
    pub fn cells_in(&self, text: &str) -> Vec<usize> {
        let bytes = text.as_bytes();
        let mut found = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let mut best: Option<(usize, usize)> = None;
            for (k, c) in self.cells.iter().enumerate() {
                let n = c.name.as_bytes();
                let end = i + n.len();
                if n.is_empty() || end > bytes.len() || &bytes[i..end] != n {
                    continue;
                }
                // `a1` must not be read out of `a10`.
                let runs_on = n.last().is_some_and(u8::is_ascii_digit)
                    && bytes.get(end).is_some_and(u8::is_ascii_digit);
                if !runs_on && best.is_none_or(|(_, l)| n.len() > l) {
                    best = Some((k, n.len()));
                }
            }
            match best {
                Some((k, len)) => {
                    found.push(k);
                    i += len;
                }
                None => i += 1,
            }
        }
        found
    }
}
