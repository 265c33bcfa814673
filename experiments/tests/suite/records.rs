//! Game records and a human seat in `play` (scripted input, and the real binary
//! with piped standard input), `play --position/--moves`, games stored once
//! (plain or compressed games files, read as records), `replay`, `replay
//! --verify`, the JSON Lines and PGN exports, and every committed game.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use experiments::research::play::{PlayArgs, play_game};

use crate::common::{dir, fails, ok, p};

/// Plays `args` with `input` as the person's keyboard; returns what was
/// printed and the final line.
fn scripted(args: &PlayArgs, input: &str) -> (String, String) {
    let mut out = Vec::new();
    let end = play_game(args, &mut input.as_bytes(), &mut out).unwrap();
    (String::from_utf8(out).unwrap(), end)
}

fn args(game: &str, agents: &[&str]) -> PlayArgs {
    PlayArgs {
        game: game.into(),
        agents: agents.iter().map(|a| a.to_string()).collect(),
        seed: 1,
        ..PlayArgs::default()
    }
}

/// A person at Catapult: a malformed move and an illegal one are answered
/// with the reason and asked again, `moves` lists the 30 first moves
/// (docs/rules/catapult.md §1.16, perft 1) grouped by the square they start
/// from, a blank line is ignored, a legal move is
/// played, the prompt then names the opponent's reply, and `quit` ends the
/// game without a result.
#[test]
fn human_seat_reads_moves_and_reprompts() {
    let (out, end) = scripted(
        &args("catapult", &["human", "random"]),
        "zz9\n\nmoves\nb2-c3\nb1-b2\nquit\n",
    );
    assert!(
        out.contains("seat 0 (light) to move; last move: none (start)"),
        "{out}"
    );
    assert!(out.contains("not played: bad move \"zz9\""), "{out}");
    assert!(
        out.contains("> 30 legal moves, by the cell they start from"),
        "{out}"
    );
    // b1 has range 2 (c2 is a friend, C-R-def) and moves N or E (C-M1).
    assert!(out.contains("\n  b1: b1-b2 b1-c1\n"), "{out}");
    // b2 is empty at the start (C-S1).
    assert!(
        out.contains("not played: move \"b2-c3\" is not legal here: no piece on b2"),
        "{out}"
    );
    assert!(out.contains("ply 1: seat 0 (human) plays b1-b2"), "{out}");
    // The reply is the random agent's; the prompt names it as the last move.
    let reply = out
        .lines()
        .find_map(|l| l.strip_prefix("ply 2: seat 1 (random) plays "))
        .unwrap();
    assert!(
        out.contains(&format!("seat 0 (light) to move; last move: {reply}")),
        "{out}"
    );
    assert!(end.starts_with("record: b1-b2 "), "{end}");
    assert!(
        end.ends_with("abandoned by seat 0 at ply 2: no result"),
        "{end}"
    );
}

/// The seat's commands: `help` and `?` list them, `moves CELL` one
/// piece's moves, `undo` takes back the person's last turn with the reply,
/// `hint` asks the opponent's agent, and with the Dagger (1,002 actions
/// for Dark after Light's first move, compound turns `m1;m2`) `moves`
/// stays one short line per square.
#[test]
fn human_seat_help_moves_undo_and_hint() {
    let (out, end) = scripted(
        &args("catapult", &["human", "random"]),
        "help\n?\nmoves d1\nundo\nb1-b2\nundo\nhint\nquit\n",
    );
    assert_eq!(out.matches("  undo          take back").count(), 2, "{out}");
    // d1 has range 2 (e2 is a friend, C-R-def); d3 and e2 are friends (C-M3).
    assert!(
        out.contains("> 2 legal moves from d1:\n  d1-d2 d1-e1\n"),
        "{out}"
    );
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("taken back to ply 0"), "{out}");
    assert!(out.contains("hint from random: "), "{out}");
    assert!(
        end.ends_with("abandoned by seat 0 at ply 0: no result"),
        "{end}"
    );

    let (out, _) = scripted(
        &args("catapult(dagger=true)", &["random", "human"]),
        "moves\nmoves h3-h2;\nquit\n",
    );
    assert!(out.contains("> 31 legal moves from h3-h2;:\n"), "{out}");
    let listing: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("legal moves, by the cell"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    // Dark's 12 movable pieces, one line each (C-D1: Dark holds the Dagger).
    assert_eq!(listing.len(), 12, "{out}");
    assert!(out.contains("1002 legal moves, by the cell"), "{out}");
    assert!(listing.iter().all(|l| l.len() <= 110), "{listing:?}");
}

