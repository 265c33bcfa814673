//! The `boardlab` command. Each subcommand parses its arguments with clap
//! and calls its file in `experiments::commands`; errors print as one line
//! and exit with status 2.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use experiments::commands::{
    analyse, balance, engine, evidence, export, games, merge, moves, perft, pie, play, rate,
    replay, report, serve, show, solve, sprt, study, tournament, tune,
};

/// boardlab: exact bitboard engines, game-playing agents and honest
/// self-play statistics for a family of abstract board games.
#[derive(Parser)]
#[command(name = "boardlab", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands, in the order `--help` lists them; each one's help is
/// the doc comment of its `Args`.
#[derive(Subcommand)]
enum Command {
    Games(games::Args),
    Moves(moves::Args),
    Perft(perft::Args),
    Evidence(evidence::Args),
    Solve(solve::Args),
    Play(play::Args),
    Serve(serve::Args),
    Analyse(analyse::Args),
    Tournament(tournament::Args),
    Rate(rate::Args),
    Sprt(sprt::Args),
    Tune(tune::Args),
    Balance(balance::Args),
    Pie(pie::Args),
    Study(study::Args),
    Report(report::Args),
    Show(show::Args),
    Engine(engine::Args),
    Replay(replay::Args),
    Export(export::Args),
    Merge(merge::Args),
}

fn run(cli: Cli) -> Result<()> {
    // Output goes through `out`: a closed pipe (`boardlab ... | head`) ends
    // the command quietly instead of panicking in println!.
    let mut stdout = std::io::stdout().lock();
    let out: &mut dyn Write = &mut stdout;
    match cli.command {
        Command::Games(args) => games::run(args, out),
        Command::Moves(args) => moves::run(args, out),
        Command::Perft(args) => perft::run(args, out),
        Command::Evidence(args) => evidence::run(args, out),
        Command::Solve(args) => solve::run(args, out),
        Command::Play(args) => play::run(args, out),
        Command::Serve(args) => serve::run(args, out),
        Command::Analyse(args) => analyse::run(args, out),
        Command::Tournament(args) => tournament::run(args, out),
        Command::Rate(args) => rate::run(args, out),
        Command::Sprt(args) => sprt::run(args, out),
        Command::Tune(args) => tune::run(args, out),
        Command::Balance(args) => balance::run(args, out),
        Command::Pie(args) => pie::run(args, out),
        Command::Study(args) => study::run(args, out),
        Command::Report(args) => report::run(args, out),
        Command::Show(args) => show::run(args, out),
        Command::Engine(args) => engine::run(args, out),
        Command::Replay(args) => replay::run(args, out),
        Command::Export(args) => export::run(args, out),
        Command::Merge(args) => merge::run(args, out),
    }
}
/// clap's message for bad arguments on one line: its paragraphs up to the
/// usage block, joined (a tip after "; "), without the closing hint.
fn one_line_usage_error(e: &clap::Error) -> String {
    let mut out = String::new();
    for line in e.to_string().lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out += if line.starts_with("tip:") { "; " } else { " " };
        }
        out += line;
    }
    out
}

fn main() -> ExitCode {
    // Before any engine code runs: a binary built for another machine's CPU
    // stops here with one line instead of an illegal instruction mid-run.
    let missing = experiments::run::safety::missing_cpu_features();
    if !missing.is_empty() {
        eprintln!("error: {}", experiments::run::safety::cpu_error(&missing));
        return ExitCode::from(2);
    }
    // A negative number is a value (refused as such by its option), not an
    // unknown flag.
    let command = Cli::command().mut_subcommands(|c| c.allow_negative_numbers(true));
    let cli = match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            e.exit()
        }
        Err(e) => {
            eprintln!("{} (see --help)", one_line_usage_error(&e));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let broken_pipe = e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
