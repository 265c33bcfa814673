//! `boardlab serve`: the routes answered directly (`serve::answer`), and
//! the real server on a free port, which answers bad requests with a 4xx
//! and one line and keeps serving. The page itself is driven in a real
//! browser by `python/tests/test_serve.py`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;

use experiments::serve::{Reply, Roots, ServeArgs, answer, serve};

use crate::common::dir;

fn json(r: &Reply) -> serde_json::Value {
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    serde_json::from_slice(&r.body).unwrap()
}

fn text(r: &Reply) -> String {
    String::from_utf8(r.body.clone()).unwrap()
}

/// A folder with one records file, and the roots that allow it.
fn roots(name: &str) -> (PathBuf, Roots) {
    let d = dir(name);
    let rec = r#"{"boardlab":"0.1.0","game":"catapult","index":0,"seed":1,"start":"2D1D1D1/3D1D1D/L3D1D1/1L3D1D/L1L3D1/1L1L3D/L1L1L3/1L1L1L2 L - 0","agents":["random","random"],"moves":["b1-b2","h3-h2"],"plies":2,"turns":2,"winners":[],"returns":[0.0,0.0],"end":null}"#;
    std::fs::write(d.join("games.jsonl"), format!("{rec}\n")).unwrap();
    std::fs::write(d.join("REPORT.md"), "# Report\n").unwrap();
    let roots = Roots::new(std::slice::from_ref(&d)).unwrap();
    (d, roots)
}

/// A position: its board (the SVG with the game string as title, the side
/// to move and the last move), its legal moves with the cells each names,
/// and an agent's move; the page and its script are embedded.
#[test]
fn positions_moves_and_the_page() {
    let (_, roots) = roots("serve-page");
    let page = answer("/", &roots);
    assert_eq!(page.status, 200);
    assert!(text(&page).contains("<script src=\"/app.js\">"));
    assert!(text(&answer("/app.js", &roots)).contains("onBoardClick"));
    let v = json(&answer("/api/position?game=catapult&moves=b1-b2", &roots));
    assert_eq!(v["status"], "seat 1 (dark) to move");
    assert_eq!(v["legal"].as_array().unwrap().len(), 30);
    let svg = v["svg"].as_str().unwrap();
    assert!(svg.contains("<title>catapult(size=8,royal=false"), "{svg}");
    assert!(
        svg.contains("seat 1 (dark) to move; last move: b1-b2"),
        "{svg}"
    );
    assert_eq!(
        svg.matches("class=\"marked\"").count(),
        2,
        "b1 and b2 outlined"
    );
    let first = &v["legal"][0];
    assert_eq!(
        first["cells"].as_array().unwrap().len(),
        2,
        "a Catapult move names its two squares: {first}"
    );
    // `+` and %-escapes decode; a chance game's outcomes are drawn.
    let v = json(&answer(
        "/api/position?game=pie%28catapult%29&moves=b1-b2+swap",
        &roots,
    ));
    assert_eq!(v["ply"], 2);
    let m = json(&answer(
        "/api/move?game=catapult&agent=random&seed=3",
        &roots,
    ));
    assert!(m["move"].as_str().unwrap().contains('-'), "{m}");
    let m = json(&answer("/api/move?game=spinner", &roots));
    assert_eq!(m["by"], "chance");
    let v = json(&answer("/api/games", &roots));
    assert_eq!(v["games"].as_array().unwrap().len(), 13);
    assert!(!v["agents"].as_array().unwrap().contains(&"external".into()));
}