/// The end of the input abandons the game cleanly, wherever the person
/// sits; a chance outcome before the person's move is drawn and shown
/// (the spinner spins first).
#[test]
fn end_of_input_abandons_and_chance_is_shown() {
    let (_, end) = scripted(&args("catapult", &["random", "human"]), "");
    assert!(
        end.ends_with("abandoned by seat 1 at ply 1: no result"),
        "{end}"
    );
    let (out, end) = scripted(&args("spinner", &["human", "random"]), "");
    let spin = out.find("ply 1: chance plays ").expect("the spin is shown");
    assert!(spin < out.find("to move; last move:").unwrap(), "{out}");
    assert!(
        end.ends_with("abandoned by seat 0 at ply 1: no result"),
        "{end}"
    );
}

/// Two people can finish a game: Line Up typed in full from a record
/// the engine played, with the same result; `--record` keeps it.
#[test]
fn humans_finish_a_game() {
    let (out, end) = scripted(&args("line_up", &["random", "random"]), "");
    assert!(!out.contains("abandoned"));
    let record = end
        .lines()
        .next()
        .unwrap()
        .strip_prefix("record: ")
        .unwrap();
    let returns = end.lines().nth(1).unwrap();
    let typed = record.replace(' ', "\n") + "\n";
    let d = dir("records-humans");
    let file = d.join("humans.jsonl");
    let people = PlayArgs {
        record: Some(file.clone()),
        ..args("line_up", &["human", "human"])
    };
    let (_, end2) = scripted(&people, &typed);
    assert_eq!(end2.lines().nth(1).unwrap(), returns);
    // `--record` appends the finished game's record, which verifies; an
    // abandoned game appends none.
    scripted(&people, "quit\n");
    assert_eq!(experiments::run::records::verify(&file).unwrap(), 1);
    let text = std::fs::read_to_string(&file).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["agents"], serde_json::json!(["human", "human"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), typed.lines().count());
}

/// The real binary with a person on piped standard input.
#[test]
fn play_binary_with_piped_stdin() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(["play", "--game", "catapult", "--agents", "human", "random"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"bogus\nmoves\nb1-b2\nquit\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("not played: bad move \"bogus\""), "{out}");
    assert!(out.contains("30 legal moves, by the cell"), "{out}");
    assert!(out.contains("ply 1: seat 0 (human) plays b1-b2"), "{out}");
    assert!(out.contains("abandoned by seat 0 at ply 2"), "{out}");
    assert!(o.stderr.is_empty());
}

/// `--position` and `--moves` start any agent's game anywhere; bad ones and
/// `human` outside `play` are refused with one line.
#[test]
fn play_from_a_position_and_refusals() {
    let out = ok(&[
        "play",
        "--game",
        "catapult",
        "--agents",
        "random",
        "random",
        "--moves",
        "b1-b2 g8-g7",
    ]);
    assert!(out.contains("\nply 3: seat 0 (random) plays "), "{out}");
    assert!(!out.contains("\nply 1:"), "{out}");
    assert!(out.contains("record: b1-b2 g8-g7 "), "{out}");
    // The position after b1-b2 given as text: Light's b1 stone now on b2,
    // Dark to move (docs/rules/catapult.md position text).
    let out = ok(&[
        "play",
        "--game",
        "catapult",
        "--agents",
        "random",
        "random",
        "--position",
        "2D1D1D1/3D1D1D/L3D1D1/1L3D1D/L1L3D1/1L1L3D/LLL1L3/3L1L2 D - 1",
    ]);
    assert!(out.contains("\nply 2: seat 1 (random) plays "), "{out}");
    fails(
        &[
            "play", "--game", "catapult", "--agents", "random", "random", "--moves", "b1-b2 zz",
        ],
        "--moves: move 2 of the record",
    );
    fails(
        &[
            "play",
            "--game",
            "catapult",
            "--agents",
            "random",
            "random",
            "--position",
            "8/8 L",
        ],
        "--position:",
    );
    let d = dir("records-refuse");
    fails(
        &[
            "tournament",
            "--game",
            "catapult",
            "--agents",
            "human",
            "random",
            "--out",
            &p(&d, "t.csv"),
        ],
        "only `boardlab play`",
    );
}

