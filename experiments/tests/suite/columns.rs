//! The tournament CSV fit for pandas and R: one kind of value
//! per column, seeds as text, winners as integers with a team column and a
//! draw flag apart, roles, colours and teams in columns of their own; and
//! files of the first shape read, and rewritten in the current columns when
//! a run resumes them.

use std::collections::BTreeMap;

use crate::common::{dir, ok, p};

/// What a CSV field holds, as pandas' parser would see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Int,
    Float,
    Text,
}

fn kind(v: &str) -> Kind {
    if v.parse::<i64>().is_ok() {
        Kind::Int
    } else if v.parse::<f64>().is_ok() {
        Kind::Float
    } else {
        Kind::Text
    }
}

/// The header and the rows of a CSV, each row by column name.
fn table(path: &str) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            head.iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect();
    (head, rows)
}

/// Checks every column holds one kind of value (integers, numbers or
/// text; an empty field is a missing value of any kind). A column of
/// integers and numbers reads as numbers, which pandas and R both allow.
fn one_kind_per_column(head: &[String], rows: &[BTreeMap<String, String>]) {
    for c in head {
        let kinds: std::collections::BTreeSet<Kind> = rows
            .iter()
            .map(|r| &r[c])
            .filter(|v| !v.is_empty())
            .map(|v| kind(v))
            .collect();
        let numeric = kinds.iter().all(|&k| k != Kind::Text);
        assert!(
            kinds.len() <= 1 || numeric,
            "column {c} mixes {kinds:?}: {:?}",
            rows.iter().map(|r| &r[c]).collect::<Vec<_>>()
        );
    }
}

fn run(
    out: &str,
    game: &str,
    agents: &[&str],
    games: &str,
) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    let mut a = vec!["tournament", "--game", game, "--agents"];
    a.extend(agents);
    a.extend([
        "--games",
        games,
        "--seed",
        "3",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out,
    ]);
    ok(&a);
    table(out)
}

#[test]
fn two_seat_rows_have_one_kind_of_value_per_column() {
    let d = dir("columns_two");
    let out = p(&d, "s.csv");
    let (head, rows) = run(&out, "slingshot(size=7)", &["random", "random"], "12");
    let want = "game,game_index,seed,agent_0,spec_0,agent_1,spec_1,winner_seat,winner_team,\
                winner_agent,draw,return_0,return_1,role_0,role_1,colour_0,colour_1,team_0,team_1,\
                first_mover_seat,setter_seat,plies,turns,wall_ms,moves,end,opening,opening_moves,start";
    assert_eq!(head.join(","), want);
    one_kind_per_column(&head, &rows);
    for r in &rows {
        // A 64-bit seed as text: 0x and 16 hex digits.
        assert!(
            r["seed"].starts_with("0x") && r["seed"].len() == 18,
            "{r:?}"
        );
        assert_eq!(kind(&r["seed"]), Kind::Text);
        // Slingshot: seat 0 sets up, seat 1 chooses; the colours are the
        // two the chooser split between them.
        assert_eq!(
            (r["role_0"].as_str(), r["role_1"].as_str()),
            ("setter", "chooser")
        );
        let mut colours = [r["colour_0"].as_str(), r["colour_1"].as_str()];
        colours.sort();
        assert_eq!(colours, ["black", "teal"]);
        assert_eq!((r["team_0"].as_str(), r["team_1"].as_str()), ("", ""));
        // The first mover plays black.
        let fm: usize = r["first_mover_seat"].parse().unwrap();
        assert_eq!(r[&format!("colour_{fm}")], "black");
        // The winner columns agree with the returns.
        let draw = r["draw"] == "1";
        assert_eq!(draw, r["return_0"] == r["return_1"], "{r:?}");
        if !draw {
            let w = if r["return_0"] == "1" { "0" } else { "1" };
            assert_eq!(r["winner_seat"], w);
            assert_eq!(r["winner_agent"], r[&format!("agent_{w}")]);
        } else {
            assert_eq!(r["winner_seat"], "");
        }
    }
}

