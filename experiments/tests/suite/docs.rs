//! The documentation's examples run: every `cargo run --release --` line of
//! a fenced `sh` block in `README.md` and `docs/*.md` (with `\`
//! continuations joined) runs with the built binary and must exit with
//! status 0 and print no `error:` (nor a `forfeit`). The conventions (a
//! fresh folder per block, committed inputs copied in, `<!-- file: NAME -->`
//! inputs, `<!-- not run: reason -->` blocks checked against `--help` only)
//! are stated for readers in `docs/README.md`, "Examples are tested".
//!
//! No example touches the checkout: each block runs in a fresh temporary
//! folder, committed files it names are copied into that folder, and an
//! absolute path or `..` in an example is refused.

use crate::common::dir;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every page whose examples are run; `docs_every_page_is_tested` checks
/// that no page of `docs/` is missing here.
const DOC_PAGES: [&str; 10] = [
    "docs/README.md",
    "docs/cli.md",
    "docs/games.md",
    "docs/protocol.md",
    "docs/results-format.md",
    "docs/development.md",
    "docs/statistics.md",
    "docs/python.md",
    "docs/studies.md",
    "docs/cluster.md",
];

/// The prefix of a command that is run.
const PREFIX: &str = "cargo run --release --";

/// Top-level folders of the checkout whose files an example may read (they
/// are copied into the example's folder); `runs/` and `target/` are not
/// among them, so a user's own runs never leak into the test.
const COMMITTED: [&str; 6] = [
    "results",
    "engine",
    "agents",
    "experiments",
    "docs",
    "studies",
];

/// The longest one example may take before it is killed and reported.
const TIME_LIMIT: Duration = Duration::from_secs(60);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// One fenced `sh` block with its commands (the line each starts on).
struct Block {
    line: usize,
    not_run: Option<String>,
    commands: Vec<(usize, String)>,
}

/// A page's `sh` blocks and its `<!-- file: NAME -->` input files.
struct Page {
    blocks: Vec<Block>,
    files: Vec<(String, String)>,
}

/// Splits a page into its fenced blocks. A block's marker is the last
/// non-blank line before its opening fence, if it is an HTML comment.
fn parse(text: &str) -> Page {
    let lines: Vec<&str> = text.lines().collect();
    let mut page = Page {
        blocks: Vec::new(),
        files: Vec::new(),
    };
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if !t.starts_with("```") {
            i += 1;
            continue;
        }
        let lang = t.trim_start_matches('`').trim();
        let marker = lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim())
            .filter(|l| l.starts_with("<!--") && l.ends_with("-->"))
            .map(|l| l.trim_start_matches("<!--").trim_end_matches("-->").trim());
        let start = i;
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && !lines[i].trim_start().starts_with("```") {
            body.push((i + 1, lines[i].trim_start()));
            i += 1;
        }
        assert!(i < lines.len(), "line {}: unclosed fence", start + 1);
        i += 1;
        if let Some(name) = marker.and_then(|m| m.strip_prefix("file:")) {
            let content: Vec<&str> = body.iter().map(|(_, l)| *l).collect();
            page.files
                .push((name.trim().to_string(), content.join("\n") + "\n"));
        }
        if lang != "sh" {
            continue;
        }
        let not_run = marker
            .and_then(|m| m.strip_prefix("not run:"))
            .map(|r| r.trim().to_string());
        let mut commands = Vec::new();
        let mut current: Option<(usize, String)> = None;
        for (n, l) in body {
            let (first, mut text) = match current.take() {
                Some((n0, acc)) => (n0, acc + " " + l.trim()),
                None => (n, l.trim_end().to_string()),
            };
            if text.ends_with('\\') {
                text.pop();
                current = Some((first, text.trim_end().to_string()));
            } else if text.starts_with(PREFIX) {
                commands.push((first, text));
            }
        }
        page.blocks.push(Block {
            line: start + 1,
            not_run,
            commands,
        });
    }
    page
}

/// A word of a command line, or a shell operator the tests cannot run.
#[derive(Debug, PartialEq)]
enum Word {
    Arg(String),
    Operator(String),
}

