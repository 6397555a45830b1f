"""The page in a real headless browser: load it, play a move by clicking a
patch and a square, see the engine answer, see an illegal placement refused,
set up a position by pasting its text and ask for the best move, and the
set-up from the table: the hidden game locked, the set-up started from the
position shown, questions asked only when they matter."""

from pathlib import Path

import pytest

from browser import REQUIRED, have_chromium, headless_chromium, need  # noqa: E402

need("starlette")
need("uvicorn")
need("selenium")
import patchsolve as ps  # noqa: E402
from patchsolve import Game  # noqa: E402
from patchsolve.position import parse_square  # noqa: E402
from webserver import call, running_server  # noqa: E402

if not have_chromium() and REQUIRED:
    raise RuntimeError("PATCHSOLVE_REQUIRE_WEB=1 but chromium / chromedriver are missing")
if not have_chromium():
    pytest.skip(
        "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)",
        allow_module_level=True,
    )

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
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
    return WebDriverWait(
        driver, timeout, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda d: cond(d))


def moves_listed(driver):
    """The move list's texts, read in one step in the page (no stale elements)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#move-list li'), li => li.innerText)"
    )


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
    wait(driver, lambda d: f"patch {pid}" in d.find_element(By.ID, "selection").text)
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
    wait(
        driver,
        lambda d: (
            "Player 0 to move" in d.find_element(By.ID, "status").text
            or "leather" in d.find_element(By.ID, "status").text
        ),
    )


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
    buyable = [
        e.get_attribute("data-patch") for e in driver.find_elements(By.CSS_SELECTOR, ".patch-card.buyable")
    ]
    assert buyable == [str(i) for i in view["fields"]["circle"][:3]]


# near the end, won for player 1 (the solver proves it in a few thousand nodes;
# benchmarks/solve_reach.json, position 5)
NEAR_END_WON = (
    "original 4,1,32,31,23,26,17,25,19,9,18 1fffff7fff9f83e0707c1/1fcc703c1e1f0fbeff7ff "
    "10/24 12/15 45/44 - 50 - - -"
)


def test_the_answer_says_what_the_solver_proved(page):
    driver, url = page
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("none")
    box = driver.find_element(By.ID, "io")
    box.clear()
    box.send_keys(NEAR_END_WON)
    # an earlier test's "loaded" must not pass for this load's
    driver.execute_script("document.getElementById('message').textContent = ''")
    driver.find_element(By.ID, "load").click()
    wait(driver, lambda d: d.find_element(By.ID, "message").text == "loaded")
    think = driver.find_element(By.ID, "think-time")
    think.clear()
    think.send_keys("0.3")
    driver.find_element(By.ID, "best").click()
    proof = wait(driver, lambda d: d.find_elements(By.ID, "proof"))[0].text
    assert "proven win" in proof


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
    rt = driver.find_element(By.ID, "review-nodes")
    rt.clear()
    rt.send_keys("3000")
    driver.find_element(By.ID, "review").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-graph rect.ply-hit"))
    driver.find_element(By.CSS_SELECTOR, "#review-graph rect.ply-hit[data-ply='2']").click()
    wait(driver, lambda d: f"move 2 of {len(short)}" in d.find_element(By.ID, "ply-info").text)


def test_the_review_lists_the_judged_moves_and_jumps_to_them(page):
    driver, url = page
    game = Game.read(GOLDEN)
    short = Game(game.position(16), game.moves[16:])
    box = driver.find_element(By.ID, "io")
    box.clear()
    box.send_keys(short.to_text())
    driver.find_element(By.ID, "load").click()
    wait(driver, lambda d: len(moves_listed(d)) == len(short))
    rt = driver.find_element(By.ID, "review-nodes")
    rt.clear()
    rt.send_keys("3000")
    driver.find_element(By.ID, "review").click()
    wait(driver, lambda d: "accuracy" in d.find_element(By.ID, "review-text").text, timeout=60)
    review = driver.execute_script("return state.review")
    judged = [m for m in review["moves"] if m["class"] in ("inaccuracy", "mistake", "blunder")]
    items = driver.find_elements(By.CSS_SELECTOR, "#review-text li.review-mistake")
    assert [int(li.get_attribute("data-ply")) for li in items] == [m["number"] - 1 for m in judged]
    assert items, "a game played by the noisy greedy player has judged moves"
    items[-1].click()
    target = judged[-1]["number"] - 1
    wait(driver, lambda d: f"move {target} of {len(short)}" in d.find_element(By.ID, "ply-info").text)
    # why? explains the move in the page (the measured terms of patchsolve.explain)
    driver.find_elements(By.CSS_SELECTOR, "#review-text a.why")[0].click()
    wait(driver, lambda d: d.find_element(By.ID, "why-text").text.startswith("best "))


def test_practise_the_mistakes_of_a_review(page):
    driver, url = page
    game = Game.read(GOLDEN)
    box = driver.find_element(By.ID, "io")
    box.clear()
    box.send_keys(game.to_text())
    driver.find_element(By.ID, "load").click()
    wait(driver, lambda d: len(moves_listed(d)) == len(game))
    rt = driver.find_element(By.ID, "review-nodes")
    rt.clear()
    rt.send_keys("3000")
    th = driver.find_element(By.ID, "threshold")
    th.clear()
    th.send_keys("2")
    driver.find_element(By.ID, "review").click()
    wait(driver, lambda d: d.find_element(By.ID, "practise").is_enabled(), timeout=60)
    driver.find_element(By.ID, "practise").click()
    wait(driver, lambda d: d.find_element(By.ID, "quiz-title").text.startswith("Exercise 1 of"), timeout=60)
    quiz = driver.execute_script("return state.quiz")
    first = quiz["exercises"][0]
    # the board shows the exercise's position: the one before the move that lost
    wait(
        driver,
        lambda d: f"move {first['number'] - 1} of {len(game)}" in d.find_element(By.ID, "ply-info").text,
    )
    driver.find_element(By.ID, "quiz-move").send_keys(first["best"])
    driver.find_element(By.ID, "quiz-check").click()
    wait(driver, lambda d: d.find_element(By.ID, "quiz-result").text.startswith(f"found: {first['best']}"))
    assert driver.find_element(By.ID, "quiz-score").text == "found 1 of 1 answered"


def test_the_quilt_map_and_an_engine_at_a_level(page):
    from patchsolve.levels import level_move

    driver, url = page
    # a new game, the engine off until the level is chosen
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("none")
    driver.find_element(By.ID, "new-game").click()
    wait(driver, lambda d: len(moves_listed(d)) == 0 and d.execute_script("return state.view.ply") == 0)
    driver.find_element(By.ID, "map").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#map-view svg rect.square"))
    assert len(driver.find_elements(By.CSS_SELECTOR, "#map-view svg rect.square")) == 162
    assert "at move 0" in driver.find_element(By.ID, "map-view").text
    # the engine plays player 0 at level 2: its first move is level 2's
    Select(driver.find_element(By.ID, "level")).select_by_value("2")
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("0")
    wait(driver, lambda d: len(moves_listed(d)) >= 1)
    # the map was of the position before that move: it is gone, not left beside the new one
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#map-view svg"))
    view = driver.execute_script("return state.view")
    first = ps.Game.from_text(view["record"]).moves[0]
    assert first == level_move(ps.Game.from_text(view["record"]).start, 2, seed=0)[0]


def test_paint_a_position_from_the_table_and_ask_for_the_best_move(page):
    driver, url = page
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("none")
    driver.find_element(By.ID, "new-game").click()
    wait(driver, lambda d: d.find_element(By.ID, "ply-info").text == "move 0 of 0")
    start = ps.Position.start(seed=0)
    pid = start.circle[0]
    driver.find_element(By.ID, "setup-start").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))
    lay(driver, pid, 0, "a1")
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
    wait(
        driver,
        lambda d: (
            d.find_elements(By.ID, "best-move")
            and d.find_element(By.ID, "best-move").text
            in {str(m) for m in start.play(f"{pid}:0@a1").legal_moves()}
        ),
    )


# -- the set-up: a hidden game must not be searched, played into or replaced ----------------

MID = (Path(__file__).parent / "data" / "mid_board.txt").read_text()  # the MID table of the new-user review
GAME_CONTROLS = (
    "best",
    "walk",
    "undo",
    "redo",
    "new-game",
    "review",
    "load",
    "show-position",
    "show-record",
    "download",
    "engine-side",
)


def fresh_game(driver):
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("none")
    driver.find_element(By.ID, "new-game").click()
    wait(
        driver,
        lambda d: (
            d.find_element(By.ID, "ply-info").text == "move 0 of 0"
            and d.find_elements(By.CSS_SELECTOR, "#board rect.sq")
        ),
    )


def start_setup(driver):
    driver.find_element(By.ID, "setup-start").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq"))


def type_into(driver, element_id, value):
    box = driver.find_element(By.ID, element_id)
    box.clear()
    box.send_keys(str(value))


def walk_to(driver, n):
    """Walk, and wait until the board shows move ``n`` as the last."""
    driver.find_element(By.ID, "walk").click()
    wait(driver, lambda d: d.find_element(By.ID, "ply-info").text == f"move {n} of {n}")


def shown_position(driver):
    driver.find_element(By.ID, "show-position").click()
    return ps.Position(driver.find_element(By.ID, "io").get_attribute("value"))


def test_the_game_controls_do_nothing_to_the_hidden_game_during_a_set_up(page):
    driver, url = page
    fresh_game(driver)
    driver.find_element(By.ID, "walk").click()
    wait(driver, lambda d: moves_listed(d) == ["walk"])
    type_into(driver, "think-time", 0.2)
    driver.find_element(By.ID, "best").click()
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))
    start_setup(driver)
    # the answer about the hidden game is not left beside the set-up
    assert driver.find_element(By.ID, "result").text == "" == driver.find_element(By.ID, "progress-text").text
    for element_id in GAME_CONTROLS:  # disabled, each with the reason on hover ...
        element = driver.find_element(By.ID, element_id)
        assert not element.is_enabled(), element_id
        assert "set-up" in element.get_attribute("title"), element_id
    # ... and said on the page, beside the game and the engine controls
    locks = [e for e in driver.find_elements(By.CSS_SELECTOR, "[data-lock]") if e.is_displayed()]
    assert len(locks) == 2 and all("Set-up in progress" in e.text for e in locks)
    # a click in the move list, the W key and a forced click on Best move leave the set-up and the game alone
    driver.find_element(By.CSS_SELECTOR, "#move-list li").click()
    wait(driver, lambda d: "finish the set-up" in d.find_element(By.ID, "message").text)
    driver.find_element(By.TAG_NAME, "body").send_keys("w")
    driver.execute_script(
        "document.getElementById('best').disabled = false; document.getElementById('best').click()"
    )
    assert driver.find_element(By.ID, "result").text == ""
    assert driver.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq")
    driver.find_element(By.ID, "setup-cancel").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.sq"))
    assert moves_listed(driver) == ["walk"]
    assert all(driver.find_element(By.ID, i).is_enabled() for i in GAME_CONTROLS)
    assert not any(e.is_displayed() for e in driver.find_elements(By.CSS_SELECTOR, "[data-lock]"))


def test_a_set_up_starts_from_the_position_shown_and_its_quilts_keep_their_patches(page):
    driver, url = page
    mid = ps.Position(MID)
    box = driver.find_element(By.ID, "io")
    box.clear()
    box.send_keys(MID)
    driver.find_element(By.ID, "load").click()
    wait(driver, lambda d: d.find_element(By.ID, "message").text == "loaded")
    # the board names each patch by its symbol (the labels drawn in the board text)
    symbols = {t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board svg text")}
    assert {"4", "7", "F", "9", "8", "2", "R"} <= symbols
    start_setup(driver)
    pieces = [len({x for x in mid.labels[p].values()}) for p in (0, 1)]
    titles = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board text.setup-title")]
    assert titles == [f"Player {p}: {pieces[p]} pieces" for p in (0, 1)]
    assert driver.find_element(By.ID, "setup-circle").get_attribute("value") == ",".join(map(str, mid.circle))
    for p in (0, 1):
        assert driver.find_element(By.ID, f"setup-buttons{p}").get_attribute("value") == str(mid.buttons(p))
        assert driver.find_element(By.ID, f"setup-time{p}").get_attribute("value") == str(mid.time(p))
    assert not driver.find_element(By.ID, "setup-on-top-row").is_displayed()  # 15/13: nothing to ask
    driver.find_element(By.ID, "setup-use").click()
    wait(driver, lambda d: d.find_element(By.ID, "message").text == "position set up")
    assert shown_position(driver) == mid
    symbols = {t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board svg text")}
    assert {"4", "7", "F", "9", "8", "2", "R"} <= symbols


def lay(driver, pid, player, square):
    driver.find_element(By.CSS_SELECTOR, f"#circle .patch-card[data-patch='{pid}']").click()
    wait(driver, lambda d: f"patch {pid} " in d.find_element(By.ID, "selection").text)
    driver.find_element(
        By.CSS_SELECTOR, f"#board rect.setup-sq[data-player='{player}'][data-square='{parse_square(square)}']"
    ).click()


def test_the_set_up_asks_who_is_on_top_only_when_the_tokens_share_a_space(page):
    driver, url = page
    fresh_game(driver)
    start = ps.Position.start(seed=0)
    pid = start.circle[0]
    patch = ps.position.PATCHES[pid]
    start_setup(driver)
    lay(driver, pid, 0, "a1")
    type_into(driver, "setup-buttons0", 5 - patch.buttons)
    type_into(driver, "setup-time0", patch.time)
    type_into(driver, "setup-time1", patch.time + 1)
    assert not driver.find_element(By.ID, "setup-on-top-row").is_displayed()
    type_into(driver, "setup-time1", patch.time)
    wait(driver, lambda d: d.find_element(By.ID, "setup-on-top-row").is_displayed())
    assert (
        Select(driver.find_element(By.ID, "setup-on-top")).first_selected_option.get_attribute("value") == ""
    )
    driver.find_element(By.ID, "setup-use").click()  # no answer: asked, not guessed
    wait(driver, lambda d: "whose token is on top" in d.find_element(By.ID, "setup-message").text)
    assert driver.find_elements(By.CSS_SELECTOR, "#board rect.setup-sq")
    Select(driver.find_element(By.ID, "setup-on-top")).select_by_value("1")
    driver.find_element(By.ID, "setup-use").click()
    wait(driver, lambda d: d.find_element(By.ID, "message").text == "position set up")
    pos = shown_position(driver)
    assert pos.fields()["on_top"] == 1 and pos.time(0) == pos.time(1) == patch.time


def test_the_set_up_derives_a_leather_patch_still_to_place(page):
    driver, url = page
    fresh_game(driver)
    start = ps.Position.start(seed=0)
    pid = start.circle[0]
    start_setup(driver)
    lay(driver, pid, 0, "a1")
    type_into(driver, "setup-buttons0", 5 - ps.position.PATCHES[pid].buttons)
    type_into(driver, "setup-time0", 27)  # past leather space 26, and no leather patch laid
    type_into(driver, "setup-time1", 13)
    driver.find_element(By.ID, "setup-use").click()
    wait(driver, lambda d: d.find_element(By.ID, "message").text == "position set up")
    assert "place the leather patch" in driver.find_element(By.ID, "status").text
    assert shown_position(driver).pending_leather


def test_the_status_and_the_result_box_never_show_stale_answers(page):
    driver, url = page
    fresh_game(driver)
    status = driver.find_element(By.ID, "status").text
    assert status == "Player 0 to move", status  # no "score if it ended now" of about -160 at the start
    type_into(driver, "think-time", 0.2)
    driver.find_element(By.ID, "best").click()
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))
    type_into(driver, "think-time", 5)
    driver.find_element(By.ID, "best").click()
    # while the new search runs the old answer is gone, not left to be read as the new one
    wait(driver, lambda d: "searching" in d.find_element(By.ID, "result").text)
    assert not driver.find_elements(By.ID, "best-move")
    driver.find_element(By.ID, "stop").click()
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))
    assert "stopped" in driver.find_element(By.ID, "result").text
    driver.find_element(By.ID, "walk").click()
    wait(driver, lambda d: "played walk" in d.find_element(By.ID, "message").text)
    assert "score if the game ended now" in driver.find_element(By.ID, "status").text
    driver.find_element(By.ID, "new-game").click()  # a new game starts without the old message
    wait(driver, lambda d: d.find_element(By.ID, "ply-info").text == "move 0 of 0")
    assert driver.find_element(By.ID, "message").text == ""


def test_the_next_patches_drawn_in_the_board_can_be_picked_there(page):
    driver, url = page
    fresh_game(driver)
    start = ps.Position.start(seed=0)
    pid = next(i for i in start.circle[:3] if ps.position.PATCHES[i].buttons <= 5)
    drawn = driver.find_elements(By.CSS_SELECTOR, "#board g.next-patch")
    assert [g.get_attribute("data-patch") for g in drawn] == [str(i) for i in start.circle[:3]]
    driver.find_element(By.CSS_SELECTOR, f"#board g.next-patch[data-patch='{pid}'] text").click()
    wait(driver, lambda d: f"patch {pid} " in d.find_element(By.ID, "selection").text)
    # hovering i9, where no orientation of the patch fits, shows the refusal (not nothing)
    from selenium.webdriver.common.action_chains import ActionChains

    square = driver.find_element(By.CSS_SELECTOR, f"#board rect.sq[data-square='{parse_square('i9')}']")
    ActionChains(driver).move_to_element(square).perform()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#ghost rect.anchor.refused"))
    square = driver.find_element(By.CSS_SELECTOR, f"#board rect.sq[data-square='{parse_square('a1')}']")
    ActionChains(driver).move_to_element(square).perform()
    wait(
        driver,
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#ghost rect.anchor")
            and not d.find_elements(By.CSS_SELECTOR, "#ghost rect.anchor.refused")
        ),
    )
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)


# player 1 to move, worth -16 for them (tests/test_solver.py)
LOST_THREE = (
    "revised 25,0,8,30,6,1,18,28,24,5,31,10,16,9,2,29 1ff7fbfffffbc1e060300/1fffff9fee63018040201 "
    "10/14 7/9 44/44 1 50 - - -"
)


def engine_idle(driver):
    return driver.execute_script("return document.getElementById('stop').disabled")


def answer_is_about_the_position_shown(driver):
    """If an answer is drawn, its move is legal in the position shown and it
    names the mover and the move number shown."""
    if not driver.find_elements(By.ID, "best-move"):
        return
    best = driver.find_element(By.ID, "best-move").text
    pos = shown_position(driver)
    ply = driver.find_element(By.ID, "ply-info").text.split()[1]
    assert best in {str(m) for m in pos.legal_moves()}, (best, pos.to_text())
    assert f"for player {pos.to_move} at move {ply}" in driver.find_element(By.ID, "result").text


def test_an_answer_is_never_drawn_beside_another_position(page):
    """Loading a position with the engine to move starts its move; a "Best
    move" pressed at once is refused as busy, not run beside it, and what is
    drawn when the engine has played is about the position then shown."""
    driver, url = page
    fresh_game(driver)
    Select(driver.find_element(By.ID, "engine-side")).select_by_value("1")
    type_into(driver, "move-time", 0.3)
    type_into(driver, "think-time", 0.3)
    type_into(driver, "io", LOST_THREE)
    driver.execute_script("document.getElementById('message').textContent = ''")
    driver.find_element(By.ID, "load").click()
    driver.find_element(By.ID, "best").click()
    wait(driver, lambda d: "played" in d.find_element(By.ID, "message").text)
    wait(driver, lambda d: engine_idle(d))
    answer_is_about_the_position_shown(driver)
    assert shown_position(driver).to_move == 0


def test_moving_away_during_a_search_sets_its_answer_aside(page):
    """A hint asked for at one move and answered after the player went to
    another is not drawn there; the engine is free again afterwards."""
    driver, url = page
    fresh_game(driver)
    walk_to(driver, 1)
    type_into(driver, "think-time", 5)
    driver.find_element(By.ID, "best").click()
    wait(driver, lambda d: "searching" in d.find_element(By.ID, "result").text)
    driver.find_element(By.ID, "undo").click()
    wait(driver, lambda d: d.find_element(By.ID, "ply-info").text == "move 0 of 1")
    wait(driver, lambda d: engine_idle(d))
    assert not driver.find_elements(By.ID, "best-move")
    assert "another position" in driver.find_element(By.ID, "result").text
    assert driver.find_element(By.ID, "progress-text").text == ""  # nor its progress
    type_into(driver, "think-time", 0.2)
    driver.find_element(By.ID, "best").click()
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))
    answer_is_about_the_position_shown(driver)


def test_a_ranked_row_that_is_a_bound_reads_as_one(page):
    """In the ranked table a bound's value reads "≤ -16" / "≥ 3"; an exact
    value or an estimate stands bare."""
    driver, url = page
    cell = "return cell({score: arguments[0], win_probability: 0.25, bound: arguments[1]}, arguments[2])"
    assert driver.execute_script(cell, -16, "upper", "score") == "\u2264 -16"
    assert driver.execute_script(cell, 3, "lower", "score") == "\u2265 3"
    assert driver.execute_script(cell, 3, "lower", "win_probability") == "\u2265 0.250"
    assert driver.execute_script(cell, -16, "exact", "score") == "-16"
    assert driver.execute_script(cell, -16, "upper", "bound") == "upper"
    # and so in the answer drawn for a position near the end
    fresh_game(driver)
    type_into(driver, "io", LOST_THREE)
    driver.execute_script("document.getElementById('message').textContent = ''")
    driver.find_element(By.ID, "load").click()
    wait(driver, lambda d: d.find_element(By.ID, "message").text == "loaded")
    type_into(driver, "think-time", 0.3)
    driver.find_element(By.ID, "best").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#result tr.playable"))
    header = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#result th")]
    rows = driver.execute_script(
        "return Array.from(document.querySelectorAll('#result tr.playable'),"
        " tr => Array.from(tr.children, td => td.textContent))"
    )
    score, bound = header.index("score"), header.index("bound")
    assert rows and rows[0][bound] == "exact" and rows[0][score] == "-16"
    for row in rows:
        assert row[score].startswith("\u2264 ") == (row[bound] == "upper"), row


def test_a_refused_search_leaves_no_searching_placeholder(page):
    driver, url = page
    fresh_game(driver)
    driver.execute_script("document.getElementById('message').textContent = ''")
    driver.execute_script("startSearch(-5, 'hint')")  # a time the server refuses (the form clamps it)
    wait(driver, lambda d: "error" in d.find_element(By.ID, "message").get_attribute("class"))
    wait(driver, lambda d: engine_idle(d))
    assert "searching" not in driver.find_element(By.ID, "result").text
    driver.find_element(By.ID, "best").click()  # and the engine is free again
    wait(driver, lambda d: d.find_elements(By.ID, "best-move"))


def test_a_finished_answer_goes_when_the_board_moves_on(page):
    """Its rows would play a move ranked for another position: the table
    is cleared when the page goes to another move."""
    driver, url = page
    fresh_game(driver)
    walk_to(driver, 1)
    type_into(driver, "think-time", 0.2)
    driver.find_element(By.ID, "best").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#result tr.playable"))
    driver.find_element(By.ID, "undo").click()
    wait(driver, lambda d: d.find_element(By.ID, "ply-info").text == "move 0 of 1")
    assert not driver.find_elements(By.CSS_SELECTOR, "#result tr.playable")
    assert not driver.find_elements(By.ID, "best-move")


def test_the_engine_takes_its_turn_after_a_review_held_it(page):
    """The engine is given the side to move while a review runs (busy then):
    once the review ends, it plays."""
    driver, url = page
    fresh_game(driver)
    walk_to(driver, 1)
    walk_to(driver, 2)
    mover = shown_position(driver).to_move
    type_into(driver, "review-nodes", 200000)
    type_into(driver, "move-time", 0.2)
    driver.find_element(By.ID, "review").click()
    Select(driver.find_element(By.ID, "engine-side")).select_by_value(str(mover))
    wait(driver, lambda d: d.find_element(By.ID, "ply-info").text == "move 3 of 3")
    assert driver.find_element(By.ID, "review-graph").find_elements(By.CSS_SELECTOR, "svg")
