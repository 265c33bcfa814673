//! `boardlab serve`: a local web server for game designers. It plays any
//! game against any in-process agent or another person at the same screen,
//! replays records files, and shows reports with their plots, all over the
//! same library as the command line: the boards are the SVG pictures of
//! [`crate::output::svg`] (from `Research::board_picture`), the moves are
//! checked by the engine, illegal ones answered with
//! `Research::illegal_reason`.
//!
//! The server is synchronous ([`tiny_http`]: a small crate, no async
//! runtime), one thread per request so that a long search never blocks a
//! page. It is stateless: every request carries the game string, the start
//! position and the moves so far. The page, its script and style are
//! embedded in the binary (`assets/`), so nothing needs the network.
//!
//! Safety: it binds to 127.0.0.1 by default and, bound there, answers only
//! requests whose `Host` is the loopback address or `localhost` (a web page
//! elsewhere cannot reach it through DNS rebinding); it reads only files
//! under the folders given with `--root`; it never runs `external(...)`
//! agents (a command line a request could choose). A bad request gets an
//! HTTP 4xx status with a one-line message and never stops the server.
//!
//! The routes ([`answer`]; every `/api` answer is JSON):
//! * `/`, `/app.js`, `/style.css`: the page;
//! * `/api/games`: the games with their parameters, and the agents;
//! * `/api/position?game=&start=&moves=&seed=`: a position after moves
//!   (space-separated) from `start` (position text; the game's start for
//!   `seed` without it): its board, side to move, legal moves and the cells
//!   each names, or the result;
//! * `/api/move?...&agent=SPEC`: the agent's move there (or a chance
//!   outcome drawn from `seed`), with what its search thought;
//! * `/api/files`: the records files (`*.jsonl`) and reports (`*.md`)
//!   under the roots;
//! * `/api/records?path=`: a records file's games, one summary each;
//!   `/api/record?path=&line=`: one game's record;
//! * `/file?path=`: a file under the roots (plots, reports).

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use agents::AgentSpec;
use engine::{Game, GameVisitor, Research, State, ToMove, parse_move_explained, visit_game};

use crate::output::svg::{side_to_move, svg_of_position};
use crate::run::mix;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// The most games `/api/records` lists from one file, and the largest
/// records file it reads.
const MAX_RECORDS: usize = 5000;
const MAX_FILE_BYTES: u64 = 64 << 20;

/// An answer: HTTP status, content type and body.
#[derive(Clone, Debug)]
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// The `Content-Type` header.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.into(),
        }
    }

    fn json(v: &Value) -> Reply {
        Reply::ok("application/json", v.to_string())
    }

    /// A one-line error message with its status.
    pub fn error(status: u16, message: impl Into<String>) -> Reply {
        let mut m: String = message.into();
        m = m.replace('\n', " ");
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            body: m.into_bytes(),
        }
    }
}

/// An error with its HTTP status.
struct Fail(u16, String);

impl From<anyhow::Error> for Fail {
    fn from(e: anyhow::Error) -> Fail {
        Fail(400, e.to_string())
    }
}

fn bad(m: impl std::fmt::Display) -> Fail {
    Fail(400, m.to_string())
}

/// The folders files may be read from, canonical.
#[derive(Clone, Debug, Default)]
pub struct Roots {
    given: Vec<PathBuf>,
    canonical: Vec<PathBuf>,
}

impl Roots {
    /// The folders as given on the command line.
    ///
    /// # Errors
    /// A folder that does not exist.
    pub fn new(folders: &[PathBuf]) -> Result<Roots> {
        let mut canonical = Vec::new();
        for f in folders {
            let c = f
                .canonicalize()
                .map_err(|e| anyhow!("--root {}: {e}", f.display()))?;
            if !c.is_dir() {
                anyhow::bail!("--root {}: not a folder", f.display());
            }
            canonical.push(c);
        }
        Ok(Roots {
            given: folders.to_vec(),
            canonical,
        })
    }

    /// `path` if it is a file under one of the roots.
    fn check(&self, path: &str) -> Result<PathBuf, Fail> {
        if path.is_empty() {
            return Err(bad("give a file with path="));
        }
        let c = Path::new(path)
            .canonicalize()
            .map_err(|_| Fail(404, format!("no such file: {path}")))?;
        if !self.canonical.iter().any(|r| c.starts_with(r)) {
            let roots: Vec<String> = self.given.iter().map(|r| r.display().to_string()).collect();
            return Err(Fail(
                403,
                format!(
                    "{path} is outside the folders given with --root ({})",
                    if roots.is_empty() {
                        "none".to_string()
                    } else {
                        roots.join(", ")
                    }
                ),
            ));
        }
        if !c.is_file() {
            return Err(Fail(404, format!("not a file: {path}")));
        }
        Ok(c)
    }
}