/// Splits a command line as a POSIX shell would split a simple command:
/// single quotes literal, double quotes with `\"` `\\` `\$` `` \` `` escapes,
/// a backslash escaping the next character, `#` at a word's start a
/// comment; `|`, `;`, `&`, `<`, `>` outside quotes are operators. No
/// expansion is done.
fn split(line: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(Word::Arg(std::mem::take(&mut cur)));
                    in_word = false;
                }
            }
            '#' if !in_word => break,
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => panic!("unterminated ' in {line}"),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&x) if "\"\\$`".contains(x) => {
                                cur.push(x);
                                chars.next();
                            }
                            _ => cur.push('\\'),
                        },
                        Some(x) => cur.push(x),
                        None => panic!("unterminated \" in {line}"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            '|' | ';' | '&' | '<' | '>' => {
                if in_word {
                    words.push(Word::Arg(std::mem::take(&mut cur)));
                    in_word = false;
                }
                words.push(Word::Operator(c.to_string()));
            }
            x => {
                in_word = true;
                cur.push(x);
            }
        }
    }
    if in_word {
        words.push(Word::Arg(cur));
    }
    words
}

/// The `boardlab` arguments of a documented command (the words after
/// `cargo run --release --`), up to the first shell operator if `stop_at_operator`.
fn boardlab_args(where_: &str, cmd: &str, stop_at_operator: bool) -> Vec<String> {
    let mut args = Vec::new();
    for w in split(cmd) {
        match w {
            Word::Arg(a) => args.push(a),
            Word::Operator(_) if stop_at_operator => break,
            Word::Operator(op) => panic!(
                "{where_}: `{op}` in a run example: the test runs one command; \
                 mark the block `<!-- not run: reason -->` or drop the operator\n  {cmd}"
            ),
        }
    }
    assert_eq!(&args[..4], &["cargo", "run", "--release", "--"], "{where_}");
    args.split_off(4)
}

