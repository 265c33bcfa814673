//! UCI both ways: `boardlab engine` answering `uci` for chess (and only
//! for chess), `external(...,protocol=uci)` sending the game's history and
//! its options, forfeits under UCI, `rate --gauntlet --fixed`, and games
//! against Stockfish where it is installed (CI installs it with
//! `scripts/system-packages stockfish`; elsewhere those tests say they are
//! skipped and return).

use std::io::Cursor;
use std::path::{Path, PathBuf};

use agents::{AgentSpec, ForfeitKind};
use engine::royal_guard::RoyalGuardGame;
use engine::slingshot::SlingshotGame;
use engine::spec::Spec;
use engine::{Game, State};
use experiments::research::ugi;
use experiments::run::play_out_or_forfeit;

use crate::common::{dir, ok};

/// FIDE chess: Royal Guard without its royal powers.
const CHESS: &str = "royal_guard(royal_powers=false)";

fn chess() -> RoyalGuardGame {
    RoyalGuardGame::from_spec(&Spec::parse(CHESS).unwrap()).unwrap()
}

fn session(game: &str, agent: &str, input: &str) -> Vec<String> {
    let mut out = Vec::new();
    ugi::engine(game, agent, &mut Cursor::new(input.as_bytes()), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/data")
        .join(name)
        .display()
        .to_string()
}

/// Stockfish's path, or `None` after saying that the test is skipped.
fn stockfish(test: &str) -> Option<&'static str> {
    let path = "/usr/games/stockfish";
    if Path::new(path).exists() {
        Some(path)
    } else {
        eprintln!(
            "{test}: skipped: stockfish not installed (scripts/system-packages stockfish installs it)"
        );
        None
    }
}

#[test]
fn engine_speaks_uci_when_its_game_is_chess() {
    let out = session(
        CHESS,
        "alphabeta(depth=2)",
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 2\n\
         position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ngo depth 2\nquit\n",
    );
    let text = out.join("\n");
    assert!(out.iter().any(|l| l == "uciok"), "{text}");
    assert!(out.iter().any(|l| l == "readyok"), "{text}");
    assert!(!text.contains("error"), "{text}");
    // UCI's info form: centipawns, not the UGI line's units.
    let info = out.iter().find(|l| l.starts_with("info depth")).unwrap();
    assert!(
        info.contains(" score cp ") && info.contains(" nodes "),
        "{info}"
    );
    assert!(!info.contains("winprob"), "{info}");
    // Black to move after 1. e4 e5 2. Nf3: a legal reply in long algebraic.
    let moves: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(moves.len(), 2, "{text}");
    let mut s = chess().initial_state(0);
    for m in ["e2e4", "e7e5", "g1f3"] {
        s.apply(engine::parse_legal_move(&s, m).unwrap());
    }
    engine::parse_legal_move(&s, &moves[0]["bestmove ".len()..]).unwrap();
    // The back-rank mate is found and reported as a mate in 1.
    assert_eq!(moves[1].as_str(), "bestmove a1a8", "{text}");
    assert!(text.contains("score mate 1"), "{text}");
    // Any other game: no uciok, an error naming ugi.
    let out = session("slingshot(size=7)", "random", "uci\nugi\nquit\n");
    assert!(!out.iter().any(|l| l == "uciok"), "{out:?}");
    assert!(
        out[0].starts_with("info string error: uci:") && out[0].contains("ugi"),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "ugiok");
}

#[test]
fn uci_info_lines_give_centipawns_or_mates() {
    let mut info = agents::SearchInfo {
        depth: None,
        iterations: Some(100),
        score: 0.2,
        score_units: "mean return",
        win_probability: 0.76,
        proven: None,
        nodes: 250,
        elapsed_ms: 9,
        rate: 11111.0,
        pv: vec!["e2e4".into(), "e7e5".into()],
        mb_hits: Some(0),
        pie: None,
    };
    // p = 0.76: 400 log10(0.76 / 0.24) = 200.2.
    assert_eq!(
        ugi::uci_info_line(&info),
        "info score cp 200 nodes 250 time 9 nps 11111 pv e2e4 e7e5"
    );
    info.depth = Some(7);
    info.score_units = "eval";
    info.score = -35.0;
    assert!(ugi::uci_info_line(&info).starts_with("info depth 7 score cp -35 nodes"));
    info.proven = Some("loss in 4 plies".into());
    assert!(ugi::uci_info_line(&info).contains(" score mate -2 "));
    info.proven = Some("win in 5 plies".into());
    assert!(ugi::uci_info_line(&info).contains(" score mate 3 "));
    assert!(ugi::is_chess(&chess().game_string()));
    let royal = RoyalGuardGame::from_spec(&Spec::parse("royal_guard").unwrap()).unwrap();
    assert!(!ugi::is_chess(&royal.game_string()));
}

