//! Action ids and observation planes of Line Up ([`Learning`]).
//!
//! Actions, over the 16 cells `4i + j`: a placement on `t` is `t`; a step
//! from `f` to `t` is `16 + f × 16 + t`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `S`, `T`, `C`, the mover's colour first; extras: plies played over 200.

use super::LineUpMove;
use super::state::LineUpState;
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["S", "T", "C"],
    colours: 2,
    extras: 1,
};

impl Learning for LineUpState {
    fn num_actions(&self) -> usize {
        16 + 16 * 16
    }

    fn move_actions(&self, mv: LineUpMove) -> ActionSeq {
        ActionSeq::one(if mv.from == LineUpMove::PLACE {
            u32::from(mv.to)
        } else {
            16 + from_to(mv.from.into(), mv.to.into(), 16)
        })
    }

    fn observation_shape(&self) -> [usize; 3] {
        picture_shape(self, &PLANES)
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        observe_picture(
            self,
            &PLANES,
            self.player(),
            &[self.ply as f32 / 200.0],
            out,
        );
    }
}
