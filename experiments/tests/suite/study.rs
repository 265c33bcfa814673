//! `boardlab study`: a study file run into one folder, resumed, extended,
//! sharded and merged; malformed files named by line and field.

use std::path::Path;

use crate::common::{boardlab, dir, fails, ok, p, rows_without_timing};

/// A tiny study: random and a weak MCTS on Slingshot 7×7, random on 9×9,
/// one comparison (9×9 against 7×7 at random play).
fn study_text(games: u32) -> String {
    format!(
        r#"question = "Is the first mover favoured in Slingshot 7x7?"
seed = 3
games = {games}

[[block]]
name = "random"
game = "slingshot(size=7)"
agent = "random"

[[block]]
name = "mcts"
game = "slingshot(size=7)"
agent = "mcts(iterations=10)"

[[block]]
name = "big"
game = "slingshot"
agent = "random"

[[compare]]
name = "big-vs-7"
block = "big"
reference = "random"
"#
    )
}

/// A small `balance.csv` in `results`: the report reads a results folder
/// with a balance summary.
fn balance_summary(results: &Path) {
    ok(&[
        "balance",
        "--game",
        "catapult",
        "--agent",
        "random",
        "--games",
        "4",
        "--no-baseline",
        "--out",
        results.join("balance.csv").to_str().unwrap(),
        "--quiet",
    ]);
}

fn write_study(d: &Path, text: &str) -> String {
    let f = p(d, "tiny.toml");
    std::fs::write(&f, text).unwrap();
    f
}

/// An answer's verdict by the strong-play rule: the top two budgets'
/// common verdict, or `undecided` saying both where they differ.
fn expected_verdict(
    low: &experiments::research::balance::BalanceRow,
    top: &experiments::research::balance::BalanceRow,
) -> String {
    if low.verdict == top.verdict {
        return top.verdict.clone();
    }
    // An undecided one of the two: the games after which a confidence
    // sequence at its level and observed spread narrows to its distance
    // from ½, less those played.
    let settle: Vec<String> = [top, low]
        .into_iter()
        .filter(|r| r.verdict == "undecided")
        .map(|r| {
            let who = experiments::report::agent_in_words(&r.agent);
            let n = r.n as f64;
            let mean_square = (r.first_mover_wins + 0.25 * r.first_mover_draws as f64) / n;
            let gap = (r.score - 0.5).abs();
            if gap < 0.005 {
                return format!("{who} scores within half a point of the fair value");
            }
            let units = experiments::stats::sequential::units_for_half_width(
                mean_square - r.score * r.score,
                gap,
                r.alpha,
            )
            .unwrap();
            format!(
                "at its score, {who} would decide after about {} more games",
                experiments::output::table::thousands(&(units - r.n).to_string())
            )
        })
        .collect();
    let both = format!(
        "the top two budgets disagree: {}; below it, {}",
        top.verdict, low.verdict
    );
    if settle.is_empty() {
        format!("undecided ({both})")
    } else {
        format!("undecided ({both}; {})", settle.join("; "))
    }
}

/// A test folder's `results/` and (created) `studies/` folders.
fn report_dirs(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let d = dir(name);
    let studies = d.join("studies");
    std::fs::create_dir_all(&studies).unwrap();
    (d.join("results"), studies)
}

/// One column of a games file (plain or compressed), row by row.
fn column(path: &Path, name: &str) -> Vec<String> {
    let text = experiments::run::storage::read_to_string(path).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let col = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {}", path.display()));
    reader
        .records()
        .map(|r| r.unwrap()[col].to_string())
        .collect()
}

fn study(file: &str, out: &str, extra: &[&str]) -> String {
    let mut a = vec!["study", file, "--out", out, "--threads", "2", "--quiet"];
    a.extend_from_slice(extra);
    ok(&a)
}

fn rows(path: &Path) -> usize {
    let text = experiments::run::storage::read_to_string(path).unwrap();
    csv::Reader::from_reader(text.as_bytes()).records().count()
}

