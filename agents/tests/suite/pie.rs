//! The pie choice searched in full ([`agents::PieChooser`]) on a game whose
//! pie choices are known by hand: Nim with a pie rule.
//!
//! In Nim (take 1 or 2, last take wins) the piles lost for the seat to move
//! are the multiples of 3 (the subtraction game's P-positions: from 3k every
//! move leaves 3k − 1 or 3k − 2, from which taking 2 or 1 restores a
//! multiple of 3). With the pie rule the chooser, facing pile `p` after
//! the opener's first take, may swap: take over the opener's side, so that
//! the opener moves at `p`. So the chooser must swap exactly when `p` is a
//! multiple of 3, and otherwise keep and take `p mod 3`.

use std::fmt;

use agents::AgentSpec;
use engine::{GameError, Research, Returns, Search, State, ToMove};

use crate::common::Nim;

/// The swap move's number (a take is 1 or 2).
const SWAP: u32 = 0;

/// Two-seat Nim whose second seat, on its first turn, may answer `swap`
/// (move 0): the opener is then to move at the same pile.
#[derive(Clone, Debug, PartialEq)]
struct PieNim {
    nim: Nim,
    offer: bool,
}

impl PieNim {
    /// The chooser's first turn after the opener took `take` from `pile`.
    fn offered(pile: u32, take: u32) -> PieNim {
        let mut s = PieNim {
            nim: Nim {
                pile,
                to_move: 0,
                ply: 0,
                seats: 2,
            },
            offer: false,
        };
        s.apply(take);
        assert!(s.offer);
        s
    }
}

impl fmt::Display for PieNim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} offer {}", self.nim, self.offer)
    }
}

impl State for PieNim {
    type Move = u32;
    fn num_seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> ToMove {
        self.nim.to_move()
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        self.nim.legal_moves(out);
        if self.offer {
            out.push(SWAP);
        }
    }
    fn apply(&mut self, mv: u32) {
        if mv == SWAP {
            assert!(self.offer, "swap only when offered");
            self.nim.to_move = 0;
            self.nim.ply += 1;
        } else {
            self.nim.apply(mv);
        }
        self.offer = mv != SWAP && self.nim.ply == 1 && self.nim.pile > 0;
    }
    fn returns(&self) -> Returns {
        self.nim.returns()
    }
    fn zobrist(&self) -> u64 {
        (self.nim.zobrist() << 1) | u64::from(self.offer)
    }
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }
    fn ply(&self) -> u32 {
        self.nim.ply
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn move_to_text(&self, mv: u32) -> String {
        if mv == SWAP {
            "swap".into()
        } else {
            mv.to_string()
        }
    }
    fn parse_move(&self, text: &str) -> Result<u32, GameError> {
        match text {
            "swap" => Ok(SWAP),
            t => self.nim.parse_move(t),
        }
    }
}

impl Research for PieNim {
    fn first_mover_seat(&self) -> Option<usize> {
        Some(0)
    }
    fn is_swap(&self, mv: u32) -> bool {
        mv == SWAP
    }
}

impl Search for PieNim {}

/// Every searching agent, at its usual budget, makes the known pie choice
/// after each opening of piles 4 to 9, and says why in its info line.
#[test]
fn the_chooser_makes_the_known_pie_choice() {
    for spec in [
        "uct(iterations=500)",
        "mcts(iterations=1000)",
        "alphabeta(depth=12)",
    ] {
        let spec = AgentSpec::parse(spec).unwrap();
        for pile in 4..=9 {
            for take in 1..=2 {
                let s = PieNim::offered(pile, take);
                assert!(s.offers_swap());
                let p = pile - take;
                let mut agent = spec.build::<PieNim>(u64::from(pile * 3 + take));
                let mv = agent.select(&s);
                let want = if p % 3 == 0 { SWAP } else { p % 3 };
                let info = agent.last_info().expect("a searching agent reports");
                let choice = info.pie.expect("a pie choice reports both values");
                assert_eq!(
                    mv,
                    want,
                    "{} at pile {p}: {}",
                    spec.canonical(),
                    info.line()
                );
                assert_eq!(choice.swapped, mv == SWAP);
                assert!(info.line().contains(" pie swap "), "{}", info.line());
                // The losing side's value is below ½ for the chooser.
                if p % 3 == 0 {
                    assert!(choice.keep < 0.5, "{}", info.line());
                } else {
                    assert!(choice.swap < 0.5, "{}", info.line());
                }
            }
        }
    }
}

/// Where no swap is offered the wrapper plays the agent's own move, with
/// its own info (same seed, same move).
#[test]
fn elsewhere_the_chooser_plays_as_the_agent_alone() {
    let s = PieNim {
        nim: Nim {
            pile: 11,
            to_move: 0,
            ply: 0,
            seats: 2,
        },
        offer: false,
    };
    assert!(!s.offers_swap());
    for spec in ["uct(iterations=300)", "mcts(iterations=300)"] {
        let spec = AgentSpec::parse(spec).unwrap();
        let mut wrapped = spec.build::<PieNim>(7);
        let mut plain = spec.build_plain::<PieNim>(7);
        assert_eq!(wrapped.select(&s), plain.select(&s));
        let (w, p) = (wrapped.last_info().unwrap(), plain.last_info().unwrap());
        assert_eq!((w.win_probability, w.pie), (p.win_probability, None));
    }
}
