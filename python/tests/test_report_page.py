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

from PIL import Image

from test_serve import ROOT, _browser, pixel_colours, png_colours, png_pixels, start_webdriver

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
    # Every plot cut from a few tall screenshots of the page (one element
    # screenshot a plot took 0.2 s each, 24 s for the report's 120).
    wd.s("/window/rect", {"width": 1100, "height": 6000})
    view = wd.js("return [window.innerWidth, window.innerHeight, window.devicePixelRatio]")
    boxes = wd.js("return [...document.querySelectorAll('figure.plot svg')].map(s => {"
                  " const r = s.getBoundingClientRect();"
                  " return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; })")
    todo = list(range(len(boxes)))
    while todo:
        wd.js("window.scrollTo(0, arguments[0])", max(0, int(boxes[todo[0]][1]) - 2))
        top = wd.js("return window.scrollY")
        shot = png_pixels(base64.b64decode(wd.s("/screenshot")))
        inside = [i for i in todo if boxes[i][1] >= top and boxes[i][1] + boxes[i][3] <= top + view[1]]
        assert inside, f"plot {todo[0]} ({boxes[todo[0]]}) is taller than the window {view}, scrolled to {top}"
        for i in inside:
            x, y, w, h = (round(v * view[2]) for v in (boxes[i][0], boxes[i][1] - top, boxes[i][2], boxes[i][3]))
            pixels = shot[y:y + h, x:x + w]
            if i < 3:
                Image.fromarray(pixels).save(shots / f"plot-{i}.png")
            colours, drawn = pixel_colours(pixels)
            assert colours >= 4 and drawn > 0.01, f"plot {i}: {colours} colours, {drawn:.1%} drawn: blank"
        todo = [i for i in todo if i not in inside]
    errors = [e for e in wd.console() if e.get("level") == "SEVERE"]
    assert not errors, errors
