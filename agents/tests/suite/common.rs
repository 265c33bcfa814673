//! Helpers the agents' test modules share: Nim (take 1 or 2, last take
//! wins: the losing piles are the multiples of 3) as a small game whose best
//! moves are known by hand, and Slingshot positions from text.

use std::fmt;

use engine::Research;
use engine::slingshot::SlingshotGame;
use engine::spec::Spec;
use engine::{Game, MAX_SEATS, Returns, Search, State, ToMove};

/// The parts of a test game's `State` written alike by every game here:
/// the key from scratch is the incremental key, the ply the `ply` field,
/// the position text the `Display`, a move (a number of type `$mv`) its
/// decimal.
macro_rules! toy_state_text {
    ($mv:ty) => {
        fn zobrist_from_scratch(&self) -> u64 {
            self.zobrist()
        }
        fn ply(&self) -> u32 {
            self.ply
        }
        fn to_text(&self) -> String {
            self.to_string()
        }
        fn move_to_text(&self, mv: $mv) -> String {
            mv.to_string()
        }
        fn parse_move(&self, text: &str) -> Result<$mv, engine::GameError> {
            text.parse().map_err(|_| engine::GameError::new("bad"))
        }
    };
}
pub(crate) use toy_state_text;

/// Nim: a pile, the seats in turn take 1 or 2, whoever takes the last wins
/// (return 1). With two seats the other loses (−1); with three, the seat
/// after the winner gets 0 and the remaining seat −1 (the race below).
#[derive(Clone, Debug, PartialEq)]
pub struct Nim {
    pub pile: u32,
    pub to_move: usize,
    pub ply: u32,
    pub seats: usize,
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pile {} seat {}", self.pile, self.to_move)
    }
}

impl State for Nim {
    type Move = u32;
    fn num_seats(&self) -> usize {
        self.seats
    }
    fn to_move(&self) -> ToMove {
        if self.pile == 0 {
            ToMove::Terminal
        } else {
            ToMove::Seat(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=2).filter(|&k| k <= self.pile));
    }
    fn apply(&mut self, mv: u32) {
        self.pile -= mv;
        self.to_move = (self.to_move + 1) % self.seats;
        self.ply += 1;
    }
    fn returns(&self) -> Returns {
        let mut r = [0.0; MAX_SEATS];
        if self.pile == 0 {
            // The seat that just moved took the last one.
            let n = self.seats;
            let winner = (self.to_move + n - 1) % n;
            r[winner] = 1.0;
            r[(winner + n - 1) % n] = -1.0;
        }
        r
    }
    fn zobrist(&self) -> u64 {
        (self.pile as u64) << 2 | self.to_move as u64
    }
    toy_state_text!(u32);
}

impl Research for Nim {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
}

impl Search for Nim {}

pub fn slingshot(g: &str, position: &str) -> <SlingshotGame as Game>::State {
    let game = SlingshotGame::from_spec(&Spec::parse(g).unwrap()).unwrap();
    game.parse_position(position).unwrap()
}

/// Whether the seat `me` wins within `plies` plies from `state` against
/// every defence: plain full-width minimax over the engine's moves, no
/// pruning, no table (the reference for the alpha-beta mate distances).
pub fn wins_within<S: State>(state: &S, me: usize, plies: u32) -> bool {
    match state.to_move() {
        ToMove::Terminal => state.returns()[me] > 0.0,
        _ if plies == 0 => false,
        ToMove::Chance => false,
        ToMove::Seat(s) => {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let mut child_wins = moves.iter().map(|&m| {
                let mut c = state.clone();
                c.apply(m);
                wins_within(&c, me, plies - 1)
            });
            if s == me {
                child_wins.any(|w| w)
            } else {
                child_wins.all(|w| w)
            }
        }
    }
}
