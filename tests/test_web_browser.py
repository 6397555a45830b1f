"""The page in a real headless browser: load it, play a move by clicking a
patch and a square, see the engine answer, see an illegal placement refused,
set up a position by pasting its text and ask for the best move."""

from pathlib import Path

import pytest

from browser import REQUIRED, have_chromium, headless_chromium, need  # noqa: E402

need("starlette")
need("uvicorn")
need("selenium")
from webserver import call, running_server  # noqa: E402

import patchsolve as ps  # noqa: E402
from patchsolve import Game  # noqa: E402
from patchsolve.position import parse_square  # noqa: E402

if not have_chromium() and REQUIRED:
    raise RuntimeError("PATCHSOLVE_REQUIRE_WEB=1 but chromium / chromedriver are missing")
if not have_chromium():
    pytest.skip("chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

GOLDEN = Path(__file__).parent / "data" / "golden_game.txt"


@pytest.fixture(scope="module")
def page():
    with running_server() as (url, _server):
        driver = headless_chromium()
        try:
            driver.get(url + "/")
            yield driver, url
        finally:
            driver.quit()


def wait(driver, cond, timeout=30):
    # the page re-renders its lists: an element found a moment ago may be gone
    return WebDriverWait(driver, timeout, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: cond(d))


def moves_listed(driver):
    """The move list's texts, read in one step in the page (no stale elements)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#move-list li'), li => li.innerText)")


def test_play_a_patch_by_clicking_and_the_engine_answers(page):
    driver, url = page
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.sq"))
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("1")
    Select(driver.find_element(By.ID, "engine")).select_by_value("alphabeta")
    t = driver.find_element(By.ID, "move-time")
    t.clear()
    t.send_keys("0.2")
    start = ps.Position.start(seed=0)
    pid = next(i for i in start.circle[:3] if ps.position.PATCHES[i].buttons <= 5)
    # an illegal placement first: orientation 0 hanging over the right edge
    driver.find_element(By.CSS_SELECTOR, f".patch-card.buyable[data-patch='{pid}']").click()
    wait(driver, lambda d: "patch %d" % pid in d.find_element(By.ID, "selection").text)
    driver.find_element(By.CSS_SELECTOR, f"#board rect.sq[data-square='{parse_square('i9')}']").click()
    wait(driver, lambda d: "error" in d.find_element(By.ID, "message").get_attribute("class"))
    assert "refused" in driver.find_element(By.ID, "message").text
    assert moves_listed(driver) == []
    # rotate with the key, then a legal placement on a1
    driver.find_element(By.TAG_NAME, "body").send_keys("r")
    wait(driver, lambda d: "orientation" in d.find_element(By.ID, "selection").text)
    text = driver.find_element(By.ID, "selection").text
    orientation = int(text.split("orientation ")[1].split(":")[0])
    driver.find_element(By.CSS_SELECTOR, f"#board rect.sq[data-square='{parse_square('a1')}']").click()
    wait(driver, lambda d: len(moves_listed(d)) >= 2)
    first, answer = moves_listed(driver)[:2]
    assert first == f"{pid}:{orientation}@a1"
    after = start.play(first)
    assert answer in {str(m) for m in after.legal_moves()}
    wait(driver, lambda d: "Player 0 to move" in d.find_element(By.ID, "status").text
         or "leather" in d.find_element(By.ID, "status").text)


def test_set_up_a_position_and_ask_for_the_best_move(page):
    driver, url = page
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("none")
    pos = Game.read(GOLDEN).position(30)
    box = driver.find_element(By.ID, "io")
    box.clear()
    box.send_keys(pos.to_text())
    driver.find_element(By.ID, "load").click()
    wait(driver, lambda d: d.find_element(By.ID, "message").text == "loaded")
    assert moves_listed(driver) == []
    think = driver.find_element(By.ID, "think-time")
    think.clear()
    think.send_keys("0.3")
    driver.find_element(By.ID, "best").click()
    best = wait(driver, lambda d: d.find_elements(By.ID, "best-move"))[0].text
    assert best in {str(m) for m in pos.legal_moves()}
    assert "depth" in driver.find_element(By.ID, "progress-text").text
    # the page shows the position it loaded
    status, view = call(url, "/api/game", {"game": {"start": pos.to_text()}})
    assert status == 200
    buyable = [e.get_attribute("data-patch") for e in driver.find_elements(By.CSS_SELECTOR, ".patch-card.buyable")]
    assert buyable == [str(i) for i in view["fields"]["circle"][:3]]


def test_undo_redo_and_review_graph_jumps_to_a_move(page):
    driver, url = page
    game = Game.read(GOLDEN)
    short = Game(game.position(44), game.moves[44:])
    box = driver.find_element(By.ID, "io")
    box.clear()
    box.send_keys(short.to_text())
    driver.find_element(By.ID, "load").click()
    wait(driver, lambda d: len(moves_listed(d)) == len(short))
    driver.find_element(By.ID, "undo").click()
    wait(driver, lambda d: f"move {len(short) - 1} of {len(short)}" in d.find_element(By.ID, "ply-info").text)
    driver.find_element(By.ID, "redo").click()
    wait(driver, lambda d: f"move {len(short)} of {len(short)}" in d.find_element(By.ID, "ply-info").text)
    rt = driver.find_element(By.ID, "review-time")
    rt.clear()
    rt.send_keys("0.05")
    driver.find_element(By.ID, "review").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-graph rect.ply-hit"))
    driver.find_element(By.CSS_SELECTOR, "#review-graph rect.ply-hit[data-ply='2']").click()
    wait(driver, lambda d: f"move 2 of {len(short)}" in d.find_element(By.ID, "ply-info").text)


def test_paint_a_position_from_the_table_and_ask_for_the_best_move(page):
    driver, url = page
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("none")
    driver.find_element(By.ID, "new-game").click()
    wait(driver, lambda d: d.find_element(By.ID, "ply-info").text == "move 0 of 0")
    start = ps.Position.start(seed=0)
    pid = start.circle[0]
    driver.find_element(By.ID, "setup-start").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    driver.find_element(By.CSS_SELECTOR, f"#circle .patch-card[data-patch='{pid}']").click()
    driver.find_element(By.CSS_SELECTOR, "#board rect.setup-sq[data-player='0'][data-square='0']").click()
    assert str(pid) not in driver.find_element(By.ID, "setup-circle").get_attribute("value").split(",")
    cost, spent = ps.position.PATCHES[pid].buttons, ps.position.PATCHES[pid].time
    for element_id, value in (("setup-buttons0", 5 - cost), ("setup-time0", spent)):
        box = driver.find_element(By.ID, element_id)
        box.clear()
        box.send_keys(str(value))
    driver.find_element(By.ID, "setup-use").click()
    wait(driver, lambda d: d.find_element(By.ID, "message").text == "position set up")
    driver.find_element(By.ID, "show-position").click()
    text = driver.find_element(By.ID, "io").get_attribute("value")
    assert ps.Position.from_text(text) == start.play(f"{pid}:0@a1")
    think = driver.find_element(By.ID, "think-time")
    think.clear()
    think.send_keys("0.2")
    driver.find_element(By.ID, "best").click()
    wait(driver, lambda d: d.find_elements(By.ID, "best-move")
         and d.find_element(By.ID, "best-move").text in {str(m) for m in start.play(f"{pid}:0@a1").legal_moves()})
