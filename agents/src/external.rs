//! `external(cmd="...",ms=1000,nodes=0,depth=0,margin=1000)`: a program
//! that speaks UGI (the game-agnostic UCI of the cutegames match runner)
//! on its standard input and output, driven move by move.
//!
//! The program is started at its first move of a game: `ugi` (answered by
//! `ugiok`), `setoption name seed value S` (the agent's seed, so that a
//! boardlab engine behind it plays as the same agent would in-process),
//! `uginewgame`, `isready` (answered by `readyok`). Each move is then
//! `position fen <the position text>` and one `go`: `go depth D` if `depth`
//! is set, else `go nodes N` if `nodes` is set, else `go movetime MS`; the
//! answer is the `bestmove M` line, `info` lines before it are skipped. At
//! the end of the game the agent sends `quit` and stops the program.
//!
//! A program that exits or closes its output **crashes**, one that gives no
//! `bestmove` within `ms + margin` milliseconds (or no `ugiok`/`readyok`
//! within `ms + margin` plus 5 s at start) **times out**, and one whose
//! move does not parse or is not legal **cheats**: [`Agent::try_select`]
//! then returns a [`Forfeit`], and the harness scores the game as lost by
//! that seat.
//!
//! The program cannot exhaust boardlab's memory: a line longer than
//! [`MAX_LINE`] bytes counts as a crash, and at most [`MAX_QUEUED`] lines
//! wait unread (a program that writes more blocks on its full pipe, and
//! then times out).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use engine::spec::{ParamInfo, Params, Spec};
use engine::{GameError, State, parse_legal_move};

use crate::{Agent, Forfeit, ForfeitKind};

/// Parameters of `external(...)`.
pub const PARAMS: &[ParamInfo] = &[
    ParamInfo {
        name: "cmd",
        default: "",
        values: "\"program args...\"",
        help: "the command line (split like a shell would, no shell run); required",
    },
    ParamInfo {
        name: "ms",
        default: "1000",
        values: "integer >= 1",
        help: "milliseconds per move: `go movetime ms`, and the time limit with margin",
    },
    ParamInfo {
        name: "nodes",
        default: "0",
        values: "integer >= 0",
        help: "if > 0, send `go nodes N` instead of `go movetime`",
    },
    ParamInfo {
        name: "depth",
        default: "0",
        values: "integer >= 0",
        help: "if > 0, send `go depth D` instead (before nodes)",
    },
    ParamInfo {
        name: "margin",
        default: "1000",
        values: "integer >= 0",
        help: "milliseconds allowed past ms before the program loses on time",
    },
];

/// Extra time to start a program and answer `ugi` and `isready`.
const STARTUP_MS: u64 = 5000;

/// The longest line, in bytes without its newline, read from a program; a
/// longer one forfeits the game as a crash.
pub const MAX_LINE: usize = 64 * 1024;

/// Lines read ahead of the agent at most (so at most about
/// `MAX_QUEUED * MAX_LINE` bytes are held per program).
pub const MAX_QUEUED: usize = 256;

/// What the reader thread passes on: a line, or the news that the program
/// wrote a line longer than [`MAX_LINE`] (after which it reads no more).
enum Output {
    Line(String),
    Overlong,
}

/// Reads `stdout` line by line into `tx` with both bounds; ends at the end
/// of the output, a read error, an overlong line or a dropped receiver.
fn read_lines<R: Read>(stdout: R, tx: &std::sync::mpsc::SyncSender<Output>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Room for MAX_LINE bytes and a "\r\n": a read that fills it with a
        // longer line stops there, so the rest is never read.
        let limit = (MAX_LINE + 2) as u64;
        let n = match (&mut reader).take(limit).read_until(b'\n', &mut buf) {
            Ok(n) => n,
            Err(_) => return,
        };
        if n == 0 {
            return;
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        if buf.len() > MAX_LINE {
            let _ = tx.send(Output::Overlong);
            return;
        }
        let line = String::from_utf8_lossy(&buf).into_owned();
        if tx.send(Output::Line(line)).is_err() {
            return;
        }
    }
}

/// Configuration of [`External`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalConfig {
    /// The command line, as given (without the quotes).
    pub cmd: String,
    /// The program and its arguments, split like a shell would.
    pub argv: Vec<String>,
    /// Milliseconds per move.
    pub ms: u64,
    /// `go nodes N` if > 0.
    pub nodes: u64,
    /// `go depth D` if > 0.
    pub depth: u32,
    /// Milliseconds of grace past `ms`.
    pub margin: u64,
}

impl ExternalConfig {
    /// Reads an `external(...)` spec.
    ///
    /// # Errors
    /// A missing or empty `cmd`, a `cmd` that does not split (an unclosed
    /// quote) or holds a double quote, bad numbers.
    pub fn from_spec(spec: &Spec) -> Result<ExternalConfig, GameError> {
        let p = Params::new("agent external", spec, PARAMS)?;
        let raw = p.text("cmd").trim();
        let cmd = raw
            .strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .unwrap_or(raw);
        if cmd.contains('"') {
            engine::bail!(
                "agent external: cmd={raw} holds a '\"' inside; quote arguments with single quotes"
            );
        }
        let argv = shell_words::split(cmd)
            .map_err(|e| GameError::new(format!("agent external: cmd={raw}: {e}")))?;
        if argv.is_empty() {
            engine::bail!(
                "agent external: cmd is required, e.g. external(cmd=\"./my-engine --fast\",ms=500)"
            );
        }
        let ms: u64 = p.parse("ms")?;
        if ms == 0 {
            engine::bail!("agent external: ms=0 is not valid (expected integer >= 1)");
        }
        Ok(ExternalConfig {
            cmd: cmd.to_string(),
            argv,
            ms,
            nodes: p.parse("nodes")?,
            depth: p.parse("depth")?,
            margin: p.parse("margin")?,
        })
    }