/// The query's parameters, percent-decoded.
fn query(url: &str) -> Vec<(String, String)> {
    let Some((_, q)) = url.split_once('?') else {
        return Vec::new();
    };
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding, `+` as a space; invalid escapes are kept as written.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (hex(b[i + 1]), hex(b[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What a position request asked for.
struct At<'a> {
    start: Option<&'a str>,
    moves: Vec<&'a str>,
    seed: u64,
}

fn param<'a>(q: &'a [(String, String)], name: &str) -> Option<&'a str> {
    q.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn at(q: &[(String, String)]) -> Result<At<'_>, Fail> {
    let seed = match param(q, "seed") {
        None | Some("") => 1,
        Some(s) => s
            .parse()
            .map_err(|_| bad(format!("seed={s}: expected a whole number")))?,
    };
    Ok(At {
        start: param(q, "start").filter(|s| !s.trim().is_empty()),
        moves: param(q, "moves").unwrap_or("").split_whitespace().collect(),
        seed,
    })
}

/// The state after `at`: the start, then each move checked, an illegal one
/// answered with its reason. Returns the start's text too.
fn reach<G: Game>(game: &G, at: &At<'_>) -> Result<(G::State, String), Fail> {
    let mut s = match at.start {
        Some(t) => game
            .parse_position(t)
            .map_err(|e| bad(format!("start position: {e}")))?,
        None => game.initial_state(at.seed),
    };
    let start = s.to_text();
    for (i, m) in at.moves.iter().enumerate() {
        let mv = parse_move_explained(&s, m).map_err(|e| bad(format!("ply {}: {e}", i + 1)))?;
        s.apply(mv);
    }
    Ok((s, start))
}

/// `/api/position`.
struct PositionVisitor<'a> {
    at: At<'a>,
}

impl GameVisitor for PositionVisitor<'_> {
    type Output = Result<Value, Fail>;
    fn visit<G: Game>(self, game: G) -> Result<Value, Fail> {
        let (s, start) = reach(&game, &self.at)?;
        let name = game.game_string();
        let last = self.at.moves.last().copied();
        let pic = s.board_picture();
        let cells = |t: &str| -> Vec<String> {
            pic.as_ref()
                .map(|p| {
                    p.cells_in(t)
                        .iter()
                        .map(|&k| p.cells[k].name.clone())
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut legal = Vec::new();
        let (to_move, seat) = match s.to_move() {
            ToMove::Seat(k) => {
                let mut moves = Vec::new();
                s.legal_moves(&mut moves);
                legal = moves.iter().map(|&m| s.move_to_text(m)).collect();
                ("seat", Some(k))
            }
            ToMove::Chance => {
                let mut outs = Vec::new();
                s.chance_outcomes(&mut outs);
                legal = outs.iter().map(|&(m, _)| s.move_to_text(m)).collect();
                ("chance", None)
            }
            ToMove::Terminal => ("terminal", None),
        };
        let n = s.num_seats();
        let legal: Vec<Value> = legal
            .iter()
            .map(|t| json!({ "text": t, "cells": cells(t) }))
            .collect();
        let roles: Vec<String> = (0..n).map(|k| s.seat_role(k).to_string()).collect();
        Ok(json!({
            "game": name,
            "seats": n,
            "roles": roles,
            "start": start,
            "position": s.to_text(),
            "ply": s.ply(),
            "to_move": to_move,
            "seat": seat,
            "continues_turn": s.continues_turn(),
            "status": side_to_move(&s),
            "last": last,
            "svg": svg_of_position(&s, &name, last),
            "legal": legal,
            "returns": s.is_terminal().then(|| s.returns()[..n].to_vec()),
            "end": s.end_reason(),
            "text": s.to_string(),
        }))
    }
}

/// `/api/move`.
struct MoveVisitor<'a> {
    at: At<'a>,
    agent: Option<AgentSpec>,
}

impl GameVisitor for MoveVisitor<'_> {
    type Output = Result<Value, Fail>;
    fn visit<G: Game>(self, game: G) -> Result<Value, Fail> {
        let (s, _) = reach(&game, &self.at)?;
        let seed = mix(self.at.seed, 1000 + s.ply() as u64);
        match s.to_move() {
            ToMove::Terminal => Err(bad("the game is already over")),
            ToMove::Chance => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mv = s
                    .sample_chance(&mut rng, &mut Vec::new())
                    .expect("outcomes");
                Ok(json!({ "move": s.move_to_text(mv), "by": "chance" }))
            }
            ToMove::Seat(k) => {
                let spec = self
                    .agent
                    .ok_or_else(|| bad("give the agent that moves with agent="))?;
                let mut agent = spec.build::<G::State>(seed);
                let mut info = None;
                let mv = agent.select_reporting(&s, &mut |i| info = Some(i.clone()));
                let info = info.map(|i| {
                    json!({ "line": i.line(), "score": i.score, "units": i.score_units, "pv": i.pv })
                });
                Ok(json!({
                    "move": s.move_to_text(mv),
                    "by": format!("seat {k} ({})", spec.canonical()),
                    "info": info,
                }))
            }
        }
    }
}

