//! The answers: the table `REPORT.md` and `report.html` open with, one row
//! per game, read from the `[[answer]]`s of the committed studies (each
//! `<results>/<study>/study.toml` with its `balance.csv`, `compare.csv` and
//! ratings) and of the study files not yet run (`<studies>/*.toml`: their
//! rows say how many games would settle them).
//!
//! A row's verdict is a strong-play verdict when the top two budgets it
//! lists agree; where they disagree the game is `undecided`, and a block
//! still short of its stopping rule makes the row `undecided (needs N
//! games)`, N from the power calculation of its interval
//! ([`units_for_half_width`] at the worst-case variance ¼). Where the top two
//! disagree and one is undecided, the row says how many more games that one
//! would need to decide if its score held ([`units_for_half_width`] at its
//! observed variance, the half-width its distance from the fair value).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::research::balance::{BalanceRow, read_balance, row_from_games};
use crate::research::compare::CompareRow;
use crate::research::study::{self, Study};
use crate::research::swapmap::{SwapRow, pie_values};
use crate::run::summary::{LINE_MIN_GAMES, effective_lines, line_key};
use crate::stats::sequential::{Until, units_for_half_width};

use super::{agent_in_words, plot, rel};

/// A study with answers, and its results where it has run.
struct Answered {
    study: Study,
    /// The folder it ran into, when it has.
    dir: Option<PathBuf>,
    /// Per block in the file's order: its row of `balance.csv`, else (a
    /// study stopped before its end) the row of its games so far, else
    /// `None` (not started).
    rows: Vec<Option<BalanceRow>>,
    /// Per block: what its games file holds (zeros before it has run).
    games: Vec<BlockGames>,
    compare: Vec<CompareRow>,
}

/// A row's score with its interval, `0.512 [0.481, 0.543]`.
fn score(r: &BalanceRow) -> String {
    super::study::interval(r.score, r.score_lower, r.score_upper)
}

/// The committed studies with answers or a `[truth]` (`<results>/*/study.toml`), then the
/// study files of `studies` with answers that have no folder there, each
/// set in name order.
fn answered(results: &Path, studies: Option<&Path>) -> Result<Vec<Answered>> {
    let mut out = Vec::new();
    let mut run_names = Vec::new();
    for dir in sorted_entries(results)? {
        let file = dir.join("study.toml");
        if !file.is_file() {
            continue;
        }
        let name = dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let label = format!("{}/study.toml", rel(results, &dir));
        let study = study::parse(&text, &label, &name)?;
        run_names.push(study.name.clone());
        if study.answers.is_empty() && study.truth.is_none() {
            continue;
        }
        let rows = block_rows(&study, &dir)?;
        let games = study
            .blocks
            .iter()
            .map(|b| block_games(&study::games_path(&dir, &b.name)))
            .collect::<Result<Vec<_>>>()?;
        let compare_csv = dir.join("compare.csv");
        let compare = if compare_csv.exists() {
            crate::output::table::read_table(&compare_csv)?
        } else {
            Vec::new()
        };
        out.push(Answered {
            study,
            dir: Some(dir),
            rows,
            games,
            compare,
        });
    }
    if let Some(studies) = studies.filter(|s| s.is_dir()) {
        for file in sorted_entries(studies)? {
            if file.extension().and_then(|e| e.to_str()) != Some("toml") {
                continue;
            }
            let study = study::load(&file)?;
            if study.answers.is_empty() || run_names.contains(&study.name) {
                continue;
            }
            out.push(Answered {
                rows: vec![None; study.blocks.len()],
                games: vec![BlockGames::default(); study.blocks.len()],
                study,
                dir: None,
                compare: Vec::new(),
            });
        }
    }
    Ok(out)
}

