//! `external(cmd="...",protocol=ugi,ms=1000,nodes=0,depth=0,margin=1000,
//! option.NAME=VALUE...)`: a program that speaks UGI (the game-agnostic UCI
//! of the cutegames match runner) or, with `protocol=uci`, UCI (chess
//! engines such as Stockfish), on its standard input and output, driven
//! move by move.
//!
//! The program is started at its first move of a game. With UGI: `ugi`
//! (answered by `ugiok`), `setoption name seed value S` (the agent's seed,
//! so that a boardlab engine behind it plays as the same agent would
//! in-process), then each `option.NAME=VALUE` as `setoption name NAME value
//! VALUE`, `uginewgame`, `isready` (answered by `readyok`). With UCI: `uci`
//! (answered by `uciok`), the options (no seed: UCI has none),
//! `ucinewgame`, `isready`. Each move is then one `position` line and one
//! `go`: `go depth D` if `depth` is set, else `go nodes N` if `nodes` is
//! set, else `go movetime MS`; the answer is the `bestmove M` line (`info`
//! lines before it are skipped, words after the move such as `ponder M2`
//! are ignored). At the end of the game the agent sends `quit` and stops
//! the program.
//!
//! The `position` line is `position fen <position text>` under UGI. Under
//! UCI it is `position fen <text> moves M1 M2 ...`: the text of the first
//! position the agent was asked about and every move since, so that the
//! program sees the game's history and can count repetitions as a chess
//! GUI lets it. The agent finds the opponent's move by trying each legal
//! move from the position after its own; where none leads to the position
//! asked about (a position set from outside), the history starts afresh.
//! UCI is chess's protocol: the position text must be FEN and the moves
//! long algebraic (`e2e4`, `e7e8q`, castling `e1g1`), which Royal Guard
//! writes (`royal_guard(royal_powers=false)` is FIDE chess).
//!
//! A program that exits or closes its output **crashes**, as does one that
//! answers the other protocol's greeting (`ugiok` to `uci`, `uciok` to
//! `ugi`); one that gives no `bestmove` within `ms + margin` milliseconds
//! (or no greeting/`readyok` within `ms + margin` plus 5 s at start)
//! **times out**, and one whose move does not parse or is not legal
//! **cheats**: [`Agent::try_select`] then returns a [`Forfeit`], and the
//! harness scores the game as lost by that seat.
//!
//! The program cannot exhaust boardlab's memory: a line longer than
//! [`MAX_LINE`] bytes counts as a crash, and at most [`MAX_QUEUED`] lines
//! wait unread (a program that writes more blocks on its full pipe, and
//! then times out).

use std::any::Any;
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
        name: "protocol",
        default: "ugi",
        values: "ugi|uci",
        help: "UGI (any game) or UCI (chess: FEN positions, long algebraic moves)",
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
    ParamInfo {
        name: "option.NAME",
        default: "",
        values: "text",
        help: "sent as `setoption name NAME value V` at start, in the order given (any number; e.g. option.UCI_Elo=1700; NAME goes in lower case, as UCI's names are case-insensitive)",
    },
];

/// The prefix of the arguments passed on as engine options.
const OPTION_PREFIX: &str = "option.";

/// The protocol an external program speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UGI: any game; `ugi`/`ugiok`, `uginewgame`, `position fen <text>`.
    Ugi,
    /// UCI: chess; `uci`/`uciok`, `ucinewgame`, `position fen <FEN> moves
    /// ...`.
    Uci,
}

impl Protocol {
    /// `ugi` or `uci`: the greeting sent, and the spelling in specs.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Ugi => "ugi",
            Protocol::Uci => "uci",
        }
    }

    /// The other protocol.
    fn other(self) -> Protocol {
        match self {
            Protocol::Ugi => Protocol::Uci,
            Protocol::Uci => Protocol::Ugi,
        }
    }
}

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
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// Milliseconds per move.
    pub ms: u64,
    /// `go nodes N` if > 0.
    pub nodes: u64,
    /// `go depth D` if > 0.
    pub depth: u32,
    /// Milliseconds of grace past `ms`.
    pub margin: u64,
    /// Engine options `(name, value)`, sent with `setoption` at start in
    /// this order.
    pub options: Vec<(String, String)>,
}

