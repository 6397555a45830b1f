"""Headless Chromium (Debian's chromium + chromium-driver) driven by
Selenium with the system chromedriver, so nothing is downloaded."""

from __future__ import annotations

import os
import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


# .ci/run sets this: there a missing browser or web package fails the tests
# instead of skipping them
REQUIRED = os.environ.get("PATCHSOLVE_REQUIRE_WEB") == "1"


def need(module: str):
    """``pytest.importorskip`` for an optional package, unless CI requires it."""
    import importlib

    import pytest

    if REQUIRED:
        return importlib.import_module(module)
    return pytest.importorskip(module)


def have_chromium() -> bool:
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


def headless_chromium(width=1400, height=1000):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_AVOID_STATS", "true")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
    ):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
