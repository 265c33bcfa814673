//! The writers at the bottom: CSV number formats, whole-file CSV tables,
//! the progress bar and thread pool, and SVG pictures of boards. They know
//! no run, research or report (a test checks it).

pub mod csvfmt;
pub mod svg;
pub mod table;
