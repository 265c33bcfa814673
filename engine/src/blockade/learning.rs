//! Action ids and observation planes of Blockade ([`Learning`]).
//!
//! Actions, over the 144 squares: a guard placed on `x` is `x`; a slide
//! from `f` to `t` is `144 + f × 144 + t`; `pass` is `144 + 144²`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `K`, `G`, the mover's colour first; extras: plies played over 300. The picture draws South as colour 0.

use super::BlockadeMove;
use super::state::BlockadeState;
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["K", "G"],
    colours: 2,
    extras: 1,
};

impl Learning for BlockadeState {
    fn num_actions(&self) -> usize {
        144 + 144 * 144 + 1
    }

    fn move_actions(&self, mv: BlockadeMove) -> ActionSeq {
        ActionSeq::one(match mv {
            BlockadeMove::Place(x) => u32::from(x),
            BlockadeMove::Slide { from, to } => 144 + from_to(from.into(), to.into(), 144),
            BlockadeMove::Pass => 144 + 144 * 144,
        })
    }

    fn observation_shape(&self) -> [usize; 3] {
        picture_shape(self, &PLANES)
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        observe_picture(
            self,
            &PLANES,
            1 - self.side.index(),
            &[self.ply as f32 / 300.0],
            out,
        );
    }
}
