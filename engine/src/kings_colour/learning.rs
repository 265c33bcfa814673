//! Action ids and observation planes of King's Colour ([`Learning`]).
//!
//! Actions, over the 127 cells: a move from `f` to `t` is `f × 127 + t`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `K`, `Q`, `M`, the mover's colour first; extras: plies since the last irreversible move, over 100.

use super::state::KingsColourState;
use super::{CELLS, KingsColourMove};
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["K", "Q", "M"],
    colours: 2,
    extras: 1,
};

impl Learning for KingsColourState {
    fn num_actions(&self) -> usize {
        CELLS * CELLS
    }

    fn move_actions(&self, mv: KingsColourMove) -> ActionSeq {
        ActionSeq::one(from_to(mv.from.into(), mv.to.into(), CELLS as u32))
    }

    fn observation_shape(&self) -> [usize; 3] {
        picture_shape(self, &PLANES)
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        observe_picture(
            self,
            &PLANES,
            self.side as usize,
            &[self.since_irreversible as f32 / 100.0],
            out,
        );
    }
}