impl ExternalConfig {
    /// Reads an `external(...)` spec.
    ///
    /// # Errors
    /// A missing or empty `cmd`, a `cmd` that does not split (an unclosed
    /// quote) or holds a double quote, bad numbers, an unknown protocol, an
    /// option with an empty name or one given twice, or an option name or
    /// value holding a double quote or the word `value` (which would make
    /// the `setoption` line ambiguous).
    pub fn from_spec(spec: &Spec) -> Result<ExternalConfig, GameError> {
        let mut options: Vec<(String, String)> = Vec::new();
        let mut rest = spec.clone();
        rest.args.clear();
        for (k, v) in &spec.args {
            let Some(name) = k.strip_prefix(OPTION_PREFIX) else {
                rest.args.push((k.clone(), v.clone()));
                continue;
            };
            let value = v
                .strip_prefix('"')
                .and_then(|r| r.strip_suffix('"'))
                .unwrap_or(v);
            if name.trim().is_empty() {
                engine::bail!(
                    "agent external: {k}={v}: the option needs a name, e.g. option.UCI_Elo=1700"
                );
            }
            if name.contains('"') || value.contains('"') {
                engine::bail!("agent external: {k}={v}: an option may not hold a '\"' inside");
            }
            let has_value_word = |t: &str| t.split_whitespace().any(|w| w == "value");
            if has_value_word(name) || has_value_word(value) {
                engine::bail!(
                    "agent external: {k}={v}: the word `value` inside an option would make `setoption name N value V` ambiguous"
                );
            }
            if options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                engine::bail!("agent external: option {name:?} given twice");
            }
            options.push((name.to_string(), value.to_string()));
        }
        let p = Params::new("agent external", &rest, PARAMS)?;
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
        let protocol = p.choice(
            "protocol",
            &[("ugi", Protocol::Ugi), ("uci", Protocol::Uci)],
        )?;
        Ok(ExternalConfig {
            cmd: cmd.to_string(),
            argv,
            protocol,
            ms,
            nodes: p.parse("nodes")?,
            depth: p.parse("depth")?,
            margin: p.parse("margin")?,
            options,
        })
    }

    /// The canonical spec string: `protocol` only where it is `uci` (so
    /// that the specs of UGI runs made before it existed are unchanged),
    /// then the options in their order.
    pub fn canonical(&self) -> String {
        let protocol = match self.protocol {
            Protocol::Ugi => String::new(),
            Protocol::Uci => ",protocol=uci".to_string(),
        };
        let mut s = format!(
            "external(cmd=\"{}\"{protocol},ms={},nodes={},depth={},margin={}",
            self.cmd, self.ms, self.nodes, self.depth, self.margin
        );
        for (name, value) in &self.options {
            // Quoted where the spec syntax would otherwise split it.
            if value.contains([',', '(', ')', '[', ']', '=']) || value.trim() != value {
                s += &format!(",{OPTION_PREFIX}{name}=\"{value}\"");
            } else {
                s += &format!(",{OPTION_PREFIX}{name}={value}");
            }
        }
        s.push(')');
        s
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

/// The game so far, as a UCI `position` line gives it.
struct History {
    /// The text of the first position of the line.
    start: String,
    /// The moves since, in the game's notation.
    moves: Vec<String>,
    /// The state after this agent's last move (a `S`), from which the
    /// opponent's reply is found.
    after: Box<dyn Any + Send>,
}

/// An agent that asks an external UGI or UCI program for each move.
pub struct External {
    config: ExternalConfig,
    seed: u64,
    process: Option<Process>,
    /// Set once the program has forfeited: it is not asked again.
    failed: Option<Forfeit>,
    /// The game so far (UCI only).
    history: Option<History>,
}

impl External {
    /// An agent for `config`; the program starts at the first move.
    pub fn new(config: ExternalConfig, seed: u64) -> External {
        External {
            config,
            seed,
            process: None,
            failed: None,
            history: None,
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
    /// returns that line. A line starting with `wrong` (the other
    /// protocol's greeting) is a crash.
    fn wait_for(&mut self, word: &str, wrong: Option<&str>, ms: u64) -> Result<String, Forfeit> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let p = self.process.as_mut().expect("started");
            match p.lines.recv_timeout(left) {
                Ok(Output::Line(line)) => {
                    let first = line.split_whitespace().next();
                    if first == Some(word) {
                        return Ok(line);
                    }
                    if first.is_some() && first == wrong {
                        let ours = self.config.protocol;
                        return Err(self.crash(format!(
                            "answered {} instead of {word}: the program speaks {}, not {} (give protocol={})",
                            first.unwrap_or(""),
                            ours.other().name().to_uppercase(),
                            ours.name().to_uppercase(),
                            ours.other().name()
                        )));
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
        let proto = self.config.protocol;
        let (hello, ok) = (proto.name(), format!("{}ok", proto.name()));
        let wrong = format!("{}ok", proto.other().name());
        self.send(hello)?;
        self.wait_for(&ok, Some(&wrong), limit)?;
        if proto == Protocol::Ugi {
            self.send(&format!("setoption name seed value {}", self.seed))?;
        }
        for (name, value) in self.config.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send(&format!("{hello}newgame"))?;
        self.send("isready")?;
        self.wait_for("readyok", None, limit)?;
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

    /// The UCI `position` line for `state`: the history extended by the
    /// opponent's reply if one legal move from the position after our last
    /// move leads to `state`, else a fresh history from `state`.
    fn uci_position<S: State + 'static>(&mut self, state: &S) -> String {
        let text = state.to_text();
        let reply = self.history.as_ref().and_then(|h| {
            let after = h.after.downcast_ref::<S>()?;
            let mut moves = Vec::new();
            after.legal_moves(&mut moves);
            moves.into_iter().find_map(|m| {
                let mut next = after.clone();
                next.apply(m);
                (next.to_text() == text).then(|| after.move_to_text(m))
            })
        });
        match (reply, self.history.as_mut()) {
            (Some(m), Some(h)) => h.moves.push(m),
            _ => {
                self.history = Some(History {
                    start: text,
                    moves: Vec::new(),
                    after: Box::new(state.clone()),
                });
            }
        }
        let h = self.history.as_ref().expect("set above");
        if h.moves.is_empty() {
            format!("position fen {}", h.start)
        } else {
            format!("position fen {} moves {}", h.start, h.moves.join(" "))
        }
    }

    fn ask<S: State + 'static>(&mut self, state: &S) -> Result<S::Move, Forfeit> {
        if self.process.is_none() {
            self.start()?;
        }
        let position = match self.config.protocol {
            Protocol::Ugi => format!("position fen {}", state.to_text()),
            Protocol::Uci => self.uci_position(state),
        };
        self.send(&position)?;
        self.send(&self.config.go_line())?;
        let line = self.wait_for("bestmove", None, self.config.ms + self.config.margin)?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let mv = parse_legal_move(state, text).map_err(|e| Forfeit {
            kind: ForfeitKind::IllegalMove,
            detail: format!("bestmove {text:?}: {e}"),
        })?;
        if let Some(h) = self.history.as_mut() {
            let mut after = state.clone();
            after.apply(mv);
            h.moves.push(state.move_to_text(mv));
            h.after = Box::new(after);
        }
        Ok(mv)
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stop();
    }
}

impl<S: State + 'static> Agent<S> for External {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// An endless stream of `x` with no newline (a program that answers
    /// `go` with output and never ends the line), counting the bytes taken.
    struct Flood(Arc<AtomicUsize>);

    impl Read for Flood {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            buf.fill(b'x');
            self.0.fetch_add(buf.len(), Ordering::Relaxed);
            Ok(buf.len())
        }
    }

    #[test]
    fn an_endless_line_is_read_only_up_to_the_bound() {
        let taken = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = sync_channel(MAX_QUEUED);
        read_lines(Flood(Arc::clone(&taken)), &tx);
        assert!(matches!(rx.try_recv(), Ok(Output::Overlong)));
        // The reader stops after MAX_LINE + 2 bytes of the line, plus at
        // most one buffer of read-ahead (BufReader's 8 KiB).
        let n = taken.load(Ordering::Relaxed);
        assert!(n > MAX_LINE, "{n}");
        assert!(n <= MAX_LINE + 2 + 8 * 1024, "{n}");
    }

    #[test]
    fn lines_up_to_the_bound_pass_and_crlf_is_trimmed() {
        let exact = "y".repeat(MAX_LINE);
        let text = format!("bestmove a1\r\n{exact}\n{exact}z\nnever read\n");
        let (tx, rx) = sync_channel(MAX_QUEUED);
        read_lines(text.as_bytes(), &tx);
        let got: Vec<Option<String>> = rx
            .try_iter()
            .map(|o| match o {
                Output::Line(l) => Some(l),
                Output::Overlong => None,
            })
            .collect();
        assert_eq!(got, [Some("bestmove a1".to_string()), Some(exact), None]);
    }
}
