"""Screenshot of the web app (``patchsolve serve``) in headless Chromium.

Loads the golden game's first 24 moves, reviews them, selects a patch with
the pointer over the quilt, asks the engine for the best move, and saves a
PNG; then paints two patches in set-up mode and saves a second PNG
(``..._setup.png``). Needs the [web] extra, selenium, and Debian's chromium +
chromium-driver (the system chromedriver: nothing is downloaded).

    python benchmarks/tools/web_screenshot.py [OUT.png]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from patchsolve import Game
from patchsolve.web import serving_in_thread

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "benchmarks" / "results" / "web_screenshot.png"


def driver():
    os.environ.setdefault("SE_AVOID_STATS", "true")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1500,1450"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def set_value(d, element_id, value):
    el = d.find_element(By.ID, element_id)
    el.clear()
    el.send_keys(value)


def setup_screenshot(d, wait):
    d.find_element(By.ID, "new-game").click()
    wait.until(lambda x: x.find_element(By.ID, "ply-info").text == "move 0 of 0")
    d.find_element(By.ID, "setup-start").click()
    for patch, player, square in ((4, 0, 0), (8, 0, 20), (30, 1, 40)):
        d.find_element(By.CSS_SELECTOR, f"#circle .patch-card[data-patch='{patch}']").click()
        d.find_element(
            By.CSS_SELECTOR, f"#board rect.setup-sq[data-player='{player}'][data-square='{square}']"
        ).click()
    d.find_element(By.ID, "setup-leather").click()
    d.find_element(By.CSS_SELECTOR, "#board rect.setup-sq[data-player='1'][data-square='80']").click()
    d.find_element(By.CSS_SELECTOR, "#circle .patch-card[data-patch='21']").click()
    d.find_element(By.TAG_NAME, "body").send_keys("r")
    ActionChains(d).move_to_element(
        d.find_element(By.CSS_SELECTOR, "#board rect.setup-sq[data-player='1'][data-square='3']")
    ).perform()
    time.sleep(0.3)
    d.save_screenshot(str(OUT.with_name(OUT.stem + "_setup.png")))


def main():
    game = Game.read(ROOT / "tests" / "data" / "golden_game.txt")
    record = Game(game.start, game.moves[:24]).to_text()
    with serving_in_thread() as (url, _server):
        d = driver()
        try:
            d.get(url + "/")
            wait = WebDriverWait(d, 60, poll_frequency=0.1)
            wait.until(lambda x: x.find_elements(By.CSS_SELECTOR, "#board rect.sq"))
            Select(d.find_element(By.ID, "engine-side")).select_by_value("none")
            set_value(d, "io", record)
            d.find_element(By.ID, "load").click()
            wait.until(lambda x: len(x.find_elements(By.CSS_SELECTOR, "#move-list li")) == 24)
            set_value(d, "review-time", "0.1")
            d.find_element(By.ID, "review").click()
            wait.until(lambda x: x.find_elements(By.CSS_SELECTOR, "#review-graph rect.ply-hit"))
            set_value(d, "think-time", "1")
            d.find_element(By.ID, "best").click()
            wait.until(lambda x: x.find_elements(By.ID, "best-move"))
            card = d.find_elements(By.CSS_SELECTOR, ".patch-card.buyable:not(.unaffordable)")[0]
            card.click()
            d.find_element(By.TAG_NAME, "body").send_keys("r")
            square = d.find_element(By.CSS_SELECTOR, "#board rect.sq[data-square='60']")
            ActionChains(d).move_to_element(square).perform()
            time.sleep(0.3)
            OUT.parent.mkdir(parents=True, exist_ok=True)
            d.save_screenshot(str(OUT))
            setup_screenshot(d, wait)
        finally:
            d.quit()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
