"""What both browser test scripts share: the check that records failures, waiting for a condition,
and headless Chromium (Debian's chromium and chromedriver) as they drive it."""
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def eventually(condition, seconds=8):
    """Waits until condition() is true (checked every 0.1 s); never raises on a timeout."""
    end = time.time() + seconds
    while time.time() < end:
        try:
            if condition():
                return True
        except Exception:
            pass
        time.sleep(0.1)
    return False


def chromium(logs=("performance",), prefs=None):
    """Headless Chromium with the given logs kept (`driver.get_log`) and download preferences."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1500",
                     "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-default-apps"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {log: "ALL" for log in logs})
    if prefs:
        options.add_experimental_option("prefs", prefs)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver
