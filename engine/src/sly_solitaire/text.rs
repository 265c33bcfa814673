//! Position and move text (§2.1, §3.3): rows from row 1, `/`-separated,
//! colour letters B L D O and empty counts, then the ply; moves `7F-3F`.

use super::state::{SlySolitaireMove, SlySolitaireState};
use super::{COLOUR_LETTERS, Geometry};
use crate::board::sly;
use crate::board::text::{MAX_PLY, parse_ply};
use crate::error::GameError;

/// The position text: `12/12/12/3BLDLBO3/…/12/12/12 0`.
pub(crate) fn position_text(s: &SlySolitaireState) -> String {
    let mut rows = Vec::with_capacity(12);
    for r in 0..12 {
        let mut t = String::new();
        let mut gap = 0;
        for c in 0..12 {
            match s.colour_at(sly::square(r, c)) {
                Some(k) => {
                    if gap > 0 {
                        t.push_str(&gap.to_string());
                        gap = 0;
                    }
                    t.push(COLOUR_LETTERS[k]);
                }
                None => gap += 1,
            }
        }
        if gap > 0 {
            t.push_str(&gap.to_string());
        }
        rows.push(t);
    }
    format!("{} {}", rows.join("/"), s.ply)
}

/// Parses a position text.
///
/// # Errors
/// Not 12 rows of 12 spaces, an unknown letter, a piece outside the playing
/// area, more than 9 pieces of a colour (S-SET-1), no piece, a bad ply, or
/// a ply the pieces cannot have reached (every move removes at least one
/// piece, so pieces + ply ≤ 36).
pub(crate) fn parse_position(
    geo: &'static Geometry,
    text: &str,
) -> Result<SlySolitaireState, GameError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [board, ply] = fields.as_slice() else {
        crate::bail!(
            "bad sly_solitaire position {text:?}: expected the board (12 rows separated by '/') and the ply, e.g. \"12/12/12/3BLDLBO3/3LOLBOD3/3ODBLDB3/3DBODBL3/3BLDOLO3/3LDOBOD3/12/12/12 0\""
        );
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 12 {
        crate::bail!(
            "bad sly_solitaire position: the board has {} rows separated by '/', expected 12",
            rows.len()
        );
    }
    let mut s = SlySolitaireState::empty(geo);
    let mut per_colour = [0u32; 4];
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0u32;
        let mut digits = String::new();
        let flush = |digits: &mut String, c: &mut u32| -> Result<(), GameError> {
            if !digits.is_empty() {
                if digits.starts_with('0') {
                    crate::bail!(
                        "bad sly_solitaire position: row {} has the empty count {digits:?}",
                        r + 1
                    );
                }
                // A count past the row's 12 spaces (however many digits) is
                // refused here, before it is added.
                let Some(n) = digits.parse::<u32>().ok().filter(|&n| n <= 12) else {
                    crate::bail!(
                        "bad sly_solitaire position: row {} has the empty count {digits:?}, more than its 12 spaces",
                        r + 1
                    );
                };
                *c += n;
                digits.clear();
            }
            Ok(())
        };
        for ch in row.chars() {
            if ch.is_ascii_digit() {
                digits.push(ch);
                continue;
            }
            flush(&mut digits, &mut c)?;
            let Some(k) = COLOUR_LETTERS.iter().position(|&x| x == ch) else {
                crate::bail!(
                    "bad sly_solitaire position: row {} has {ch:?}, expected a colour B, L, D, O or an empty count",
                    r + 1
                );
            };
            if c >= 12 {
                crate::bail!(
                    "bad sly_solitaire position: row {} is longer than 12 spaces",
                    r + 1
                );
            }
            let sq = sly::square(r as u32, c);
            if geo.row_area[r] >> c & 1 == 0 {
                crate::bail!(
                    "bad sly_solitaire position: a piece on {} is outside the playing area (area=window: rows 3-10, columns C-J)",
                    sly::square_name(sq)
                );
            }
            s.put(k, sq);
            per_colour[k] += 1;
            c += 1;
        }
        flush(&mut digits, &mut c)?;
        if c != 12 {
            crate::bail!(
                "bad sly_solitaire position: row {} has {c} spaces, expected 12",
                r + 1
            );
        }
    }
    for (k, &n) in per_colour.iter().enumerate() {
        if n > 9 {
            crate::bail!(
                "bad sly_solitaire position: {n} pieces of colour {}, at most 9 (S-SET-1: 6 squares and 3 triangles a colour)",
                COLOUR_LETTERS[k]
            );
        }
    }
    let count = s.count as u32;
    if count == 0 {
        crate::bail!(
            "bad sly_solitaire position: no piece on the board (a jump never removes the jumper)"
        );
    }
    let ply: u32 = parse_ply(ply).ok_or_else(|| {
        GameError::new(format!(
            "bad sly_solitaire position: ply {ply:?} is not a number up to {MAX_PLY}"
        ))
    })?;
    if count + ply > 36 {
        crate::bail!(
            "bad sly_solitaire position: {count} pieces after {ply} plies is impossible (each jump removes at least one of the 36 pieces)"
        );
    }
    s.finish_setup(ply);
    Ok(s)
}

