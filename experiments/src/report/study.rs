//! The folder page of a study: `README.md` generated from the study file
//! and its results (question, method, command, commit, the verdict table
//! with intervals, the cost, the files), and the balance report with its
//! plots (`report.md`, `plots/`) from the same CSVs.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use crate::output::table::short;
use crate::research::study::{GAMES_EXT, Study, StudyOutcome};
use crate::run::safety::Provenance;

/// `0.512 [0.481, 0.543]`.
pub(super) fn interval(x: f64, lo: f64, hi: f64) -> String {
    format!("{x:.3} [{lo:.3}, {hi:.3}]")
}

/// The commits recorded in the blocks' configurations (every invocation
/// that wrote games), oldest first, without repeats.
fn commits(dir: &Path, study: &Study) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for b in &study.blocks {
        let path = crate::research::study::games_path(dir, &b.name);
        if let Some(file) = crate::run::config::read_config_file(&path)? {
            for p in file.provenance {
                if !out.contains(&p.commit) {
                    out.push(p.commit);
                }
            }
        }
    }
    Ok(out)
}

/// The method paragraph: cells, openings, stopping rule, levels.
fn method(study: &Study) -> String {
    let m = study.blocks.len();
    let c = study.comparisons.len();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "* **Cells.** {m} block{}: in each, one agent plays itself in one game, seats alternated \
         (rotated with more seats) from game to game; run seed {}.",
        if m == 1 { "" } else { "s" },
        study.seed
    );
    let o = &study.openings;
    let openings = if !o.is_set() {
        "every game starts from the game's initial position".to_string()
    } else {
        let mut t = match (&o.file, o.count, o.plies) {
            (Some(f), k, _) => format!(
                "openings from `{}`{}",
                f.display(),
                k.map_or(String::new(), |k| format!(" (the first {k})"))
            ),
            (None, k, p) => format!(
                "{} distinct random openings of {} plies",
                k.map_or("the default number of".to_string(), |k| k.to_string()),
                p.map_or("the default number of".to_string(), |p| p.to_string())
            ),
        };
        if let Some(f) = &o.filter {
            let _ = write!(
                t,
                ", kept where `{f}` judges them balanced (win probability within {} of ½)",
                o.margin.unwrap_or(0.1)
            );
        }
        t + "; game pairs share an opening, seats swapped"
    };
    let mut chars = openings.chars();
    let openings: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    let _ = writeln!(s, "* **Openings.** {openings}.");
    let _ = match study.until {
        Some(rule) => writeln!(
            s,
            "* **Stopping rule.** `until = \"{rule}\"`: each block plays until its interval meets the rule \
             (checked at 64 games, then every 10 % more), at most {} games.",
            study.games
        ),
        None => writeln!(s, "* **Games.** {} per block.", study.games),
    };
    let _ = writeln!(
        s,
        "* **Statistics.** The first mover's score (win 1, draw ½; k seats: its share, fair 1/k) with its \
         anytime-valid interval (an empirical-Bernstein confidence sequence, `docs/statistics.md`), \
         each block's at level α = 0.05/{m} = {:.4} (Bonferroni over the blocks); p-values against the fair \
         score Holm-adjusted over the {m} blocks.",
        0.05 / m as f64
    );
    if let Some(g) = study.ratings.first() {
        let _ = writeln!(
            s,
            "* **Ratings.** Per game, its agents (the `rungs`, then the blocks' agents) play a paired round robin, \
             {} games a pairing (both seatings of each seed); a Bradley–Terry fit gives each agent's Elo with its 95 % \
             interval, the game's first agent (here `{}`) at 0, or a one-sided bound where only sweeps link it \
             (`ratings.csv`, `docs/statistics.md`). The block table's Elo column is read from it.",
            study.rating_games,
            short(&g.agents[0])
        );
    }
    if c > 0 {
        let _ = writeln!(
            s,
            "* **Comparisons.** {c}: the difference of two blocks' scores, its interval the union bound of \
             the two sequences at α/2 each, at level 0.05/{c}; p-values Holm-adjusted over the {c} comparisons."
        );
    }
    s
}

