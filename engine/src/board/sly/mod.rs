//! The Sly board: Sid Sackson's *Sly* game system (six games on one board:
//! Solitaire Sly, Sniggle, Line Up, Blockade, Empire, Gateway). Geometry
//! from `docs/rules/sly-board.md` §2.
//!
//! * **Board** (§1.1, §2.1): 12 × 12 spaces. Rows are numbered **1–12 from
//!   the top**, columns lettered **A–L from the left**, and a space is named
//!   row first, as the rule book writes it: `5E` is row 5, column E.
//! * **Fields** (§2.2): 16 fields of 3 × 3. The field of `(r, c)` (0-based)
//!   is `(r / 3, c / 3)`, numbered `4 * (r / 3) + c / 3`. Field rows are
//!   called **bands** (band k = rows `3k+1 ..= 3k+3`, 0-based k), field
//!   columns **field columns** (columns `3k ..= 3k+2`).
//! * **Centres** (§2.2): the middle space of each field (circled on the
//!   board): rows {2, 5, 8, 11} × columns {B, E, H, K}.
//! * **Headings** ([`Heading`]) and the occluded [`slide_fill`]: the four
//!   orthogonal directions with turns, and a bitboard slide through free
//!   spaces (Blockade's guard moves and escape search, §6).
//!
//! ## Bits
//! Space `(r, c)` (0-based, `r = row − 1`, `c = column − 'A'`) is bit
//! `r * 12 + c` of a [`B192`](crate::board::B192) (144 of its 192 bits). [`GRID`] is the
//! [`SquareGrid`](crate::board::SquareGrid) over those bits: its "rank 0" is row 1 at the **top**, so
//! the grid's `north` moves *down* the Sly board; [`up`], [`down`], [`left`]
//! and [`right`] say it the Sly way. All of the toolkit's flood fills and
//! connection tests work on [`GRID`] unchanged.
//!
//! ## Files
//! `geometry.rs` (spaces, fields, shifts, headings, reflections: every table
//! a compile-time constant), `text.rs` (space names, position rows, the
//! diagram) and [`seats`] (seats, sides, results and the shared position
//! text of the multi-player games). Their items are re-exported here, so a
//! game writes `sly::square_name` whatever file it lives in.

mod geometry;
pub mod seats;
mod text;

