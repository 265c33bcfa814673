//! Seats, sides and results of the multi-player Sly games (§2.3: turn order
//! to the left, partners alternating, so teams are seats 0+2 and 1+3).

use crate::api::{MAX_SEATS, Returns};
use crate::board::zobrist;
use crate::error::GameError;

/// The seats on `seat`'s side as a bit mask: itself, and with teams its
/// partner (`seat ^ 2`).
#[inline(always)]
pub fn side_mask(teams: bool, seat: usize) -> u8 {
    if teams {
        0b0101 << (seat & 1)
    } else {
        1 << seat
    }
}

/// Returns when the seats in `winners` (a bit mask) have won: +1 for
/// them, −1 for every other of the `players` seats.
pub fn win_returns(winners: u8, players: usize) -> Returns {
    let mut r = [0.0; MAX_SEATS];
    for (k, x) in r.iter_mut().enumerate().take(players) {
        *x = if winners >> k & 1 == 1 { 1.0 } else { -1.0 };
    }
    r
}

/// The seats of a bit mask, in order.
pub fn of_mask(mask: u8) -> Vec<usize> {
    (0..MAX_SEATS).filter(|&s| mask >> s & 1 == 1).collect()
}

/// The seats of a bit mask, 1-based, joined by `+` (`1+3`).
pub fn mask_text(mask: u8) -> String {
    let w: Vec<String> = of_mask(mask).iter().map(|k| (k + 1).to_string()).collect();
    w.join("+")
}

/// Reads a per-seat placement parameter (`corners=13`, `colours=24`):
/// `auto` gives `default`, else one digit 1-4 per seat, all different,
/// stored 0-based.
///
/// # Errors
/// Another length, a digit outside 1-4 or a repeated one; the message
/// names the parameter and says what `what` (e.g. "corner (1=TL ...)")
/// each digit is.
pub fn parse_places(
    game: &str,
    name: &str,
    text: &str,
    players: u8,
    default: [u8; 4],
    what: &str,
) -> Result<[u8; 4], GameError> {
    if text.eq_ignore_ascii_case("auto") {
        return Ok(default);
    }
    let digits: Vec<u8> = text.bytes().map(|d| d.wrapping_sub(b'1')).collect();
    if digits.len() != players as usize || digits.iter().any(|&d| d > 3) {
        crate::bail!(
            "game {game}: {name}={text:?} is not valid (expected auto or {players} digits 1-4, one {what} per seat)"
        );
    }
    if (1..digits.len()).any(|i| digits[..i].contains(&digits[i])) {
        crate::bail!(
            "game {game}: {name} must give {players} different digits 1-4, one {what} per seat"
        );
    }
    let mut out = [0u8; 4];
    out[..digits.len()].copy_from_slice(&digits);
    Ok(out)
}

/// The checks every multi-player Sly game makes of its seat parameters:
/// 2–4 players, teams only with 4, a first seat among them, a ply cap
/// in `1..=1000000`.
///
/// # Errors
/// The first that fails, named.
pub fn check(
    game: &str,
    players: u8,
    teams: bool,
    first_seat: u8,
    ply_cap: u32,
) -> Result<(), GameError> {
    if !(2..=4).contains(&players) {
        crate::bail!("game {game}: players={players} is not valid (expected one of 2|3|4)");
    }
    if teams && players != 4 {
        crate::bail!(
            "game {game}: teams=true needs players=4 (partners are seats 0+2 against 1+3, §2.3), not players={players}"
        );
    }
    if first_seat >= players {
        crate::bail!(
            "game {game}: first_seat={first_seat} is not valid (expected 0..={})",
            players - 1
        );
    }
    if !(1..=1_000_000).contains(&ply_cap) {
        crate::bail!("game {game}: ply_cap={ply_cap} is not valid (expected integer 1..=1000000)");
    }
    Ok(())
}

/// Zobrist keys for three piece kinds of four seats on the Sly board,
/// the seat to move and one flag (e.g. the game is over).
pub struct PieceKeys {
    /// `piece[seat][kind][square]`.
    pub piece: [[[u64; 144]; 3]; MAX_SEATS],
    /// The seat to move.
    pub seat: [u64; MAX_SEATS],
    /// A flag of the game's choosing.
    pub flag: u64,
}

impl PieceKeys {
    /// The keys drawn from `seed` (one seed per game).
    pub fn new(seed: u64) -> PieceKeys {
        let k = zobrist::keys(seed, MAX_SEATS * 3 * 144 + MAX_SEATS + 1);
        let mut it = k.into_iter();
        let mut take = || it.next().expect("enough keys");
        let mut keys = PieceKeys {
            piece: [[[0; 144]; 3]; MAX_SEATS],
            seat: [0; MAX_SEATS],
            flag: 0,
        };
        for seat in keys.piece.iter_mut() {
            for kind in seat.iter_mut() {
                kind.iter_mut().for_each(|x| *x = take());
            }
        }
        keys.seat.iter_mut().for_each(|x| *x = take());
        keys.flag = take();
        keys
    }

    /// The key of a mailbox: `board[sq]` is 0 for empty or
    /// `1 + 3 * seat + kind`; plus the seat to move.
    pub fn of_board(&self, board: &[u8; 144], to_move: usize) -> u64 {
        let mut h = self.seat[to_move];
        for (sq, &v) in board.iter().enumerate() {
            if v != 0 {
                h ^= self.piece[(v as usize - 1) / 3][(v as usize - 1) % 3][sq];
            }
        }
        h
    }
}

/// The board diagram (`super::diagram`) of a mailbox game, then its
/// position text: a piece's letter upper case for seats 1 and 3, lower
/// case for seats 2 and 4 (the seat itself is in the position text).
pub fn diagram(cell: impl Fn(u32) -> Option<(char, usize)>, text: &str) -> String {
    let d = super::diagram(|sq| {
        cell(sq).map(|(k, s)| {
            if s % 2 == 0 {
                k
            } else {
                k.to_ascii_lowercase()
            }
        })
    });
    format!("{d}\n{text}")
}
