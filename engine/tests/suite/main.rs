//! The engine's integration tests, one binary: a module per game (its
//! dossier vectors, rule checks, reference-generator diff and golden
//! playthrough) plus the pie wrapper. Shared helpers live in [`common`].

mod andalusia_reference;
mod andalusia_rules;
mod bagel_reference;
mod bagel_rules;
mod catapult_kit;
mod catapult_reference;
mod catapult_rules;
mod common;
mod kings_colour_kit;
mod kings_colour_reference;
mod kings_colour_rules;
mod pie;
mod royal_guard_kit;
mod royal_guard_reference;
mod royal_guard_rules;
mod slingshot_kit;
mod slingshot_reference;
mod slingshot_rules;
mod slingshot_sampling;
mod sly_solitaire;
mod sniggle;
mod spinner;
mod turns;
