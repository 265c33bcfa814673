"""`boardlab serve` in a real browser: headless Chromium, driven through
chromedriver's WebDriver protocol (plain HTTP and JSON from the standard
library; Pillow, from python/requirements.txt, decodes the screenshots), plays a Catapult game against `random` by
clicking, finishes a game, opens a replay and steps through it, opens the
report; each step's screenshot must show a drawn page (many colours, not
one blank fill), and the browser console must stay free of errors.

Needs Debian's `chromium` and `chromium-driver` (`scripts/system-packages
chromium chromium-driver`; .ci/run installs them) and the `boardlab`
binary (`$BOARDLAB_CLI`, else under the target folder); without them the
test skips, saying so. With `BOARDLAB_SCREENSHOTS=DIR` the screenshots are
kept in DIR (docs/serve/ holds the committed ones)."""

import base64
import io
import json
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import numpy as np
import pytest
from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _cli():
    given = os.environ.get("BOARDLAB_CLI")
    if given and os.access(given, os.X_OK):
        return given
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ["release", "debug"]:
        path = target / profile / "boardlab"
        if os.access(path, os.X_OK):
            return str(path)
    pytest.skip("no boardlab binary: cargo build (or set BOARDLAB_CLI)")


def _browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.skip("needs chromium and chromedriver: scripts/system-packages chromium chromium-driver")
    return chromium, driver


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """The few WebDriver commands the test needs (W3C protocol)."""

    def __init__(self, url):
        self.url = url
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.loads(r.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise AssertionError(f"webdriver {method} {path}: {e.read()[:500]!r}") from None

    def start(self, chromium):
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1100,860", "--hide-scrollbars"],
            },
            "goog:loggingPrefs": {"browser": "ALL"},
        }}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def s(self, path, body=None, method=None):
        return self.call(method or ("GET" if body is None else "POST"), f"/session/{self.session}{path}", body)

    def go(self, url):
        self.s("/url", {"url": url})

    def js(self, script, *args):
        return self.s("/execute/sync", {"script": script, "args": list(args)})

    def find(self, css=None, xpath=None):
        using, value = ("css selector", css) if css else ("xpath", xpath)
        el = self.s("/element", {"using": using, "value": value})
        return next(iter(el.values()))

    def click(self, **how):
        self.s(f"/element/{self.find(**how)}/click", {})

    def wait(self, script, what, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            if self.js(script):
                return
            time.sleep(0.1)
        raise AssertionError(f"waited {timeout} s for {what}; page says: "
                             + str(self.js("return document.getElementById('message').textContent")))

    def screenshot(self):
        return base64.b64decode(self.s("/screenshot"))

    def console(self):
        try:
            return self.s("/se/log", {"type": "browser"})
        except AssertionError:
            return []

    def quit(self):
        if self.session:
            try:
                self.s("", method="DELETE")
            except Exception:
                pass


def start_webdriver(chromium, driver):
    """chromedriver on a free port and a headless Chromium session in it."""
    port = _free_port()
    chromedriver = subprocess.Popen([driver, f"--port={port}"], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
    wd = WebDriver(f"http://127.0.0.1:{port}")
    for _ in range(100):
        try:
            wd.call("GET", "/status")
            break
        except (OSError, AssertionError):
            time.sleep(0.1)
    wd.start(chromium)
    return wd, chromedriver


def png_colours(png):
    """The number of distinct colours of a PNG screenshot, and the share of
    pixels that are not its most common colour (every fourth pixel of each
    row). Pillow decodes it: a pure-Python decoder spent a third of a
    second on each of the report's plots."""
    return pixel_colours(png_pixels(png))


def png_pixels(png):
    """A PNG's pixels, rows by columns by RGB."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def pixel_colours(pixels):
    """`png_colours` of pixels already decoded (rows by columns by RGB)."""
    _, counts = np.unique(pixels[:, ::4].reshape(-1, 3), axis=0, return_counts=True)
    return len(counts), 1 - counts.max() / counts.sum()


@pytest.fixture(scope="module")
def site():
    cli = _cli()
    chromium, driver = _browser()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="boardlab-serve-"))
    runs = tmp / "runs"
    runs.mkdir()
    # A games file and a report with its plots to open.
    subprocess.run([cli, "balance", "--game", "catapult", "--agent", "random", "--games", "4",
                    "--no-baseline", "--out", str(runs / "balance.csv"), "--quiet"],
                   check=True, capture_output=True)
    subprocess.run([cli, "report", "--results", str(runs)], check=True, capture_output=True)
    server = subprocess.Popen([cli, "serve", "--port", "0", "--root", str(runs)],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    assert line.startswith("serving http://127.0.0.1:"), line
    url = line.split()[1]
    wd, chromedriver = start_webdriver(chromium, driver)
    shots = pathlib.Path(os.environ.get("BOARDLAB_SCREENSHOTS", tmp / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    yield wd, url, runs, shots
    wd.quit()
    chromedriver.terminate()
    server.terminate()
    chromedriver.wait(10)
    server.wait(10)
    shutil.rmtree(tmp, ignore_errors=True)


def shot(wd, shots, name):
    png = wd.screenshot()
    (shots / f"{name}.png").write_bytes(png)
    colours, drawn = png_colours(png)
    assert colours >= 8 and drawn > 0.05, f"{name}: {colours} colours, {drawn:.1%} drawn: a blank page"


def cell(name):
    return f"//*[contains(@class,'cell')][*[local-name()='title' and text()='{name}']]"


def test_a_designer_plays_replays_and_reads_the_report(site):
    wd, url, runs, shots = site
    started = time.time()
    # Play Catapult against random: seat 0 is the person, seat 1 random.
    wd.go(url + "#play")
    wd.wait("return document.querySelector('#board svg') !== null", "the board")
    assert "catapult(size=8" in wd.js("return document.querySelector('#board svg title').textContent")
    # Click the piece on b1: its targets light up; click b2 to move there.
    wd.click(xpath=cell("b1"))
    targets = wd.js("return [...document.querySelectorAll('#board .cell.target title')].map(t => t.textContent)")
    assert sorted(targets) == ["b2", "c1"], targets
    shot(wd, shots, "play-select")
    wd.click(xpath=cell("b2"))
    # random replies: two plies in the log, the person to move again.
    wd.wait("return document.querySelectorAll('#log li').length === 2 && "
            "document.getElementById('status').textContent.startsWith('seat 0')", "random's reply")
    assert wd.js("return document.querySelector('#log li').textContent").startswith("b1-b2")
    shot(wd, shots, "play-reply")
    # Finish a game from a position: Light a1 takes Dark's last piece on b2 (C-E1).
    wd.js("document.getElementById('start-pos').value = '8/8/8/8/8/8/1D6/L7 L - 0'")
    wd.click(css="#new-game")
    wd.wait("return document.getElementById('status').textContent.startsWith('seat 0') && "
            "document.querySelectorAll('#log li').length === 0", "the new game")
    wd.click(xpath=cell("a1"))
    wd.click(xpath=cell("b2"))
    wd.wait("return document.getElementById('status').textContent.startsWith('game over')", "the end")
    assert "seat 0 (light) wins (annihilation)" in wd.js("return document.getElementById('status').textContent")
    shot(wd, shots, "play-end")
    # Replay a game of the records file, step by step.
    wd.go(url + "#replay")
    wd.wait("return document.getElementById('records-path').value.endsWith('.csv.gz')", "the games file")
    wd.click(css="#open-records")
    wd.wait("return document.querySelectorAll('#games tr[data-line]').length === 4", "the games")
    wd.wait("return document.getElementById('replay-ply').textContent.startsWith('ply 0 of')", "ply 0")
    for _ in range(3):
        wd.click(css="#forward")
        time.sleep(0.15)
    wd.wait("return document.getElementById('replay-ply').textContent.startsWith('ply 3 of')", "ply 3")
    wd.click(css="#last")
    wd.wait("return document.getElementById('replay-status').textContent.startsWith('game over')", "the last ply")
    shot(wd, shots, "replay")
    # The report with its plots.
    wd.go(url + "#report")
    wd.wait("return document.getElementById('report-path').value.endsWith('REPORT.md')", "the report")
    wd.click(css="#open-report")
    wd.wait("return document.querySelector('#report-body h1') !== null", "the report's text")
    wd.wait("return [...document.querySelectorAll('#report-body img')].some(i => i.complete && i.naturalWidth > 0)",
            "a plot")
    shot(wd, shots, "report")
    # No console errors, no script errors.
    errors = [e for e in wd.console() if e.get("level") == "SEVERE"]
    assert errors == [], errors
    assert wd.js("return window.boardlabErrors") == []
    # Last, a typed illegal move is answered with its reason (its HTTP 400
    # shows in the console, so after the check above). A new page load:
    wd.go(url + "?game=catapult#play")
    wd.wait("return document.querySelector('#board svg') !== null", "the board")
    wd.js("document.getElementById('move-text').value = 'a1-a2'")
    wd.click(css="#play-move")
    wd.wait("return document.getElementById('message').textContent.includes('no piece on a1')", "the reason")
    print(f"browser steps: {time.time() - started:.1f} s")