#[test]
fn team_rows_name_the_winning_team_not_a_seat() {
    let d = dir("columns_team");
    let out = p(&d, "t.csv");
    let g = "sniggle(players=4,teams=true)";
    let (head, rows) = run(&out, g, &["random", "random", "random", "random"], "4");
    one_kind_per_column(&head, &rows);
    assert!(head.contains(&"team_3".to_string()) && head.contains(&"colour_3".to_string()));
    for r in &rows {
        for s in 0..4 {
            // Seats 0 and 2 against 1 and 3 (dossier N-7).
            assert_eq!(r[&format!("team_{s}")], (s % 2).to_string());
            assert_eq!(r[&format!("colour_{s}")], ["X", "Y", "Z", "W"][s]);
        }
        // Two partners win together: no single winning seat.
        assert_eq!(r["winner_seat"], "", "{r:?}");
        assert_eq!(r["draw"], "0");
        let t: usize = r["winner_team"].parse().unwrap();
        assert_eq!(r[&format!("return_{t}")], "1");
        assert_eq!(r[&format!("return_{}", t + 2)], "1");
    }
}

/// `data/first-shape/line-up-mixed.csv` is `results/line-up-mixed.csv` (now
/// `results/head-to-head/line-up-uct-ab-random.csv.gz`) as committed before
/// commit fe5bbf3 (as of commit 6ef4736): the first shape (winners
/// joined, decimal seeds, one role label, no end reasons). Its command, run
/// again on a copy, plays nothing, rewrites the copy in the current columns
/// with every game kept and the end reasons filled in.
#[test]
fn a_first_shape_file_is_read_and_rewritten_on_resume() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/suite/data/first-shape/");
    let d = dir("columns_upgrade");
    let out = p(&d, "line-up-mixed.csv");
    std::fs::copy(format!("{root}line-up-mixed.csv"), &out).unwrap();
    std::fs::copy(
        format!("{root}line-up-mixed.csv.config.json"),
        format!("{out}.config.json"),
    )
    .unwrap();
    let (old_head, old) = table(&out);
    assert!(
        old_head.contains(&"winner_agent".to_string()) && !old_head.contains(&"draw".to_string())
    );
    let args = [
        "tournament",
        "--game",
        "line_up",
        "--agents",
        "uct(iterations=500)",
        "alphabeta(depth=4,qdepth=0,pvs=false,aspiration=0)",
        "random",
        "--games",
        "20",
        "--seed",
        "2026",
        "--threads",
        "1",
        "--quiet",
        "--out",
        &out,
    ];
    let text = ok(&args);
    let (head, new) = table(&out);
    assert!(head.contains(&"draw".to_string()) && head.contains(&"colour_0".to_string()));
    one_kind_per_column(&head, &new);
    assert_eq!(new.len(), old.len());
    for (a, b) in old.iter().zip(&new) {
        for c in [
            "game_index",
            "moves",
            "return_0",
            "return_1",
            "plies",
            "wall_ms",
        ] {
            assert_eq!(a[c], b[c], "column {c}");
        }
        let seed: u64 = a["seed"].parse().unwrap();
        assert_eq!(b["seed"], format!("0x{seed:016x}"));
        // The old label was the colour alone ("first"/"second").
        assert_eq!(b["colour_0"], a["role_0"]);
        match a["winner_seat"].as_str() {
            "draw" => assert_eq!((b["draw"].as_str(), b["winner_seat"].as_str()), ("1", "")),
            w => assert_eq!((b["draw"].as_str(), b["winner_seat"].as_str()), ("0", w)),
        }
    }
    // A second run reads the rewritten file, plays nothing either, and
    // sums up the same games as the run on the first-shape file.
    let again = ok(&args);
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("played"))
            .map(String::from)
            .collect()
    };
    assert!(text.contains("games 60"), "{text}");
    assert_eq!(body(&text), body(&again));
    assert_eq!(table(&out).1, new);
    // Rows without an end reason or turn count (files written before they
    // were recorded) get them from the replay when a run resumes the file.
    let mut r = csv::Reader::from_path(&out).unwrap();
    let h = r.headers().unwrap().clone();
    let (e, t) = (
        h.iter().position(|c| c == "end").unwrap(),
        h.iter().position(|c| c == "turns").unwrap(),
    );
    let mut w = csv::Writer::from_path(p(&d, "blanked.csv")).unwrap();
    w.write_record(&h).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        let v: Vec<&str> = rec
            .iter()
            .enumerate()
            .map(|(i, x)| if i == e || i == t { "" } else { x })
            .collect();
        w.write_record(&v).unwrap();
    }
    w.flush().unwrap();
    std::fs::rename(p(&d, "blanked.csv"), &out).unwrap();
    assert!(table(&out).1.iter().all(|r| r["end"].is_empty()));
    ok(&args);
    let refilled = table(&out).1;
    for (a, b) in new.iter().zip(&refilled) {
        assert!(!a["end"].is_empty() && !a["turns"].is_empty());
        assert_eq!((&a["end"], &a["turns"]), (&b["end"], &b["turns"]));
    }
}