/// Parses `7F-3F`: two spaces in one row or one column, at least two apart.
pub(crate) fn parse_move(text: &str) -> Result<SlySolitaireMove, GameError> {
    let bad = |why: &str| {
        GameError::new(format!(
            "bad sly_solitaire move {text:?}: {why} (expected from-to, e.g. 7F-3F)"
        ))
    };
    let (a, b) = text.trim().split_once('-').ok_or_else(|| bad("no '-'"))?;
    let from = sly::parse_square(a).map_err(|e| bad(&e.0))?;
    let to = sly::parse_square(b).map_err(|e| bad(&e.0))?;
    let (r0, c0, r1, c1) = (
        sly::row_of(from),
        sly::col_of(from),
        sly::row_of(to),
        sly::col_of(to),
    );
    let apart = if r0 == r1 {
        c0.abs_diff(c1)
    } else if c0 == c1 {
        r0.abs_diff(r1)
    } else {
        return Err(bad("the spaces are not in one row or column"));
    };
    if apart < 2 {
        return Err(bad("a jump passes at least one piece"));
    }
    Ok(SlySolitaireMove {
        from: from as u8,
        to: to as u8,
    })
}

/// The colour names of [`COLOUR_LETTERS`] (S-SET-4).
const COLOUR_NAMES: [&str; 4] = ["black", "lined", "dotted", "open"];

/// Why `text` is not a legal move in `s`, from the rules (see
/// [`crate::api::Research::illegal_reason`]): no piece to jump (S-1), an
/// empty neighbour or a run reaching the edge (S-2), a landing that is not
/// the first empty space after the run (S-2) or lies outside the window
/// (S-5), a jumped piece of the jumper's colour (S-3). `None` where the
/// move is legal.
pub(crate) fn illegal_reason(s: &SlySolitaireState, text: &str) -> Option<String> {
    let (mv, _) = match crate::api::move_to_explain(s, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let (from, to) = (mv.from as u32, mv.to as u32);
    let name = sly::square_name;
    let Some(k) = s.colour_at(from) else {
        return Some(format!("no piece on {} (S-1)", name(from)));
    };
    // The parser keeps `from` and `to` in one row or column: walk from
    // `from` towards `to` over the run of pieces.
    let (r0, c0) = (sly::row_of(from) as i32, sly::col_of(from) as i32);
    let (dr, dc) = (
        (sly::row_of(to) as i32 - r0).signum(),
        (sly::col_of(to) as i32 - c0).signum(),
    );
    let at = |i: i32| {
        let (r, c) = (r0 + i * dr, c0 + i * dc);
        ((0..12).contains(&r) && (0..12).contains(&c)).then(|| sly::square(r as u32, c as u32))
    };
    let mut run = Vec::new();
    let mut i = 1;
    let land = loop {
        match at(i) {
            None => break None,
            Some(sq) if s.colour_at(sq).is_some() => run.push(sq),
            Some(sq) => break Some(sq),
        }
        i += 1;
    };
    let Some(land) = land.filter(|_| !run.is_empty()) else {
        return Some(if run.is_empty() {
            format!(
                "the space next to {} towards {} is empty, and a jump goes over pieces (S-2)",
                name(from),
                name(to)
            )
        } else {
            format!(
                "the run of pieces from {} reaches the edge of the board, so {} cannot jump that way (S-2)",
                name(run[0]),
                name(from)
            )
        });
    };
    let area = s.geo.row_area[sly::row_of(land) as usize] >> sly::col_of(land) & 1 == 1;
    if !area {
        return Some(format!(
            "the jump from {} would land on {}, outside the rule book's 8x8 window, rows 3-10 x C-J, where play stays (area=window, S-5)",
            name(from),
            name(land)
        ));
    }
    if land != to {
        return Some(format!(
            "the run of pieces from {} ends at {}, so {} jumps the whole run and lands on {} (S-2)",
            name(run[0]),
            name(*run.last().expect("a run")),
            name(from),
            name(land)
        ));
    }
    if let Some(&same) = run.iter().find(|&&sq| s.colour_at(sq) == Some(k)) {
        return Some(format!(
            "{} would jump {}, a piece of its own colour ({}), and no jumped piece may have the jumper's colour (S-3)",
            name(from),
            name(same),
            COLOUR_NAMES[k]
        ));
    }
    Some("not one of the legal moves".into())
}
