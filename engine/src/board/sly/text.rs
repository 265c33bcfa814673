//! The Sly board's text: space names (`5E`, §2.1), run-length position
//! rows, the board diagram and typed-piece cells, read and written.

use super::geometry::{SIDE, col_of, is_centre, row_of, square};
use crate::error::GameError;

/// The rule book's name of a space: row number then column letter, `5E`
/// (§2.1).
pub fn square_name(sq: u32) -> String {
    let mut s = String::with_capacity(3);
    push_square_name(sq, &mut s);
    s
}

/// [`square_name`], appended to `out` (no formatting machinery: the play
/// loop writes every move of a random game this way).
#[inline]
pub fn push_square_name(sq: u32, out: &mut String) {
    let r = row_of(sq) + 1;
    if r >= 10 {
        out.push('1');
    }
    out.push((b'0' + (r % 10) as u8) as char);
    out.push((b'A' + col_of(sq) as u8) as char);
}

/// Parses a space name: a row 1–12 then a column letter A–L (either case),
/// `5E` or `10c`.
///
/// # Errors
/// Anything else; the message names the text and the expected form.
pub fn parse_square(text: &str) -> Result<u32, GameError> {
    let bad = || {
        GameError::new(format!(
            "bad Sly square {text:?}: expected a row 1-12 then a column A-L, e.g. 5E"
        ))
    };
    let t = text.as_bytes();
    if t.len() < 2 || t.len() > 3 {
        return Err(bad());
    }
    let (digits, letter) = t.split_at(t.len() - 1);
    if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
        return Err(bad());
    }
    let row: u32 = text[..digits.len()].parse().map_err(|_| bad())?;
    let col = letter[0].to_ascii_uppercase();
    if !(1..=SIDE).contains(&row) || !(b'A'..=b'L').contains(&col) {
        return Err(bad());
    }
    Ok(square(row - 1, (col - b'A') as u32))
}

/// The board field of a position text (Sniggle, Blockade): rows 1 to 12
/// (top first) separated by `/`, a run of empty spaces written as its
/// length, an occupied space as `cell(sq)`'s letter: `12/4k7/...`.
pub fn rows_text(cell: impl Fn(u32) -> Option<char>) -> String {
    let mut rows = Vec::with_capacity(SIDE as usize);
    for r in 0..SIDE {
        let mut row = String::new();
        let mut run = 0;
        for c in 0..SIDE {
            match cell(square(r, c)) {
                Some(ch) => {
                    if run > 0 {
                        row.push_str(&run.to_string());
                        run = 0;
                    }
                    row.push(ch);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// Reads the board field written by [`rows_text`], calling `put(sq, ch)`
/// for each occupied space in reading order; `put` rejects a letter with a
/// message.
///
/// # Errors
/// Not 12 rows, a row not of 12 spaces, a run of 0, or `put`'s message,
/// each naming the row.
pub fn parse_rows(
    text: &str,
    mut put: impl FnMut(u32, char) -> Result<(), String>,
) -> Result<(), String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIDE as usize {
        return Err(format!("{} rows, expected 12", rows.len()));
    }
    for (r, row) in rows.iter().enumerate() {
        let r = r as u32;
        let mut c = 0u32;
        let mut digits = 0u32;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                digits = digits.saturating_mul(10).saturating_add(d);
                if chars.peek().is_some_and(|x| x.is_ascii_digit()) {
                    continue;
                }
                if digits == 0 {
                    return Err(format!("row {}: an empty run of 0", r + 1));
                }
                c = c.saturating_add(digits);
                digits = 0;
                continue;
            }
            if c >= SIDE {
                return Err(format!("row {} is longer than 12 spaces", r + 1));
            }
            put(square(r, c), ch).map_err(|e| format!("{e} in row {}", r + 1))?;
            c += 1;
        }
        if c != SIDE {
            return Err(format!("row {} has {c} spaces, expected 12", r + 1));
        }
    }
    Ok(())
}

/// The board as the dossier draws it (§2.1): column letters on top, row
/// numbers on the left, `|` and `-` between fields. `cell(sq)` gives the
/// character of a space, or `None` for an empty one, drawn `o` on a centre
/// and `.` elsewhere. Twelve rows plus header and separators, no trailing
/// newline.
pub fn diagram(cell: impl Fn(u32) -> Option<char>) -> String {
    let mut out = String::from("      A  B  C    D  E  F    G  H  I    J  K  L");
    for r in 0..SIDE {
        if r > 0 && r % 3 == 0 {
            out.push_str("\n     ---------+----------+----------+---------");
        }
        out.push_str(&format!("\n{:>3}   ", r + 1));
        for c in 0..SIDE {
            if c > 0 {
                out.push_str(if c % 3 == 0 { " |  " } else { "  " });
            }
            let sq = square(r, c);
            let ch = cell(sq).unwrap_or(if is_centre(sq) { 'o' } else { '.' });
            out.push(ch);
        }
    }
    out
}

/// Writes a board of typed, owned pieces as position text: rows 1 to 12
/// separated by `/`, each space a `.` when empty or a piece's kind letter
/// followed by its seat number (1-based), e.g. `C1A1H1A1........`.
/// `cell(sq)` gives `(kind letter, 0-based seat)`.
pub fn write_cells(cell: impl Fn(u32) -> Option<(char, usize)>) -> String {
    let mut out = String::new();
    for r in 0..SIDE {
        if r > 0 {
            out.push('/');
        }
        for c in 0..SIDE {
            match cell(square(r, c)) {
                Some((k, s)) => {
                    out.push(k);
                    out.push((b'1' + s as u8) as char);
                }
                None => out.push('.'),
            }
        }
    }
    out
}

/// Reads the board text of [`write_cells`]: 12 rows of 12 spaces, each `.`
/// or a letter of `kinds` (either case) then a seat number `1..=seats`.
/// Returns per square `(kind index in kinds, 0-based seat)`.
///
/// # Errors
/// A wrong number of rows or spaces in a row, an unknown letter, a missing
/// or out-of-range seat number; the message names the row.
pub fn parse_cells(
    text: &str,
    kinds: &str,
    seats: usize,
) -> Result<[Option<(u8, u8)>; 144], GameError> {
    let mut out = [None; 144];
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIDE as usize {
        crate::bail!("{} rows, expected 12 separated by /", rows.len());
    }
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0u32;
        let mut chars = row.chars();
        while let Some(ch) = chars.next() {
            if c >= SIDE {
                crate::bail!("row {} is longer than 12 spaces", r + 1);
            }
            if ch != '.' {
                let Some(k) = kinds.find(ch.to_ascii_uppercase()) else {
                    crate::bail!(
                        "unknown piece letter {ch:?} in row {} (expected . or one of {kinds} then a seat 1-{seats})",
                        r + 1
                    );
                };
                let seat = chars.next().and_then(|d| d.to_digit(10)).unwrap_or(0) as usize;
                if !(1..=seats).contains(&seat) {
                    crate::bail!(
                        "piece {ch:?} in row {} needs a seat number 1-{seats} after it",
                        r + 1
                    );
                }
                out[square(r as u32, c) as usize] = Some((k as u8, (seat - 1) as u8));
            }
            c += 1;
        }
        if c != SIDE {
            crate::bail!("row {} has {c} spaces, expected 12", r + 1);
        }
    }
    Ok(out)
}
