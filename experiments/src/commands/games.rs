//! `boardlab games`: every game with its parameters and defaults, and the
//! agents.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::research::inspect;

/// List every game with its parameters and defaults, and the agents.
#[derive(ClapArgs)]
pub struct Args {}

/// Print the list.
///
/// # Errors
/// Standard output that cannot be written.
pub fn run(_args: Args, out: &mut dyn Write) -> Result<()> {
    write!(out, "{}", inspect::games_text())?;
    Ok(())
}