/// Each block's row: from the study's `balance.csv` where it holds the
/// block, else from the block's games file as it stands (level 0.05/m, as
/// the study would give it, without Elo), else `None`.
fn block_rows(study: &Study, dir: &Path) -> Result<Vec<Option<BalanceRow>>> {
    let balance = dir.join("balance.csv");
    let summary = if balance.exists() {
        read_balance(&balance)?
    } else {
        Vec::new()
    };
    let m = study.blocks.len() as f64;
    let mut rows = Vec::new();
    for (i, b) in study.blocks.iter().enumerate() {
        if let Some(r) = summary
            .get(i)
            .filter(|r| r.game == b.game && agents::same_agent(&r.agent, &b.agent))
        {
            rows.push(Some(r.clone()));
            continue;
        }
        let path = study::games_path(dir, &b.name);
        if !path.exists() {
            rows.push(None);
            continue;
        }
        let label = format!("{}.{}", b.name, study::GAMES_EXT);
        rows.push(Some(row_from_games(
            &path,
            (&b.game, &b.agent, b.seats),
            study.seed,
            &label,
            0.05 / m,
            Until::margin(study.until),
        )?));
    }
    Ok(rows)
}

/// What a block's games file holds, beyond its balance row.
#[derive(Clone, Copy, Debug, Default)]
struct BlockGames {
    /// Distinct games: the same opening and moves are one game.
    distinct: u64,
    /// Lines ([`line_key`]) of the games with a first mover.
    lines: u64,
    /// Their effective number ([`effective_lines`]), from
    /// [`LINE_MIN_GAMES`] games.
    effective_lines: Option<f64>,
    /// Distinct openings the games start from (0: the start position).
    openings: u64,
}

/// Reads a block's games file; zeros when there is no file yet.
fn block_games(path: &Path) -> Result<BlockGames> {
    if !path.exists() {
        return Ok(BlockGames::default());
    }
    let mut seen = std::collections::HashSet::new();
    let mut openings = std::collections::HashSet::new();
    let mut keys = Vec::new();
    crate::run::rows::for_each_row(path, false, None, |r| {
        if r.first_mover.is_some() && r.seats.len() >= 2 {
            keys.push(line_key(&r));
        }
        if let Some(o) = &r.opening_moves {
            openings.insert(o.clone());
        }
        seen.insert((r.opening_moves, r.moves));
        Ok(())
    })?;
    let lines = keys
        .iter()
        .collect::<std::collections::HashSet<&u64>>()
        .len() as u64;
    Ok(BlockGames {
        distinct: seen.len() as u64,
        lines,
        effective_lines: (keys.len() >= LINE_MIN_GAMES)
            .then(|| effective_lines(keys.iter().copied()))
            .flatten(),
        openings: openings.len() as u64,
    })
}

/// A block's lines with their effective number, `174 (30.7)`; `–` before
/// it has run.
fn lines_cell(g: &BlockGames) -> String {
    match (g.lines, g.effective_lines) {
        (0, _) => "–".to_string(),
        (n, Some(e)) => format!("{} ({e:.1})", thousands(n)),
        (n, None) => thousands(n),
    }
}

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    v.sort();
    Ok(v)
}

impl Answered {
    /// The study as a link: its README, its study file while it runs (a
    /// study stopped before its end has no README yet), or the file not
    /// yet run.
    fn link(&self) -> String {
        let name = &self.study.name;
        match &self.dir {
            Some(dir) if dir.join("README.md").exists() => format!("[{name}]({name}/README.md)"),
            Some(_) => format!("[{name}]({name}/study.toml) (running)"),
            None => format!("`studies/{name}.toml` (not run)"),
        }
    }

    /// Block `i`'s row, when the study has run it.
    fn row(&self, i: usize) -> Option<&BalanceRow> {
        self.rows.get(i).and_then(Option::as_ref)
    }

    /// The half-width each block's rule asks for (3 points without one).
    fn target(&self) -> f64 {
        self.study.until.map_or(0.03, Until::width)
    }

    /// Whether block `i` is finished: its stopping rule met, or its cap.
    fn finished(&self, i: usize) -> bool {
        let Some(r) = self.row(i) else { return false };
        let met = match self.study.until {
            Some(u) => u.met((r.score_lower, r.score_upper), r.fair),
            None => false,
        };
        met || r.n >= u64::from(self.study.games)
    }

