//! Fixed shapes for learning agents (after OpenSpiel's `Game::NumDistinctActions`
//! and `ObservationTensor`): a fixed action space and an observation tensor.
//!
//! * **Actions.** Every game numbers its decisions `0..num_actions()`. A
//!   move is one decision, one action id, in almost every game; a move the
//!   engine makes in one ply out of several decisions (Catapult's dagger
//!   double turn `m1;m2`) is a short sequence of action ids, taken one at a
//!   time as OpenSpiel takes the parts of a compound turn. Chance outcomes
//!   have action ids in the same space. The id of a move depends on the
//!   state it is played in (as in OpenSpiel: the same id may name a
//!   set-up in one phase and a step in another), never on the order of the
//!   legal list.
//! * **Prefix-free.** In one state, no legal move's sequence is a proper
//!   prefix of another's and no two moves share a sequence, so a sequence
//!   of decisions names exactly one move ([`Decisions`] walks them).
//! * **Observation.** A tensor of shape `[planes, height, width]`, `f32`,
//!   row-major, seen from the seat to move: its pieces in the first planes,
//!   then the next seat's, and so on. Values are 0 or 1 unless a game's docs
//!   say otherwise. The shape is fixed for a game with its parameters; it
//!   is the same in every state, terminal ones included.
//!
//! Every game implements [`Learning`] in its own `learning.rs`; the shared
//! encoders live in [`crate::board::planes`].

use super::{State, ToMove, with_scratch};

/// The most decisions one move takes.
pub const MAX_DECISIONS: usize = 3;

/// The action ids of one move: one to [`MAX_DECISIONS`] ids, in the order
/// they are taken.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ActionSeq {
    ids: [u32; MAX_DECISIONS],
    len: u8,
}

impl ActionSeq {
    /// A move of one decision.
    #[inline]
    pub fn one(id: u32) -> ActionSeq {
        ActionSeq {
            ids: [id, 0, 0],
            len: 1,
        }
    }

    /// A move of two decisions, `a` then `b`.
    #[inline]
    pub fn two(a: u32, b: u32) -> ActionSeq {
        ActionSeq {
            ids: [a, b, 0],
            len: 2,
        }
    }

    /// The ids, first decision first.
    #[inline]
    pub fn ids(&self) -> &[u32] {
        &self.ids[..self.len as usize]
    }
}

/// A fixed action space and an observation tensor (see the module docs).
pub trait Learning: State {
    /// The number of action ids, the same in every state of the game.
    fn num_actions(&self) -> usize;

    /// The action ids of `mv`, a legal move or chance outcome of this state.
    fn move_actions(&self, mv: Self::Move) -> ActionSeq;

    /// The observation's shape, `[planes, height, width]`, the same in every
    /// state of the game.
    fn observation_shape(&self) -> [usize; 3];

    /// Writes the observation from the view of the seat to move (seat 0's
    /// at chance and terminal nodes) into `out`, whose length is the
    /// product of [`Learning::observation_shape`]; `pending` holds the
    /// action ids already taken of a move of several decisions (empty in
    /// games whose moves are all one decision), which the observation
    /// shows.
    fn observe(&self, pending: &[u32], out: &mut [f32]);

    /// The length of the observation: the product of its shape.
    fn observation_len(&self) -> usize {
        let [p, h, w] = self.observation_shape();
        p * h * w
    }
}

/// Decisions in progress: a state and the action ids already taken of its
/// next move. The one place where action ids turn into moves, for every
/// game.
#[derive(Clone, Debug)]
pub struct Decisions<S: Learning> {
    /// The state whose next move is being chosen.
    pub state: S,
    /// The ids taken so far of that move; empty between moves.
    pub pending: Vec<u32>,
}

impl<S: Learning> Decisions<S> {
    /// Decisions from `state`, none taken.
    pub fn new(state: S) -> Self {
        Decisions {
            state,
            pending: Vec::new(),
        }
    }

    /// The moves of this node: the legal moves, or the chance outcomes at a
    /// chance node.
    pub fn node_moves(&self, out: &mut Vec<S::Move>) {
        if self.state.to_move() == ToMove::Chance {
            with_scratch(|c: &mut Vec<(S::Move, f64)>| {
                self.state.chance_outcomes(c);
                out.clear();
                out.extend(c.iter().map(|&(m, _)| m));
            });
        } else {
            self.state.legal_moves(out);
        }
    }

    /// Clears `out` and writes the action ids that may be taken next, in
    /// increasing order, each once.
    pub fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        with_scratch(|moves: &mut Vec<S::Move>| {
            self.node_moves(moves);
            let k = self.pending.len();
            for &mv in moves.iter() {
                let seq = self.state.move_actions(mv);
                let ids = seq.ids();
                if ids.len() > k && ids[..k] == self.pending[..] {
                    out.push(ids[k]);
                }
            }
        });
        out.sort_unstable();
        out.dedup();
    }

    /// What taking action `id` would do, without doing it: `Some(move)` if
    /// it completes that move, `None` if the move needs more decisions.
    ///
    /// # Errors
    /// An id that is not among [`Decisions::legal_actions`]; the message
    /// names the id and the number of legal ones.
    pub fn find_action(&self, id: u32) -> Result<Option<S::Move>, crate::GameError> {
        let k = self.pending.len();
        let (done, longer) = with_scratch(|moves: &mut Vec<S::Move>| {
            self.node_moves(moves);
            let mut longer = false;
            for &mv in moves.iter() {
                let seq = self.state.move_actions(mv);
                let ids = seq.ids();
                if ids.len() > k && ids[..k] == self.pending[..] && ids[k] == id {
                    if ids.len() == k + 1 {
                        return (Some(mv), false);
                    }
                    longer = true;
                }
            }
            (None, longer)
        });
        if done.is_some() || longer {
            return Ok(done);
        }
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        crate::bail!(
            "action {id} is not legal here ({} legal actions{})",
            legal.len(),
            if legal.is_empty() {
                ": the game is over".to_string()
            } else {
                format!(", e.g. {}", legal[0])
            }
        )
    }

    /// Takes action `id` as [`Decisions::find_action`] found it: applies
    /// the move it completes, or records the decision.
    pub fn commit(&mut self, id: u32, found: Option<S::Move>) {
        match found {
            Some(mv) => self.apply_move(mv),
            None => self.pending.push(id),
        }
    }

    /// Takes action `id`. Returns the move it completes, applied to the
    /// state, or `None` if the move needs more decisions.
    ///
    /// # Errors
    /// An id that is not among [`Decisions::legal_actions`]; the message
    /// names the id and the number of legal ones. The node is unchanged.
    pub fn apply_action(&mut self, id: u32) -> Result<Option<S::Move>, crate::GameError> {
        let found = self.find_action(id)?;
        self.commit(id, found);
        Ok(found)
    }

    /// Applies a whole move of this node, dropping any decisions taken.
    pub fn apply_move(&mut self, mv: S::Move) {
        self.pending.clear();
        self.state.apply(mv);
    }

    /// The observation of this node (see [`Learning::observe`]).
    pub fn observe(&self, out: &mut [f32]) {
        self.state.observe(&self.pending, out);
    }
}