#[test]
fn external_uci_sends_its_options_and_the_games_history() {
    let d = dir("uci-history");
    let log = d.join("sent.txt");
    let cmd = format!(
        "sh {} {} {} {CHESS} alphabeta(depth=1)",
        data("tee_engine.sh"),
        log.display(),
        env!("CARGO_BIN_EXE_boardlab")
    );
    let spec = format!(
        "external(cmd=\"{cmd}\",protocol=uci,depth=1,ms=5000,option.Hash=8,option.Move Overhead=\"0\")"
    );
    let agent = AgentSpec::parse(&spec).unwrap();
    // Canonical form: protocol and options kept, in order (names in lower
    // case, as spec keys are; UCI's option names are case-insensitive),
    // and it parses back to the same agent.
    let canonical = agent.canonical();
    assert!(
        canonical.contains(",protocol=uci,")
            && canonical.ends_with(",option.hash=8,option.move overhead=0)"),
        "{canonical}"
    );
    assert_eq!(AgentSpec::parse(&canonical).unwrap(), agent);
    let game = chess();
    let mut players = vec![agent.build(1), AgentSpec::parse("random").unwrap().build(2)];
    let mut state = game.initial_state(0);
    // Two plies of an opening first: the history starts where the agent
    // is first asked (the record holds the moves from there).
    for m in ["d2d4", "d7d5"] {
        state.apply(engine::parse_legal_move(&state, m).unwrap());
    }
    let start = state.to_text();
    let mut line = String::new();
    let (_, forfeit) = play_out_or_forfeit(&mut state, &mut players, 1, Some(&mut line));
    let record: Vec<&str> = line.split(' ').collect();
    assert!(forfeit.is_none(), "{forfeit:?}");
    assert!(state.is_terminal());
    drop(players);
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(lines[0], "uci");
    assert!(!sent.contains("setoption name seed"), "{sent}");
    let hash = lines
        .iter()
        .position(|l| *l == "setoption name hash value 8");
    let overhead = lines
        .iter()
        .position(|l| *l == "setoption name move overhead value 0");
    assert!(hash.is_some() && hash < overhead, "{sent}");
    assert!(lines.contains(&"ucinewgame"), "{sent}");
    // The k-th position line holds the start and the 2k moves since.
    let positions: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("position"))
        .collect();
    assert!(positions.len() > 3, "{sent}");
    assert_eq!(positions[0], format!("position fen {start}"));
    for (k, p) in positions.iter().enumerate().skip(1) {
        let (head, moves) = p.split_once(" moves ").unwrap();
        assert_eq!(head, format!("position fen {start}"));
        let moves: Vec<&str> = moves.split(' ').collect();
        assert_eq!(moves.len(), 2 * k, "{p}");
        // The record holds the moves from where the agent was first asked.
        assert_eq!(moves, record[..2 * k]);
    }
}

#[test]
fn a_uci_program_that_speaks_ugi_hangs_or_cheats_forfeits() {
    let game = chess();
    for (mode, kind, detail) in [
        ("ugi-only", ForfeitKind::Crash, "speaks UGI, not UCI"),
        ("crash", ForfeitKind::Crash, "closed its output"),
        ("hang", ForfeitKind::Timeout, "no bestmove"),
        ("cheat", ForfeitKind::IllegalMove, "zz99"),
    ] {
        let spec = format!(
            "external(cmd=\"sh {} {mode}\",protocol=uci,ms=100,margin=150)",
            data("fake_ugi.sh")
        );
        let mut players = vec![
            AgentSpec::parse(&spec).unwrap().build(1),
            AgentSpec::parse("random").unwrap().build(2),
        ];
        let mut state = game.initial_state(0);
        let (_, forfeit) = play_out_or_forfeit(&mut state, &mut players, 1, None);
        let (who, f) = forfeit.expect(mode);
        assert_eq!((who, f.kind), (0, kind), "{mode}: {}", f.detail);
        assert!(f.detail.contains(detail), "{mode}: {}", f.detail);
    }
    // And a UGI agent whose program greets with uciok.
    let slingshot = SlingshotGame::from_spec(&Spec::parse("slingshot(size=7)").unwrap()).unwrap();
    let spec = format!(
        "external(cmd=\"sh {} crash\",ms=100,margin=150)",
        data("fake_uci_only.sh")
    );
    let mut players = vec![
        AgentSpec::parse(&spec).unwrap().build(1),
        AgentSpec::parse("random").unwrap().build(2),
    ];
    let mut state = slingshot.initial_state(0);
    let (_, forfeit) = play_out_or_forfeit(&mut state, &mut players, 1, None);
    let (_, f) = forfeit.unwrap();
    assert_eq!(f.kind, ForfeitKind::Crash);
    assert!(f.detail.contains("speaks UCI, not UGI"), "{}", f.detail);
}