    /// The canonical spec string.
    pub fn canonical(&self) -> String {
        format!(
            "external(cmd=\"{}\",ms={},nodes={},depth={},margin={})",
            self.cmd, self.ms, self.nodes, self.depth, self.margin
        )
    }

    /// The `go` line sent for each move.
    pub fn go_line(&self) -> String {
        if self.depth > 0 {
            format!("go depth {}", self.depth)
        } else if self.nodes > 0 {
            format!("go nodes {}", self.nodes)
        } else {
            format!("go movetime {}", self.ms)
        }
    }
}

/// A running program.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
}

/// An agent that asks an external UGI program for each move.
pub struct External {
    config: ExternalConfig,
    seed: u64,
    process: Option<Process>,
    /// Set once the program has forfeited: it is not asked again.
    failed: Option<Forfeit>,
}

impl External {
    /// An agent for `config`; the program starts at the first move.
    pub fn new(config: ExternalConfig, seed: u64) -> External {
        External {
            config,
            seed,
            process: None,
            failed: None,
        }
    }

    fn crash(&mut self, detail: String) -> Forfeit {
        self.stop();
        Forfeit {
            kind: ForfeitKind::Crash,
            detail,
        }
    }

    fn timeout(&mut self, waiting_for: &str, ms: u64) -> Forfeit {
        self.stop();
        Forfeit {
            kind: ForfeitKind::Timeout,
            detail: format!("no {waiting_for} within {ms} ms"),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        let p = self.process.as_mut().expect("started");
        let r = writeln!(p.stdin, "{line}").and_then(|()| p.stdin.flush());
        r.map_err(|e| self.crash(format!("cannot write {line:?}: {e}")))
    }

    /// Reads lines until one starts with the word `word`, within `ms`;
    /// returns that line.
    fn wait_for(&mut self, word: &str, ms: u64) -> Result<String, Forfeit> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let p = self.process.as_mut().expect("started");
            match p.lines.recv_timeout(left) {
                Ok(Output::Line(line)) => {
                    if line.split_whitespace().next() == Some(word) {
                        return Ok(line);
                    }
                }
                Ok(Output::Overlong) => {
                    return Err(
                        self.crash(format!("a line longer than {MAX_LINE} bytes before {word}"))
                    );
                }
                Err(RecvTimeoutError::Timeout) => return Err(self.timeout(word, ms)),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = p
                        .child
                        .wait()
                        .map(|s| s.to_string())
                        .unwrap_or_else(|e| e.to_string());
                    return Err(self.crash(format!(
                        "the program closed its output before {word} ({status})"
                    )));
                }
            }
        }
    }

    fn start(&mut self) -> Result<(), Forfeit> {
        let mut child = Command::new(&self.config.argv[0])
            .args(&self.config.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Forfeit {
                kind: ForfeitKind::Crash,
                detail: format!("cannot start {:?}: {e}", self.config.argv[0]),
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = sync_channel(MAX_QUEUED);
        std::thread::spawn(move || read_lines(stdout, &tx));
        self.process = Some(Process {
            child,
            stdin,
            lines: rx,
        });
        let limit = STARTUP_MS + self.config.ms + self.config.margin;
        self.send("ugi")?;
        self.wait_for("ugiok", limit)?;
        self.send(&format!("setoption name seed value {}", self.seed))?;
        self.send("uginewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", limit)?;
        Ok(())
    }

    /// Sends `quit` and stops the program (killing it if it lingers).
    fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = writeln!(p.stdin, "quit").and_then(|()| p.stdin.flush());
            drop(p.stdin);
            let until = Instant::now() + Duration::from_millis(100);
            while Instant::now() < until {
                if let Ok(Some(_)) = p.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }

    fn ask<S: State>(&mut self, state: &S) -> Result<S::Move, Forfeit> {
        if self.process.is_none() {
            self.start()?;
        }
        self.send(&format!("position fen {}", state.to_text()))?;
        self.send(&self.config.go_line())?;
        let line = self.wait_for("bestmove", self.config.ms + self.config.margin)?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        parse_legal_move(state, text).map_err(|e| Forfeit {
            kind: ForfeitKind::IllegalMove,
            detail: format!("bestmove {text:?}: {e}"),
        })
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stop();
    }
}

impl<S: State> Agent<S> for External {
    /// Falls back to the first legal move (with a warning on standard
    /// error) where the program forfeits; the harness uses
    /// [`Agent::try_select`] and scores the forfeit instead.
    fn select(&mut self, state: &S) -> S::Move {
        match self.try_select(state) {
            Ok(mv) => mv,
            Err(f) => {
                eprintln!(
                    "warning: {} ({}); playing the first legal move",
                    f.end_reason(),
                    f.detail
                );
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                moves[0]
            }
        }
    }

    fn try_select(&mut self, state: &S) -> Result<S::Move, Forfeit> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        let r = self.ask(state);
        if let Err(f) = &r {
            self.failed = Some(f.clone());
            self.stop();
        }
        r
    }

    fn spec(&self) -> String {
        self.config.canonical()
    }
}
