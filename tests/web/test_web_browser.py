"""The analysis board in a real browser: headless Chromium (Debian's ``chromium``, driven by
Playwright, never ``playwright install``).  One test plays a whole short deal by clicking,
asks for the hint and an analysis (checked against ``onirim best --json`` on the same
position), pastes a bad position and sees the command line's one-line error, and saves the
screenshot of docs/WEB.md (``ONIRIM_WEB_SCREENSHOT=docs/web-board.png`` writes it there).
Without a browser it skips, saying what to install."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from paths import ROOT
from web_kit import without_time as _without_time

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]     # a container's small /dev/shm must not crash it
SEED = 354            # a short deal: 32 decisions, 5 of them prophecies, as _move plays
ANALYSED = 6          # the decision analysed (a play with 6 moves, 59 cards in the deck)
NODES = "2000"        # the analysis' node budget (tiny: the ranking is compared, not its quality)
BAD = "mode=solo phase=play hand=Os"


def _browser_problem() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no playwright: pip install -e '.[test]'"
    if not os.access(CHROMIUM, os.X_OK):
        return ("no browser: the browser tests need Debian's chromium (as root: make browser, "
                "which runs apt-get install -y chromium)")
    return None


pytestmark = pytest.mark.skipif(_browser_problem() is not None,
                                reason=_browser_problem() or "")


def cli(*args):
    p = subprocess.run([sys.executable, "-m", "onirim", *args], capture_output=True, text=True,
                       cwd=ROOT, timeout=300)
    return p.returncode, p.stdout, p.stderr



def _move(page, decisions: int) -> None:
    """One decision by clicking: a prophecy discards the first revealed card that is not a
    Door and keeps the others in their order; otherwise a Key is discarded if one can be,
    else the first move."""
    if page.is_visible("#prophecy"):
        cards = page.locator("#prophecy-cards .card")
        codes = [cards.nth(i).get_attribute("data-code") for i in range(cards.count())]
        first = next((i for i, c in enumerate(codes) if not c.startswith("D")), 0)
        for i in [first] + [i for i in range(len(codes)) if i != first]:
            page.click(f"#prophecy-cards .card[data-index='{i}']")
        page.click("#prophecy-go")
    else:
        keys = page.locator("#moves button.move").filter(has_text=re.compile(r"^discard .k$"))
        (keys.first if keys.count() else page.locator("#moves button.move").first).click()
    page.wait_for_function(f"document.body.dataset.decisions === '{decisions + 1}'")


def _analyse(page) -> dict:
    page.fill("#budget-s", "")
    page.fill("#budget-nodes", NODES)
    page.click("#analyse")
    page.wait_for_selector("#download:not([hidden])", timeout=300_000)
    return json.loads(page.get_attribute("#download", "data-json"))


@pytest.mark.slow
def test_a_whole_game_by_clicking(web_server, tmp_path):
    from playwright.sync_api import sync_playwright
    base = web_server[0]
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, headless=True,
            viewport={"width": 1280, "height": 860})
        try:
            page = ctx.new_page()
            page.set_default_timeout(120_000)
            errors, elsewhere = [], []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: None if r.url.startswith((base + "/", "data:", "blob:"))
                    else elsewhere.append(r.url))      # no network beyond the server
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready='1']")
            page.fill("#graph-budget", "300")
            page.dispatch_event("#graph-budget", "change")
            page.fill("#seed", str(SEED))
            with page.expect_response("**/api/new"):
                page.click("#new")
            page.wait_for_function("document.body.dataset.decisions === '0'")
            assert page.locator("#board .card.clickable").count() == 5     # the hand
            assert "seed" not in page.inner_text("#table").lower()   # not shown in play
            # the hint: a legal move, said where it comes from
            page.click("#hint")
            page.wait_for_selector("#hint-out b")
            hinted = page.inner_text("#hint-out b").removeprefix("hint: ")
            assert page.locator(f"#moves button.move[data-move='{hinted}']").count() == 1
            decisions = 0
            ranking = None
            while page.get_attribute("body", "data-over") != "1":
                if decisions == ANALYSED and ranking is None:
                    ranking = _analyse(page)
                    rows = page.locator("#ranking .rank-row").count()
                    assert rows == len(ranking["actions"]) > 0
                    rc, out, err = cli("best", "--json", "--budget-nodes", NODES,
                                       ranking["position"])
                    assert rc == 0, err
                    assert _without_time(ranking) == _without_time(json.loads(out))
                    verdict = page.inner_text("#ranking .verdict")
                    want = (f"best: {ranking['best']}" if ranking["best"]
                            else f"leader: {ranking['leader']}")
                    assert want in verdict
                    # the position box copies the position out; the graph has its points
                    page.click("#copy-text")
                    assert page.input_value("#position") == ranking["position"]
                    page.wait_for_function("document.querySelectorAll('#graph-svg circle')"
                                           f".length >= {ANALYSED}")
                    shot = tmp_path / "web-board.png"
                    page.screenshot(path=str(shot), full_page=True)
                    target = os.environ.get("ONIRIM_WEB_SCREENSHOT")
                    if target:
                        shutil.copy(shot, os.path.join(ROOT, target))
                _move(page, decisions)
                decisions += 1
                assert decisions < 200
            assert ranking is not None
            over = page.inner_text("#game-over")
            assert f"Seed {SEED}" in over and "onirim play --seed" in over
            assert "You lost" in over or "You won" in over
            # a bad position pasted: the command line's own line
            rc, _, err = cli("best", BAD)
            assert rc == 2
            page.fill("#position", BAD)
            page.click("#analyse-pasted")
            page.wait_for_selector("#error:not([hidden])")
            assert page.inner_text("#error").strip() == err.strip()
            assert not errors, errors
            assert not elsewhere, elsewhere
        finally:
            ctx.close()
