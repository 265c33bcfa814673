//! Action ids and observation planes of Empire ([`Learning`]).
//!
//! Actions, over the 144 squares: a move or capture from `f` to `t` is
//! `f × 144 + t`; `pass` is `144²`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `C`, `H`, `A`, the mover's colour first; extras: plies played over 1000.

use super::state::{EmpireMove, EmpireState};
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["C", "H", "A"],
    colours: 4,
    extras: 1,
};

impl Learning for EmpireState {
    fn num_actions(&self) -> usize {
        144 * 144 + 1
    }

    fn move_actions(&self, mv: EmpireMove) -> ActionSeq {
        ActionSeq::one(match mv {
            EmpireMove::Move { from, to } => from_to(from.into(), to.into(), 144),
            EmpireMove::Pass => 144 * 144,
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
            &[self.ply as f32 / 1000.0],
            out,
        );
    }
}