    /// Games block `i` still needs: the power calculation of its interval
    /// (level 0.05/m, worst-case variance ¼, pairs counted as pairs), less
    /// what it has played, within the cap.
    fn needs(&self, i: usize) -> u64 {
        let m = self.study.blocks.len().max(1) as f64;
        let played = self.row(i).map_or(0, |r| r.n);
        let units = units_for_half_width(0.25, self.target(), 0.05 / m).unwrap_or(u64::MAX);
        units
            .min(u64::from(self.study.games))
            .saturating_sub(played)
    }
}

/// An answer's verdict: its top two budgets' common verdict, `undecided`
/// when they disagree, `undecided (needs N games)` while a block runs.
fn answer_verdict(a: &Answered, answer: &study::Answer) -> String {
    let blocks = &answer.blocks;
    let unfinished: Vec<usize> = blocks.iter().copied().filter(|&i| !a.finished(i)).collect();
    if !unfinished.is_empty() {
        let n: u64 = unfinished.iter().map(|&i| a.needs(i)).sum();
        format!("undecided (needs {} games)", thousands(n))
    } else {
        let words: Vec<&str> = blocks
            .iter()
            .rev()
            .take(2)
            .filter_map(|&i| a.row(i).map(|r| r.verdict.as_str()))
            .collect();
        let settle = blocks
            .iter()
            .rev()
            .take(2)
            .filter_map(|&i| a.row(i))
            .filter(|r| r.verdict == "undecided")
            .map(settling_games)
            .collect::<Vec<_>>()
            .join("; ");
        match words.as_slice() {
            [one] => format!("{one} (one budget)"),
            [x, y] if x == y => x.to_string(),
            [x, y] if settle.is_empty() => {
                format!("undecided (the top two budgets disagree: {x}; below it, {y})")
            }
            [x, y] => {
                format!("undecided (the top two budgets disagree: {x}; below it, {y}; {settle})")
            }
            _ => "undecided".to_string(),
        }
    }
}

/// How many more games an undecided two-seat block would need to decide if
/// its score held: the games at which its confidence sequence, at the
/// block's level and its observed per-game variance, narrows to the score's
/// distance from the fair value ([`units_for_half_width`]), less those
/// played. A planning figure, not a promise: the score moves as games come.
fn settling_games(r: &BalanceRow) -> String {
    let who = super::agent_in_words(&r.agent);
    if r.seats != 2 || r.n == 0 {
        return format!("{who}: no estimate for {} seats", r.seats);
    }
    let n = r.n as f64;
    let draws = r.first_mover_draws as f64;
    let mean_square = (r.first_mover_wins + 0.25 * draws) / n;
    let var = (mean_square - r.score * r.score).max(0.0);
    let gap = (r.score - r.fair).abs();
    // Within half a point of the fair value, the count runs to millions:
    // say so rather than compute it.
    if gap < 0.005 {
        return format!("{who} scores within half a point of the fair value");
    }
    match units_for_half_width(var, gap, r.alpha) {
        Some(units) => format!(
            "at its score, {who} would decide after about {} more games",
            thousands(units.saturating_sub(r.n))
        ),
        None => format!("{who} would need more than 10⁹ games"),
    }
}

/// One row of the answers table.
fn answer_row(a: &Answered, answer: &study::Answer) -> String {
    let blocks = &answer.blocks;
    let top = *blocks.last().expect("an answer reads a block");
    let study_link = a.link();
    let verdict = answer_verdict(a, answer);
    let b = &a.study.blocks[top];
    let (sc, elo, n, below) = match a.row(top) {
        Some(r) => {
            let below = blocks
                .len()
                .checked_sub(2)
                .and_then(|j| a.row(blocks[j]))
                .map_or("–".to_string(), score);
            (score(r), r.elo_rating.clone(), thousands(r.n), below)
        }
        None => ("–".into(), "–".into(), "0".into(), "–".into()),
    };
    let elo = if elo.is_empty() {
        "–".to_string()
    } else {
        elo
    };
    format!(
        "| {} | {verdict} | {sc} | {} | {elo} | {n} | {} | {} | {below} | {} | {study_link} |",
        answer.name,
        agent_in_words(&b.agent),
        thousands(a.games[top].distinct),
        lines_cell(&a.games[top]),
        a.study.seed,
    )
}

