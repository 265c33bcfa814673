//! Unit tests of `experiments::run::config`.

use experiments::run::config::*;
use experiments::run::{Schedule, TournamentConfig};

#[test]
fn diff_lists_only_changed_fields_and_allows_extension() {
    let old = TournamentConfig {
        game: "line_up".into(),
        agents: vec!["random".into(), "random".into()],
        games: 40,
        seed: 1,
        schedule: Schedule::RoundRobin,
        paired: false,
        shard: None,
        ..Default::default()
    };
    let mut new = old.clone();
    new.games = 60;
    assert!(config_diff(&old, &new, 2).is_empty());
    new.seed = 2;
    assert_eq!(config_diff(&old, &new, 2), vec!["seed: 1 -> 2".to_string()]);
    new.seed = 1;
    new.games = 20;
    assert_eq!(config_diff(&old, &new, 2).len(), 1);
    let three = TournamentConfig {
        agents: vec!["random".into(); 3],
        ..old.clone()
    };
    let more = TournamentConfig {
        games: 60,
        ..three.clone()
    };
    assert!(config_diff(&three, &more, 2)[0].starts_with("games: 40 -> 60"));
    // `minimax=0` written out (a game whose default is not 0) or left out
    // (made before the default changed) is the same agent; another value
    // is not.
    let spelled = |m: &str| TournamentConfig {
        agents: vec![
            "random".into(),
            format!(
                "mcts(iterations=1000,c=0.7,ms=0,mb=256,cutoff=4,scale=auto,solver=true,reuse=true{m})"
            ),
        ],
        ..old.clone()
    };
    assert!(config_diff(&spelled(""), &spelled(",minimax=0"), 2).is_empty());
    assert!(config_diff(&spelled(",minimax=0"), &spelled(""), 2).is_empty());
    assert_eq!(
        config_diff(&spelled(""), &spelled(",minimax=2"), 2).len(),
        1
    );
    // Old files (no provenance) still load.
    let f: ConfigFile = serde_json::from_str(
        r#"{"game":"g","agents":["a","b"],"games":2,"seed":1,"schedule":"round-robin","paired":false,"shard":null}"#,
    )
    .unwrap();
    assert!(f.provenance.is_empty() && f.config.games == 2);
}
