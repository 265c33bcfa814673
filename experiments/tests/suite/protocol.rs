//! The UGI engine (`boardlab engine`) and the `external(...)` agent:
//! sessions with malformed lines, boardlab against itself through the
//! protocol, and a scripted fake engine that crashes, hangs and cheats.

use std::io::Cursor;
use std::path::PathBuf;

use agents::{AgentSpec, ForfeitKind};
use engine::catapult::CatapultGame;
use engine::slingshot::SlingshotGame;
use engine::spec::Spec;
use engine::{Game, State};
use experiments::research::ugi;
use experiments::run::{
    self, GameRecord, Job, PlaySetup, TournamentArgs, play_job, play_out_or_forfeit,
};

use crate::common::{dir, ok};

/// Runs an engine session over `input`, returning its output lines.
fn session(game: &str, agent: &str, input: &str) -> Vec<String> {
    let mut out = Vec::new();
    ugi::engine(game, agent, &mut Cursor::new(input.as_bytes()), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn fake(mode: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/suite/data/fake_ugi.sh");
    format!("sh {} {mode}", script.display())
}

fn engine_cmd(game: &str, agent: &str) -> String {
    format!(
        "{} engine --game {game} --agent {agent}",
        env!("CARGO_BIN_EXE_boardlab")
    )
}

fn slingshot7() -> SlingshotGame {
    SlingshotGame::from_spec(&Spec::parse("slingshot(size=7)").unwrap()).unwrap()
}

#[test]
fn engine_answers_the_handshake_queries_and_bad_lines() {
    let out = session(
        "slingshot(size=7)",
        "random",
        "ugi\nisready\nuginewgame\nposition startpos\nquery p1turn\nquery gameover\n\
         query result\nposition startpos moves e5,a1\nquery p1turn\n\
         go movetime 10\nstop\n\
         bogus\nposition fen 7/7\nposition startpos moves e5,a1 e5,a1\nquery\n\
         setoption name seed value -4\nsetoption name hash value 1\nsetoption nonsense\n\
         go nodes\nquery p1turn\nquit\nisready\n",
    );
    let text = out.join("\n");
    // Handshake: id lines, options, then ugiok; isready → readyok.
    assert!(out[0].starts_with("id name boardlab "), "{text}");
    assert!(out[1].starts_with("id author "), "{text}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name seed type spin"))
    );
    let ok = out.iter().position(|l| l == "ugiok").expect(&text);
    assert_eq!(out[ok + 1], "readyok");
    // At the start seat 0 (Slingshot's setter) is to move, nothing is over.
    let responses: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("response "))
        .collect();
    // p1turn, gameover, result at the start; p1turn after the set-up
    // (the chooser, seat 1, is to move: docs/rules/slingshot.md, pie set-up);
    // the last p1turn shows the bad `position` lines changed nothing.
    assert_eq!(responses, ["true", "false", "none", "false", "false"]);
    // `go` answers with a legal chooser move (chooser=B or chooser=T).
    let best = out
        .iter()
        .find(|l| l.starts_with("bestmove "))
        .expect(&text);
    assert!(
        best == "bestmove chooser=B" || best == "bestmove chooser=T",
        "{best}"
    );
    // Every malformed line got one error line; nothing after quit.
    let errors = out
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert_eq!(errors, 8, "{text}");
    assert_eq!(out.last().unwrap(), "response false", "{text}");
}

/// `--agent` is read in the engine's game: Catapult's evaluation names
/// `attack` (its default 20), Slingshot's evaluation no weight at all.
#[test]
fn engine_reads_its_agent_in_its_game() {
    let out = session(
        "catapult",
        "alphabeta(depth=1,w_attack=16)",
        "position startpos\ngo\n",
    );
    let last = out.last().map_or("", String::as_str);
    let best = last.strip_prefix("bestmove ").unwrap();
    let state = CatapultGame::<u64>::from_spec(&Spec::parse("catapult").unwrap())
        .unwrap()
        .initial_state(0);
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    assert!(
        legal.iter().any(|&m| state.move_to_text(m) == best),
        "{out:?}"
    );
    let mut sink = Vec::new();
    let e = ugi::engine(
        "slingshot",
        "alphabeta(w_attack=16)",
        &mut Cursor::new(&b"go\n"[..]),
        &mut sink,
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("w_attack: this game's evaluation has no named weights"),
        "{e}"
    );
}