/// `12345` → `12,345`.
fn thousands(n: u64) -> String {
    crate::output::table::thousands(&n.to_string())
}

/// Writes the answers section: the table, a paragraph per comparison (the
/// Dagger, the pie rule), a strength curve per answer, and the games no
/// study answers yet. Nothing when no study has answers.
///
/// # Errors
/// A study file or results file that cannot be read, a plot that cannot be
/// written.
pub fn section(
    md: &mut String,
    results: &Path,
    studies: Option<&Path>,
    swaps: &[SwapRow],
    plots_dir: &Path,
    plots: &mut Vec<PathBuf>,
) -> Result<()> {
    let all = answered(results, studies)?;
    if all.is_empty() {
        return Ok(());
    }
    let _ = writeln!(md, "## The answers\n");
    let _ = writeln!(
        md,
        "How much moving first matters in each game at the strongest play measured. The score counts a win 1, \
         a draw ½, a loss 0 for the first mover; its interval is anytime-valid at level 0.05/m for the m blocks \
         of its study. A verdict holds at the top two budgets of the game's strongest agent family (one budget \
         doubling apart); where they disagree the game is `undecided`, and where the one that disagrees cannot \
         tell the sides apart, the row says after how many more games it would if its score held (its observed \
         spread; a planning figure, not a promise); a study still short of its stopping \
         rule says how many more games (worst-case power calculation) would settle it. *Elo* is the top \
         budget's rating on the game's scale (random = 0; `≥` where only sweeps link it); *distinct* counts \
         different games among the n (below n, games repeat and the score is those games'); *lines* counts \
         their different openings with the first 8 plies, and beside it their effective number (as many \
         equally common lines would be as concentrated): each game is an independent draw, so the interval \
         holds for the pairing however few the lines, but a score carried by few lines is what those lines \
         give, and the other budget may choose others (docs/statistics.md, \"Games that cluster\"). Each row comes from \
         the committed study it names, which states the seed, the cost and every agent string.\n"
    );
    let _ = writeln!(
        md,
        "| game | verdict | first-mover score [95 %] | agent | Elo | n | distinct | lines (effective) | the budget below | seed | study |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|");
    for a in all.iter().filter(|a| !a.study.openings.is_set()) {
        for answer in &a.study.answers {
            let _ = writeln!(md, "{}", answer_row(a, answer));
        }
    }
    let answered_games: Vec<&str> = all
        .iter()
        .flat_map(|a| {
            a.study
                .answers
                .iter()
                .map(|x| x.blocks[0])
                .map(|i| a.study.blocks[i].game.as_str())
        })
        .collect();
    let missing: Vec<&str> = engine::registry::GAMES
        .iter()
        .map(|g| g.name)
        .filter(|name| *name != "sly_solitaire")
        .filter(|name| !answered_games.iter().any(|g| super::base_name(g) == *name))
        .collect();
    if !missing.is_empty() {
        let _ = writeln!(
            md,
            "\nNot yet studied at strong play: {}. Their weak-play figures are in the details below; \
             a figure from weak play does not answer the question.\n",
            missing
                .iter()
                .map(|g| format!("`{g}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    } else {
        let _ = writeln!(md);
    }
    openings_table(md, &all);
    mechanisms(md, &all);
    pie_maps(md, swaps);
    curves(md, results, &all, plots_dir, plots)?;
    calibration(md, results, &all, plots_dir, plots)?;
    Ok(())
}

/// The answers of studies with random openings: how far the openings move
/// each answer of the same name from the start position.
fn openings_table(md: &mut String, all: &[Answered]) {
    let from_openings: Vec<(&Answered, &study::Answer)> = all
        .iter()
        .filter(|a| a.study.openings.is_set())
        .flat_map(|a| a.study.answers.iter().map(move |x| (a, x)))
        .collect();
    if from_openings.is_empty() {
        return;
    }
    let _ = writeln!(md, "### How far random openings move them\n");
    let _ = writeln!(
        md,
        "The same agents from random openings: each game starts after the opening's plies, each opening \
         played with both seatings in turn, so the first mover's score is its average over the openings \
         (the first mover made the opening's first ply), a different quantity from its score from the start \
         position. *openings played* counts the distinct openings of the top block's games. *moved by* is the \
         top budget's score from the openings less its score from the start (the answers table); its \
         interval is made of the two intervals' ends, so it is anytime-valid and covers at a level of at \
         least 1 − α₁ − α₂ (over 95 %).\n"
    );
    let _ = writeln!(
        md,
        "| game | openings | verdict | first-mover score [95 %] | agent | n | openings played | from the start | moved by | study |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|");
    for (a, answer) in from_openings {
        let top = *answer.blocks.last().expect("an answer reads a block");
        let start = all
            .iter()
            .filter(|s| !s.study.openings.is_set())
            .flat_map(|s| s.study.answers.iter().map(move |x| (s, x)))
            .find(|(_, x)| x.name == answer.name)
            .and_then(|(s, x)| x.blocks.last().and_then(|&i| s.row(i)));
        let here = a.row(top);
        let moved = match (here, start) {
            (Some(h), Some(s)) => format!(
                "{:+.3} [{:+.3}, {:+.3}]",
                h.score - s.score,
                h.score_lower - s.score_upper,
                h.score_upper - s.score_lower
            ),
            _ => "–".to_string(),
        };
        let o = &a.study.openings;
        let kind = match (o.plies, &o.file) {
            (Some(1), _) => "1 ply".to_string(),
            (Some(p), _) => format!("{p} plies"),
            (None, Some(f)) => format!("file `{}`", f.display()),
            (None, None) => "–".to_string(),
        };
        let _ = writeln!(
            md,
            "| {} | {kind} | {} | {} | {} | {} | {} | {} | {moved} | {} |",
            answer.name,
            answer_verdict(a, answer),
            here.map_or("–".to_string(), score),
            agent_in_words(&a.study.blocks[top].agent),
            here.map_or("0".to_string(), |r| thousands(r.n)),
            thousands(a.games[top].openings),
            start.map_or("–".to_string(), score),
            a.link(),
        );
    }
    let _ = writeln!(md);
}

/// `fair share ½` for two seats, `fair share 1/k` for k.
fn fair_share(seats: usize) -> String {
    if seats == 2 {
        "fair share ½".to_string()
    } else {
        format!("fair share 1/{seats}")
    }
}

/// The fair-share line of a curve: its level and label.
fn fair_level(seats: usize) -> (f64, String) {
    (1.0 / seats as f64, fair_share(seats))
}

/// Whether a row's interval holds `value`.
fn holds(r: &BalanceRow, value: f64) -> bool {
    r.score_lower <= value && value <= r.score_upper
}

/// A true score as the report writes it: at most four decimals, trailing
/// zeros dropped (0, 0.5, 0.7386).
fn short(v: f64) -> String {
    let t = format!("{v:.4}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Per committed study with a `[truth]` (a solved game): each block's
/// estimate against the true score, the strength from which the intervals
/// hold it, and the curve with the truth drawn.
fn calibration(
    md: &mut String,
    results: &Path,
    all: &[Answered],
    plots_dir: &Path,
    plots: &mut Vec<PathBuf>,
) -> Result<()> {
    for a in all.iter().filter(|a| a.dir.is_some()) {
        let Some(truth) = &a.study.truth else {
            continue;
        };
        let game = &a.study.blocks[0].game;
        let link = a.link();
        let _ = writeln!(
            md,
            "### Calibration on a solved game: `{}`\n\n{} The first mover's true score is **{}**. \
             Study {link} plays the game at rising strength: an interval that excludes the truth is a \
             wrong answer at that strength, so a verdict needs agents at least as strong as the first \
             budget from which every interval holds it.\n",
            game,
            truth.source,
            short(truth.value)
        );
        let _ = writeln!(
            md,
            "| agent | Elo | n | distinct | first-mover score [95 %] | holds the truth |"
        );
        let _ = writeln!(md, "|---|---|---|---|---|---|");
        let mut points = Vec::new();
        for (i, b) in a.study.blocks.iter().enumerate() {
            let Some(r) = a.row(i) else {
                let _ = writeln!(
                    md,
                    "| {} | – | 0 | 0 | not played | – |",
                    agent_in_words(&b.agent)
                );
                continue;
            };
            let elo = if r.elo_rating.is_empty() {
                "–"
            } else {
                r.elo_rating.as_str()
            };
            let _ = writeln!(
                md,
                "| {} | {elo} | {} | {} | {} | {} |",
                agent_in_words(&b.agent),
                thousands(r.n),
                thousands(a.games[i].distinct),
                score(r),
                if holds(r, truth.value) { "yes" } else { "no" }
            );
            points.extend(curve_point(r));
        }
        // The weakest block from which every played block holds the truth.
        let played: Vec<(usize, &BalanceRow)> = (0..a.study.blocks.len())
            .filter_map(|i| a.row(i).map(|r| (i, r)))
            .collect();
        let from = played
            .iter()
            .position(|_| true)
            .and_then(|_| {
                (0..played.len()).find(|&k| played[k..].iter().all(|(_, r)| holds(r, truth.value)))
            })
            .map(|k| played[k].0);
        let _ = match from {
            Some(i) => writeln!(
                md,
                "\nFrom {} on, every interval holds the truth.\n",
                agent_in_words(&a.study.blocks[i].agent)
            ),
            None => writeln!(
                md,
                "\nThe strongest budget played does not hold the truth: none here is strong enough.\n"
            ),
        };
        if points.is_empty() {
            continue;
        }
        let path = plots_dir.join(format!("calibration-{}.svg", a.study.name));
        plot::score_curves(
            &path,
            &format!("{}: the estimate against the true score", a.study.name),
            &[(super::base_name(game).to_string(), points)],
            &[
                fair_level(a.study.blocks[0].seats),
                (
                    truth.value,
                    format!("the true score {}", short(truth.value)),
                ),
            ],
        )?;
        let _ = writeln!(
            md,
            "![calibration: {}]({})

*Figure: study `{}`, the first mover's score (win 1, draw ½) at each budget against its Elo on the game's scale, with the anytime-valid intervals, the fair share and the true score; seed {}.*
",
            a.study.name,
            rel(results, &path),
            a.study.name,
            a.study.seed
        );
        plots.push(path);
    }
    Ok(())
}

/// A paragraph per comparison of an answered study: the two scores, the
/// difference with its interval, the verdict.
fn mechanisms(md: &mut String, all: &[Answered]) {
    let rows: Vec<(&Answered, &CompareRow)> = all
        .iter()
        .flat_map(|a| a.compare.iter().map(move |c| (a, c)))
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(md, "### The balancing rules\n");
    for (a, c) in rows {
        let _ = writeln!(
            md,
            "**`{}` against `{}`** ({}, {}): the first mover scores {:.3} with it (n = {}) and {:.3} without \
             (n = {}); the difference is {:+.3} [{:+.3}, {:+.3}] (anytime-valid, Holm-adjusted p = {:.4}): \
             **{}**.\n",
            c.game,
            c.reference,
            a.study.name,
            agent_in_words(&c.agent),
            c.score,
            thousands(c.n),
            c.score_reference,
            thousands(c.n_reference),
            c.difference,
            c.lower,
            c.upper,
            c.p_holm,
            c.verdict
        );
    }
}

/// A paragraph per game with swap maps (`swapmap.csv`): the pie rule's
/// value, the better side's score at the fairest opening, from each map,
/// maps that tell openings apart first; a weak map is named as one that
/// says nothing of the value.
fn pie_maps(md: &mut String, swaps: &[SwapRow]) {
    let values = pie_values(swaps);
    if values.is_empty() {
        return;
    }
    let _ = writeln!(md, "### The pie rule's value (swap maps)\n");
    let _ = writeln!(
        md,
        "Under the pie rule one player opens and the other chooses a side, so the opener picks the fairest \
         opening: the rule's value is the better side's score there, ½ perfectly fair, 1 a sure win for the \
         chooser. Each map plays every opening class out with no swap, one agent in both seats (`boardlab pie`, \
         the maps under \"Swap maps\" in the details); the value is its split-sample estimate (the fairest \
         opening chosen on half of each opening's games, measured on the other half) with a 95 % interval. A \
         map whose openings cannot be told from ½ is *weak*: its agent or its games are too few to say anything \
         of the value.\n"
    );
    let mut games: Vec<&str> = values.keys().map(|(g, _, _)| g.as_str()).collect();
    games.dedup();
    for game in games {
        let mut maps: Vec<_> = values.iter().filter(|((g, _, _), _)| g == game).collect();
        // Maps that tell openings apart first, then by games played.
        let played = |agent: &str, seed: u64| -> u64 {
            swaps
                .iter()
                .filter(|r| r.game == game && r.agent == agent && r.start_seed == seed)
                .map(|r| r.n)
                .sum()
        };
        maps.sort_by_key(|((_, agent, seed), v)| (v.weak, std::cmp::Reverse(played(agent, *seed))));
        let parts: Vec<String> = maps
            .iter()
            .map(|((_, agent, seed), v)| {
                let value = match &v.honest {
                    Some(h) => format!("{:.3} [{:.3}, {:.3}]", h.value, h.lower, h.upper),
                    None => format!("{:.3} (plug-in only)", v.value),
                };
                format!(
                    "{} ({} opening classes, {} games{}): {value}{}",
                    agent_in_words(agent),
                    v.openings,
                    thousands(played(agent, *seed)),
                    if *seed == 0 {
                        String::new()
                    } else {
                        format!(", start seed {seed}")
                    },
                    if v.weak { ", *weak*" } else { "" }
                )
            })
            .collect();
        let _ = writeln!(md, "**`{game}`**: {}.\n", parts.join("; "));
    }
}

/// A strength curve per answered study: each game of its answers, the
/// first mover's score at each budget against the budget's Elo.
fn curves(
    md: &mut String,
    results: &Path,
    all: &[Answered],
    plots_dir: &Path,
    plots: &mut Vec<PathBuf>,
) -> Result<()> {
    for a in all.iter().filter(|a| a.dir.is_some()) {
        let mut series: Vec<(String, Vec<plot::CurvePoint>)> = Vec::new();
        for answer in &a.study.answers {
            let points: Vec<plot::CurvePoint> = answer
                .blocks
                .iter()
                .filter_map(|&i| a.row(i))
                .filter_map(curve_point)
                .collect();
            if !points.is_empty() {
                series.push((answer.name.clone(), points));
            }
        }
        if series.is_empty() {
            continue;
        }
        let path = plots_dir.join(format!("answers-{}.svg", a.study.name));
        let seats = a.study.blocks[0].seats;
        plot::score_curves(
            &path,
            &format!("{}: the first mover's score over strength", a.study.name),
            &series,
            &[fair_level(seats)],
        )?;
        let _ = writeln!(
            md,
            "![answers: {}]({})\n\n*Figure: study `{}`, the first mover's score (win 1, draw ½) at each budget \
             against its Elo on the game's scale; whiskers are the anytime-valid intervals; the line is the fair \
             share {}; seed {}.*\n",
            a.study.name,
            rel(results, &path),
            a.study.name,
            fair_share(seats).trim_start_matches("fair share "),
            a.study.seed
        );
        plots.push(path);
    }
    Ok(())
}

/// A block's point on a strength curve: its Elo with the rating's
/// interval, its score with its interval; `None` before it is rated.
fn curve_point(r: &BalanceRow) -> Option<plot::CurvePoint> {
    let (lo, hi) = elo_interval(&r.elo_rating)?;
    Some((
        r.elo?,
        lo,
        hi,
        r.score,
        r.score_lower,
        r.score_upper,
        0.0,
        agent_in_words(&r.agent),
    ))
}

/// The interval of a rating text `+812 [+700, +920]`; `None` for a bound
/// (`≥ +400`) or a missing rating.
fn elo_interval(text: &str) -> Option<(f64, f64)> {
    let inner = text.split_once('[')?.1.split_once(']')?.0;
    let (lo, hi) = inner.split_once(',')?;
    Some((lo.trim().parse().ok()?, hi.trim().parse().ok()?))
}