/// Bad requests: a 4xx status and the one-line message, for an unknown
/// game, a malformed position, an illegal move (with its reason), an
/// unknown or external agent, a file outside the roots, a missing file, an
/// unknown page.
#[test]
fn bad_requests_get_a_4xx_and_one_line() {
    let (d, roots) = roots("serve-bad");
    let cases = [
        ("/api/position?game=nope", 400, "unknown game \"nope\""),
        ("/api/position", 400, "give a game string with game="),
        (
            "/api/position?game=catapult&start=zz",
            400,
            "start position:",
        ),
        (
            "/api/position?game=catapult&moves=a1-a2",
            400,
            "ply 1: move \"a1-a2\" is not legal here: no piece on a1",
        ),
        (
            "/api/position?game=catapult&seed=x",
            400,
            "seed=x: expected a whole number",
        ),
        (
            "/api/move?game=catapult&agent=mcts(c=zz)",
            400,
            "c=\"zz\" is not valid",
        ),
        (
            "/api/move?game=catapult&agent=external(cmd=ls)",
            403,
            "in-process agents only",
        ),
        (
            "/api/move?game=catapult&agent=human",
            400,
            "a person moves on the page",
        ),
        ("/api/move?game=catapult", 400, "give the agent"),
        (
            "/file?path=/etc/passwd",
            403,
            "outside the folders given with --root",
        ),
        (
            "/file?path=Cargo.toml",
            403,
            "outside the folders given with --root",
        ),
        (
            "/api/records?path=%2Fnowhere%2Fx.jsonl",
            404,
            "no such file",
        ),
        ("/api/record?path=PATH&line=9", 404, "has no game on line 9"),
        (
            "/api/record?path=PATH&line=x",
            400,
            "expected a line number",
        ),
        ("/nope", 404, "no such page: /nope"),
        ("/file?path=%ZZ%", 404, "no such file"),
    ];
    let path = d.join("games.jsonl").display().to_string();
    for (url, status, needle) in cases {
        let url = url.replace("PATH", &path);
        let r = answer(&url, &roots);
        let t = text(&r);
        assert_eq!(r.status, status, "{url}: {t}");
        assert!(t.contains(needle), "{url}: {t}");
        assert!(!t.contains('\n'), "{url}: one line: {t}");
    }
    // Inside the roots: the records, one record, a file.
    let v = json(&answer(&format!("/api/records?path={path}"), &roots));
    assert_eq!(v["games"][0]["line"], 1);
    let v = json(&answer(&format!("/api/record?path={path}&line=1"), &roots));
    assert_eq!(v["moves"][1], "h3-h2");
    let v = json(&answer("/api/files", &roots));
    assert_eq!(v["records"].as_array().unwrap().len(), 1, "{v}");
    let f = answer(
        &format!("/file?path={}", d.join("REPORT.md").display()),
        &roots,
    );
    assert_eq!(text(&f), "# Report\n");
}

/// One HTTP request to `addr`; the status line and the body.
fn get(addr: &str, path: &str, host: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out.lines().next().unwrap_or("").to_string();
    let body = out.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

/// The real server: bad requests (and a foreign `Host`, the DNS-rebinding
/// guard) get 4xx answers and it keeps serving; a missing root is an error
/// before it listens.
#[test]
fn the_server_keeps_serving_after_bad_requests() {
    let (d, _) = roots("serve-real");
    let (tx, rx) = std::sync::mpsc::channel();
    let args = ServeArgs {
        host: "127.0.0.1".into(),
        port: 0,
        roots: vec![d],
    };
    std::thread::spawn(move || {
        let _ = serve(&args, &mut |a| {
            tx.send(a.to_string()).unwrap();
            Ok(())
        });
    });
    let url = rx.recv().unwrap();
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let host = addr.clone();
    for bad in [
        "/api/position?game=nope",
        "/api/position?game=catapult&moves=a1-a2",
        "/file?path=/etc/passwd",
        "/%%%",
    ] {
        let (status, body) = get(&addr, bad, &host);
        assert!(status.contains(" 40"), "{bad}: {status} {body}");
    }
    let (status, body) = get(&addr, "/api/games", "evil.example:80");
    assert!(status.contains(" 403"), "{status} {body}");
    let (status, body) = get(&addr, "/api/position?game=catapult", &host);
    assert!(status.contains(" 200"), "{status}");
    assert!(body.contains("\"legal\""));
    let e = serve(
        &ServeArgs {
            host: "127.0.0.1".into(),
            port: 0,
            roots: vec!["/no/such/folder".into()],
        },
        &mut |_| Ok(()),
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("--root /no/such/folder:"), "{e}");
}
