//! The engine's integration tests, one binary: a module per game (its
//! dossier vectors, rule checks, reference-generator diff and golden
//! playthrough) plus the pie wrapper. Shared helpers live in [`common`].

mod andalusia_reference;
mod andalusia_rules;
mod bagel_reference;
mod bagel_rules;
mod blockade_reference;
mod blockade_rules;
mod catapult_reference;
mod catapult_rules;
mod common;
mod empire_reference;
mod empire_rules;
mod end;
mod eval_weights;
mod fuzz;
mod fuzz_runner;
mod gateway_reference;
mod gateway_rules;
mod golden;
mod kings_colour_reference;
mod kings_colour_rules;
mod kit;
mod learning;
mod line_up_reference;
mod line_up_rules;
mod null_move;
mod perft;
mod pie;
mod royal_guard_reference;
mod royal_guard_rules;
mod rules_docs;
mod slingshot_reference;
mod slingshot_rules;
mod sly_solitaire_reference;
mod sly_solitaire_rules;
mod sniggle_reference;
mod sniggle_rules;
mod spinner_reference;
mod spinner_rules;
mod turns;