#[test]
fn engine_reports_the_end_of_a_game() {
    // A whole game played by `play`, replayed through `position`: over, and
    // the result agrees with the returns `play` printed.
    let played = crate::common::ok(&[
        "play",
        "--game",
        "slingshot(size=7)",
        "--agents",
        "random",
        "random",
        "--seed",
        "5",
    ]);
    let record = played
        .lines()
        .find_map(|l| l.strip_prefix("record: "))
        .unwrap();
    let returns = played
        .lines()
        .find_map(|l| l.strip_prefix("returns: "))
        .unwrap();
    // "seat 0 <role> R0, seat 1 <role> R1"
    let r: Vec<f64> = returns
        .split(", ")
        .map(|part| part.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    let expected = if r[0] > r[1] { "p1win" } else { "p2win" };
    let out = session(
        "slingshot(size=7)",
        "random",
        &format!("position startpos moves {record}\nquery gameover\nquery result\ngo\n"),
    );
    assert_eq!(out[0], "response true");
    assert_eq!(out[1], format!("response {expected}"), "{returns}");
    assert_eq!(out[3], "bestmove none");
}

#[test]
fn external_boardlab_plays_the_moves_it_plays_in_process() {
    // Seat 0 in-process, then the same agent through `boardlab engine`:
    // the same game seed gives the same game, move for move.
    let cases = [
        ("slingshot(size=7)", "mcts(iterations=150)", "nodes=150"),
        ("catapult", "alphabeta(depth=2)", "depth=2"),
    ];
    for (game_string, agent, budget) in cases {
        let external = format!(
            "external(cmd=\"{}\",ms=5000,{budget})",
            engine_cmd(game_string, agent)
        );
        // In-process the agent is read for its game, as `boardlab engine`
        // reads it (the game's own defaults: Slingshot's tuned `mcts`).
        let specs = [
            AgentSpec::parse_in(agent, game_string).unwrap(),
            AgentSpec::parse("random").unwrap(),
            AgentSpec::parse(&external).unwrap(),
        ];
        let inproc = Job {
            index: 0,
            seed: 11,
            seats: vec![0, 1],
            opening: None,
        };
        let through = Job {
            seats: vec![2, 1],
            ..inproc.clone()
        };
        // Both seatings of one job, agents seeded by seat as the job says.
        fn pair<G: Game>(g: &G, specs: &[AgentSpec], a: &Job, b: &Job) -> (GameRecord, GameRecord) {
            let setup = PlaySetup {
                agent_seeds: false,
                openings: Vec::new(),
            };
            (play_job(g, specs, a, &setup), play_job(g, specs, b, &setup))
        }
        let (a, b) = if game_string.starts_with("slingshot") {
            pair(&slingshot7(), &specs, &inproc, &through)
        } else {
            let g = CatapultGame::<u64>::from_spec(&Spec::parse(game_string).unwrap()).unwrap();
            pair(&g, &specs, &inproc, &through)
        };
        assert!(a.plies > 4, "{game_string}: {}", a.moves);
        assert_eq!(a.moves, b.moves, "{game_string} {agent}");
        assert_eq!(a.returns, b.returns);
    }
}

#[test]
fn a_crashing_hanging_or_cheating_program_forfeits() {
    let game = slingshot7();
    for (mode, kind) in [
        ("crash", ForfeitKind::Crash),
        ("hang", ForfeitKind::Timeout),
        ("cheat", ForfeitKind::IllegalMove),
        // Output without a newline: a line over MAX_LINE is a crash, read
        // only up to the bound (not until the time-out).
        ("flood", ForfeitKind::Crash),
        // Lines without end and no bestmove: the bounded queue keeps memory
        // flat while the program blocks on its pipe, then the clock runs out.
        ("chatter", ForfeitKind::Timeout),
    ] {
        let spec = format!("external(cmd=\"{}\",ms=100,margin=150)", fake(mode));
        for seat in 0..2 {
            let mut players = vec![
                AgentSpec::parse("random").unwrap().build(1),
                AgentSpec::parse("random").unwrap().build(2),
            ];
            players[seat] = AgentSpec::parse(&spec).unwrap().build(3);
            let mut state = game.initial_state(0);
            let start = std::time::Instant::now();
            let (_, forfeit) = play_out_or_forfeit(&mut state, &mut players, 1, None);
            let (who, f) = forfeit.expect(mode);
            assert_eq!((who, f.kind), (seat, kind), "{mode}: {}", f.detail);
            if mode == "flood" {
                assert!(
                    f.detail
                        .contains(&format!("longer than {} bytes", agents::MAX_LINE)),
                    "{}",
                    f.detail
                );
            }
            assert!(!state.is_terminal());
            // Its first turn: seat 0 sets up at ply 0, seat 1 chooses at ply 1.
            assert_eq!(state.ply() as usize, seat, "{mode}");
            assert!(start.elapsed().as_millis() < 2000, "{mode} took too long");
        }
        let f = agents::Forfeit {
            kind,
            detail: String::new(),
        };
        assert_eq!(
            f.end_reason(),
            match mode {
                "crash" | "flood" => "forfeit: crash",
                "hang" | "chatter" => "forfeit: timeout",
                _ => "forfeit: illegal move",
            }
        );
    }
}

#[test]
fn a_tournament_with_misbehaving_programs_finishes() {
    // Each fake plays random once in each seat; every game is lost by the
    // fake (-1 for its seat, 1 for random's), and the run goes on.
    let d = dir("protocol-tournament");
    let mut agents = vec!["random".to_string()];
    for mode in ["crash", "hang", "cheat"] {
        agents.push(format!("external(cmd=\"{}\",ms=50,margin=100)", fake(mode)));
    }
    let mut args = TournamentArgs::new("slingshot(size=7)", &agents, 2, 1, d.join("t.csv"));
    args.threads = 2;
    let res = run::run(&args).unwrap();
    // 4 agents: 6 pairings of 2 games.
    assert_eq!(res.records.len(), 12);
    let reasons = [
        "forfeit: crash",
        "forfeit: timeout",
        "forfeit: illegal move",
    ];
    for r in &res.records {
        // The first fake to move forfeits: agent k (1, 2, 3) has reason k - 1.
        let first_fake = (0..2).map(|s| r.seats[s]).find(|&a| a != 0).unwrap();
        assert_eq!(r.end.as_deref(), Some(reasons[first_fake - 1]), "{r:?}");
        let fakes: Vec<usize> = (0..2).filter(|&s| r.seats[s] != 0).collect();
        if fakes.len() == 1 {
            let s = fakes[0];
            assert_eq!(r.winners, vec![1 - s], "{r:?}");
            assert_eq!(r.returns[s], -1.0);
        } else {
            // Two fakes: the first to move (seat 0) forfeits first.
            assert_eq!(r.winners, vec![1], "{r:?}");
        }
    }
    // The forfeits are recorded and verify: the game stops at the
    // forfeiting seat's turn, which loses.
    let n = experiments::run::records::verify(&d.join("t.csv")).unwrap();
    assert_eq!(n, 12);
}

/// `play` seats an external program too; one that crashes forfeits the
/// game there as in a tournament: it loses, and the end says why.
#[test]
fn play_scores_a_forfeit() {
    let crash = format!("external(cmd=\"{}\",ms=50,margin=100)", fake("crash"));
    let out = ok(&[
        "play",
        "--game",
        "slingshot(size=7)",
        "--agents",
        "random",
        &crash,
    ]);
    assert!(out.contains("seat 1 forfeits: forfeit: crash"), "{out}");
    assert!(out.contains("end: forfeit: crash"), "{out}");
    let returns = out
        .lines()
        .find_map(|l| l.strip_prefix("returns: "))
        .unwrap();
    assert!(
        returns.ends_with(" -1") && returns.contains(" 1, "),
        "{returns}"
    );
}
