//! Action ids and observation planes of Slingshot ([`Learning`]).
//!
//! Actions, with `c = n²` squares (`rank × n + file`): the set-up `a,b` is
//! `a × c + b`; `chooser=B`/`T` are `c² + 0`/`1`; a stack on `t` is
//! `c² + 2 + t`; `pass` is `c² + 2 + c`; a custodial move `a+b×t` is
//! `c² + c + 3 + (4m + d) × c + t`, its slot (S9) being the midpoint `m` of
//! `a` and `b` and the direction `d` from `a` to `b` (0 up a file, 1 along
//! a rank, 2 up and to the left, 3 up and to the right).
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `B`, `T` (stacks, neutral and others in the "other" plane), the
//! mover's colour first; extras: set-up stage, choose stage, Phase S, passes
//! in a row (0–2, as a count).

use super::state::{SlingshotState, Stage};
use super::{Side, SlingshotMove};
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["B", "T"],
    colours: 2,
    extras: 4,
};

impl Learning for SlingshotState {
    fn num_actions(&self) -> usize {
        let c = (self.geo.n * self.geo.n) as usize;
        c * c + c + 3 + 4 * c * c
    }

    fn move_actions(&self, mv: SlingshotMove) -> ActionSeq {
        let c = self.geo.n * self.geo.n;
        ActionSeq::one(match mv {
            SlingshotMove::Setup(a, b) => from_to(a.into(), b.into(), c),
            SlingshotMove::Custodial { a, b, t } => {
                let n = self.geo.n;
                let (a, b) = (u32::from(a), u32::from(b));
                let m = (a + b) / 2;
                let d = match (b / n - a / n, (b % n) as i32 - (a % n) as i32) {
                    (0, _) => 1,
                    (_, 0) => 0,
                    (_, f) if f < 0 => 2,
                    _ => 3,
                };
                c * c + c + 3 + (4 * m + d) * c + u32::from(t)
            }
            SlingshotMove::Choose(Side::Black) => c * c,
            SlingshotMove::Choose(Side::Teal) => c * c + 1,
            SlingshotMove::Stack(t) => c * c + 2 + u32::from(t),
            SlingshotMove::Pass => c * c + 2 + c,
        })
    }

    fn observation_shape(&self) -> [usize; 3] {
        picture_shape(self, &PLANES)
    }

    fn observe(&self, _pending: &[u32], out: &mut [f32]) {
        let colour = match self.stage {
            Stage::Setup => 1,
            Stage::Choose => 0,
            Stage::Play => self.to_move as usize,
        };
        let extras = [
            f32::from(u8::from(self.stage == Stage::Setup)),
            f32::from(u8::from(self.stage == Stage::Choose)),
            f32::from(u8::from(self.phase_s)),
            f32::from(self.passes),
        ];
        observe_picture(self, &PLANES, colour, &extras, out);
    }
}
