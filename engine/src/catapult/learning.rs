//! Action ids and observation planes of Catapult ([`Learning`]).
//!
//! Actions, with `c = n²` squares: a step from `f` to `t` is `f × c + t`;
//! `pass` is `c²`; "no second move" is `c² + 1`. A move is one decision,
//! except for the dagger's holder, whose every move is two (C-D2–C-D5): the
//! first step, then the second step, `pass` for `m1;pass`, or `c² + 1` to
//! play `m1` alone and keep the dagger.
//!
//! Observation: the board picture's planes ([`crate::board::planes`]),
//! labels `L`/`D` men (both drawn as their side's letter) and `K` kings, the
//! mover's colour first; extras: the mover holds the dagger, the opponent
//! holds it, and two planes marking the pending first step's `from` and
//! `to` squares (the first decision of a dagger turn) as the last two
//! extras, row-major like the board (1 on the square, else 0; all zero
//! between moves).

use super::state::CatapultState;
use super::{CatapultBits, CatapultMove};
use crate::api::{ActionSeq, Learning};
use crate::board::planes::{PicturePlanes, from_to, observe_picture, picture_shape};

const PLANES: PicturePlanes = PicturePlanes {
    labels: &["L", "D", "K"],
    colours: 2,
    extras: 2,
};

impl<B: CatapultBits> CatapultState<B> {
    fn cells(&self) -> u32 {
        self.geo.n * self.geo.n
    }
}

impl<B: CatapultBits> Learning for CatapultState<B> {
    fn num_actions(&self) -> usize {
        let c = self.cells() as usize;
        c * c + 2
    }

    fn move_actions(&self, mv: CatapultMove) -> ActionSeq {
        let c = self.cells();
        let step = |s: super::Step| from_to(s.from(), s.to(), c);
        let (pass, alone) = (c * c, c * c + 1);
        match mv {
            CatapultMove::Move(s) if self.holds_dagger() => ActionSeq::two(step(s), alone),
            CatapultMove::Move(s) => ActionSeq::one(step(s)),
            CatapultMove::Double(a, b) => ActionSeq::two(step(a), step(b)),
            CatapultMove::MoveThenPass(a) => ActionSeq::two(step(a), pass),
            CatapultMove::Pass => ActionSeq::one(pass),
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        let [p, h, w] = picture_shape(self, &PLANES);
        [p + 2, h, w]
    }

    fn observe(&self, pending: &[u32], out: &mut [f32]) {
        let [p, h, w] = self.observation_shape();
        let area = h * w;
        let held = |s| f32::from(u8::from(self.dagger == Some(s)));
        let extras = [held(self.side), held(self.side.other())];
        let (board, marks) = out.split_at_mut((p - 2) * area);
        observe_picture(self, &PLANES, self.side.index(), &extras, board);
        marks.fill(0.0);
        let c = self.cells();
        if let Some(&first) = pending.first()
            && first < c * c
        {
            // Squares are `rank × n + file`, rank 1 first; the picture's rows
            // run from the top rank down.
            let n = self.geo.n as usize;
            for (k, sq) in [first / c, first % c].into_iter().enumerate() {
                let (rank, file) = (sq as usize / n, sq as usize % n);
                let at = (n - 1 - rank) * w + file;
                if at < area {
                    marks[k * area + at] = 1.0;
                }
            }
        }
    }
}
