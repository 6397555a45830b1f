"""The analysis board in a real headless Chromium (Debian's chromium and
chromedriver), one browser and one server for the module.

The flows run at three screen sizes: a phone held upright (390x844, with
touch: a finger taps, it cannot hover), a tablet (768x1024) and a laptop
(1280x800). At each: no page scrolls sideways and every control can be
reached; set-up to analysis; a variation tried and the main line still
whole; a review, then its quiz played on the board without touching the
game; a game against a level. Then the page's details at one size: the
patch held drawn with the square under the pointer inside it, a ranked row
previewed on the board, stale text cleared, the engine's moves named,
answers never drawn beside another position, the set-up's locks and
questions. Budgets are tiny (depths 1-2, a fraction of a second)."""

import json
from pathlib import Path

import pytest

from browser import REQUIRED, have_chromium, headless_chromium, need  # noqa: E402

need("starlette")
need("uvicorn")
need("selenium")
import patchsolve as ps  # noqa: E402
from patchsolve import Game, GameTree  # noqa: E402
from patchsolve.rules.position import parse_square  # noqa: E402
from webserver import call, running_server  # noqa: E402

if not have_chromium() and REQUIRED:
    raise RuntimeError("PATCHSOLVE_REQUIRE_WEB=1 but chromium / chromedriver are missing")
if not have_chromium():
    pytest.skip(
        "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)",
        allow_module_level=True,
    )

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

DATA = Path(__file__).parent / "data"
GOLDEN = DATA / "golden_game.txt"
MID = (DATA / "mid_board.txt").read_text()  # the MID table of the new-user review
SIZES = {"phone": (390, 844), "tablet": (768, 1024), "laptop": (1280, 800)}
SCREENS = Path(__file__).resolve().parents[1] / "docs" / "_static" / "web"
# the screenshots docs/web.md shows (the tracked tree stays under 6 MiB: no more than it uses)
MANUAL_SHOTS = {
    "analysis": ("phone", "tablet", "laptop"),
    "variation": ("phone", "laptop"),
    "review": ("phone", "laptop"),
    "quiz": ("phone",),
}


@pytest.fixture(scope="module")
def browser():
    with running_server() as (url, _server):
        driver = headless_chromium(1280, 800)
        try:
            yield driver, url
        finally:
            driver.quit()


def open_page(browser, size="laptop"):
    """The page, fresh, at a screen size (the phone with touch); the driver."""
    driver, url = browser
    width, height = SIZES[size]
    phone = size == "phone"
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5})
    driver.size = size
    driver.get(url + "/")
    wait(driver, lambda d: d.execute_script("return !!(window.patchsolve && patchsolve.state.view)"))
    return driver


@pytest.fixture
def page(browser):
    return open_page(browser)