/// Writes `README.md` in `dir` for `study` and its `outcome`, then the
/// balance report (`report.md`) and its plots (`plots/`) from the same
/// CSVs. `command` is the command line to print.
///
/// # Errors
/// A file that cannot be read or written.
pub fn write(dir: &Path, study: &Study, outcome: &StudyOutcome, command: &str) -> Result<()> {
    let report = super::run(dir, &dir.join("report.md"), None)?;
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", study.name);
    let _ = writeln!(md, "{}\n", study.question);
    let _ = writeln!(
        md,
        "Generated by `boardlab study` from `study.toml` and the games in this folder; do not edit by hand.\n"
    );
    let _ = writeln!(md, "## Method\n\n{}", method(study));
    let now = Provenance::current();
    let _ = writeln!(md, "## Command\n\n```sh\n{command}\n```\n");
    let played = commits(dir, study)?;
    let _ = writeln!(
        md,
        "Written by boardlab {} (commit `{}`); the games were played at commit{} {}.\n",
        now.version,
        now.commit,
        if played.len() == 1 { "" } else { "s" },
        played
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(md, "## Verdicts\n");
    let _ = writeln!(
        md,
        "| block | game | agent | Elo | n | first mover +W =D -L | score [interval] | verdict | p (Holm) |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    for (b, r) in study.blocks.iter().zip(&outcome.rows) {
        let _ = writeln!(
            md,
            "| {} | `{}` | `{}` | {} | {} | +{} ={} -{} | {} | {} | {:.4} |",
            b.name,
            short(&r.game),
            short(&r.agent),
            if r.elo_rating.is_empty() {
                "-"
            } else {
                &r.elo_rating
            },
            r.n,
            r.first_mover_wins,
            r.first_mover_draws,
            r.first_mover_losses,
            interval(r.score, r.score_lower, r.score_upper),
            r.verdict,
            r.p_holm
        );
    }
    if !outcome.comparisons.is_empty() {
        let _ = writeln!(md, "\n## Comparisons\n");
        let _ = writeln!(
            md,
            "| comparison | block | reference | agent | difference [interval] | n | verdict | p (Holm) |"
        );
        let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
        for (c, r) in study.comparisons.iter().zip(&outcome.comparisons) {
            let _ = writeln!(
                md,
                "| {} | {} | {} | `{}` | {:+.3} [{:+.3}, {:+.3}] | {} vs {} | {} | {:.4} |",
                c.name,
                study.blocks[c.block].name,
                study.blocks[c.reference].name,
                short(&r.agent),
                r.difference,
                r.lower,
                r.upper,
                r.n,
                r.n_reference,
                r.verdict,
                r.p_holm
            );
        }
    }
    if !study.ratings.is_empty() {
        let table: Vec<crate::research::pool::PoolRow> =
            crate::output::table::read_table(&dir.join("ratings.csv"))?;
        let _ = writeln!(md, "\n## Ratings\n");
        let _ = writeln!(
            md,
            "| game | agent | Elo [95 % interval] | rating games | from |"
        );
        let _ = writeln!(md, "|---|---|---|---|---|");
        for r in &table {
            let _ = writeln!(
                md,
                "| `{}` | `{}` | {} | {} | {} |",
                short(&r.game),
                short(&r.agent),
                r.rating,
                r.games,
                r.source
            );
        }
    }
    let _ = writeln!(
        md,
        "\n## Cost\n\n{:.3} core-hours ({:.1} core-seconds): the sum of the wall times of the {} games in this folder \
         (each game runs on one core).\n",
        outcome.wall_ms as f64 / 3.6e6,
        outcome.wall_ms as f64 / 1e3,
        outcome.games
    );
    let _ = writeln!(md, "## Files\n\n| file | what |\n|---|---|");
    let _ = writeln!(md, "| `README.md` | this page |");
    let _ = writeln!(md, "| `study.toml` | the study file as run |");
    let _ = writeln!(
        md,
        "| `balance.csv` | one row per block: score, interval, verdict, measures (columns: `docs/results-format.md`) |"
    );
    if !outcome.comparisons.is_empty() {
        let _ = writeln!(md, "| `compare.csv` | one row per comparison |");
    }
    for b in &study.blocks {
        let _ = writeln!(
            md,
            "| `{}.{GAMES_EXT}` | the games of block {}: `{}`, `{}` in every seat (one row per game, compressed; its configuration and provenance in `{}.csv.config.json`) |",
            b.name, b.name, b.game, b.agent, b.name
        );
    }
    if !study.ratings.is_empty() {
        let _ = writeln!(
            md,
            "| `ratings.csv` | one row per game and agent of the rating fit (columns as `pool.csv`: `docs/results-format.md`) |"
        );
    }
    for g in &study.ratings {
        let _ = writeln!(
            md,
            "| `ratings/{}.{GAMES_EXT}` | the rating games of `{}`: a paired round robin of {} |",
            g.name,
            g.game,
            g.agents
                .iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let _ = writeln!(
        md,
        "| `report.md` | the balance report of these blocks (`boardlab report`) |"
    );
    for p in &report.plots {
        let rel = p.strip_prefix(dir).unwrap_or(p).display().to_string();
        let _ = writeln!(md, "| `{rel}` | a plot of the report |");
    }
    let path = dir.join("README.md");
    std::fs::write(&path, md).with_context(|| format!("cannot write {}", path.display()))
}
