"""The committed `results/report.html` in a real browser: headless Chromium
opens the file offline, the console stays free of errors, the page opens
with the answers table (its first columns `game | verdict | first-mover
score [95 %] | agent | Elo`), and every plot is drawn: each inline SVG has
a size on the page and its screenshot shows many colours, not a blank fill.

Needs Debian's `chromium` and `chromium-driver` (`scripts/system-packages
chromium chromium-driver`; .ci/run installs them); without them the test
skips, saying so. With `BOARDLAB_SCREENSHOTS=DIR` the screenshots are kept."""

import base64
import os
import pathlib
import tempfile

import pytest

from test_serve import ROOT, _browser, png_colours, start_webdriver

# The committed page; another with BOARDLAB_REPORT_PAGE.
PAGE = pathlib.Path(os.environ.get("BOARDLAB_REPORT_PAGE", ROOT / "results" / "report.html"))


@pytest.fixture(scope="module")
def browser():
    wd, chromedriver = start_webdriver(*_browser())
    yield wd
    wd.quit()
    chromedriver.terminate()
    chromedriver.wait(10)


def test_the_report_page_opens_with_the_answers_and_draws_every_plot(browser):
    wd = browser
    assert PAGE.is_file(), "results/report.html is missing: boardlab report --results results"
    wd.go(PAGE.as_uri())
    wd.wait("return document.readyState === 'complete'", "the page to load")
    # The first section is the answers, its table the first of the page.
    first_h2 = wd.js("return document.querySelector('h2').textContent")
    assert first_h2 == "The answers", first_h2
    heads = wd.js("return [...document.querySelector('table').querySelectorAll('th')].map(t => t.textContent)")
    assert heads[:5] == ["game", "verdict", "first-mover score [95 %]", "agent", "Elo"], heads
    rows = wd.js("return document.querySelector('table').querySelectorAll('tbody tr').length")
    assert rows >= 1
    shots = pathlib.Path(os.environ.get("BOARDLAB_SCREENSHOTS", tempfile.mkdtemp(prefix="boardlab-report-")))
    shots.mkdir(parents=True, exist_ok=True)
    table = wd.find(css="table")
    png = wd.s(f"/element/{table}/screenshot")
    png = base64.b64decode(png)
    (shots / "answers.png").write_bytes(png)
    colours, drawn = png_colours(png)
    assert colours >= 8 and drawn > 0.05, f"answers table: {colours} colours, {drawn:.1%} drawn"
    # Every plot: inline, sized, drawn.
    plots = wd.js("return document.querySelectorAll('figure.plot svg').length")
    linked = PAGE.read_text().count('<figure class="plot">')
    assert plots == linked and plots > 0, (plots, linked)
    sizes = wd.js("return [...document.querySelectorAll('figure.plot svg')]"
                  ".map(s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; })")
    assert all(w > 100 and h > 100 for w, h in sizes), sizes
    for i in range(plots):
        wd.js("document.querySelectorAll('figure.plot svg')[arguments[0]].scrollIntoView()", i)
        svg = wd.s("/execute/sync", {"script": "return document.querySelectorAll('figure.plot svg')[arguments[0]]",
                                     "args": [i]})
        png = base64.b64decode(wd.s(f"/element/{next(iter(svg.values()))}/screenshot"))
        if i < 3:
            (shots / f"plot-{i}.png").write_bytes(png)
        colours, drawn = png_colours(png)
        assert colours >= 4 and drawn > 0.01, f"plot {i}: {colours} colours, {drawn:.1%} drawn: blank"
    errors = [e for e in wd.console() if e.get("level") == "SEVERE"]
    assert not errors, errors