/// The agent spec of a `/api/move` request: any in-process agent; `human`
/// and `external(...)` (which would run a command a request chose) are
/// refused.
fn agent_spec(text: Option<&str>, game: &str) -> Result<Option<AgentSpec>, Fail> {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let spec = AgentSpec::parse_in(text, game).map_err(|e| bad(e.to_string()))?;
    match spec {
        AgentSpec::Human => Err(bad("agent=human: a person moves on the page")),
        AgentSpec::External(_) => Err(Fail(
            403,
            "agent=external(...): serve runs in-process agents only (random, uct, mcts, alphabeta, solver)".into(),
        )),
        s => Ok(Some(s)),
    }
}

/// Every file under `dir` whose name ends in one of `ends`, up to `limit`,
/// four folders deep at most, in name order.
fn find_files(dir: &Path, ends: &[&str], depth: usize, limit: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if out.len() >= limit {
            return;
        }
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') {
            continue;
        }
        if p.is_dir() {
            if depth > 0 {
                find_files(&p, ends, depth - 1, limit, out);
            }
        } else if ends.iter().any(|e| name.ends_with(e)) {
            out.push(p);
        }
    }
}

fn files(roots: &Roots) -> Value {
    let (mut records, mut reports) = (Vec::new(), Vec::new());
    for r in &roots.given {
        find_files(r, &[".jsonl", ".jsonl.gz", ".csv.gz"], 4, 500, &mut records);
        find_files(r, &[".md"], 1, 100, &mut reports);
    }
    let text =
        |v: Vec<PathBuf>| -> Vec<String> { v.iter().map(|p| p.display().to_string()).collect() };
    let roots: Vec<String> = roots
        .given
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    json!({ "roots": roots, "records": text(records), "reports": text(reports) })
}

/// The games of a games file (`.csv.gz`, `.csv`) or records file
/// (`.jsonl`, `.jsonl.gz`), each with its line, as records.
fn games_of(path: &str, file: &Path) -> Result<Vec<(usize, Value)>, Fail> {
    let len = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    if len > MAX_FILE_BYTES {
        return Err(Fail(413, format!("{}: larger than 64 MiB", file.display())));
    }
    let recs =
        crate::run::records::read_records(file).map_err(|e| bad(format!("{path}: {e:#}")))?;
    recs.into_iter()
        .map(|(line, r)| {
            serde_json::to_value(&r)
                .map(|v| (line, v))
                .map_err(|e| bad(format!("{path} line {line}: {e}")))
        })
        .collect()
}

fn records(roots: &Roots, q: &[(String, String)]) -> Result<Value, Fail> {
    let path = param(q, "path").unwrap_or("");
    let file = roots.check(path)?;
    let games: Vec<Value> = games_of(path, &file)?
        .into_iter()
        .take(MAX_RECORDS)
        .map(|(line, v)| {
            json!({
                "line": line,
                "index": v["index"],
                "game": v["game"],
                "agents": v["agents"],
                "plies": v["plies"],
                "winners": v["winners"],
                "end": v["end"],
            })
        })
        .collect();
    Ok(json!({ "path": path, "games": games }))
}

fn record(roots: &Roots, q: &[(String, String)]) -> Result<Value, Fail> {
    let path = param(q, "path").unwrap_or("");
    let file = roots.check(path)?;
    let line: usize = param(q, "line")
        .unwrap_or("")
        .parse()
        .map_err(|_| bad("line=: expected a line number"))?;
    games_of(path, &file)?
        .into_iter()
        .find(|(l, _)| *l == line)
        .map(|(_, v)| v)
        .ok_or_else(|| Fail(404, format!("{path} has no game on line {line}")))
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "html" => "text/html; charset=utf-8",
        "json" => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

fn games() -> Value {
    let games: Vec<Value> = engine::registry::GAMES
        .iter()
        .map(|g| {
            let params: Vec<Value> = g
                .params
                .iter()
                .map(|p| json!({ "name": p.name, "default": p.default, "values": p.values, "help": p.help }))
                .collect();
            json!({ "name": g.name, "description": g.description, "params": params })
        })
        .collect();
    let agents: Vec<&str> = agents::AGENTS
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| *n != "external")
        .collect();
    json!({ "games": games, "agents": agents })
}

