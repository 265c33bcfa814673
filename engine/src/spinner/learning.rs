//! Action ids and observation planes of the spinner game ([`Learning`]).
//!
//! Actions, with `c = n²` squares: the chance outcomes `spin=1..3` are
//! `0..3` and `spin=S` is `3`; a placement on `x` is `4 + x`; a switch
//! `a<>b` is `4 + c + a × c + b`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `X`, `O`, the mover's colour first.

use super::SpinnerMove;
use super::state::SpinnerState;
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["X", "O"],
    colours: 2,
    extras: 0,
};

impl Learning for SpinnerState {
    fn num_actions(&self) -> usize {
        {
            let c = (self.geo.n * self.geo.n) as usize;
            4 + c + c * c
        }
    }

    fn move_actions(&self, mv: SpinnerMove) -> ActionSeq {
        let c = self.geo.n * self.geo.n;
        ActionSeq::one(match mv {
            SpinnerMove::Spin(k) => u32::from(k).saturating_sub(1).min(2),
            SpinnerMove::SpinS => 3,
            SpinnerMove::Place(x) => 4 + u32::from(x),
            SpinnerMove::Switch { own, other } => 4 + c + from_to(own.into(), other.into(), c),
        })
    }

    fn observation_shape(&self) -> [usize; 3] {
        picture_shape(self, &PLANES)
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        observe_picture(self, &PLANES, self.to_move as usize, &[], out);
    }
}