/// A small Line Up tournament into `name` (plain or `.gz`); returns the
/// path of its games exported as records (`NAME.jsonl`).
fn run_tournament(d: &Path, name: &str) -> String {
    let out = p(d, name);
    ok(&[
        "tournament",
        "--game",
        "line_up",
        "--agents",
        "random",
        "mcts(iterations=10)",
        "--games",
        "3",
        "--quiet",
        "--out",
        &out,
    ]);
    let rec = format!("{out}.jsonl");
    ok(&["export", &out, "--jsonl", &rec]);
    rec
}

/// A tournament stores each game once, as a CSV row holding the start
/// position: its records (exported) are one per row, in the same order,
/// with the same moves and agents; `--verify` accepts both files;
/// `replay` prints every ply.
#[test]
fn tournament_games_read_as_records_that_verify() {
    let d = dir("records-write");
    let rec = run_tournament(&d, "t.csv");
    assert!(!d.join("t.csv.records.jsonl").exists());
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut csv = csv::Reader::from_path(d.join("t.csv")).unwrap();
    let head = csv.headers().unwrap().clone();
    let col = |h: &str| head.iter().position(|x| x == h).unwrap();
    let rows: Vec<csv::StringRecord> = csv.records().map(|r| r.unwrap()).collect();
    assert_eq!((rows.len(), text.lines().count()), (3, 3));
    for (line, row) in text.lines().zip(&rows) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["index"].to_string(), row[col("game_index")]);
        let moves: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(moves.join(" "), row[col("moves")]);
        assert_eq!(v["plies"].to_string(), row[col("plies")]);
        assert!(v["game"].as_str().unwrap().starts_with("line_up("));
        // Line Up starts from the empty board (docs/rules/line-up.md).
        assert_eq!(v["start"].as_str().unwrap(), &row[col("start")]);
        assert_eq!(v["agents"][0].as_str().unwrap(), &row[col("spec_0")]);
        assert_eq!(v["agents"][1].as_str().unwrap(), &row[col("spec_1")]);
    }
    let out = ok(&["replay", &rec, "--verify"]);
    assert_eq!(out.trim(), format!("3 games in {rec} reproduce"));
    let games = p(&d, "t.csv");
    let out = ok(&["replay", &games, "--verify"]);
    assert_eq!(out.trim(), format!("3 games in {games} reproduce"));
    let first: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let index = first["index"].to_string();
    let out = ok(&["replay", &rec, "--index", &index]);
    let plies = first["plies"].as_u64().unwrap() as usize;
    assert_eq!(out.lines().filter(|l| l.starts_with("ply ")).count(), plies);
    assert!(out.contains(&format!("ply {plies}: ")) && out.contains("returns: seat 0 "));
    assert_eq!(ok(&["replay", &games, "--index", &index]), out);
    fails(&["replay", &rec, "--index", "99"], "no game with index 99");
    // An empty records file is an error for every reader alike.
    let empty = p(&d, "empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let pgn = p(&d, "empty.pgn");
    for args in [
        vec!["replay", &empty],
        vec!["replay", &empty, "--verify"],
        vec!["export", &empty, "--pgn", &pgn],
    ] {
        fails(&args, "holds no games");
    }
    fails(&["export", &rec], "say what to write");
}

/// The rows of a games file with `wall_ms` blanked (not reproducible).
fn rows_without_time(path: &Path) -> Vec<String> {
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(path).unwrap()),
        &mut text,
    )
    .unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let head = r.headers().unwrap().clone();
    let wall = head.iter().position(|h| h == "wall_ms").unwrap();
    let mut rows: Vec<String> = r
        .records()
        .map(|x| {
            let mut f: Vec<String> = x.unwrap().iter().map(str::to_string).collect();
            f[wall].clear();
            f.join(",")
        })
        .collect();
    rows.sort();
    rows
}

