//! Depth-bounded proof-number search: a second, separately written way to
//! solve a two-seat game, used by `solver(method=pn)`.
//!
//! ## What it proves
//! "Seat `p` wins within `depth` plies of this position, whatever the other
//! seat does." The search is the depth-first proof-number search of Nagai
//! (df-pn) on the AND/OR tree in which `p` chooses at OR nodes and the other
//! seat at AND nodes (consecutive moves of one seat keep the node type). A
//! terminal position is proven when `p`'s return is the larger, disproven
//! otherwise (a loss or a draw); a position `depth` plies below the root
//! that is not over is disproven (no win within the bound).
//!
//! The remaining depth is part of every table key, so the searched graph
//! has no cycles (a repeated position is a new node lower down) and the
//! graph-history interaction of proof-number search on cyclic games does
//! not arise. The table knows a position by its Zobrist key: where a
//! game's result depends on history the key leaves out (a repetition
//! rule), two histories share one entry and a proof may not hold; with no
//! such rule (Line Up's default `repetitions=0`; a ply cap is fine, as the
//! ply is fixed by the remaining depth) a proof is a proof of the game as
//! [`State`] plays it.
//!
//! ## The search
//! Every node has a proof number `pn` (the fewest leaves still to prove)
//! and a disproof number `dn`; an OR node takes the smallest `pn` of its
//! children and the sum of their `dn`, an AND node the other way round. A
//! node is expanded under thresholds and left as soon as its `pn` or `dn`
//! reaches them; the most-proving child gets the threshold that the second
//! best allows, widened by a quarter (the "1 + ε" trick, ε = 1/4, which
//! saves most re-expansions). Unexpanded children start at `pn = dn = 1`;
//! children that end the game are scored at once.
//!
//! ## Table
//! A fixed table of `mb` MiB, two slots a bucket, keyed by the Zobrist key
//! mixed with the remaining depth. A lost entry only costs a re-search.
//! Of two slots, the one whose subtree cost fewer nodes is replaced. A
//! 64-bit key collision could in principle corrupt a value; with the
//! counts a proof here reaches (below 2^32 entries) that chance is below
//! 2^-30.

use engine::{State, ToMove};

/// Proof and disproof numbers are capped here (sums saturate).
const INF: u64 = u64::MAX / 4;

/// The outcome of one proof search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// The seat wins within the depth.
    Win,
    /// The seat does not win within the depth (it may still win later, or
    /// the game is a draw or a loss).
    NoWin,
    /// The node budget ran out first.
    Unknown,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    pn: u64,
    dn: u64,
    work: u64,
}

/// A depth-bounded df-pn prover; see the module docs.
pub struct Prover {
    table: Vec<[Entry; 2]>,
    seat: usize,
    nodes: u64,
    budget: u64,
    /// A chance node was met: the search is abandoned.
    chance: bool,
}

impl Prover {
    /// A prover with a table of `mb` MiB and a node budget (0: none).
    pub fn new(mb: u32, budget: u64) -> Prover {
        let bucket = std::mem::size_of::<[Entry; 2]>();
        let n = ((mb as usize) << 20) / bucket;
        let n = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        Prover {
            table: vec![[Entry::default(); 2]; n.max(16)],
            seat: 0,
            nodes: 0,
            budget,
            chance: false,
        }
    }

    /// Nodes expanded so far (over every proof of this prover).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether `seat` wins within `depth` plies of `state`, and, when it
    /// does and is to move, a winning move. A chance node anywhere in the
    /// search ends it as [`Proven::Unknown`] (the method has no averaging).
    pub fn prove<S: State>(
        &mut self,
        state: &S,
        seat: usize,
        depth: u32,
    ) -> (Proven, Option<S::Move>) {
        if self.seat != seat {
            // The table's numbers are for one seat.
            self.table
                .iter_mut()
                .for_each(|b| *b = [Entry::default(); 2]);
            self.seat = seat;
        }
        self.chance = false;
        let (pn, dn) = self.mid(state, depth, INF, INF);
        let result = if self.chance {
            Proven::Unknown
        } else if pn == 0 {
            Proven::Win
        } else if dn == 0 {
            Proven::NoWin
        } else {
            Proven::Unknown
        };
        let mut best = None;
        if result == Proven::Win && state.to_move() == ToMove::Seat(seat) {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            best = moves.into_iter().find(|&m| {
                let mut c = state.clone();
                c.apply(m);
                self.value(&c, depth - 1).0 == 0
            });
        }
        (result, best)
    }