/// Answers one GET request for `url` (path and query), reading files only
/// under `roots`. Never panics on any input: a bad request is a 4xx
/// [`Reply`] with a one-line message.
pub fn answer(url: &str, roots: &Roots) -> Reply {
    let path = url.split('?').next().unwrap_or("");
    let q = query(url);
    let result: Result<Reply, Fail> = (|| match path {
        "/" | "/index.html" => Ok(Reply::ok("text/html; charset=utf-8", INDEX_HTML)),
        "/app.js" => Ok(Reply::ok("text/javascript; charset=utf-8", APP_JS)),
        "/style.css" => Ok(Reply::ok("text/css; charset=utf-8", STYLE_CSS)),
        "/favicon.ico" => Ok(Reply {
            status: 204,
            content_type: "image/x-icon",
            body: Vec::new(),
        }),
        "/api/games" => Ok(Reply::json(&games())),
        "/api/position" | "/api/move" => {
            let game = param(&q, "game").unwrap_or("");
            if game.is_empty() {
                return Err(bad("give a game string with game="));
            }
            let at = at(&q)?;
            let v = if path == "/api/position" {
                visit_game(game, PositionVisitor { at })
            } else {
                let agent = agent_spec(param(&q, "agent"), game)?;
                visit_game(game, MoveVisitor { at, agent })
            };
            Ok(Reply::json(&v.map_err(|e| bad(e.to_string()))??))
        }
        "/api/files" => Ok(Reply::json(&files(roots))),
        "/api/records" => Ok(Reply::json(&records(roots, &q)?)),
        "/api/record" => Ok(Reply::json(&record(roots, &q)?)),
        "/file" => {
            let file = roots.check(param(&q, "path").unwrap_or(""))?;
            let body = std::fs::read(&file)
                .map_err(|e| Fail(404, format!("cannot read {}: {e}", file.display())))?;
            Ok(Reply::ok(content_type(&file), body))
        }
        _ => Err(Fail(404, format!("no such page: {path}"))),
    })();
    result.unwrap_or_else(|Fail(status, m)| Reply::error(status, m))
}

/// What `boardlab serve` was asked for.
#[derive(Clone, Debug)]
pub struct ServeArgs {
    /// The address to bind (`127.0.0.1` by default).
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// The folders files may be read from.
    pub roots: Vec<PathBuf>,
}

/// Whether a request's `Host` header names this server on the loopback
/// (`127.0.0.1:P`, `localhost:P`, `[::1]:P`).
fn loopback_host(host: &str, port: u16) -> bool {
    let p = format!(":{port}");
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|h| host == format!("{h}{p}") || (port == 80 && host == *h))
}

/// Serves until the process is stopped. `ready` is called once with the
/// address when the server listens (the command prints it).
///
/// # Errors
/// A missing `--root` folder, or an address that cannot be bound.
pub fn serve(args: &ServeArgs, ready: &mut dyn FnMut(&str) -> Result<()>) -> Result<()> {
    let roots = std::sync::Arc::new(Roots::new(&args.roots)?);
    let server = tiny_http::Server::http((args.host.as_str(), args.port))
        .map_err(|e| anyhow!("cannot listen on {}:{}: {e}", args.host, args.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| anyhow!("not an IP address"))?;
    let loopback = addr.ip().is_loopback();
    ready(&format!("http://{addr}/"))?;
    for req in server.incoming_requests() {
        let roots = roots.clone();
        std::thread::spawn(move || {
            let host = req
                .headers()
                .iter()
                .find(|h| h.field.equiv("Host"))
                .map(|h| h.value.as_str().to_string())
                .unwrap_or_default();
            let reply = if loopback && !loopback_host(&host, addr.port()) {
                Reply::error(
                    403,
                    format!("Host {host:?}: this server answers only its loopback address"),
                )
            } else if *req.method() != tiny_http::Method::Get {
                Reply::error(
                    405,
                    format!("{} {}: only GET is served", req.method(), req.url()),
                )
            } else {
                // A panic in a search must not take the server down: answer 500.
                let url = req.url().to_string();
                std::panic::catch_unwind(|| answer(&url, &roots))
                    .unwrap_or_else(|_| Reply::error(500, format!("{url}: internal error")))
            };
            let header = tiny_http::Header::from_bytes("Content-Type", reply.content_type)
                .expect("a valid header");
            let response = tiny_http::Response::from_data(reply.body)
                .with_status_code(reply.status)
                .with_header(header);
            let _ = req.respond(response);
        });
    }
    Ok(())
}
