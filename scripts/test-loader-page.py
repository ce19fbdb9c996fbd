#!/usr/bin/env python3
"""The loader page in a real browser.

Starts `statehub serve` on a fresh SQLite folder, publishes a store micro-app (the example cart
store plus a few lines that render its state into #app and add an item on a button press), and
opens /micro-apps/{app} in headless Chromium (Debian's chromium + chromium-driver, selenium from
PyPI). Checks that the store runtime is loaded from its content-hashed path with Subresource
Integrity, that the store runs and its state shows, and that a press changes the state shown;
then a plain Pinia bundle that never calls setActivePinia (the runtime activates one, as
`statehub run` does).
Fails, never skips, when a tool is missing.

Usage: scripts/test-loader-page.py PATH/TO/statehub
"""
import json, os, secrets, socket, subprocess, sys, tempfile, time, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
statehub = sys.argv[1]
work = tempfile.mkdtemp(prefix="statehub-loader-")
failures = []
# A wait ends at the event it waits for; the deadline only guards against a hang (docs/testing.md).
EVENT_WAIT_SECONDS = 120


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
token = secrets.token_hex(16)
base = "http://127.0.0.1:%d" % port
server = subprocess.Popen([statehub, "serve", "--data", os.path.join(work, "data"), "--port", str(port), "--log-level", "error"],
                          env=dict(os.environ, STATEHUB_ADMIN_TOKEN=token), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
driver = None
try:
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.1)

    def admin(method, path, body):
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method,
                                         headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        return urllib.request.urlopen(request, timeout=10).status

    render = """
;(function () {
  var cart = useCartStore();
  var button = document.createElement('button');
  button.id = 'add';
  button.textContent = 'Add a pen';
  button.onclick = function () { cart.add({ id: 'p2', name: 'Pen', price: 1.5 }); };
  document.body.appendChild(button);
  function render() {
    document.getElementById('app').textContent =
      JSON.stringify({ count: cart.count, total: cart.total, ids: cart.items.map(function (i) { return i.id; }) });
  }
  cart.$subscribe(render);
  render();
  cart.add({ id: 'p1', name: 'Notebook', price: 4.25, qty: 2 });
})();
"""
    bundle = open(os.path.join(ROOT, "js/examples/cart.js"), encoding="utf-8").read() + render
    check(admin("PUT", "/admin/apps/shop/versions/1.0.0", {"bundle": bundle, "minNativeVersion": "1.0.0"}) == 201,
          "a store micro-app is published")
    check(admin("PUT", "/admin/apps/shop/release", {"stable": "1.0.0"}) == 200, "its release is set")

    html = urllib.request.urlopen(base + "/micro-apps/shop?user=ada", timeout=10).read().decode()
    runtime_tags = [line for line in html.splitlines() if '<script src="/runtime/pinia-' in line]
    check(len(runtime_tags) == 1 and 'integrity="sha256-' in runtime_tags[0], "the page names the runtime with SRI")
    check(html.find("/runtime/pinia-") < html.find("/apps/shop/1.0.0/bundle.js"), "the runtime comes before the bundle")

    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,700"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.get(base + "/micro-apps/shop?user=ada")

    def shown():
        text = driver.find_element(By.ID, "app").text
        return json.loads(text) if text.startswith("{") else None

    try:
        WebDriverWait(driver, EVENT_WAIT_SECONDS).until(lambda d: (shown() or {}).get("count") == 2)
    except Exception:
        pass
    check(shown() == {"count": 2, "total": 8.5, "ids": ["p1"]}, "the store runs in the page and its state shows (%s)" % shown())
    check(driver.execute_script("return typeof StateHubPinia === 'object' && typeof defineStore === 'function'"),
          "the page has the Pinia runtime")
    driver.find_element(By.ID, "add").click()
    try:
        WebDriverWait(driver, EVENT_WAIT_SECONDS).until(lambda d: (shown() or {}).get("count") == 3)
    except Exception:
        pass
    check(shown() == {"count": 3, "total": 10, "ids": ["p1", "p2"]}, "an action from a press changes the state shown (%s)" % shown())
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]]
    check(not errors, "no errors in the browser console %s" % errors[:3])

    # An ordinary Pinia bundle: defineStore and useStore at its top level, no pinia of its own.
    plain = """
var useCounter = defineStore('counter', { state: function () { return { n: 41 }; }, actions: { inc: function () { this.n++; } } });
var counter = useCounter();
counter.inc();
document.getElementById('app').textContent = JSON.stringify({ n: counter.n });
"""
    check(admin("PUT", "/admin/apps/plain/versions/1.0.0", {"bundle": plain, "minNativeVersion": "1.0.0"}) == 201,
          "a plain Pinia bundle is published")
    check(admin("PUT", "/admin/apps/plain/release", {"stable": "1.0.0"}) == 200, "its release is set")
    driver.get(base + "/micro-apps/plain?user=ada")
    try:
        WebDriverWait(driver, EVENT_WAIT_SECONDS).until(lambda d: shown() is not None)
    except Exception:
        pass
    check(shown() == {"n": 42}, "a bundle that never activates a pinia runs (%s)" % shown())
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]]
    check(not errors, "no errors in the plain bundle's console %s" % errors[:3])
finally:
    if driver is not None:
        driver.quit()
    server.terminate()
    server.wait(timeout=30)

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all loader page checks passed")
