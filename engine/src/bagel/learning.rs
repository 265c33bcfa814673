//! Action ids and observation planes of Bagel ([`Learning`]).
//!
//! Actions, over the 64 cell indices of the hex grid's bit set: one disc
//! on `x` is `x`; two discs `a+b` are `64 + a × 64 + b`; `swap` is
//! `64 + 64²`.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels none (a disc is its colour's "other" plane; tiles are the tile planes), the mover's colour first; extras: the swap may be played (B-5), the mover's reserve and the opponent's (discs, as counts).

use super::BagelMove;
use super::state::{BagelState, Stage};
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &[],
    colours: 2,
    extras: 3,
};

impl Learning for BagelState {
    fn num_actions(&self) -> usize {
        64 + 64 * 64 + 1
    }

    fn move_actions(&self, mv: BagelMove) -> ActionSeq {
        ActionSeq::one(match mv {
            BagelMove::Single(x) => u32::from(x),
            BagelMove::Pair(a, b) => 64 + from_to(a.into(), b.into(), 64),
            BagelMove::Swap => 64 + 64 * 64,
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
                f32::from(u8::from(self.stage == Stage::Pie)),
                f32::from(self.reserve[self.to_move as usize]),
                f32::from(self.reserve[1 - self.to_move as usize]),
            ],
            out,
        );
    }
}