/// Copies the committed files `args` name into `dir` (same relative path),
/// refusing paths that could reach outside it.
fn copy_inputs(where_: &str, args: &[String], dir: &Path) {
    let root = root();
    for a in args {
        let p = Path::new(a);
        assert!(
            !p.is_absolute() && !a.split('/').any(|c| c == ".."),
            "{where_}: an example must use paths inside its folder, not {a:?}"
        );
        let first = a.split('/').next().unwrap_or("");
        if !a.contains('/') || !COMMITTED.contains(&first) {
            continue;
        }
        let (src, dst) = (root.join(p), dir.join(p));
        if src.is_file() && !dst.exists() {
            std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The binary as `target/release/boardlab` in `dir`, for examples that
/// start it as an external engine.
fn link_binary(dir: &Path) {
    let d = dir.join("target/release");
    std::fs::create_dir_all(&d).unwrap();
    let exe = Path::new(env!("CARGO_BIN_EXE_boardlab"));
    #[cfg(unix)]
    std::os::unix::fs::symlink(exe, d.join("boardlab")).unwrap();
    #[cfg(not(unix))]
    std::fs::copy(exe, d.join("boardlab")).unwrap();
}

/// Runs `boardlab args` in `dir` with `quit` on standard input; `Err` says
/// what went wrong.
fn run_one(args: &[String], dir: &Path, n: usize) -> Result<Duration, String> {
    let (out_path, err_path) = (dir.join(format!(".out{n}")), dir.join(format!(".err{n}")));
    let t0 = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .expect("boardlab starts");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(b"quit\n");
    }
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {TIME_LIMIT:?}: killed"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = t0.elapsed();
    let out = std::fs::read_to_string(&out_path).unwrap_or_default();
    let err = std::fs::read_to_string(&err_path).unwrap_or_default();
    let tail = |s: &str| {
        let l: Vec<&str> = s.lines().collect();
        l[l.len().saturating_sub(8)..].join("\n")
    };
    if !status.success() {
        return Err(format!("exit {status}\n{}", tail(&err)));
    }
    if out.contains("error:") || err.contains("error:") {
        return Err(format!("printed `error:`\n{}\n{}", tail(&out), tail(&err)));
    }
    // An external engine that fails forfeits its games without an error
    // exit; the summary's end reasons say so.
    if out.contains("forfeit") || err.contains("forfeit") {
        return Err(format!(
            "a game was forfeited\n{}\n{}",
            tail(&out),
            tail(&err)
        ));
    }
    Ok(took)
}

/// Checks a command that is not run: its subcommand exists and takes every
/// `--flag` it is given.
fn check_flags(where_: &str, cmd: &str) -> Result<(), String> {
    let args = boardlab_args(where_, cmd, true);
    let sub = args.first().ok_or("no subcommand")?;
    let out = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args([sub.as_str(), "--help"])
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(format!("no subcommand {sub:?}"));
    }
    let help = String::from_utf8_lossy(&out.stdout);
    for a in args.iter().filter(|a| a.starts_with("--")) {
        let flag = a.split('=').next().unwrap();
        let known = help.match_indices(flag).any(|(i, _)| {
            !help[i + flag.len()..]
                .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        });
        if !known {
            return Err(format!("`boardlab {sub}` has no option {flag}"));
        }
    }
    Ok(())
}

/// Runs every example of one page; returns how many commands ran.
fn run_page(page: &str) -> usize {
    let text = std::fs::read_to_string(root().join(page)).unwrap();
    let parsed = parse(&text);
    let mut failures = Vec::new();
    let mut ran = 0;
    let slug: String = page
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    for block in &parsed.blocks {
        if let Some(reason) = &block.not_run {
            assert!(!reason.is_empty(), "{page}:{}: say why", block.line);
            for (line, cmd) in &block.commands {
                let where_ = format!("{page}:{line}");
                if let Err(e) = check_flags(&where_, cmd) {
                    failures.push(format!("{where_}: {cmd}\n  {e}"));
                }
            }
            continue;
        }
        if block.commands.is_empty() {
            continue;
        }
        let d = dir(&format!("docs-{slug}-{}", block.line));
        for (name, content) in &parsed.files {
            std::fs::write(d.join(name), content).unwrap();
        }
        link_binary(&d);
        let mut block_ok = true;
        for (n, (line, cmd)) in block.commands.iter().enumerate() {
            let where_ = format!("{page}:{line}");
            let args = boardlab_args(&where_, cmd, false);
            copy_inputs(&where_, &args, &d);
            ran += 1;
            match run_one(&args, &d, n) {
                Ok(t) => eprintln!(
                    "{where_}: {:.2} s: boardlab {}",
                    t.as_secs_f64(),
                    args.join(" ")
                ),
                Err(e) => {
                    block_ok = false;
                    failures.push(format!("{where_}: {cmd}\n  {e}"));
                }
            }
        }
        if block_ok {
            let _ = std::fs::remove_dir_all(&d);
        }
    }
    assert!(
        failures.is_empty(),
        "{} example(s) of {page} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    ran
}

#[test]
fn docs_split_is_a_shell_split() {
    let w = split(r#"cargo run --release -- x --agents "a(b=1)" 'c d' e\ f # comment"#);
    let args: Vec<&str> = w
        .iter()
        .map(|w| match w {
            Word::Arg(a) => a.as_str(),
            Word::Operator(o) => o.as_str(),
        })
        .collect();
    assert_eq!(
        args,
        [
            "cargo",
            "run",
            "--release",
            "--",
            "x",
            "--agents",
            "a(b=1)",
            "c d",
            "e f"
        ]
    );
    assert_eq!(split("a | b")[1], Word::Operator("|".into()));
    let page = parse(
        "<!-- not run: long -->\n```sh\ncargo run --release -- tournament \\\n    --games 2\n```\n",
    );
    assert_eq!(page.blocks[0].not_run.as_deref(), Some("long"));
    assert_eq!(
        page.blocks[0].commands,
        [(3, "cargo run --release -- tournament --games 2".to_string())]
    );
}

/// The README is the front door: under 150 lines, with the two commands CI
/// and users rely on, exactly, in `sh` blocks; and its tour runs.
#[test]
fn docs_readme_examples_run() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        text.lines().count() < 150,
        "README.md has {} lines",
        text.lines().count()
    );
    let page = parse(&text);
    for must in [
        "cargo run --release -- tournament",
        "cargo test --workspace",
    ] {
        let in_sh = text
            .split("```sh\n")
            .skip(1)
            .any(|b| b.split("```").next().unwrap().lines().any(|l| l == must));
        assert!(in_sh, "README.md lacks the line `{must}` in an sh block");
    }
    assert!(
        page.blocks
            .iter()
            .any(|b| b.not_run.is_none() && b.commands.len() >= 5)
    );
    assert!(run_page("README.md") >= 5);
}

#[test]
fn docs_cli_examples_run() {
    assert!(run_page("docs/cli.md") >= 20);
}

#[test]
fn docs_games_examples_run() {
    assert!(run_page("docs/games.md") >= 5);
}

#[test]
fn docs_protocol_examples_run() {
    assert!(run_page("docs/protocol.md") >= 2);
}

#[test]
fn docs_results_format_examples_run() {
    assert!(run_page("docs/results-format.md") >= 1);
}

#[test]
fn docs_index_and_development_examples_run() {
    run_page("docs/README.md");
    run_page("docs/development.md");
    assert!(run_page("docs/statistics.md") >= 1);
    assert!(run_page("docs/studies.md") >= 3);
}

/// Every page of `docs/` is in `DOC_PAGES`, so none goes untested.
#[test]
fn docs_every_page_is_tested() {
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            let page = format!("docs/{name}");
            assert!(
                DOC_PAGES.contains(&page.as_str()),
                "{page} is not in DOC_PAGES"
            );
        }
    }
}
