//! Action ids and observation planes of Gateway ([`Learning`]).
//!
//! Actions, over the 144 squares: a move from `f` to `t` with entry `e`
//! (0 none, 1 triangle, 2 square) is `(f × 144 + t) × 3 + e`; `pass` is
//! `3 × 144²`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `C`, `T`, `S`, the mover's colour first; extras: the mover's reserve of triangles and of squares (counts).

use super::state::{GatewayMove, GatewayState};
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["C", "T", "S"],
    colours: 4,
    extras: 2,
};

impl Learning for GatewayState {
    fn num_actions(&self) -> usize {
        3 * 144 * 144 + 1
    }

    fn move_actions(&self, mv: GatewayMove) -> ActionSeq {
        ActionSeq::one(match mv {
            GatewayMove::Move { from, to, entry } => {
                from_to(from.into(), to.into(), 144) * 3 + u32::from(entry)
            }
            GatewayMove::Pass => 3 * 144 * 144,
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
            &[
                f32::from(self.reserve[self.to_move as usize][0]),
                f32::from(self.reserve[self.to_move as usize][1]),
            ],
            out,
        );
    }
}