/// A compressed games file holds the same rows as a plain one, reads in
/// every command, and survives a killed run: cut anywhere (a lost gzip
/// trailer, a half-written block), the run resumes, keeping every complete
/// game, and ends with the games of an uninterrupted run.
#[test]
fn compressed_games_resume_after_a_cut() {
    let d = dir("records-gz");
    let rec = run_tournament(&d, "t.csv.gz");
    let plain = run_tournament(&d, "plain.csv");
    assert_eq!(
        std::fs::read_to_string(&rec).unwrap().lines().count(),
        3,
        "three records"
    );
    // The same games as the plain file, compressed (gzip magic bytes).
    let gz = d.join("t.csv.gz");
    let bytes = std::fs::read(&gz).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
    assert!(d.join("t.csv.config.json").exists());
    let full = rows_without_time(&gz);
    assert_eq!(full.len(), 3);
    // The plain file holds the same games (the seeds fix them).
    let plain_text = std::fs::read_to_string(d.join("plain.csv")).unwrap();
    assert_eq!(plain_text.lines().count(), 4, "a header and three rows");
    assert_eq!(std::fs::read_to_string(&plain).unwrap().lines().count(), 3);
    for cut in [8, bytes.len() / 2] {
        std::fs::write(&gz, &bytes[..bytes.len() - cut]).unwrap();
        run_tournament(&d, "t.csv.gz");
        assert_eq!(rows_without_time(&gz), full, "cut {cut} bytes");
    }
}

/// `--verify` names the first record that does not reproduce: an illegal
/// move, a wrong result, a line that is not a record.
#[test]
fn verify_names_the_bad_record() {
    let d = dir("records-bad");
    let rec = run_tournament(&d, "t.csv");
    let text = std::fs::read_to_string(&rec).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let bad = |i: usize, new: String, needle: &str| {
        let mut l = lines.clone();
        l[i] = &new;
        let f = p(&d, "bad.jsonl");
        std::fs::write(&f, l.join("\n") + "\n").unwrap();
        fails(&["replay", &f, "--verify"], needle);
    };
    let mut v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    v["moves"][0] = "Z99".into();
    bad(1, v.to_string(), "line 2 (game");
    let mut v: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
    let r0 = v["returns"][0].as_f64().unwrap();
    v["returns"][0] = (-r0).into();
    bad(2, v.to_string(), "line 3 (game");
    let mut v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    v["end"] = "checkmate".into();
    bad(0, v.to_string(), "end Some(\"checkmate\") recorded");
    bad(1, "{\"game\": 3".into(), "line 2: not a game record");
    fails(
        &["replay", &p(&d, "missing.jsonl"), "--verify"],
        "cannot read",
    );
}