def wait(driver, cond, timeout=30):
    # the page re-renders its lists: an element found a moment ago may be gone
    return WebDriverWait(
        driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda d: cond(d))


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def press(driver, element):
    """Click with the mouse, or tap with a finger on the phone."""
    js(driver, "arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
    if getattr(driver, "size", "laptop") != "phone":
        element.click()
        return
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to(element).pointer_down().pointer_up()
    actions.perform()


def by_id(driver, element_id):
    return driver.find_element(By.ID, element_id)


def text_of(driver, element_id):
    return by_id(driver, element_id).text


def type_into(driver, element_id, value):
    box = by_id(driver, element_id)
    js(
        driver,
        "arguments[0].value = arguments[1];"
        " for (const kind of ['input', 'change']) arguments[0].dispatchEvent(new Event(kind))",
        box,
        str(value),
    )


def moves_listed(driver):
    """The move list's chips (the start left out), read in one step in the page."""
    return js(
        driver, "return Array.from(document.querySelectorAll('#move-list .mv:not(.start)'), b => b.innerText)"
    )


def tree_of(driver):
    return GameTree.from_dict(js(driver, "return patchsolve.state.tree.toDict()"))


def current_line(driver):
    return js(driver, "return patchsolve.state.tree.moves(patchsolve.state.current)")


def load(driver, text):
    by_id(driver, "io").clear()
    js(driver, "document.getElementById('io').value = arguments[0]", text)
    js(driver, "document.getElementById('message').textContent = ''")
    press(driver, by_id(driver, "load"))
    wait(driver, lambda d: text_of(d, "message") == "loaded" or "cannot load" in text_of(d, "message"))
    assert text_of(driver, "message") == "loaded"


def engine_idle(driver):
    return js(driver, "return patchsolve.state.job === null")


def anchor_of(cells):
    """The cell of a patch nearest its centre (the first such in reading order):
    the one the page draws under the pointer or finger."""
    cr = sum(r for r, _ in cells) / len(cells)
    cc = sum(c for _, c in cells) / len(cells)
    return min(sorted(cells), key=lambda rc: (rc[0] - cr) ** 2 + (rc[1] - cc) ** 2)


def square_for(driver, patch, orientation, corner):
    """The square to tap so that the patch's top-left corner lands on ``corner``."""
    cells = js(
        driver, "return patchsolve.state.patches[arguments[0]].orientations[arguments[1]]", patch, orientation
    )
    r, c = anchor_of([tuple(x) for x in cells])
    sq = parse_square(corner)
    return (sq // 9 + r) * 9 + sq % 9 + c


def quilt_square(driver, sq):
    return driver.find_element(By.CSS_SELECTOR, f"#board rect.sq[data-square='{sq}']")


def place(driver, patch, orientation, corner):
    """Hold ``patch`` (from the next patches drawn on the board), turn it to
    ``orientation`` with the Rotate/Flip buttons, and lay it with its corner on
    ``corner``: a click, or on the phone a tap that shows it and a second that lays it."""
    press(driver, driver.find_element(By.CSS_SELECTOR, f"#board g.next-patch[data-patch='{patch}'] rect"))
    wait(driver, lambda d: f"patch {patch} " in text_of(d, "selection"))
    for turn in range(8):  # four turns, then flipped and four more: every orientation
        if js(driver, "return patchsolve.state.selected.o") == orientation:
            break
        press(driver, by_id(driver, "rotate"))
        if turn == 3:
            press(driver, by_id(driver, "flip"))
    assert js(driver, "return patchsolve.state.selected.o") == orientation
    sq = square_for(driver, patch, orientation, corner)
    press(driver, quilt_square(driver, sq))
    if driver.size == "phone":  # the first tap shows it, with a Place button; the second lays it
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#ghost rect.anchor"))
        assert by_id(driver, "place").is_displayed()
        press(driver, quilt_square(driver, sq))


def no_sideways_scroll(driver):
    """The page is no wider than the screen and every visible control lies on it."""
    width, client = js(
        driver, "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= client, f"the page scrolls sideways at {driver.size}: {width} > {client}"
    off = js(
        driver,
        """return Array.from(document.querySelectorAll('button, input, select, textarea, .mv'))
             .filter(e => e.offsetParent !== null)
             .filter(e => { const r = e.getBoundingClientRect(); return r.left < -1 || r.right > innerWidth + 1; })
             .map(e => e.id || e.textContent)""",
    )
    assert not off, f"controls off the screen at {driver.size}: {off}"


def screenshot(driver, name, show=None):
    """A screenshot for the manual (docs/web.md), taken by the flows below with
    the element ``show`` scrolled to the bottom of the screen (else the top of
    the page). Only with PATCHSOLVE_SCREENSHOTS=1 (benchmarks/tools/web_screenshot.py
    runs the flows so): CI does not rewrite the manual's pictures."""
    import os

    if os.environ.get("PATCHSOLVE_SCREENSHOTS") != "1" or driver.size not in MANUAL_SHOTS[name]:
        return
    SCREENS.mkdir(parents=True, exist_ok=True)
    if show:
        js(
            driver,
            "window.scrollTo(0, 0); document.getElementById(arguments[0]).scrollIntoView({block: 'end'})",
            show,
        )
    else:
        js(driver, "window.scrollTo(0, 0)")
    out = SCREENS / f"{name}-{driver.size}.png"
    driver.save_screenshot(str(out))
    try:  # 256 colours: a page of flat colours loses nothing visible, and the file a third of its size
        from PIL import Image

        Image.open(out).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
            out, optimize=True
        )
    except ImportError:
        pass


# -- every screen size: the flows -----------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_no_page_scrolls_sideways_and_every_control_is_reachable(browser, size):
    driver = open_page(browser, size)
    no_sideways_scroll(driver)
    load(driver, GOLDEN.read_text())
    no_sideways_scroll(driver)
    press(driver, by_id(driver, "setup-start"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    no_sideways_scroll(driver)
    press(driver, by_id(driver, "setup-cancel"))
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))


@pytest.mark.parametrize("size", SIZES)
def test_set_up_a_position_then_analyse_it(browser, size):
    """The set-up by touch or click; "Use this position" gives a position to
    analyse (the engine plays nobody), and the live analysis draws its best
    move on the board, with its value, and fills the evaluation bar."""
    driver = open_page(browser, size)
    start = ps.Position.start(seed=0)
    pid = start.circle[0]
    press(driver, by_id(driver, "setup-start"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    press(driver, driver.find_element(By.CSS_SELECTOR, f"#circle .patch-card[data-patch='{pid}']"))
    wait(driver, lambda d: f"patch {pid} " in text_of(d, "selection"))
    press(driver, by_id(driver, "rotate"))  # turned by the button, as a finger would
    o = int(text_of(driver, "selection").split("orientation ")[1].split(" ")[0])
    sq = square_for(driver, pid, o, "a1")
    press(
        driver,
        driver.find_element(By.CSS_SELECTOR, f"#board rect.setup-sq[data-player='0'][data-square='{sq}']"),
    )
    wait(driver, lambda d: str(pid) not in by_id(d, "setup-circle").get_attribute("value").split(","))
    patch = ps.rules.position.PATCHES[pid]
    type_into(driver, "setup-buttons0", 5 - patch.buttons)
    type_into(driver, "setup-time0", patch.time)
    no_sideways_scroll(driver)
    press(driver, by_id(driver, "setup-use"))
    wait(driver, lambda d: "position set up" in text_of(d, "message"))
    after = start.play(f"{pid}:{o}@a1")
    assert ps.Position.from_text(js(driver, "return patchsolve.state.view.position")) == after
    # analysis, not a game: the engine plays nobody
    type_into(driver, "think-time", 0.2)
    press(driver, by_id(driver, "live"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".move-ghost.best"), timeout=60)
    best = js(driver, "return patchsolve.state.results.get(patchsolve.state.current).result.best_move")
    assert best in {str(m) for m in after.legal_moves()}
    ghost = driver.find_element(By.CSS_SELECTOR, ".move-ghost.best")
    assert ghost.get_attribute("data-move") == best
    assert driver.find_element(By.CSS_SELECTOR, ".move-ghost.best .ghost-value").text  # its value, drawn
    assert "for player 0" in text_of(driver, "eval-text")
    assert moves_listed(driver) == []
    screenshot(driver, "analysis")
    press(driver, by_id(driver, "live"))  # off: the engine is left free
    wait(driver, engine_idle)


@pytest.mark.parametrize("size", SIZES)
def test_try_a_variation_and_come_back_to_the_main_line_with_nothing_lost(browser, size):
    driver = open_page(browser, size)
    game = Game.read(GOLDEN)
    load(driver, GOLDEN.read_text())
    assert len(moves_listed(driver)) == len(game)
    # move 10 of the list, then another move there: a variation, the main line kept whole
    press(driver, driver.find_elements(By.CSS_SELECTOR, "#move-list .line.main > .mv")[10])
    wait(driver, lambda d: text_of(d, "ply-info").startswith(f"move 10 of {len(game)}"))
    other = next(m for m in game.position(10).legal_moves() if m != game.moves[10])
    if other.kind == "walk":
        press(driver, by_id(driver, "walk"))
    else:
        place(driver, other.patch, other.orientation, ps.rules.position.square_name(other.square))
    wait(driver, lambda d: "new variation" in text_of(d, "message"))
    assert "(a variation)" in text_of(driver, "ply-info")
    tree = tree_of(driver)
    assert tree.main_line() == game and len(tree) == len(game) + 1
    assert current_line(driver) == [str(m) for m in game.moves[:10]] + [str(other)]
    assert driver.find_elements(By.CSS_SELECTOR, "#move-list .variation .mv.current")
    screenshot(driver, "variation", show="moves-panel")
    # back to the main line: its move 11, clicked in the list
    press(driver, driver.find_elements(By.CSS_SELECTOR, "#move-list .line.main > .mv")[11])
    wait(driver, lambda d: text_of(d, "ply-info") == f"move 11 of {len(game)}")
    assert current_line(driver) == [str(m) for m in game.moves[:11]]
    # the record keeps the variation, and reads back to the same tree
    press(driver, by_id(driver, "show-record"))
    wait(driver, lambda d: "(" in by_id(d, "io").get_attribute("value"))
    assert GameTree.from_text(by_id(driver, "io").get_attribute("value")) == tree
    no_sideways_scroll(driver)


@pytest.mark.parametrize("size", SIZES)
def test_review_then_practise_the_mistakes_on_the_board(browser, size):
    """The review marks the moves and draws its graph under the board (a
    dot per judged move, coloured by class); the quiz shows the exercise on
    the board, the answer is played there and graded, and the game is untouched."""
    driver = open_page(browser, size)
    whole = Game.read(GOLDEN)
    game = Game(
        whole.position(16), whole.moves[16:36]
    )  # twenty moves: few exercises, each a 100,000-node measure
    load(driver, game.to_text())
    before = tree_of(driver)
    type_into(driver, "review-nodes", 2000)
    type_into(driver, "threshold", 2)
    press(driver, by_id(driver, "review"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-graph svg"), timeout=90)
    wait(driver, engine_idle)
    review = js(driver, "return patchsolve.state.review.data")
    judged = [m for m in review["moves"] if m["class"] in ("inaccuracy", "mistake", "blunder")]
    dots = driver.find_elements(By.CSS_SELECTOR, "#review-graph circle.dot")
    assert [int(d.get_attribute("data-ply")) for d in dots] == [m["number"] for m in judged]
    assert [d.get_attribute("class").split()[1] for d in dots] == [m["class"] for m in judged]
    marks = js(
        driver, "return Array.from(document.querySelectorAll('#move-list .mv .mark'), e => e.className)"
    )
    assert len(marks) == len(judged)
    summary = js(driver, "return document.querySelector('#review-text ul.summary').textContent")
    for side in review["summary"]:  # each player's counts, in the words of a count: 1 blunder, 2 blunders
        c = side["classes"]
        words = [
            f"{n} {one if n == 1 else many}"
            for n, one, many in (
                (c["inaccuracy"], "inaccuracy", "inaccuracies"),
                (c["mistake"], "mistake", "mistakes"),
                (c["blunder"], "blunder", "blunders"),
            )
        ]
        assert ", ".join(words) in summary
    heights = (
        "return Array.from(document.querySelectorAll('#review-graph svg text'),"
        " t => t.getBoundingClientRect().height)"
    )
    shown = "return document.querySelector('#review-graph svg').viewBox.baseVal.width"
    labels = js(driver, heights)
    assert labels and min(labels) >= 9, f"the graph's labels are {min(labels):.1f} px tall at {size}"
    if size == "laptop":  # the window narrowed to a phone's width and back: the graph drawn again each time
        width = js(driver, shown)
        for w, h in (SIZES["phone"], SIZES[size]):
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False},
            )
            drawn_at = (lambda x: x < width - 100) if w < SIZES[size][0] else (lambda x: x == width)
            wait(driver, lambda d, drawn_at=drawn_at: drawn_at(d.execute_script(shown)))
            assert min(js(driver, heights)) >= 9
    screenshot(driver, "review", show="review-graph")
    if not any(m["loss"] > 2 for m in review["moves"]):
        pytest.skip("nothing lost more than 2 points at this budget")
    press(driver, by_id(driver, "practise"))
    wait(driver, lambda d: text_of(d, "quiz-title").startswith("Exercise 1 of"), timeout=120)
    exercise = js(driver, "return patchsolve.state.quiz.exercises[0]")
    shown = js(driver, "return patchsolve.state.quiz.view.position")
    assert ps.Position.from_text(shown) == ps.Position.from_text(exercise["position"])
    assert not by_id(driver, "move-list").is_displayed() or "quiz-on" in js(
        driver, "return document.body.className"
    )
    no_sideways_scroll(driver)
    best = ps.Position.from_text(exercise["position"]).parse_move(exercise["best"])
    if best.kind == "walk":
        press(driver, by_id(driver, "walk"))
    elif best.kind == "leather":
        sq = best.square
        press(driver, quilt_square(driver, sq))
        if driver.size == "phone":
            press(driver, quilt_square(driver, sq))
    else:
        place(driver, best.patch, best.orientation, ps.rules.position.square_name(best.square))
    wait(driver, lambda d: text_of(d, "quiz-result").startswith("found:"), timeout=60)
    assert text_of(driver, "quiz-score") == "found 1 of 1 answered"
    screenshot(driver, "quiz")
    press(driver, by_id(driver, "quiz-leave"))
    wait(driver, lambda d: not by_id(d, "quiz-bar").is_displayed())
    assert tree_of(driver) == before  # the game is as it was


@pytest.mark.parametrize("size", SIZES)
def test_play_a_game_against_a_level(browser, size):
    from patchsolve.review.levels import level_move

    driver = open_page(browser, size)
    Select(by_id(driver, "level")).select_by_value("2")
    Select(by_id(driver, "human-side")).select_by_value("1")  # the engine is player 0: it moves first
    press(driver, by_id(driver, "play-start"))
    wait(driver, lambda d: len(moves_listed(d)) >= 1, timeout=60)
    first = js(driver, "return patchsolve.state.tree.moves(patchsolve.state.tree.lineEnd(0))")[0]
    start = ps.Position.start(seed=0)
    assert first == str(level_move(start, 2, seed=0)[0])
    wait(driver, lambda d: "The engine (level 2) played 1. " in text_of(d, "message"))
    assert f"1. {first} (player 0)" in text_of(driver, "message")
    assert "playing level 2" in text_of(driver, "mode")
    wait(driver, engine_idle)
    if js(driver, "return patchsolve.state.view.to_move") == 1:
        press(driver, by_id(driver, "walk"))  # the human's move; then the engine answers
        wait(
            driver, lambda d: len(current_line(d)) >= 3 or js(d, "return patchsolve.state.view.to_move") == 1
        )
    press(driver, by_id(driver, "play-stop"))
    wait(driver, lambda d: text_of(d, "mode") == "analysis")
    no_sideways_scroll(driver)


# -- the board's details ---------------------------------------------------------------------------------


def test_the_patch_held_is_drawn_with_the_square_under_the_pointer_inside_it(page):
    driver = page
    start = ps.Position.start(seed=0)
    pid = next(i for i in start.circle[:3] if ps.rules.position.PATCHES[i].buttons <= 5)
    press(driver, driver.find_element(By.CSS_SELECTOR, f"#board g.next-patch[data-patch='{pid}'] rect"))
    for name in ("e5", "a1"):
        ActionChains(driver).move_to_element(quilt_square(driver, parse_square(name))).perform()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#ghost rect.anchor"))
        geometry = js(driver, "return patchsolve.state.view.geometry")
        drawn = js(
            driver,
            "return Array.from(document.querySelectorAll('#ghost rect:not(.anchor)'),"
            " r => [parseFloat(r.getAttribute('x')), parseFloat(r.getAttribute('y'))])",
        )
        x0, y0, cell = geometry["quilt"][0], geometry["quilt"][1], geometry["cell"]
        squares = {int((y - y0) // cell) * 9 + int((x - x0) // cell) for x, y in drawn}
        if name == "e5":
            assert parse_square("e5") in squares  # under the pointer, not beside it
            anchor = driver.find_element(By.CSS_SELECTOR, "#ghost rect.anchor")
            assert "refused" not in anchor.get_attribute("class")
    # at a1 the patch's centre square cannot sit on the corner: refused, and said so
    assert driver.find_elements(By.CSS_SELECTOR, "#ghost rect.anchor.refused")
    quilt_square(driver, parse_square("a1")).click()
    wait(driver, lambda d: "refused" in text_of(d, "message"))
    assert moves_listed(driver) == []
    # a legal placement by click, then the list says who moved
    ActionChains(driver).move_to_element(quilt_square(driver, parse_square("e5"))).perform()
    quilt_square(driver, parse_square("e5")).click()
    wait(driver, lambda d: len(moves_listed(d)) == 1)
    assert driver.find_element(By.CSS_SELECTOR, "#move-list .mv:not(.start) .who.p0")
    label = driver.find_element(By.CSS_SELECTOR, "#move-list .mv:not(.start)").get_attribute("aria-label")
    assert label.startswith("move 1, player 0: ")


def test_a_ranked_row_is_previewed_on_the_board_and_played_as_a_variation(page):
    driver = page
    load(driver, GOLDEN.read_text())
    game = Game.read(GOLDEN)
    press(driver, driver.find_elements(By.CSS_SELECTOR, "#move-list .line.main > .mv")[20])
    wait(driver, lambda d: text_of(d, "ply-info").startswith("move 20 of"))
    type_into(driver, "think-time", 0.2)
    Select(by_id(driver, "lines")).select_by_value("4")
    press(driver, by_id(driver, "best"))
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#result tr.playable")) >= 2, timeout=60)
    wait(driver, engine_idle)
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#result th")]
    assert headers == ["#", "move", "value", "bound", "wins", "line"]  # words, not raw keys
    rows = driver.find_elements(By.CSS_SELECTOR, "#result tr.playable")
    second = rows[1].get_attribute("data-move")
    ActionChains(driver).move_to_element(rows[1]).perform()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f".move-ghost.preview[data-move='{second}']"))
    cells = [td.text for td in rows[1].find_elements(By.TAG_NAME, "td")]
    assert cells[3] in ("exact", "at least", "at most", "estimate") and cells[4].endswith("%")
    rows[1].click()
    wait(driver, lambda d: current_line(d)[-1:] == [second])
    tree = tree_of(driver)
    assert tree.main_line() == game  # played as a variation: the game is whole


def test_the_evaluation_bar_says_the_bound_in_words(page):
    driver = page
    set_result = """
        const s = patchsolve.state;
        s.results.set(s.current, {result: {best_move: 'walk', score: arguments[0], bound: arguments[1],
            win_probability: 0.25, depth: 3, root_moves: []}, status: 'done', lines: 1});
        patchsolve.drawEvalBar();
        return document.getElementById('eval-text').textContent;"""
    assert "for player 0, at most" in js(driver, set_result, 16, "upper")  # player 0 to move: their bound
    assert "+16" in js(driver, set_result, 16, "upper")
    assert "for player 0, exact" in js(driver, set_result, -3, "exact")
    assert "for player 0, estimate" in js(driver, set_result, 2, "estimate")
    assert "wins 25%" in js(driver, set_result, 2, "estimate")
    walk_to(driver, 1)  # player 1 to move: their "at least" is player 0's "at most"
    assert "-16" in js(driver, set_result, 16, "lower") and "at most" in js(driver, set_result, 16, "lower")


def walk_to(driver, n):
    press(driver, by_id(driver, "walk"))
    wait(driver, lambda d: text_of(d, "ply-info") == f"move {n} of {n}")


def test_moves_are_kept_delete_asks_first_and_promote_makes_the_main_line(page):
    driver = page
    walk_to(driver, 1)
    walk_to(driver, 2)
    press(driver, by_id(driver, "undo"))
    wait(driver, lambda d: text_of(d, "ply-info") == "move 1 of 2")
    assert text_of(driver, "message") == ""  # "played walk" does not stay after going back
    other = next(m for m in ps.Position.start(seed=0).play("walk").legal_moves() if m.kind == "buy")
    by_id(driver, "move-input").send_keys(
        str(other) + Keys.ENTER
    )  # a typed move, for a keyboard or a screen reader
    wait(driver, lambda d: "new variation" in text_of(d, "message"))
    assert len(tree_of(driver)) == 3 and [str(m) for m in tree_of(driver).main_line().moves] == [
        "walk",
        "walk",
    ]
    press(driver, by_id(driver, "promote"))
    wait(driver, lambda d: [str(m) for m in tree_of(d).main_line().moves] == ["walk", str(other)])
    press(driver, by_id(driver, "delete"))
    wait(driver, lambda d: "Click again" in text_of(d, "delete"))
    assert len(tree_of(driver)) == 3  # nothing deleted yet
    press(driver, by_id(driver, "delete"))
    wait(driver, lambda d: "deleted 1 move" in text_of(d, "message"))
    assert [str(m) for m in tree_of(driver).main_line().moves] == ["walk", "walk"]
    # the keyboard walks the tree
    by_id(driver, "first").click()
    wait(driver, lambda d: text_of(d, "ply-info") == "move 0 of 2")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    wait(driver, lambda d: text_of(d, "ply-info") == "move 2 of 2")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    wait(driver, lambda d: text_of(d, "ply-info") == "move 1 of 2")


def test_new_game_and_load_clear_the_last_searchs_text(page):
    driver = page
    type_into(driver, "think-time", 0.2)
    press(driver, by_id(driver, "best"))
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))
    wait(driver, engine_idle)
    assert text_of(driver, "progress-text")
    press(driver, by_id(driver, "new-game"))
    wait(driver, lambda d: not d.find_elements(By.ID, "best-move"))
    assert text_of(driver, "progress-text") == "" and text_of(driver, "message") == ""
    press(driver, by_id(driver, "best"))
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))
    wait(driver, engine_idle)
    load(driver, MID)
    assert not driver.find_elements(By.ID, "best-move") and text_of(driver, "progress-text") == ""


