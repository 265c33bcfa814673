//! King's Colour text: the board diagram.

use std::fmt;

use super::{CELLS, KingsColourState};

impl fmt::Display for KingsColourState {
    /// The board in boardspace's internal orientation (§2.3's map): each
    /// cell's label then its piece, `#` for an empty wall cell, `.` for
    /// another empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = vec![vec![b' '; 13 * 5 + 1]; 25];
        for c in 0..CELLS {
            let h = self.geo.grid.hex(c);
            let y = (2 * (6 - h.r) - h.q) as usize;
            let x = ((h.q + 6) * 5) as usize;
            let name = self.geo.name(c);
            let wall = (self.geo.wall[0] | self.geo.wall[1]) >> c & 1 == 1;
            let empty = if wall { '#' } else { '.' };
            let cell = format!("{name}{}", self.letter(c).unwrap_or(empty));
            for (i, b) in cell.bytes().enumerate() {
                if x + i < lines[y].len() {
                    lines[y][x + i] = b;
                }
            }
        }
        let text: Vec<String> = lines
            .iter()
            .map(|l| String::from_utf8_lossy(l).trim_end().to_string())
            .collect();
        write!(f, "{}", text.join("\n"))
    }
}