/// Every committed game reproduces: every games file (`.csv.gz` with its
/// configuration beside it) and records file (`.jsonl`) under `results/`
/// is replayed move by move, its plies, turns, returns, winners and end
/// checked.
#[test]
fn every_committed_game_replays() {
    fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let name = path.to_string_lossy().to_string();
            if path.is_dir() {
                walk(&path, files);
            } else if name.ends_with(".jsonl")
                || (name.ends_with(".csv.gz") && path.with_extension("config.json").exists())
            {
                files.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    let mut files = Vec::new();
    walk(&root, &mut files);
    use rayon::prelude::*;
    let games: usize = files
        .par_iter()
        .map(|f| {
            experiments::run::records::verify(f)
                .unwrap_or_else(|e| panic!("{}: {e:#}", f.display()))
        })
        .sum();
    assert!(
        files.len() >= 200 && games >= 59_000,
        "only {} files and {games} games under {}",
        files.len(),
        root.display()
    );
}

/// The PGN export of a hand-written records file is the hand-written PGN:
/// Fool's mate in SAN (FIDE chess is Royal Guard without powers), from
/// the start and from a FEN with Black to move; another game's moves in a
/// comment.
#[test]
fn pgn_export_matches_hand_written_text() {
    let d = dir("records-pgn");
    let rec = p(&d, "r.jsonl");
    std::fs::write(
        &rec,
        concat!(
            r#"{"boardlab":"0.1.0","game":"royal_guard(royal_powers=false)","index":4,"seed":7,"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","agents":["random","alphabeta(depth=1)"],"moves":["f2f3","e7e5","g2g4","d8h4"],"plies":4,"turns":4,"winners":[1],"returns":[-1.0,1.0],"end":"checkmate"}"#,
            "\n",
            r#"{"boardlab":"0.1.0","game":"line_up","index":0,"seed":1,"start":"x","agents":["a \"q\"","b"],"moves":[],"plies":0,"turns":0,"winners":[],"returns":[0.0,0.0],"end":null}"#,
            "\n",
            r#"{"boardlab":"0.1.0","game":"royal_guard(royal_powers=false)","index":1,"seed":9,"start":"rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1","agents":["random","random"],"moves":["e7e5","g2g4","d8h4"],"plies":3,"turns":3,"winners":[1],"returns":[-1.0,1.0],"end":"checkmate"}"#,
            "\n"
        ),
    )
    .unwrap();
    let out = p(&d, "r.pgn");
    assert_eq!(
        ok(&["export", &rec, "--pgn", &out]).trim(),
        format!("wrote 3 games to {out}")
    );
    let want = r#"[Event "boardlab royal_guard(royal_powers=false)"]
[Site "boardlab 0.1.0"]
[Date "????.??.??"]
[Round "5"]
[White "random"]
[Black "alphabeta(depth=1)"]
[Result "0-1"]
[Game "royal_guard(royal_powers=false)"]
[Seed "7"]
[Plies "4"]
[End "checkmate"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "boardlab line_up"]
[Site "boardlab 0.1.0"]
[Date "????.??.??"]
[Round "1"]
[White "a \"q\""]
[Black "b"]
[Result "1/2-1/2"]
[Game "line_up"]
[Seed "1"]
[Plies "0"]
[End "-"]

{} 1/2-1/2

[Event "boardlab royal_guard(royal_powers=false)"]
[Site "boardlab 0.1.0"]
[Date "????.??.??"]
[Round "2"]
[White "random"]
[Black "random"]
[Result "0-1"]
[Game "royal_guard(royal_powers=false)"]
[Seed "9"]
[Plies "3"]
[End "checkmate"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1"]

1... e5 2. g4 Qh4# 0-1

"#;
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
    let three = p(&d, "three.jsonl");
    std::fs::write(
        &three,
        r#"{"boardlab":"0.1.0","game":"sniggle(players=3)","index":0,"seed":1,"start":"x","agents":["a","b","c"],"moves":[],"plies":0,"turns":0,"winners":[],"returns":[0.0,0.0,0.0],"end":null}"#,
    )
    .unwrap();
    fails(&["export", &three, "--pgn", &out], "two-seat games");
    // An output's folder is made, as every command makes its outputs'.
    ok(&["export", &rec, "--pgn", &p(&d, "new/dir/x.pgn")]);
    assert!(d.join("new/dir/x.pgn").exists());
    std::fs::write(d.join("file"), "").unwrap();
    fails(&["export", &rec, "--pgn", &p(&d, "file/x.pgn")], "cannot");
}

/// Bagel's terminal board has coordinates: row numbers at the left, each
/// column's letter below-right of its lowest cell. In the B-G2 notation a1
/// is the bottom row's first cell and g4 the middle row's last (base 4).
#[test]
fn bagel_board_has_coordinates() {
    let (out, _) = scripted(
        &PlayArgs {
            moves: Some("a1 g4".into()),
            ..args("bagel", &["human", "human"])
        },
        "quit\n",
    );
    let lines: Vec<&str> = out.lines().skip(1).take(8).collect();
    let row = |n: &str| {
        *lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(n))
            .unwrap()
    };
    assert!(
        row("1").split_whitespace().nth(1).unwrap().ends_with('w'),
        "{out}"
    );
    assert!(
        row("4").split_whitespace().last().unwrap().ends_with('b'),
        "{out}"
    );
    assert!(
        row("3").ends_with("  g") && row("2").ends_with("  f"),
        "{out}"
    );
    assert!(row("1").ends_with("  e"), "{out}");
    assert_eq!(lines[7].trim(), "a   b   c   d", "{out}");
}

/// A compound turn is entered ply by ply: in Sniggle, Y's reply to column
/// D must continue D -> E (docs/rules/sniggle.md §4.3, N-3), so Y is asked again, with
/// that one step as the only legal move.
#[test]
fn compound_turn_is_asked_ply_by_ply() {
    let (out, end) = scripted(
        &args("sniggle", &["human", "human"]),
        "4C-4D\n7C-7D\nmoves\n7D-7E\nquit\n",
    );
    assert!(
        out.contains(
            "seat 1 (Y) to move; last move: 7C-7D\nmove (or `help`)> 1 legal moves: 7D-7E\n"
        ),
        "{out}"
    );
    assert!(out.contains("ply 3: seat 1 (human) plays 7D-7E"), "{out}");
    assert!(end.starts_with("record: 4C-4D 7C-7D 7D-7E\n"), "{end}");
}
