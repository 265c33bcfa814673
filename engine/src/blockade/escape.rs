//! The escape path search of B-5: a bitboard flood over (square, heading)
//! states.
//!
//! The dossier's algorithm (§6.2 B-5) walks a queue of segment starts
//! `(p, h)`: from `p` the king runs `h`-wards; off the target edge it
//! escapes; off another edge the branch dies (QB3); onto the enemy king it
//! dies (QB5, QB6); at a guard it turns left or right where it stands,
//! which starts two new segments (zero-length ones included, QB4).
//!
//! Here the queue is four bit sets, one per heading, of segment starts not
//! yet run. Running all the starts of one heading at once is one occluded
//! fill ([`sly::slide_fill`]) through the free spaces (not a guard, not the
//! forbidden enemy king); the turning points are the filled spaces whose
//! next space that way holds a guard (the guard set shifted back one step);
//! they become starts of the two perpendicular headings unless seen before.
//! The flood ends when no heading has new starts, after at most one round
//! per turn of the longest path, and stops at the first escape.

use super::Side;
use crate::board::sly::{self, Heading, slide_fill};
use crate::board::{B192, Bits};

/// The escape path rulings of B-5 (defaults: the dossier's proposals).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EscapeRules {
    /// QB3: a path running off a side or its own edge turns there as at a
    /// guard (`side_edge=turn`) instead of dying (`dead`, default).
    pub side_edge_turns: bool,
    /// QB4: zero-length segments allowed (default): a guard right after a
    /// turn makes the king turn again. If false, each segment moves at
    /// least one space before it may turn.
    pub zero_turns: bool,
    /// QB5: the enemy king stops the path like a guard (`stop`) instead of
    /// killing the branch (`invalid`, default).
    pub enemy_king_stops: bool,
    /// QB6: the path must also avoid the 8 neighbours of the enemy king
    /// (`neighbours`); default: only its square.
    pub clear_neighbours: bool,
}

impl Default for EscapeRules {
    fn default() -> Self {
        EscapeRules {
            side_edge_turns: false,
            zero_turns: true,
            enemy_king_stops: false,
            clear_neighbours: false,
        }
    }
}

/// What an escape flood found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Flood {
    /// An escape path exists (B-5).
    pub escape: bool,
    /// The spaces the king can pass through on some path (for evaluation);
    /// partial if the flood stopped at the first escape.
    pub area: B192,
    /// Segment starts seen, per heading ([`Heading`] order).
    pub starts: [B192; 4],
}

/// The escape flood for `side`'s king on `king`, the enemy king on
/// `enemy`, guards of both colours `guards` (B-5 with the rulings `r`).
/// With `stop_early` it returns at the first escape found.
#[inline]
pub fn escape_flood(
    side: Side,
    king: u32,
    enemy: u32,
    guards: B192,
    r: EscapeRules,
    stop_early: bool,
) -> Flood {
    let target = side.target();
    let x = B192::bit(enemy);
    let forbidden = if r.clear_neighbours {
        let ring = sly::left(x) | sly::right(x) | x;
        ring | sly::up(ring) | sly::down(ring)
    } else {
        x
    };
    let free = sly::FULL & !guards & !forbidden;
    // QB5: with `stop`, the enemy king turns the path like a guard.
    let blockers = if r.enemy_king_stops {
        guards | x
    } else {
        guards
    };
    let k = B192::bit(king);
    let mut starts = [k; 4];
    let mut todo = [k; 4];
    let mut area = k;
    let mut escape = false;
    loop {
        let mut ran = false;
        for h in Heading::ALL {
            let t = todo[h as usize];
            if t.is_zero() {
                continue;
            }
            todo[h as usize] = B192::ZERO;
            ran = true;
            // The spaces the king stands on while running h-wards from the
            // starts t (QB4: with zero-length segments forbidden, only
            // after at least one step).
            let reach = if r.zero_turns {
                slide_fill(h, t, free)
            } else {
                slide_fill(h, h.step(t) & free, free)
            };
            area |= reach;
            if h == target && !((reach | t) & h.edge()).is_zero() {
                escape = true;
                if stop_early {
                    return Flood {
                        escape,
                        area,
                        starts,
                    };
                }
            }
            // Stopped by a guard: turn left or right where it stands.
            let mut turns = reach & h.reverse().step(blockers);
            if r.side_edge_turns && h != target {
                turns |= reach & h.edge(); // QB3 `turn`
            }
            for h2 in [h.turn_left(), h.turn_right()] {
                let new = turns & !starts[h2 as usize];
                if !new.is_zero() {
                    starts[h2 as usize] |= new;
                    todo[h2 as usize] |= new;
                }
            }
        }
        if !ran {
            return Flood {
                escape,
                area,
                starts,
            };
        }
    }
}

/// Whether `side`'s king on `king` has an escape path (B-5), the enemy king
/// on `enemy`, guards `guards`.
#[inline]
pub fn has_escape(side: Side, king: u32, enemy: u32, guards: B192, r: EscapeRules) -> bool {
    escape_flood(side, king, enemy, guards, r, true).escape
}