    fn out_of_budget(&self) -> bool {
        self.chance || (self.budget > 0 && self.nodes >= self.budget)
    }

    /// The Zobrist key and the remaining depth, mixed by a bijection (the
    /// finaliser of SplitMix64) so that games with small keys spread over
    /// the table; never 0, which marks an empty slot.
    fn key<S: State>(s: &S, rem: u32) -> u64 {
        let mut z = s.zobrist() ^ u64::from(rem).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        if z == 0 { 0x5EED } else { z }
    }

    fn bucket(&self, key: u64) -> usize {
        key as usize & (self.table.len() - 1)
    }

    /// The numbers of a position known without search: over, at the depth
    /// bound, or in the table; unexpanded positions are (1, 1).
    fn value<S: State>(&self, s: &S, rem: u32) -> (u64, u64) {
        match s.to_move() {
            ToMove::Terminal => {
                let r = s.returns();
                let other = r
                    .iter()
                    .take(s.num_seats())
                    .enumerate()
                    .filter(|&(i, _)| i != self.seat)
                    .map(|(_, &v)| v)
                    .fold(f64::NEG_INFINITY, f64::max);
                if r[self.seat] > other {
                    (0, INF)
                } else {
                    (INF, 0)
                }
            }
            _ if rem == 0 => (INF, 0),
            _ => {
                let key = Self::key(s, rem);
                let b = &self.table[self.bucket(key)];
                b.iter()
                    .find(|e| e.key == key)
                    .map_or((1, 1), |e| (e.pn, e.dn))
            }
        }
    }

    fn store(&mut self, key: u64, pn: u64, dn: u64, work: u64) {
        let i = self.bucket(key);
        let b = &mut self.table[i];
        let slot = if b[0].key == key {
            0
        } else if b[1].key == key {
            1
        } else if b[0].work <= b[1].work {
            0
        } else {
            1
        };
        b[slot] = Entry { key, pn, dn, work };
    }

    /// Expands `s` (`rem` plies left) until its proof number reaches
    /// `thpn` or its disproof number `thdn`; returns its numbers.
    fn mid<S: State>(&mut self, s: &S, rem: u32, thpn: u64, thdn: u64) -> (u64, u64) {
        let (pn, dn) = self.value(s, rem);
        if pn == 0 || dn == 0 || pn >= thpn || dn >= thdn {
            return (pn, dn);
        }
        let or = match s.to_move() {
            ToMove::Seat(x) => x == self.seat,
            // No averaging here: give up on the whole search.
            _ => {
                self.chance = true;
                return (pn, dn);
            }
        };
        let start = self.nodes;
        self.nodes += 1;
        let key = Self::key(s, rem);
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let kids: Vec<S> = moves
            .iter()
            .map(|&m| {
                let mut c = s.clone();
                c.apply(m);
                c
            })
            .collect();
        let mut numbers: Vec<(u64, u64)> = kids.iter().map(|c| self.value(c, rem - 1)).collect();
        loop {
            // For an OR node "mine" is pn, "theirs" dn; for AND the reverse.
            let (mut best, mut second, mut sum, mut at) = (INF, INF, 0u64, 0usize);
            for (i, &(p, d)) in numbers.iter().enumerate() {
                let (mine, theirs) = if or { (p, d) } else { (d, p) };
                sum = (sum + theirs).min(INF);
                if mine < best {
                    second = best;
                    best = mine;
                    at = i;
                } else if mine < second {
                    second = mine;
                }
            }
            let (pn, dn) = if or { (best, sum) } else { (sum, best) };
            let (th_mine, th_theirs) = if or { (thpn, thdn) } else { (thdn, thpn) };
            if pn == 0 || dn == 0 || best >= th_mine || sum >= th_theirs || self.out_of_budget() {
                self.store(key, pn, dn, self.nodes - start);
                return (pn, dn);
            }
            let (kp, kd) = numbers[at];
            let kid_theirs = if or { kd } else { kp };
            let child_mine = th_mine.min(second.saturating_add(1).max(second + second / 4));
            let child_theirs = if th_theirs >= INF {
                INF
            } else {
                th_theirs - sum + kid_theirs
            };
            let (tp, td) = if or {
                (child_mine, child_theirs)
            } else {
                (child_theirs, child_mine)
            };
            numbers[at] = self.mid(&kids[at], rem - 1, tp, td);
        }
    }
}
