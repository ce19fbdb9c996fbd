"""What a browser test against `statehub serve` needs: checks that print and count, a server on a
free loopback port over a fresh data folder, and headless Chromium (Debian's chromium +
chromium-driver, selenium from PyPI). Used by scripts/test-console.py; test-loader-page.py and
test-trace-view.py could use it too.
"""
import os, socket, subprocess, sys, time, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


class Checks:
    """Prints `ok` / `FAIL` per check; `finish` exits 1 when any failed."""

    def __init__(self):
        self.failures = []

    def __call__(self, condition, what):
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            self.failures.append(what)

    def finish(self, name):
        if self.failures:
            print("%d check(s) failed" % len(self.failures))
            sys.exit(1)
        print("all %s checks passed" % name)


def start_server(statehub, data, token):
    """`statehub serve` with `token` as its admin token; returns (process, base URL) once /healthz answers."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    base = "http://127.0.0.1:%d" % port
    server = subprocess.Popen([statehub, "serve", "--data", data, "--port", str(port), "--log-level", "error"],
                              env=dict(os.environ, STATEHUB_ADMIN_TOKEN=token), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    return server, base


def headless_chromium(width, height):
    """Headless Chromium with the browser's console log kept (`driver.get_log("browser")`)."""
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=%d,%d" % (width, height)]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