#[test]
fn a_study_writes_its_folder_resumes_and_extends() {
    let d = dir("study-folder");
    let file = write_study(&d, &study_text(6));
    let out = p(&d, "tiny");
    let first = study(&file, &out, &[]);
    assert!(first.contains("18 games played now"), "{first}");
    let o = Path::new(&out);
    for f in [
        "README.md",
        "study.toml",
        "balance.csv",
        "compare.csv",
        "random.csv.gz",
        "mcts.csv.gz",
        "report.md",
    ] {
        assert!(o.join(f).exists(), "{f} missing");
    }
    let readme = std::fs::read_to_string(o.join("README.md")).unwrap();
    for needle in [
        "# tiny",
        "Is the first mover favoured in Slingshot 7x7?",
        "## Method",
        "## Command",
        "study ",
        "## Verdicts",
        "| random | `slingshot(size=7)` | `random` |",
        "## Comparisons",
        "| big-vs-7 | big | random |",
        "core-hours",
        "`mcts.csv.gz`",
    ] {
        assert!(
            readme.contains(needle),
            "README lacks {needle:?}:\n{readme}"
        );
    }
    // `0.512 [0.481, 0.543]`: the score with its interval.
    assert!(
        readme.lines().any(|l| l.starts_with("| mcts |")
            && l.contains(" [")
            && l.contains(", ")
            && l.contains("] |")),
        "{readme}"
    );
    let balance = std::fs::read_to_string(o.join("balance.csv")).unwrap();
    assert!(balance.contains(",random.csv.gz,") && balance.contains(",mcts.csv.gz,"));
    assert_eq!(rows(&o.join("balance.csv")), 3);
    assert_eq!(rows(&o.join("mcts.csv.gz")), 6);
    // Re-running plays nothing and gives the same summaries.
    let again = study(&file, &out, &[]);
    assert!(again.contains("0 games played now"), "{again}");
    assert_eq!(
        std::fs::read_to_string(o.join("balance.csv")).unwrap(),
        balance
    );
    // A larger cap in the file continues: only the new games are played,
    // and the block equals a run at the larger size from scratch.
    let file = write_study(&d, &study_text(10));
    let more = study(&file, &out, &[]);
    assert!(more.contains("12 games played now"), "{more}");
    let fresh = p(&d, "fresh");
    study(&file, &fresh, &[]);
    for b in ["random.csv.gz", "mcts.csv.gz", "big.csv.gz"] {
        assert_eq!(
            rows_without_timing(o.join(b)),
            rows_without_timing(Path::new(&fresh).join(b)),
            "{b}"
        );
    }
}

