//! Fuzzing of the parsers on the experiments side, with
//! proptest like the engine's (`engine/tests/suite/fuzz.rs`, which has the
//! game, position and move targets). Targets:
//!
//! * `agent_specs`: `AgentSpec::parse` on mutated and random specs (an
//!   accepted spec's canonical form reads back to the same spec);
//! * `tournament_csv`: `read_rows` on mutated tournament CSVs of real runs,
//!   then `check_rows` on what it accepts;
//! * `tournament_config`: `read_config` on mutated `FILE.config.json`, then
//!   `check_rows` of the real rows against what it accepts.
//!
//! Nothing may panic; every error is one non-empty line (anyhow's chain
//! joined with `: `, as the command prints it). `BOARDLAB_FUZZ_CASES` and
//! `BOARDLAB_FUZZ_SEED` as in the engine's fuzzing.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::fuzz_runner::fuzz;
use agents::AgentSpec;
use engine::testkit::mutate;
use experiments::run::{
    GameRecord, TournamentArgs, TournamentConfig, check_rows, num_seats, read_config, read_rows,
    run,
};
use proptest::prelude::*;

/// An error, printed as the command prints it, must be one non-empty line.
fn one_line(e: &anyhow::Error) -> Result<(), String> {
    let msg = format!("{e:#}");
    if msg.trim().is_empty() || msg.contains(['\n', '\r']) {
        return Err(format!("error message is not one line: {msg:?}"));
    }
    Ok(())
}

fn ops() -> impl Strategy<Value = Vec<(u8, u32, u32)>> {
    proptest::collection::vec((any::<u8>(), any::<u32>(), any::<u32>()), 0..5)
}

#[test]
fn fuzz_agent_specs() {
    const BASE: &[&str] = &[
        "random",
        "uct",
        "uct(iterations=50,c=0.7)",
        "mcts",
        "mcts(iterations=1000,c=0.7,ms=0,mb=256,cutoff=4,scale=auto,solver=true,reuse=true)",
        "mcts(cutoff=end,scale=250,solver=false,reuse=false)",
        "mcts(ms=50)",
        "alphabeta(depth=3,ms=0,tt_mb=16)",
        "alphabeta",
        "solver(mb=64,nodes=0,plies=fewest)",
        "solver",
    ];
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789()=,._- "
        .chars()
        .collect();
    let input = prop_oneof![
        3 => (proptest::sample::select(BASE), ops()).prop_map(|(b, o)| mutate(b, &o)),
        1 => proptest::collection::vec(proptest::sample::select(alphabet), 0..40)
            .prop_map(String::from_iter),
        1 => ".{0,30}",
    ];
    fuzz("agent_specs", 300, input, |text| {
        match AgentSpec::parse(&text) {
            Ok(spec) => {
                let canonical = spec.canonical();
                match AgentSpec::parse(&canonical) {
                    Ok(again) if again == spec && again.canonical() == canonical => Ok(()),
                    other => Err(format!("{text:?} -> {canonical:?} -> {other:?}")),
                }
            }
            Err(e) => {
                if e.0.trim().is_empty() || e.0.contains(['\n', '\r']) {
                    Err(format!("error message is not one line: {:?}", e.0))
                } else {
                    Ok(())
                }
            }
        }
    });
}

/// A real run's rows and configuration: the base the CSV and config
/// targets mutate.
struct Base {
    config: TournamentConfig,
    seats: usize,
    records: Vec<GameRecord>,
    csv: String,
    json: String,
}

/// Two small real runs (two seats, paired; three seats), made once.
fn bases() -> &'static [Base] {
    static BASES: OnceLock<Vec<Base>> = OnceLock::new();
    BASES.get_or_init(|| {
        let dir = scratch("bases");
        let runs: [(&str, &[&str], bool); 2] = [
            ("slingshot(size=7)", &["random", "random"], true),
            ("sniggle(players=3)", &["random", "random", "random"], false),
        ];
        runs.iter()
            .enumerate()
            .map(|(i, (game, agents, paired))| {
                let out = dir.join(format!("base{i}.csv"));
                let agents: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
                let mut args = TournamentArgs::new(game, &agents, 6, 7, out.clone());
                args.threads = 1;
                args.paired = *paired;
                args.overwrite = true;
                let r = run(&args).unwrap();
                Base {
                    config: r.config,
                    seats: r.num_seats,
                    records: r.records,
                    csv: std::fs::read_to_string(&out).unwrap(),
                    json: std::fs::read_to_string(format!("{}.config.json", out.display()))
                        .unwrap(),
                }
            })
            .collect()
    })
}

/// A folder of this process for one target's files.
fn scratch(name: &str) -> PathBuf {
    crate::common::scratch(&format!("fuzz-{name}"))
}

/// Checks `records` against `config` unless the config asks for more jobs
/// than a test should list (a corrupt config's `games` can be 4 billion;
/// see the fuzzing notes in docs/development.md).
fn check_small(config: &TournamentConfig, seats: usize, records: &[GameRecord]) {
    if config.games <= 10_000 && config.agents.len() <= 16 {
        let _ = check_rows(config, seats, records);
    }
}

#[test]
fn fuzz_tournament_csv() {
    let bases = bases();
    let path = scratch("csv").join("run.csv");
    let input = (0..bases.len(), ops(), any::<bool>());
    fuzz("tournament_csv", 300, input, |(b, ops, with_config)| {
        let base = &bases[b];
        std::fs::write(&path, mutate(&base.csv, &ops)).unwrap();
        let config = with_config.then_some(&base.config);
        match read_rows(&path, false, config) {
            Ok((records, seats)) => {
                check_small(&base.config, seats, &records);
                Ok(())
            }
            Err(e) => one_line(&e),
        }
    });
}

#[test]
fn fuzz_tournament_config() {
    let bases = bases();
    let path = scratch("config").join("run.csv");
    let config_path = PathBuf::from(format!("{}.config.json", path.display()));
    let input = (0..bases.len(), ops());
    fuzz("tournament_config", 300, input, |(b, ops)| {
        let base = &bases[b];
        std::fs::write(&config_path, mutate(&base.json, &ops)).unwrap();
        match read_config(Path::new(&path)) {
            Ok(config) => {
                if let Ok(seats) = num_seats(&config.game) {
                    check_small(&config, seats, &base.records);
                }
                check_small(&config, base.seats, &base.records);
                Ok(())
            }
            Err(e) => one_line(&e),
        }
    });
}

/// The failures the fuzzers found here, with their minimal inputs and the
/// error each gives now.
#[test]
fn failures_found_by_fuzzing() {
    // A newline inside a value was echoed raw by the agent's message: a
    // two-line error. Specs with control characters are now refused whole.
    let e = AgentSpec::parse("mcts(cutoff=e\nnd,scale=250,solver=false,reuse=false)").unwrap_err();
    assert_eq!(
        e.0,
        "agent spec: bad spec \"mcts(cutoff=e\\nnd,scale=250,solver=false,reuse=false)\": control character '\\n'; a spec is one line"
    );
}
