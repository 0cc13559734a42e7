"""A real browser for the tests of pages.

Headless Chromium (Debian's ``chromium`` and ``chromium-driver``, which ``.ci/run`` installs)
driven by Selenium (extra ``browser``).

Missing, the browser fails the test (never skips it): the pages are tested."""

from __future__ import annotations

import contextlib
import io
import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: Chromium's flags on these machines: no sandbox as root, and no background connections (the
#: network is closed: they would be refused, many at a time).
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1400,1000")


@contextlib.contextmanager
def chromium(profile):
    """A headless Chromium under Selenium, its profile in the folder ``profile``."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not shutil.which(path):
            pytest.fail(f"{path} is missing: apt-get install -y chromium chromium-driver ({package})")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS + (f"--user-data-dir={profile}",):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


def viewport(driver, width: int, height: int) -> None:
    """Make the page's window ``width`` x ``height`` CSS pixels, whatever the browser's own frame takes."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def assert_not_blank(png: bytes) -> None:
    """A screenshot with a picture on it: many colours, not one flat one."""
    import matplotlib.image

    img = matplotlib.image.imread(io.BytesIO(png), format="png")
    assert img.shape[0] > 300 and img.shape[1] > 300
    colours = {tuple(px) for px in img[::7, ::7, :3].reshape(-1, 3).round(2).tolist()}
    assert len(colours) > 20 and img[..., :3].std() > 0.05
