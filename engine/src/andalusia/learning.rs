//! Action ids and observation planes of Andalusia ([`Learning`]).
//!
//! Actions, over the 81 points: a move (promotion included) from `f` to
//! `t` is `f × 81 + t`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `K`, `C`, `S`, the mover's colour first; extras: quiet plies over 100.

use super::AndalusiaMove;
use super::state::AndalusiaState;
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["K", "C", "S"],
    colours: 2,
    extras: 1,
};

impl Learning for AndalusiaState {
    fn num_actions(&self) -> usize {
        81 * 81
    }

    fn move_actions(&self, mv: AndalusiaMove) -> ActionSeq {
        ActionSeq::one(from_to(mv.from(), mv.to(), 81))
    }

    fn observation_shape(&self) -> [usize; 3] {
        picture_shape(self, &PLANES)
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        observe_picture(
            self,
            &PLANES,
            self.side.index(),
            &[self.quiet as f32 / 100.0],
            out,
        );
    }
}
