//! Action ids and observation planes of Sniggle ([`Learning`]).
//!
//! Actions, over the 144 squares: a step from `f` to `t` is `f × 144 + t`
//! (each continuation step is its own move); `pass` is `144²`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels none (pieces are their seat's "other" plane), the mover's colour first; extras: a continuation step is due (N-3).

use super::SniggleMove;
use super::state::SniggleState;
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &[],
    colours: 4,
    extras: 1,
};

impl Learning for SniggleState {
    fn num_actions(&self) -> usize {
        144 * 144 + 1
    }

    fn move_actions(&self, mv: SniggleMove) -> ActionSeq {
        ActionSeq::one(match mv {
            SniggleMove::Step { from, to } => from_to(from.into(), to.into(), 144),
            SniggleMove::Pass => 144 * 144,
        })
    }

    fn observation_shape(&self) -> [usize; 3] {
        picture_shape(self, &PLANES)
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        observe_picture(
            self,
            &PLANES,
            self.to_move as usize,
            &[f32::from(u8::from(usize::from(self.chain) < 144))],
            out,
        );
    }
}
