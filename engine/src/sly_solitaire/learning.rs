//! Action ids and observation planes of Solitaire Sly ([`Learning`]).
//!
//! Actions, over the 144 squares: a jump from `f` to `t` is `f × 144 + t`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels none (a piece is its colour's "other" plane), the mover's colour first.

use super::state::{SlySolitaireMove, SlySolitaireState};
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &[],
    colours: 4,
    extras: 0,
};

impl Learning for SlySolitaireState {
    fn num_actions(&self) -> usize {
        144 * 144
    }

    fn move_actions(&self, mv: SlySolitaireMove) -> ActionSeq {
        ActionSeq::one(from_to(mv.from.into(), mv.to.into(), 144))
    }

    fn observation_shape(&self) -> [usize; 3] {
        picture_shape(self, &PLANES)
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        observe_picture(self, &PLANES, 0, &[], out);
    }
}
