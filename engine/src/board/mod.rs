//! The shared board toolkit: what every engine needs and no engine owns.
//!
//! * [`Bits`]: bit sets of 64 or 128 bits behind one trait (shifts, masks,
//!   popcount, bit iteration), so a game picks its width and shares the code.
//! * [`SquareGrid`]: a `w × h` grid of squares in a bit set, with edge masks,
//!   shifts that never wrap, orthogonal flood fill, connection tests and the
//!   0-1 connection distance (fewest cost-1 squares on a path).
//! * [`Dir`], [`Rays`]: the eight king-move directions, one-square steps in
//!   each ([`SquareGrid::step`], [`SquareGrid::edge`]) and precomputed rays
//!   for ray casts and move paths.
//! * [`LineGraph`]: a grid of points joined by a chosen set of links
//!   (Alquerque-family boards): rays along existing links only, the lines,
//!   the direction and the points between two points on a common line.
//! * [`B192`]: a 192-bit set for boards of more than 128 squares.
//! * [`hex`]: hex-hex boards of side 2..=7 in `u64`/`u128`: axial
//!   coordinates, cell indices, step tables, leaper masks, rays for sliders,
//!   the three line directions and the k-windows along them.
//! * [`sly`]: the Sly board (12 × 12 in 16 fields of 3 × 3, rows numbered
//!   from the top, names like `5E`), shared by the six games of *Sly*.
//! * [`text`]: run-length board text (rows of cells and runs), read and
//!   written the same way by every game.
//! * [`zobrist`]: Zobrist key tables drawn from a fixed seed.
//! * [`KeyHistory`]: a repetition window of Zobrist keys, cheap to clone.
//! * [`planes`]: action ids of cells and cell pairs, observation planes
//!   from a board picture (the learning interface's shared encoders).
//! * [`square_name`]/[`parse_square`]: algebraic square names (`a1` is
//!   bottom-left).

mod bits;
mod grid;
pub mod hex;
mod history;
mod lines;
pub mod planes;
mod rays;
pub mod sly;
pub mod text;
pub mod zobrist;

pub use bits::{B192, BitIter, Bits};
pub use grid::SquareGrid;
pub use history::KeyHistory;
pub use lines::LineGraph;
pub use rays::{Dir, Rays};

use crate::error::GameError;

/// The algebraic name of square `index = rank * width + file` (`a1` =
/// bottom-left, 0-based), e.g. `e5` for index 40 on a 9-wide board.
pub fn square_name(index: usize, width: usize) -> String {
    let mut s = String::with_capacity(3);
    push_square_name(index, width, &mut s);
    s
}

/// Appends [`square_name`]'s name of `index` to `out`, without a fresh
/// string (the play loop's move text).
pub fn push_square_name(index: usize, width: usize, out: &mut String) {
    out.push((b'a' + (index % width) as u8) as char);
    let rank = index / width + 1;
    if rank < 10 {
        out.push((b'0' + rank as u8) as char);
    } else if rank < 100 {
        out.push((b'0' + (rank / 10) as u8) as char);
        out.push((b'0' + (rank % 10) as u8) as char);
    } else {
        out.push_str(&rank.to_string());
    }
}

/// Parses an algebraic square name on a `width × height` board.
///
/// # Errors
/// Anything but a file letter within the board followed by a rank number
/// within the board.
pub fn parse_square(text: &str, width: usize, height: usize) -> Result<usize, GameError> {
    let bytes = text.as_bytes();
    let last_file = (b'a' + width as u8 - 1) as char;
    let bad = || {
        GameError::new(format!(
            "bad square {text:?}: expected a file a-{last_file} then a rank 1-{height}"
        ))
    };
    if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
        return Err(bad());
    }
    if !bytes[1..].iter().all(u8::is_ascii_digit) {
        return Err(bad());
    }
    let file = (bytes[0] - b'a') as usize;
    let rank: usize = text[1..].parse().map_err(|_| bad())?;
    if file >= width || rank == 0 || rank > height || text[1..].starts_with('0') {
        return Err(bad());
    }
    Ok((rank - 1) * width + file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        assert_eq!(square_name(0, 9), "a1");
        assert_eq!(square_name(40, 9), "e5");
        assert_eq!(square_name(80, 9), "i9");
        // Ranks of two and three digits.
        assert_eq!(square_name(27, 3), "a10");
        assert_eq!(square_name(299, 3), "c100");
        let mut s = String::from("x;");
        push_square_name(40, 9, &mut s);
        assert_eq!(s, "x;e5");
        for i in 0..81 {
            assert_eq!(parse_square(&square_name(i, 9), 9, 9).unwrap(), i);
        }
        for bad in [
            "", "a", "j1", "a0", "a10", "A1", "a01", "1a", "e5x", "e+5", "e 5",
        ] {
            assert!(parse_square(bad, 9, 9).is_err(), "{bad}");
        }
        assert!(parse_square("h1", 7, 7).is_err());
    }
}
