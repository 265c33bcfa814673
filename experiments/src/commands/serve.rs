//! `boardlab serve`: the designer's seat in a browser.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;

use crate::serve::{ServeArgs, serve};

/// Serve a local web page: play any game against any agent or a person at
/// the same screen (click a piece, its legal targets light up), replay a
/// records file step by step, read a report with its plots.
///
/// Bound to 127.0.0.1; the page and its script are in the binary, so
/// nothing needs the network. Only files under the `--root` folders can be
/// read; `external(...)` agents are refused. Stop it with Ctrl-C.
#[derive(ClapArgs)]
pub struct Args {
    /// The port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The address to bind; anything but the loopback shows the page and
    /// the files to the network.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// A folder whose records files and reports may be read (repeatable:
    /// e.g. `--root results --root runs`); none: play only.
    #[arg(long)]
    root: Vec<PathBuf>,
}

/// Serves until stopped, printing the address first.
///
/// # Errors
/// A `--root` that is not a folder, an address that cannot be bound.
pub fn run(args: Args, out: &mut dyn Write) -> Result<()> {
    let opts = ServeArgs {
        host: args.host,
        port: args.port,
        roots: args.root,
    };
    serve(&opts, &mut |addr| {
        writeln!(out, "serving {addr} (Ctrl-C stops)")?;
        out.flush()?;
        Ok(())
    })
}
