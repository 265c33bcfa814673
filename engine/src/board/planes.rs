//! Shared encoders for the learning interface ([`crate::api::Learning`]):
//! action ids of cells and cell pairs, and observation planes drawn from a
//! position's board picture.
//!
//! ## Planes from a picture
//!
//! [`PicturePlanes`] turns a [`BoardPicture`] into a `[planes, height,
//! width]` tensor. The cells are laid on a grid whose columns are the
//! picture's distinct `x` centres and whose rows are its distinct `y`
//! centres, top row first (a square board is its own grid; a hex board's
//! grid has holes, marked by the "cell exists" plane). Planes, in order:
//!
//! 1. **pieces**, `(colours + 1) × (labels + 1)` planes: for each colour
//!    slot, the mover's colour first, then the next colours in order
//!    (`(colour − mover) mod colours`), then neutral pieces; within a slot,
//!    one plane per label of the game's list, then one for any other label
//!    (a stack's height, say);
//! 2. **cells**, `8 + 2 × colours` planes: exists, dark, circled, hole,
//!    tile colours 0..4, then castle and wall cells per colour slot;
//! 3. **seat to move**, [`MAX_SEATS`] constant planes, one-hot;
//! 4. the game's **extra** scalars, one constant plane each (each game's
//!    `learning.rs` says what they are and their units).

use crate::api::{BoardPicture, CellKind, MAX_SEATS, Research, ToMove};

/// The action id of a move from cell `from` to cell `to` on a board of
/// `cells` cells: `from × cells + to`, in `0..cells²`.
#[inline]
pub fn from_to(from: u32, to: u32, cells: u32) -> u32 {
    from * cells + to
}

/// The cell planes besides the per-colour ones: exists, dark, circled,
/// hole, four tile colours.
const CELL_PLANES: usize = 8;

/// The observation layout of a game whose planes come from its board
/// picture (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct PicturePlanes {
    /// Piece labels with a plane of their own, per colour slot.
    pub labels: &'static [&'static str],
    /// The number of colours (seats' colours) the game draws.
    pub colours: usize,
    /// The number of extra scalar planes.
    pub extras: usize,
}

/// Grid coordinates: the rank of each centre among the distinct centres
/// (to a quarter of a cell unit), and the number of distinct ones.
fn ranks(values: impl Iterator<Item = f64> + Clone) -> (Vec<usize>, usize) {
    let key = |v: f64| (v * 4.0).round() as i64;
    let mut keys: Vec<i64> = values.clone().map(key).collect();
    keys.sort_unstable();
    keys.dedup();
    let r = values
        .map(|v| keys.binary_search(&key(v)).unwrap_or(0))
        .collect();
    (r, keys.len())
}

impl PicturePlanes {
    /// The number of planes.
    pub fn planes(&self) -> usize {
        (self.colours + 1) * (self.labels.len() + 1)
            + CELL_PLANES
            + 2 * self.colours
            + MAX_SEATS
            + self.extras
    }

    /// The shape `[planes, height, width]` for the board of `picture` (any
    /// position of the game: the cells are the same in all).
    pub fn shape(&self, picture: &BoardPicture) -> [usize; 3] {
        let (_, w) = ranks(picture.cells.iter().map(|c| c.x));
        let (_, h) = ranks(picture.cells.iter().map(|c| c.y));
        [self.planes(), h, w]
    }

    /// Writes the planes of `picture` into `out` (length: the product of
    /// [`PicturePlanes::shape`]): `mover` is the seat to move, `mover_colour`
    /// the colour it plays, `extras` the game's scalars
    /// ([`PicturePlanes::extras`] of them).
    pub fn fill(
        &self,
        picture: &BoardPicture,
        mover: usize,
        mover_colour: usize,
        extras: &[f32],
        out: &mut [f32],
    ) {
        let (xs, w) = ranks(picture.cells.iter().map(|c| c.x));
        let (ys, h) = ranks(picture.cells.iter().map(|c| c.y));
        let area = w * h;
        debug_assert_eq!(out.len(), self.planes() * area);
        out.fill(0.0);
        let k = self.colours.max(1);
        let slot = |colour: usize| (colour + k - mover_colour % k) % k;
        let labels = self.labels.len() + 1;
        let cells0 = (self.colours + 1) * labels;
        for (i, cell) in picture.cells.iter().enumerate() {
            let at = ys[i] * w + xs[i];
            let mut set = |plane: usize| out[plane * area + at] = 1.0;
            if let Some(p) = &cell.piece {
                let s = p.colour.map_or(self.colours, slot);
                let l = self
                    .labels
                    .iter()
                    .position(|&x| x == p.label)
                    .unwrap_or(self.labels.len());
                set(s * labels + l);
            }
            set(cells0);
            match cell.kind {
                CellKind::Light => {}
                CellKind::Dark => set(cells0 + 1),
                CellKind::Hole => set(cells0 + 3),
                CellKind::Tile(t) => set(cells0 + 4 + (t as usize).min(3)),
                CellKind::Castle(c) => set(cells0 + CELL_PLANES + slot(c)),
                CellKind::Wall(c) => set(cells0 + CELL_PLANES + self.colours + slot(c)),
            }
            if cell.circled {
                set(cells0 + 2);
            }
        }
        let seats0 = cells0 + CELL_PLANES + 2 * self.colours;
        out[(seats0 + mover.min(MAX_SEATS - 1)) * area..][..area].fill(1.0);
        let extras0 = seats0 + MAX_SEATS;
        for (j, &v) in extras.iter().take(self.extras).enumerate() {
            out[(extras0 + j) * area..][..area].fill(v);
        }
    }
}

/// The observation shape of `state`'s game under `layout`: its board
/// picture's grid (`[0, 0, 0]` planes if the game draws no picture).
pub fn picture_shape<S: Research>(state: &S, layout: &PicturePlanes) -> [usize; 3] {
    match state.board_picture() {
        Some(p) => layout.shape(&p),
        None => [layout.planes(), 0, 0],
    }
}

/// Writes `state`'s planes under `layout` into `out`, seen by the seat to
/// move (seat 0 at chance and terminal nodes), which plays `mover_colour`.
pub fn observe_picture<S: Research>(
    state: &S,
    layout: &PicturePlanes,
    mover_colour: usize,
    extras: &[f32],
    out: &mut [f32],
) {
    let mover = match state.to_move() {
        ToMove::Seat(s) => s,
        _ => 0,
    };
    match state.board_picture() {
        Some(p) => layout.fill(&p, mover, mover_colour, extras, out),
        None => out.fill(0.0),
    }
}
