//! What runs write and show: CSV tables, the progress bar and thread pool,
//! SVG plots, and the generated report.

pub mod csvfmt;
pub mod plot;
pub mod report;
pub mod svg;
pub mod table;