pub use geometry::{
    BANDS, CENTRE_LINES, CENTRES, COLS, CORNER_NAMES, FIELD_COLUMNS, FIELDS, FULL, GRID, Heading,
    Lines, ROWS, SIDE, SQUARES, centre_of_field, col_of, down, field_of, for_each_at_distance,
    is_centre, left, reflect_into, right, row_bits, row_of, row_set, slide_fill, square, up,
};
pub use text::{
    diagram, parse_cells, parse_rows, parse_square, push_square_name, rows_text, square_name,
    write_cells,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{B192, Bits};

    #[test]
    fn geometry_matches_the_dossier() {
        // §2.2: the sixteen centres, by name.
        let names: Vec<String> = CENTRES.iter().map(square_name).collect();
        assert_eq!(
            names.join(" "),
            "2B 2E 2H 2K 5B 5E 5H 5K 8B 8E 8H 8K 11B 11E 11H 11K"
        );
        assert_eq!(FULL.count(), 144);
        for f in 0..16 {
            assert_eq!(FIELDS[f as usize].count(), 9);
            assert!(FIELDS[f as usize].has(centre_of_field(f)));
            assert_eq!(field_of(centre_of_field(f)), f);
        }
        // Field of 5E is band 1 (rows 4-6), field column 1 (D-F).
        let e5 = parse_square("5E").unwrap();
        assert_eq!((row_of(e5), col_of(e5), field_of(e5)), (4, 4, 5));
        assert!(is_centre(e5) && !is_centre(parse_square("5D").unwrap()));
        assert_eq!(BANDS[1].count(), 36);
        assert!(BANDS[1].has(parse_square("4A").unwrap()));
        assert!(!BANDS[1].has(parse_square("7A").unwrap()));
        assert_eq!(FIELD_COLUMNS[3], COLS[9] | COLS[10] | COLS[11]);
        // Row 1 is at the top: `up` from row 1 falls off, `down` goes to row 2.
        let a1 = parse_square("1A").unwrap();
        assert_eq!(up(B192::bit(a1)), B192::ZERO);
        assert_eq!(down(B192::bit(a1)), B192::bit(parse_square("2A").unwrap()));
        assert_eq!(left(B192::bit(a1)), B192::ZERO);
        assert_eq!(right(B192::bit(e5)), B192::bit(parse_square("5F").unwrap()));
        assert_eq!(right(B192::bit(parse_square("5L").unwrap())), B192::ZERO);
        // The toolkit's flood fill works on the Sly grid: a column joins
        // row 1 to row 12.
        assert!(GRID.connects4(COLS[4], GRID.first_rank, GRID.last_rank));
        assert!(!GRID.connects4(COLS[4] ^ B192::bit(e5), ROWS[0], ROWS[11]));
    }

    #[test]
    fn names_round_trip_and_rows_extract() {
        for sq in 0..SQUARES {
            assert_eq!(parse_square(&square_name(sq)).unwrap(), sq);
        }
        assert_eq!(square_name(0), "1A");
        assert_eq!(square_name(143), "12L");
        assert_eq!(parse_square("10c").unwrap(), square(9, 2));
        for bad in [
            "", "5", "E5", "0A", "13A", "5M", "05E", "5EE", "5 E", "-1A", "100A",
        ] {
            assert!(parse_square(bad).is_err(), "{bad:?}");
        }
        let b = B192::bit(square(5, 0)) | B192::bit(square(5, 11)) | B192::bit(square(6, 3));
        assert_eq!(row_bits(b, 5), 0b1000_0000_0001);
        assert_eq!(row_bits(b, 6), 0b1000);
        assert_eq!(row_set(5, 0b1000_0000_0001) | row_set(6, 0b1000), b);
        for r in 0..12 {
            assert_eq!(row_bits(FULL, r), 0xFFF);
            assert_eq!(row_set(r, 0xFFF), ROWS[r as usize]);
        }
    }

    #[test]
    fn headings_and_slide_fill() {
        let sq = |t: &str| parse_square(t).unwrap();
        assert_eq!(Heading::Up.turn_right(), Heading::Right);
        assert_eq!(Heading::Up.turn_left(), Heading::Left);
        assert_eq!(Heading::Left.reverse(), Heading::Right);
        assert_eq!(Heading::Down.step_square(sq("12A")), None);
        assert_eq!(Heading::Right.step_square(sq("5L")), None);
        assert_eq!(Heading::Left.step_square(sq("5B")), Some(sq("5A")));
        // From 5E with a blocker on 5I: right fills 5E..5H; left runs to 5A.
        let free = FULL ^ B192::bit(sq("5I"));
        let from = B192::bit(sq("5E"));
        let names = |b: B192| b.iter().map(square_name).collect::<Vec<_>>().join(" ");
        assert_eq!(names(slide_fill(Heading::Right, from, free)), "5E 5F 5G 5H");
        assert_eq!(
            names(slide_fill(Heading::Left, from, free)),
            "5A 5B 5C 5D 5E"
        );
        // No wrap from column L to the next row's column A.
        let l = B192::bit(sq("5K"));
        assert_eq!(names(slide_fill(Heading::Right, l, FULL)), "5K 5L");
        assert_eq!(
            names(slide_fill(Heading::Left, B192::bit(sq("6B")), FULL)),
            "6A 6B"
        );
        // Columns: up from 12C through everything to 1C; down from 1C
        // stopped by 7C.
        assert_eq!(slide_fill(Heading::Up, B192::bit(sq("12C")), FULL), COLS[2]);
        let stop = FULL ^ B192::bit(sq("7C"));
        assert_eq!(
            names(slide_fill(Heading::Down, B192::bit(sq("1C")), stop)),
            "1C 2C 3C 4C 5C 6C"
        );
        // Several sources at once.
        let two = B192::bit(sq("1A")) | B192::bit(sq("1L"));
        assert_eq!(slide_fill(Heading::Down, two, FULL), COLS[0] | COLS[11]);
    }

    #[test]
    fn rows_text_round_trips() {
        let marks = [square(0, 0), square(1, 4), square(11, 11)];
        let t = rows_text(|sq| marks.contains(&sq).then_some('x'));
        assert_eq!(t, "x11/4x7/12/12/12/12/12/12/12/12/12/11x");
        let mut seen = Vec::new();
        parse_rows(&t, |sq, ch| {
            seen.push((sq, ch));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, marks.map(|m| (m, 'x')));
        for bad in [
            "12",
            "13/12/12/12/12/12/12/12/12/12/12/12",
            "0x11/12/12/12/12/12/12/12/12/12/12/12",
        ] {
            assert!(parse_rows(bad, |_, _| Ok(())).is_err(), "{bad}");
        }
        let e = parse_rows(&t, |_, _| Err("no".into())).unwrap_err();
        assert_eq!(e, "no in row 1");
    }

    #[test]
    fn diagram_has_fields_and_centres() {
        let d = diagram(|sq| (sq == square(3, 0)).then_some('X'));
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines.len(), 16);
        assert_eq!(lines[0], "      A  B  C    D  E  F    G  H  I    J  K  L");
        assert_eq!(lines[2], "  2   .  o  . |  .  o  . |  .  o  . |  .  o  .");
        assert_eq!(lines[4], "     ---------+----------+----------+---------");
        assert_eq!(lines[5], "  4   X  .  . |  .  .  . |  .  .  . |  .  .  .");
    }

    #[test]
    fn corners_lines_distances_and_cells() {
        // E-SET-3: the template's 1C reflects to 1J (TR), 12J (BR), 12C (BL).
        let names: Vec<String> = (0..4).map(|k| square_name(reflect_into(k, 0, 2))).collect();
        assert_eq!(names, ["1C", "1J", "12J", "12C"]);
        let mut l = Lines::default();
        l.toggle(square(4, 4));
        l.toggle(square(4, 7));
        assert!(l.has(square(4, 7)) && !l.has(square(4, 5)));
        let (row, col) = l.empty_lines(square(4, 4));
        assert_eq!((row.count_ones(), col.count_ones()), (10, 11));
        let mut seen = Vec::new();
        for_each_at_distance(square(0, 0), 3, |t| seen.push(square_name(t)));
        assert_eq!(seen, ["4A", "1D"]);
        for k in 0..12 {
            assert_eq!(CENTRE_LINES >> k & 1 == 1, k % 3 == 1);
        }
        let text = write_cells(|sq| (sq == 1).then_some(('H', 2)));
        assert!(text.starts_with(".H3........../"), "{text}");
        let cells = parse_cells(&text, "CHA", 4).unwrap();
        assert_eq!(cells[1], Some((1, 2)));
        assert_eq!(cells.iter().flatten().count(), 1);
        assert!(parse_cells(&text, "CHA", 2).is_err());
        assert!(parse_cells(&text.replacen("H3", "Q3", 1), "CHA", 4).is_err());
        assert!(parse_cells(&text.replacen("H3", "H", 1), "CHA", 4).is_err());
        assert!(parse_cells(&text.replacen('.', "", 1), "CHA", 4).is_err());
    }
}