def test_a_set_up_is_analysed_not_played(page):
    """The new-user report: after "Use this position" the engine played two
    moves. A set-up is a position to analyse: nobody plays it."""
    driver = page
    mid = ps.Position(MID)
    load(driver, MID)
    press(driver, by_id(driver, "setup-start"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    press(driver, by_id(driver, "setup-use"))
    wait(driver, lambda d: "position set up" in text_of(d, "message"))
    assert ps.Position.from_text(js(driver, "return patchsolve.state.view.position")) == mid
    assert js(driver, "return patchsolve.state.play") is None and text_of(driver, "mode") == "analysis"
    assert engine_idle(driver) and moves_listed(driver) == []


def test_the_game_controls_do_nothing_to_the_hidden_game_during_a_set_up(page):
    driver = page
    walk_to(driver, 1)
    type_into(driver, "think-time", 0.2)
    press(driver, by_id(driver, "best"))
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))
    press(driver, by_id(driver, "setup-start"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    assert text_of(driver, "result") == "" == text_of(driver, "progress-text")
    for element_id in (
        "best",
        "live",
        "walk",
        "undo",
        "new-game",
        "review",
        "load",
        "show-record",
        "play-start",
    ):
        element = by_id(driver, element_id)
        assert not element.is_enabled(), element_id
        assert "set-up" in element.get_attribute("title"), element_id
    locks = [e for e in driver.find_elements(By.CSS_SELECTOR, "[data-lock]") if e.is_displayed()]
    assert len(locks) == 2 and all("Set-up in progress" in e.text for e in locks)
    driver.find_element(By.CSS_SELECTOR, "#move-list .mv:not(.start)").click()
    wait(driver, lambda d: "finish the set-up" in text_of(d, "message"))
    driver.find_element(By.TAG_NAME, "body").send_keys("w")
    assert driver.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq")
    press(driver, by_id(driver, "setup-cancel"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.sq"))
    assert moves_listed(driver)[-1].endswith("walk") and len(moves_listed(driver)) == 1
    assert by_id(driver, "walk").is_enabled() and by_id(driver, "undo").is_enabled()


def test_the_set_up_asks_who_is_on_top_only_when_the_tokens_share_a_space(page):
    driver = page
    start = ps.Position.start(seed=0)
    pid = start.circle[0]
    patch = ps.rules.position.PATCHES[pid]
    press(driver, by_id(driver, "setup-start"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    driver.find_element(By.CSS_SELECTOR, f"#circle .patch-card[data-patch='{pid}']").click()
    sq = square_for(driver, pid, 0, "a1")
    driver.find_element(By.CSS_SELECTOR, f"#board rect.setup-sq[data-player='0'][data-square='{sq}']").click()
    type_into(driver, "setup-buttons0", 5 - patch.buttons)
    type_into(driver, "setup-time0", patch.time)
    by_id(driver, "setup-time1").clear()
    by_id(driver, "setup-time1").send_keys(str(patch.time + 1))
    assert not by_id(driver, "setup-on-top-row").is_displayed()
    by_id(driver, "setup-time1").clear()
    by_id(driver, "setup-time1").send_keys(str(patch.time))
    wait(driver, lambda d: by_id(d, "setup-on-top-row").is_displayed())
    press(driver, by_id(driver, "setup-use"))  # no answer: asked, not guessed
    wait(driver, lambda d: "whose token is on top" in text_of(d, "setup-message"))
    Select(by_id(driver, "setup-on-top")).select_by_value("1")
    press(driver, by_id(driver, "setup-use"))
    wait(driver, lambda d: "position set up" in text_of(d, "message"))
    pos = ps.Position.from_text(js(driver, "return patchsolve.state.view.position"))
    assert pos.fields()["on_top"] == 1 and pos.time(0) == pos.time(1) == patch.time


def test_a_set_up_starts_from_the_position_shown_and_keeps_its_patches(page):
    driver = page
    mid = ps.Position(MID)
    load(driver, MID)
    symbols = {t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board .quilt svg text")}
    assert {"4", "7", "F", "9", "8", "2", "R"} <= symbols
    press(driver, by_id(driver, "setup-start"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    pieces = [len({x for x in mid.labels[p].values()}) for p in (0, 1)]
    titles = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board text.setup-title")]
    assert titles == [f"Player {p}: {pieces[p]} pieces" for p in (0, 1)]
    assert by_id(driver, "setup-circle").get_attribute("value") == ",".join(map(str, mid.circle))
    press(driver, by_id(driver, "setup-use"))
    wait(driver, lambda d: "position set up" in text_of(d, "message"))
    assert ps.Position.from_text(js(driver, "return patchsolve.state.view.position")) == mid


def test_the_set_up_derives_a_leather_patch_still_to_place(page):
    driver = page
    start = ps.Position.start(seed=0)
    pid = start.circle[0]
    press(driver, by_id(driver, "setup-start"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    driver.find_element(By.CSS_SELECTOR, f"#circle .patch-card[data-patch='{pid}']").click()
    sq = square_for(driver, pid, 0, "a1")
    driver.find_element(By.CSS_SELECTOR, f"#board rect.setup-sq[data-player='0'][data-square='{sq}']").click()
    type_into(driver, "setup-buttons0", 5 - ps.rules.position.PATCHES[pid].buttons)
    type_into(driver, "setup-time0", 27)  # past leather space 26, and no leather patch laid
    type_into(driver, "setup-time1", 13)
    press(driver, by_id(driver, "setup-use"))
    wait(driver, lambda d: "position set up" in text_of(d, "message"))
    assert "place the leather patch" in text_of(driver, "status")


# near the end, won for player 1 (the solver proves it in a few thousand nodes;
# benchmarks/solve_reach.json, position 5)
NEAR_END_WON = (
    "original 4,1,32,31,23,26,17,25,19,9,18 1fffff7fff9f83e0707c1/1fcc703c1e1f0fbeff7ff "
    "10/24 12/15 45/44 - 50 - - -"
)


def test_the_answer_says_what_the_solver_proved(page):
    driver = page
    load(driver, NEAR_END_WON)
    type_into(driver, "think-time", 0.3)
    press(driver, by_id(driver, "best"))
    proof = wait(driver, lambda d: d.find_elements(By.ID, "proof"))[0].text
    assert "proven win" in proof


def test_moving_away_during_a_search_sets_its_answer_aside(page):
    """A search asked for at one move and answered after the player went to
    another is not drawn there; the engine is free again at once."""
    driver = page
    walk_to(driver, 1)
    type_into(driver, "think-time", 5)
    press(driver, by_id(driver, "best"))
    wait(driver, lambda d: js(d, "return patchsolve.state.job && patchsolve.state.job.id !== null"))
    press(driver, by_id(driver, "undo"))
    wait(driver, lambda d: text_of(d, "ply-info") == "move 0 of 1")
    wait(driver, engine_idle)
    assert not driver.find_elements(By.ID, "best-move")
    assert text_of(driver, "progress-text") == ""  # nor its progress
    type_into(driver, "think-time", 0.2)
    press(driver, by_id(driver, "best"))
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))
    best = text_of(driver, "best-move")
    assert best in {str(m) for m in ps.Position.start(seed=0).legal_moves()}
    # coming back to move 1 shows what was found there before the player left
    press(driver, by_id(driver, "redo"))
    wait(driver, lambda d: text_of(d, "ply-info") == "move 1 of 1")


def test_stop_keeps_the_deepest_answer(page):
    driver = page
    type_into(driver, "think-time", 20)
    press(driver, by_id(driver, "best"))
    wait(driver, lambda d: "depth" in text_of(d, "progress-text"))
    press(driver, by_id(driver, "stop"))
    wait(driver, lambda d: d.find_elements(By.ID, "best-move") and engine_idle(d))
    assert "stopped" in text_of(driver, "result")


def test_why_goes_to_the_position_it_explains(page):
    driver = page
    game = Game.read(GOLDEN)
    short = Game(game.position(16), game.moves[16:])
    load(driver, short.to_text())
    type_into(driver, "review-nodes", 2000)
    type_into(driver, "threshold", 1)
    press(driver, by_id(driver, "review"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-text button.why"), timeout=90)
    why = driver.find_elements(By.CSS_SELECTOR, "#review-text button.why")[0]
    ply = int(why.get_attribute("data-ply"))
    press(driver, why)
    wait(driver, lambda d: text_of(d, "why-text").startswith(f"move {ply + 1},"))
    assert text_of(driver, "ply-info").startswith(f"move {ply} of ")
    # the graph goes there too: a dot, or the column of a ply without one
    dots = {
        int(d.get_attribute("data-ply"))
        for d in driver.find_elements(By.CSS_SELECTOR, "#review-graph circle.dot")
    }
    plain = next(k for k in range(1, len(short)) if k not in dots)
    driver.find_element(By.CSS_SELECTOR, f"#review-graph rect.ply-hit[data-ply='{plain}']").click()
    wait(driver, lambda d: text_of(d, "ply-info").startswith(f"move {plain} of "))
    if dots:
        driver.find_element(By.CSS_SELECTOR, f"#review-graph circle.dot[data-ply='{min(dots)}']").click()
        wait(driver, lambda d: text_of(d, "ply-info").startswith(f"move {min(dots)} of "))


def test_the_main_controls_have_names_for_a_screen_reader(page):
    driver = page
    nameless = js(
        driver,
        """return Array.from(document.querySelectorAll('button, select, input, textarea'))
             .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || e.labels && e.labels.length
                           || e.title))
             .map(e => e.id || e.outerHTML.slice(0, 60))""",
    )
    assert nameless == []
    assert by_id(driver, "eval").get_attribute("role") == "meter"
    assert by_id(driver, "message").get_attribute("aria-live") == "polite"
    assert by_id(driver, "live").get_attribute("aria-pressed") == "false"


def test_the_page_answers_only_json_errors_it_can_show(page):
    """A refused move from the keyboard says why, in the page's words."""
    driver = page
    by_id(driver, "move-input").send_keys("32:0@a1" + Keys.ENTER)
    wait(driver, lambda d: "refused" in text_of(d, "message"))
    status, data = call(
        js(driver, "return location.origin"), "/api/play", {"game": {"moves": []}, "move": "32:0@a1"}
    )
    assert status == 422 and data["error"] in text_of(driver, "message")
    assert json.dumps(data).count("Traceback") == 0


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_lan_access_token_is_refused_and_accepted(browser, size):
    """serve --lan: the page and its API answer only a browser that came by
    the address printed (the token then rides in a cookie, out of the address bar)."""
    from patchsolve.web import serving_in_thread

    driver = open_page(browser, size)
    token = f"token-for-the-{size}"
    with serving_in_thread("127.0.0.1", 0, token=token) as (lan, _server):
        driver.delete_all_cookies()
        driver.get(lan + "/")
        assert json.loads(driver.find_element(By.TAG_NAME, "body").text)["error"].startswith(
            "this server needs its access token"
        )
        driver.get(lan + "/?token=a-guess")
        assert json.loads(driver.find_element(By.TAG_NAME, "body").text) == {"error": "wrong access token"}
        driver.get(lan + f"/?token={token}")
        wait(driver, lambda d: d.execute_script("return !!(window.patchsolve && patchsolve.state.view)"))
        assert driver.current_url == lan + "/"  # the token left the address bar
        press(driver, by_id(driver, "walk"))  # the API answers the page
        wait(driver, lambda d: len(moves_listed(d)) == 1 and "walk" in moves_listed(d)[0])
        no_sideways_scroll(driver)
        status, data = call(lan, "/api/patches")  # and nobody without the token
        assert status == 401
    driver.delete_all_cookies()
