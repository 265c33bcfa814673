//! Run-length board text, shared by every game's position text: rows
//! separated by `/`, a character per occupied cell, a decimal number for a
//! run of empty cells (FEN's convention, with runs of more than 9 written as
//! several digits, e.g. `12` on the Sly board).

/// The largest ply a position text may give. It is far past the end of any
/// game (the longest game the consistency kit allows is 13,000 plies) and
/// far enough below `u32::MAX` that playing on from such a position cannot
/// overflow the ply counter.
pub const MAX_PLY: u32 = 1_000_000_000;

/// Reads a position text's ply: a whole number up to [`MAX_PLY`]; `None`
/// for anything else (the caller words the error).
pub fn parse_ply(text: &str) -> Option<u32> {
    text.parse().ok().filter(|&p| p <= MAX_PLY)
}

/// Writes `height` rows of `width` cells: `cell(i, c)` is the character of
/// cell `c` (0-based, left to right) of the `i`-th row written (the caller
/// maps it to its own rank order), `None` for an empty cell.
pub fn write_rows(
    height: u32,
    width: u32,
    mut cell: impl FnMut(u32, u32) -> Option<char>,
) -> String {
    let mut out = String::new();
    for i in 0..height {
        if i > 0 {
            out.push('/');
        }
        let mut run = 0;
        for c in 0..width {
            match cell(i, c) {
                Some(ch) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(ch);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    out
}

/// Reads one row of run-length text into `(column, character)` calls of
/// `put` for its occupied cells; a row must describe exactly `width` cells.
/// `unit` names a cell in messages (`spaces` on the Sly board).
///
/// # Errors
/// A piece past `width` (`is longer than`), a row of another length (`has N
/// <unit>, expected W`), a run of 0, or what `put` returns.
pub fn read_row(
    row: &str,
    width: u32,
    unit: &str,
    mut put: impl FnMut(u32, char) -> Result<(), String>,
) -> Result<(), String> {
    let mut c: u32 = 0;
    let mut chars = row.chars().peekable();
    while let Some(ch) = chars.next() {
        if let Some(d) = ch.to_digit(10) {
            let mut k = d;
            while let Some(d2) = chars.peek().and_then(|x| x.to_digit(10)) {
                // Saturating: a huge run is then an over-long row.
                k = k.saturating_mul(10).saturating_add(d2);
                chars.next();
            }
            if k == 0 {
                return Err("has an empty run of 0".into());
            }
            c = c.saturating_add(k);
        } else {
            if c >= width {
                return Err(format!("is longer than {width} {unit}"));
            }
            put(c, ch)?;
            c += 1;
        }
    }
    if c != width {
        return Err(format!("has {c} {unit}, expected {width}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let cells = ["X..", "...", ".YZ"];
        let text = write_rows(3, 3, |i, c| {
            let ch = cells[i as usize].as_bytes()[c as usize] as char;
            (ch != '.').then_some(ch)
        });
        assert_eq!(text, "X2/3/1YZ");
        let mut got = Vec::new();
        for row in text.split('/') {
            let mut r = String::from("...");
            read_row(row, 3, "cells", |c, ch| {
                r.replace_range(c as usize..c as usize + 1, &ch.to_string());
                Ok(())
            })
            .unwrap();
            got.push(r);
        }
        assert_eq!(got, cells);
        // Multi-digit runs (the 12-wide Sly board).
        assert_eq!(write_rows(1, 12, |_, _| None), "12");
        assert!(read_row("12", 12, "cells", |_, _| Ok(())).is_ok());
        for (bad, needle) in [
            ("4", "has 4 cells"),
            ("13", "has 13 cells"),
            ("4294967296", "has 4294967295 cells"),
            ("11XY", "longer than 12 cells"),
            ("0X", "run of 0"),
        ] {
            let e = read_row(bad, 12, "cells", |_, _| Ok(())).unwrap_err();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }
}
