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
mod empire;
mod empire_reference;
mod end;
mod fuzz;
mod fuzz_runner;
mod gateway;
mod gateway_reference;
mod golden;
mod kings_colour_reference;
mod kings_colour_rules;
mod kit;
mod line_up_reference;
mod line_up_rules;
mod perft;
mod pie;
mod royal_guard_reference;
mod royal_guard_rules;
mod rules_docs;
mod slingshot_reference;
mod slingshot_rules;
mod slingshot_sampling;
mod sly_solitaire;
mod sniggle;
mod spinner;
mod turns;
