//! Shared set-up for the criterion benches in `benches/`.