#[test]
fn sharded_study_merges_to_the_unsharded_run() {
    let d = dir("study-shards");
    let file = write_study(&d, &study_text(8));
    let whole = p(&d, "whole");
    let sharded = p(&d, "sharded");
    study(&file, &whole, &[]);
    let one = study(&file, &sharded, &["--shard", "1/2"]);
    assert!(one.contains("shard 1/2"), "{one}");
    let s = Path::new(&sharded);
    assert!(s.join("shards/mcts.1of2.csv.gz").exists());
    assert!(!s.join("README.md").exists());
    // Merging before every shard is done names what is missing.
    fails(
        &["study", &file, "--out", &sharded, "--merge", "--quiet"],
        "missing",
    );
    study(&file, &sharded, &["--shard", "2/2"]);
    let merged = study(&file, &sharded, &["--merge"]);
    assert!(merged.contains("0 games played now"), "{merged}");
    assert!(
        merged.contains("merged the shards of block mcts"),
        "{merged}"
    );
    let w = Path::new(&whole);
    for b in ["random.csv.gz", "mcts.csv.gz", "big.csv.gz"] {
        assert_eq!(
            rows_without_timing(w.join(b)),
            rows_without_timing(s.join(b)),
            "{b}"
        );
    }
    for f in ["balance.csv", "compare.csv"] {
        assert_eq!(
            std::fs::read_to_string(w.join(f)).unwrap(),
            std::fs::read_to_string(s.join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn a_study_with_a_stopping_rule_stops_and_resumes() {
    let d = dir("study-until");
    let text = study_text(2000).replace("seed = 3", "seed = 3\nuntil = \"halfwidth=0.3\"");
    let file = write_study(&d, &text);
    let out = p(&d, "until");
    let first = study(&file, &out, &[]);
    let n = rows(&Path::new(&out).join("random.csv.gz"));
    assert!(n < 2000, "{first}");
    let again = study(&file, &out, &[]);
    assert!(again.contains("0 games played now"), "{again}");
    let readme = std::fs::read_to_string(Path::new(&out).join("README.md")).unwrap();
    assert!(readme.contains("`until = \"halfwidth=0.3\"`"), "{readme}");
}

#[test]
fn malformed_study_files_name_the_line_and_the_field() {
    let d = dir("study-bad");
    let good = study_text(4);
    let cases: [(&str, String, &str); 8] = [
        (
            "a string for a number",
            good.replace("games = 4", "games = \"four\""),
            "line 3, field `games`",
        ),
        (
            "an unknown key",
            good.replace("seed = 3", "seed = 3\ngamez = 4"),
            "line 3, field `gamez`",
        ),
        (
            "a block without its agent",
            good.replace("agent = \"random\"\n", ""),
            "field `agent`",
        ),
        (
            "an unknown game",
            good.replace(
                "game = \"slingshot(size=7)\"\nagent = \"random\"",
                "game = \"slingshoot\"\nagent = \"random\"",
            ),
            "line 7, field `game`: unknown game",
        ),
        (
            "an unknown agent",
            good.replace("agent = \"random\"", "agent = \"randon\""),
            "line 8, field `agent`: unknown agent",
        ),
        (
            "a bad stopping rule",
            good.replace("seed = 3", "seed = 3\nuntil = \"halfwidth=2\""),
            "line 3, field `until`",
        ),
        (
            "a comparison of a block not in the file",
            good.replace("reference = \"random\"", "reference = \"uct\""),
            "line 23, field `reference`: no block named \"uct\"",
        ),
        (
            "a name that is not a file name",
            good.replace("name = \"random\"", "name = \"ran dom\""),
            "line 6, field `name`",
        ),
    ];
    for (what, text, needle) in cases {
        let file = write_study(&d, &text);
        let out = boardlab(&["study", &file, "--out", &p(&d, "out"), "--quiet"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains(needle), "{what}: {err:?} lacks {needle:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{what}: {err:?}");
    }
    fails(
        &["study", &p(&d, "absent.toml")],
        "cannot read the study file",
    );
}

#[test]
fn a_comparison_needs_blocks_of_one_agent() {
    let d = dir("study-agents");
    let text = study_text(4).replace("block = \"big\"", "block = \"mcts\"");
    let file = write_study(&d, &text);
    fails(
        &["study", &file, "--out", &p(&d, "out"), "--quiet"],
        "line 23, field `reference`: blocks \"mcts\"",
    );
}

/// One agent as written is one agent for a comparison, though each game
/// reads it with its own search defaults: `mcts(iterations=10)` plays
/// Slingshot 9×9's tuned `c=0.352` and 7×7's `c=0.491`, and the two
/// blocks compare.
#[test]
fn a_comparison_takes_one_agent_as_written_in_games_of_other_defaults() {
    let d = dir("study-written");
    let text = study_text(2)
        .replace(
            "name = \"big\"\ngame = \"slingshot\"\nagent = \"random\"",
            "name = \"big\"\ngame = \"slingshot\"\nagent = \"mcts( iterations=10 )\"",
        )
        .replace("reference = \"random\"", "reference = \"mcts\"");
    assert!(text.contains("mcts( iterations=10 )"), "{text}");
    let file = write_study(&d, &text);
    ok(&["study", &file, "--out", &p(&d, "out"), "--quiet"]);
    let compare = std::fs::read_to_string(d.join("out").join("compare.csv")).unwrap();
    assert_eq!(compare.lines().count(), 2, "{compare}");
    assert!(
        compare.contains("c=0.352") && compare.contains("slingshot(size=9"),
        "{compare}"
    );
}

#[test]
fn sharded_blocks_under_a_stopping_rule_play_their_cap_and_merge() {
    let d = dir("study-until-shards");
    let text = study_text(100).replace("seed = 3", "seed = 3\nuntil = \"halfwidth=0.3\"");
    let out = p(&d, "sharded");
    // A cap the rule cannot meet is refused before a slice plays.
    let short = write_study(&d, &text.replace("games = 100", "games = 40"));
    fails(
        &["study", &short, "--out", &out, "--shard", "1/2", "--quiet"],
        "block random (the cap is `games` in the study file)",
    );
    assert!(!Path::new(&out).join("shards/random.1of2.csv").exists());
    let file = write_study(&d, &text);
    study(&file, &out, &["--shard", "1/2"]);
    study(&file, &out, &["--shard", "2/2"]);
    let merged = study(&file, &out, &["--merge"]);
    assert!(merged.contains("0 games played now"), "{merged}");
    let o = Path::new(&out);
    // Slices cannot stop on the rule: each block played its whole cap.
    assert_eq!(rows(&o.join("random.csv.gz")), 100);
    assert!(o.join("README.md").exists());
    let again = study(&file, &out, &[]);
    assert!(again.contains("0 games played now"), "{again}");
}

/// The tiny study with `[ratings]`: per game, the rungs and the blocks'
/// agents in a paired round robin of `games` games a pairing.
fn rated_study_text(rungs: &str) -> String {
    format!("{}\n[ratings]\ngames = 4\nrungs = {rungs}\n", study_text(6))
}

/// After a change to one block, `--overwrite` replaces that block's games
/// and the rating run of its game, and keeps every other file byte for
/// byte (it once restarted every block).
#[test]
fn overwrite_replaces_only_the_changed_files() {
    let d = dir("study-overwrite");
    let text = rated_study_text(r#"["uct(iterations=4)"]"#);
    let file = write_study(&d, &text);
    let out = p(&d, "run");
    study(&file, &out, &[]);
    let o = Path::new(&out);
    let bytes = |name: &str| std::fs::read(o.join(name)).unwrap();
    let kept = ["random.csv.gz", "big.csv.gz", "ratings/big.csv.gz"];
    let before: Vec<Vec<u8>> = kept.iter().map(|f| bytes(f)).collect();
    let changed = write_study(
        &d,
        &text.replace("mcts(iterations=10)", "mcts(iterations=12)"),
    );
    fails(
        &["study", &changed, "--out", &out, "--quiet"],
        "another configuration",
    );
    let again = study(&changed, &out, &["--overwrite"]);
    // The changed block's 6 games and Slingshot 7×7's round robin of
    // random, uct and the new mcts (3 pairings of 4 games) are played
    // again; nothing else.
    assert!(again.contains("18 games played now"), "{again}");
    for (f, b) in kept.iter().zip(&before) {
        assert_eq!(&bytes(f), b, "{f} changed");
    }
    let specs = column(&o.join("mcts.csv.gz"), "spec_0");
    assert!(
        specs.iter().all(|s| s.starts_with("mcts(iterations=12,")),
        "{specs:?}"
    );
    let rated = column(&o.join("ratings/random.csv.gz"), "spec_1");
    assert!(
        rated.iter().any(|s| s.starts_with("mcts(iterations=12,")),
        "{rated:?}"
    );
}

#[test]
fn a_study_rates_its_agents_on_one_scale() {
    let d = dir("study-ratings");
    let file = write_study(&d, &rated_study_text(r#"["random", "uct(iterations=4)"]"#));
    let out = p(&d, "rated");
    let first = study(&file, &out, &[]);
    // 3 blocks of 6 games; Slingshot 7×7 rates random, uct and the block's
    // mcts (3 pairings of 4 games), Slingshot 9×9 random and uct (1).
    assert!(first.contains("34 games played now"), "{first}");
    let o = Path::new(&out);
    assert_eq!(rows(&o.join("ratings/random.csv.gz")), 12);
    assert_eq!(rows(&o.join("ratings/big.csv.gz")), 4);
    let table: Vec<experiments::research::pool::PoolRow> =
        experiments::output::table::read_table(&o.join("ratings.csv")).unwrap();
    let agents: Vec<(&str, &str)> = table
        .iter()
        .map(|r| (r.agent.as_str(), r.source.as_str()))
        .collect();
    assert_eq!(agents.len(), 5, "{agents:?}");
    assert_eq!(agents[0], ("random", "block"));
    assert!(agents[1].0.starts_with("uct(iterations=4") && agents[1].1 == "rung");
    assert!(agents[2].0.starts_with("mcts(iterations=10") && agents[2].1 == "block");
    // The anchor of each game is its first agent, at 0; every agent of
    // Slingshot 7×7 played its 2 pairings of 4 games.
    for r in table.iter().filter(|r| r.agent == "random") {
        assert_eq!(r.elo, 0.0, "{r:?}");
    }
    assert!(table[..3].iter().all(|r| r.games == 8), "{table:?}");
    // The blocks' Elo is read from the fit.
    let rows: Vec<experiments::research::balance::BalanceRow> =
        experiments::output::table::read_table(&o.join("balance.csv")).unwrap();
    assert_eq!(rows[1].elo_rating, table[2].rating);
    assert_eq!(rows[0].elo, Some(0.0));
    let readme = std::fs::read_to_string(o.join("README.md")).unwrap();
    for needle in ["## Ratings", "* **Ratings.**", "`ratings/big.csv.gz`"] {
        assert!(
            readme.contains(needle),
            "README lacks {needle:?}:\n{readme}"
        );
    }
    let again = study(&file, &out, &[]);
    assert!(again.contains("0 games played now"), "{again}");
    // Sharded and merged, the same games and the same fit.
    let sharded = p(&d, "sharded");
    study(&file, &sharded, &["--shard", "1/2"]);
    study(&file, &sharded, &["--shard", "2/2"]);
    let merged = study(&file, &sharded, &["--merge"]);
    assert!(
        merged.contains("merged the shards of ratings big"),
        "{merged}"
    );
    let s = Path::new(&sharded);
    assert_eq!(
        rows_without_timing(o.join("ratings/random.csv.gz")),
        rows_without_timing(s.join("ratings/random.csv.gz"))
    );
    assert_eq!(
        std::fs::read_to_string(o.join("ratings.csv")).unwrap(),
        std::fs::read_to_string(s.join("ratings.csv")).unwrap()
    );
    // A game with one agent to rate is refused, naming the line.
    let lonely = write_study(&d, &rated_study_text("[]"));
    fails(
        &["study", &lonely, "--out", &p(&d, "lonely"), "--quiet"],
        "line 27, field `rungs`: slingshot(size=9",
    );
    let bad = write_study(&d, &rated_study_text(r#"["randon"]"#));
    fails(
        &["study", &bad, "--out", &p(&d, "bad"), "--quiet"],
        "line 27, field `rungs`: unknown agent",
    );
}

/// `[[answer]]` names blocks of one game; a block not in the file, blocks
/// of two games, an empty list or a block listed twice is a one-line error
/// naming the line and the field.
#[test]
fn an_answer_reads_blocks_of_one_game() {
    let d = dir("study-answer-bad");
    let good = study_text(4);
    let cases = [
        (
            "blocks = [\"random\", \"uct\"]",
            "field `blocks`: no block named \"uct\"",
        ),
        (
            "blocks = [\"random\", \"big\"]",
            "field `blocks`: blocks \"random\"",
        ),
        (
            "blocks = []",
            "field `blocks`: an answer reads at least one block",
        ),
        (
            "blocks = [\"mcts\", \"mcts\"]",
            "field `blocks`: \"mcts\" is listed twice",
        ),
    ];
    for (blocks, needle) in cases {
        let text = format!("{good}\n[[answer]]\nname = \"Slingshot 7x7\"\n{blocks}\n");
        let file = write_study(&d, &text);
        let out = boardlab(&["study", &file, "--out", &p(&d, "out"), "--quiet"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{blocks}: {err}");
        assert!(
            err.contains("line 27, ") && err.contains(needle),
            "{blocks}: {err:?} lacks {needle:?}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{blocks}: {err:?}");
    }
}

/// The report opens with the answers: a row per `[[answer]]` of a run
/// study, its verdict the two budgets' common verdict (or `undecided`
/// where they differ) and its score the top block's as `balance.csv` gives
/// it, the block below beside it; a study file not yet run gives a row
/// that says how many games would settle it; `report.html` holds the same
/// table and the plots inline.
#[test]
fn the_report_opens_with_the_answers_of_the_studies() {
    let (results, studies) = report_dirs("study-answers");
    let text = format!(
        "{}\n[[answer]]\nname = \"Slingshot 7x7\"\nblocks = [\"random\", \"mcts\"]\n\n[ratings]\ngames = 8\nrungs = [\"random\", \"mcts(iterations=3)\"]\n",
        study_text(24)
    );
    let run = p(&studies, "run.toml");
    std::fs::write(&run, &text).unwrap();
    std::fs::write(
        studies.join("planned.toml"),
        text.replace("games = 24", "games = 100000\nuntil = \"halfwidth=0.03\""),
    )
    .unwrap();
    study(&run, results.join("run").to_str().unwrap(), &[]);
    balance_summary(&results);
    // A swap map, for the pie rule's paragraph.
    ok(&[
        "pie",
        "--game",
        "slingshot(size=7)",
        "--agent",
        "random",
        "--openings",
        "3",
        "--games-per-opening",
        "6",
        "--out",
        results.join("swapmap.csv").to_str().unwrap(),
        "--quiet",
    ]);
    let out = ok(&[
        "report",
        "--results",
        results.to_str().unwrap(),
        "--studies",
        studies.to_str().unwrap(),
    ]);
    assert!(out.contains("report.html"), "{out}");
    let md = std::fs::read_to_string(results.join("REPORT.md")).unwrap();
    let rows =
        experiments::research::balance::read_balance(&results.join("run/balance.csv")).unwrap();
    let (low, top) = (&rows[0], &rows[1]);
    let verdict = expected_verdict(low, top);
    let score = |r: &experiments::research::balance::BalanceRow| {
        format!(
            "{:.3} [{:.3}, {:.3}]",
            r.score, r.score_lower, r.score_upper
        )
    };
    // Distinct games: different move lists in the games file's CSV.
    let games = column(&results.join("run/mcts.csv.gz"), "moves");
    let distinct: std::collections::HashSet<&String> = games.iter().collect();
    // Lines: the first 8 moves (no openings here). Their effective number,
    // by its definition: n² over the sum of each line's games squared.
    let mut by_line: std::collections::HashMap<String, f64> = Default::default();
    for r in &games {
        let line: Vec<&str> = r.split(' ').take(8).collect();
        *by_line.entry(line.join(" ")).or_default() += 1.0;
    }
    let n = games.len() as f64;
    let squares: f64 = by_line.values().map(|k| k * k).sum();
    let lines = if games.len() >= 50 {
        format!("{} ({:.1})", by_line.len(), n * n / squares)
    } else {
        by_line.len().to_string()
    };
    let row = format!(
        "| Slingshot 7x7 | {verdict} | {} | MCTS, 10 playouts a move (c=0.491,cutoff=3,scale=12.5,minimax=3) | {} | {} | {} | {lines} | {} | 3 | [run](run/README.md) |",
        score(top),
        top.elo_rating,
        top.n,
        distinct.len(),
        score(low)
    );
    let answers = md.find("## The answers").expect("an answers section");
    let details = md.find("# The details").expect("the details after it");
    assert!(
        answers < details && md[answers..details].contains(&row),
        "{row}\n{md}"
    );
    assert!(
        md.starts_with("# boardlab report: the answers\n")
            && md[..answers]
                .lines()
                .filter(|l| l.starts_with("##"))
                .count()
                == 0,
        "{md}"
    );
    // The planned study: 0.05/3 for its three blocks, two of them in the
    // answer, each the games its interval needs at the worst-case spread.
    let units =
        experiments::stats::sequential::units_for_half_width(0.25, 0.03, 0.05 / 3.0).unwrap();
    let needs = format!(
        "undecided (needs {} games)",
        experiments::output::table::thousands(&(2 * units).to_string())
    );
    assert!(
        md.contains(&format!("| Slingshot 7x7 | {needs} |"))
            && md.contains("`studies/planned.toml` (not run)"),
        "{needs}\n{md}"
    );
    assert!(md.contains("plots/answers-run.svg") && results.join("plots/answers-run.svg").exists());
    assert!(
        md.contains("**`slingshot(") && md.contains("against `slingshot(size=7"),
        "{md}"
    );
    // The pie rule's paragraph: the split-sample value by its definition,
    // from the map's rows: the fairest opening chosen on the even-numbered
    // games, its max(q, 1 − q) on the odd ones, and the other way round,
    // averaged; weak when 90 % of the openings' intervals hold ½.
    let swaps = experiments::research::swapmap::read_swapmap(&results.join("swapmap.csv")).unwrap();
    let better = |score: f64, n: u64| (score / n as f64).max(1.0 - score / n as f64);
    let halves: Vec<(String, u64, f64, u64, f64)> = swaps
        .iter()
        .map(|r| {
            let (ne, se) = (r.n_even.unwrap(), r.score_even.unwrap());
            let total = r.wins as f64 + 0.5 * r.draws as f64;
            (r.opening.clone(), ne, se, r.n - ne, total - se)
        })
        .collect();
    let pick = |even: bool| {
        halves
            .iter()
            .min_by(|a, b| {
                let (fa, fb) = if even {
                    (better(a.2, a.1), better(b.2, b.1))
                } else {
                    (better(a.4, a.3), better(b.4, b.3))
                };
                fa.total_cmp(&fb).then(a.0.cmp(&b.0))
            })
            .unwrap()
    };
    let (on_even, on_odd) = (pick(true), pick(false));
    let value = 0.5 * (better(on_even.4, on_even.3) + better(on_odd.2, on_odd.1));
    let games: u64 = swaps.iter().map(|r| r.n).sum();
    let holding = swaps
        .iter()
        .filter(|r| r.lower <= 0.5 && 0.5 <= r.upper)
        .count();
    let paragraph = format!(
        "**`{}`**: random moves (3 opening classes, {games} games): {value:.3} [",
        swaps[0].game
    );
    assert!(
        md.contains("### The pie rule's value (swap maps)") && md.contains(&paragraph),
        "{paragraph}\n{md}"
    );
    let line = md.lines().find(|l| l.starts_with(&paragraph)).unwrap();
    assert_eq!(
        line.ends_with("*weak*."),
        holding as f64 >= 0.9 * swaps.len() as f64,
        "{line}"
    );
    let html = std::fs::read_to_string(results.join("report.html")).unwrap();
    assert!(html.contains("<h2>The answers</h2>") && html.contains("<th>verdict</th>"));
    assert_eq!(
        html.matches("<figure class=\"plot\"><svg").count(),
        md.matches("![").count()
    );
    assert!(!html.contains("<img") && !html.contains("<script"));
}

/// A study with random openings answers in its own table: its answer
/// (named as one from the start position) gives the openings' score, the
/// distinct openings its games played, the start's score and how far the
/// openings move it, and it makes no row of the answers table.
#[test]
fn random_openings_move_an_answer_in_a_table_of_their_own() {
    let (results, studies) = report_dirs("study-openings");
    let answer = "\n[[answer]]\nname = \"Slingshot 7x7\"\nblocks = [\"random\", \"mcts\"]\n";
    let start = format!("{}{answer}", study_text(24));
    let opened = format!(
        "{}{answer}",
        study_text(24).replacen(
            "[[block]]",
            "[openings]\ncount = 5\nplies = 1\n\n[[block]]",
            1
        )
    );
    for (name, text) in [("start", &start), ("opened", &opened)] {
        let file = p(&studies, &format!("{name}.toml"));
        std::fs::write(&file, text).unwrap();
        study(&file, results.join(name).to_str().unwrap(), &[]);
    }
    balance_summary(&results);
    ok(&[
        "report",
        "--results",
        results.to_str().unwrap(),
        "--studies",
        studies.to_str().unwrap(),
    ]);
    let md = std::fs::read_to_string(results.join("REPORT.md")).unwrap();
    let top = |name: &str| {
        let rows = experiments::research::balance::read_balance(
            &results.join(format!("{name}/balance.csv")),
        )
        .unwrap();
        rows[1].clone()
    };
    let (s, o) = (top("start"), top("opened"));
    let low = &experiments::research::balance::read_balance(&results.join("opened/balance.csv"))
        .unwrap()[0];
    let verdict = expected_verdict(low, &o);
    // The distinct openings of the top block's games, from its CSV.
    let openings: std::collections::HashSet<String> =
        column(&results.join("opened/mcts.csv.gz"), "opening_moves")
            .into_iter()
            .collect();
    assert_eq!(openings.len(), 5, "{openings:?}");
    let interval = |r: &experiments::research::balance::BalanceRow| {
        format!(
            "{:.3} [{:.3}, {:.3}]",
            r.score, r.score_lower, r.score_upper
        )
    };
    let row = format!(
        "| Slingshot 7x7 | 1 ply | {verdict} | {} | MCTS, 10 playouts a move (c=0.491,cutoff=3,scale=12.5,minimax=3) | {} | 5 | {} | {:+.3} [{:+.3}, {:+.3}] | [opened](opened/README.md) |",
        interval(&o),
        o.n,
        interval(&s),
        o.score - s.score,
        o.score_lower - s.score_upper,
        o.score_upper - s.score_lower,
    );
    let table = md
        .find("### How far random openings move them")
        .expect("an openings table");
    assert!(md[table..].contains(&row), "{row}\n{md}");
    // One row in the answers table: the start's.
    let answers = &md[md.find("## The answers").unwrap()..table];
    assert_eq!(answers.matches("| Slingshot 7x7 |").count(), 1, "{answers}");
    assert!(answers.contains("[start](start/README.md)"), "{answers}");
}

/// `[truth]` is a score with its source, for a study of one game; anything
/// else is a one-line error naming the line and the field.
#[test]
fn a_truth_is_a_score_of_one_game() {
    let d = dir("study-truth-bad");
    // The first two blocks (Slingshot 7x7) without the 9x9 block: 14 lines.
    let full = study_text(4);
    let one_game = full[..full.find("[[block]]\nname = \"big\"").unwrap()].to_string();
    let cases = [
        (
            one_game.clone(),
            "value = 1.5\nsource = \"a proof\"",
            "line 17, field `value`: 1.5 is not a score",
        ),
        (
            one_game,
            "value = 0.0\nsource = \" \"",
            "line 18, field `source`: say where the value comes from",
        ),
        (
            full,
            "value = 0.0\nsource = \"a proof\"",
            "line 26, field `value`: blocks \"random\"",
        ),
    ];
    for (good, truth, needle) in cases {
        let text = format!("{good}\n[truth]\n{truth}\n");
        let file = write_study(&d, &text);
        let out = boardlab(&["study", &file, "--out", &p(&d, "out"), "--quiet"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{truth}: {err}");
        assert!(err.contains(needle), "{truth}: {err:?} lacks {needle:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{truth}: {err:?}");
    }
}

/// A study of a solved game (`[truth]`) gets a calibration section in the
/// report: each block's estimate, whether its interval (as `balance.csv`
/// gives it) holds the true score, and a curve with the truth drawn.
#[test]
fn the_report_checks_a_solved_game_against_its_truth() {
    let d = dir("study-truth");
    let results = d.join("results");
    let text = "question = \"Does the estimate find Line Up's true value?\"\nseed = 5\ngames = 24\n\n\
        [[block]]\nname = \"random\"\ngame = \"line_up\"\nagent = \"random\"\n\n\
        [[block]]\nname = \"mcts\"\ngame = \"line_up\"\nagent = \"mcts(iterations=200)\"\n\n\
        [truth]\nvalue = 0.0\nsource = \"Line Up is a second-player win.\"\n\n\
        [ratings]\ngames = 8\nrungs = [\"random\"]\n";
    let file = p(&d, "solved.toml");
    std::fs::write(&file, text).unwrap();
    study(&file, results.join("solved").to_str().unwrap(), &[]);
    balance_summary(&results);
    ok(&["report", "--results", results.to_str().unwrap()]);
    let md = std::fs::read_to_string(results.join("REPORT.md")).unwrap();
    let at = md
        .find("### Calibration on a solved game: `line_up(first_seat=0,ply_cap=200,repetitions=0)`")
        .expect("a calibration section");
    let section = &md[at..];
    assert!(
        section.contains("Line Up is a second-player win. The first mover's true score is **0**."),
        "{section}"
    );
    let rows =
        experiments::research::balance::read_balance(&results.join("solved/balance.csv")).unwrap();
    for (r, words) in rows.iter().zip([
        "random moves",
        "MCTS, 200 playouts a move (c=0.818,cutoff=6,scale=33.5)",
    ]) {
        let holds = if r.score_lower <= 0.0 { "yes" } else { "no" };
        let row = format!("| {words} | {} | {} |", r.elo_rating, r.n);
        let line = section
            .lines()
            .find(|l| l.starts_with(&row))
            .unwrap_or_else(|| panic!("{row}\n{section}"));
        assert!(line.ends_with(&format!("| {holds} |")), "{line}");
    }
    assert!(results.join("plots/calibration-solved.svg").exists());
    assert!(section.contains("plots/calibration-solved.svg"));
}

/// A rung naming its game's evaluation weights (Catapult's `attack`) is
/// read in the game of each block it is rated beside; a game without that
/// weight (Slingshot) refuses it, naming the line and the field.
#[test]
fn a_rung_reads_its_evaluation_weights_in_the_blocks_game() {
    let d = dir("study-weights");
    let text = |game: &str| {
        format!(
            "question = \"weights\"\nseed = 1\ngames = 2\n\n[[block]]\nname = \"random\"\ngame = \"{game}\"\nagent = \"random\"\n\n[ratings]\ngames = 2\nrungs = [\"alphabeta(depth=1,w_attack=16)\"]\n"
        )
    };
    let file = write_study(&d, &text("catapult"));
    let out = p(&d, "catapult");
    study(&file, &out, &[]);
    let table: Vec<experiments::research::pool::PoolRow> =
        experiments::output::table::read_table(&Path::new(&out).join("ratings.csv")).unwrap();
    assert!(
        table.iter().any(|r| r.agent.contains("w_attack=16")),
        "{table:?}"
    );
    let file = write_study(&d, &text("slingshot(size=7)"));
    fails(
        &["study", &file, "--out", &p(&d, "slingshot"), "--quiet"],
        "line 12, field `rungs`: agent alphabeta: w_attack: this game's evaluation has no named weights",
    );
}