#[test]
fn external_spec_checks_protocol_and_options() {
    for (bad, needle) in [
        ("external(cmd=x,protocol=xboard)", "ugi|uci"),
        ("external(cmd=x,option.=3)", "needs a name"),
        ("external(cmd=x,option.A=1,option.a=2)", "given twice"),
        ("external(cmd=x,option.A=my value here)", "ambiguous"),
    ] {
        let e = AgentSpec::parse(bad).unwrap_err();
        assert!(e.0.contains(needle), "{bad}: {e}");
    }
    // UGI runs keep the spec they had before protocol= existed.
    let ugi = AgentSpec::parse("external(cmd=x,ms=50)").unwrap();
    assert_eq!(
        ugi.canonical(),
        "external(cmd=\"x\",ms=50,nodes=0,depth=0,margin=1000)"
    );
    let quoted = AgentSpec::parse("external(cmd=x,option.EvalFile=\"a,b.nnue\")").unwrap();
    assert!(
        quoted
            .canonical()
            .ends_with("option.evalfile=\"a,b.nnue\")")
    );
    assert_eq!(AgentSpec::parse(&quoted.canonical()).unwrap(), quoted);
}

#[test]
fn rate_gauntlet_fits_on_a_fixed_scale() {
    let d = dir("rate-fixed");
    let ratings = d.join("r.csv");
    let out = ok(&[
        "rate",
        "--game",
        "slingshot(size=7)",
        "--agents",
        "mcts(iterations=50)",
        "random",
        "uct(iterations=5)",
        "--gauntlet",
        "--fixed",
        "1=1000",
        "--fixed",
        "uct(iterations=5)=1100",
        "--games",
        "4",
        "--threads",
        "1",
        "--quiet",
        "--ratings",
        ratings.to_str().unwrap(),
    ]);
    // Only the first agent's pairings: 2 × 4 games.
    let games = experiments::run::storage::read_to_string(&d.join("r-games.csv.gz")).unwrap();
    assert_eq!(games.lines().count(), 1 + 8, "{games}");
    assert!(out.contains("fixed A1 = 1000, A2 = 1100"), "{out}");
    let rows: Vec<csv::StringRecord> = csv::Reader::from_path(&ratings)
        .unwrap()
        .records()
        .map(Result::unwrap)
        .collect();
    // Columns: game, rank, agent, spec, elo, se, lower, upper, ...
    let row = |agent: &str| rows.iter().find(|r| &r[2] == agent).unwrap().clone();
    let fixed = row("1");
    assert_eq!(
        (&fixed[4], &fixed[5], &fixed[6]),
        ("1000.00", "0.00", "1000.00")
    );
    assert_eq!(&row("2")[4], "1100.00");
    let mcts: f64 = row("0")[4].parse().unwrap();
    assert!(mcts > 1000.0, "{rows:?}");
    crate::common::fails(
        &[
            "rate",
            "--game",
            "slingshot(size=7)",
            "--agents",
            "random",
            "random",
            "--anchor",
            "0",
            "--fixed",
            "1=1000",
        ],
        "not both",
    );
    crate::common::fails(
        &[
            "rate",
            "--game",
            "slingshot(size=7)",
            "--agents",
            "random",
            "random",
            "--fixed",
            "1",
        ],
        "AGENT=ELO",
    );
}

#[test]
fn stockfish_plays_chess_through_uci() {
    let Some(sf) = stockfish("stockfish_plays_chess_through_uci") else {
        return;
    };
    let spec = format!(
        "external(cmd={sf},protocol=uci,ms=20,option.UCI_LimitStrength=true,option.UCI_Elo=1350)"
    );
    let game = chess();
    for seat in 0..2 {
        let mut players = vec![
            AgentSpec::parse("random").unwrap().build(1),
            AgentSpec::parse("random").unwrap().build(2),
        ];
        players[seat] = AgentSpec::parse(&spec).unwrap().build(3);
        let mut state = game.initial_state(0);
        let (_, forfeit) = play_out_or_forfeit(&mut state, &mut players, 1, None);
        assert!(forfeit.is_none(), "{forfeit:?}");
        // Even at its weakest, Stockfish does not lose to random moves.
        assert!(state.returns()[seat] >= 0.0, "{state}");
    }
}

#[test]
fn stockfish_drives_boardlab_engine_and_back() {
    // boardlab's engine through external(protocol=uci) against Stockfish:
    // both sides of the protocol in one game, which must end normally.
    let Some(sf) = stockfish("stockfish_drives_boardlab_engine_and_back") else {
        return;
    };
    let d = dir("uci-sf-rate");
    let ours = format!(
        "external(cmd=\"{} engine --game {CHESS} --agent alphabeta(depth=2)\",protocol=uci,depth=2,ms=5000)",
        env!("CARGO_BIN_EXE_boardlab")
    );
    let theirs = format!(
        "external(cmd={sf},protocol=uci,ms=20,option.UCI_LimitStrength=true,option.UCI_Elo=1350)"
    );
    let out = ok(&[
        "rate",
        "--game",
        CHESS,
        "--agents",
        &ours,
        &theirs,
        "--gauntlet",
        "--fixed",
        "1=1350",
        "--games",
        "2",
        "--threads",
        "1",
        "--quiet",
        "--ratings",
        d.join("r.csv").to_str().unwrap(),
    ]);
    assert!(out.contains("fixed A1 = 1350"), "{out}");
    let games = experiments::run::storage::read_to_string(&d.join("r-games.csv.gz")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
    assert!(!games.contains("forfeit"), "{games}");
}
