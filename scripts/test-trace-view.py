#!/usr/bin/env python3
"""`statehub trace view` in a real browser.

Records a trace of the example stores and micro-app with `statehub run --trace`, then checks
the timeline page in headless Chromium (Debian's chromium + chromium-driver, selenium from
PyPI): once as the self-contained file `trace view --html OUT` writes, once served by
`trace view` on 127.0.0.1. Moves the slider and checks the state shown at that step; checks
grouping under actions, old → new values, bridge calls inline and the filters. Saves a
screenshot (docs/trace-view.png when STATEHUB_SCREENSHOT is set). Fails, never skips, when a
tool is missing.

Usage: scripts/test-trace-view.py PATH/TO/statehub
"""
import json, os, subprocess, sys, tempfile, time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
statehub = sys.argv[1]
work = tempfile.mkdtemp(prefix="statehub-view-")
trace = os.path.join(work, "demo.ndjson")
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


run = subprocess.run([statehub, "run", "js/examples/user.js", "js/examples/cart.js", "js/examples/micro-app.js",
                      "--dispatch", "user.login", '["ada"]',
                      "--dispatch", "cart.add", '[{"id":"p1","name":"Pen","price":1.5,"qty":2}]',
                      "--dispatch", "cart.add", '[{"id":"p2","name":"Notebook","price":4.25}]',
                      "--dispatch", "cart.remove", '["p1"]',
                      "--trace", trace], cwd=ROOT, capture_output=True, text=True)
check(run.returncode == 0, "statehub run records a trace (%s)" % run.stderr.strip()[:300])
def shown_steps(path):
    """The steps of `trace show --json`: one JSON object whose `steps` array has an entry per step."""
    shown = json.loads(subprocess.run([statehub, "trace", "show", "--json", path], capture_output=True, text=True, check=True).stdout)
    return shown["steps"]


steps = shown_steps(trace)
# The step right after the first cart.add's mutation: the cart holds the pen, qty 2.
pen_step = next(i for i, s in enumerate(steps) if s.get("action") == "cart.add" and s["type"] == "apply_mutation")
login_step = next(i for i, s in enumerate(steps) if s.get("action") == "user.login" and s["type"] == "apply_mutation")

page = os.path.join(work, "timeline.html")
out = subprocess.run([statehub, "trace", "view", trace, "--html", page], capture_output=True, text=True)
check(out.returncode == 0 and os.path.getsize(page) > 0, "trace view --html writes one file")
html = open(page, encoding="utf-8").read()
check("<script src" not in html and "<link" not in html and "http://" not in html.split("<script id=\"trace-data\"")[0],
      "the page loads nothing from elsewhere")

options = Options()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def state_text():
    return driver.find_element(By.ID, "state").text


def move_slider(index):
    slider = driver.find_element(By.ID, "slider")
    # A real range input, moved by script as a user's drag would: value, then an input event.
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", slider, index)


def exercise(url, label):
    driver.get(url)
    groups = [g.find_element(By.CLASS_NAME, "group-title").text for g in driver.find_elements(By.CLASS_NAME, "group")]
    check(any(g.startswith("cart.add") for g in groups), "%s: rows grouped under cart.add" % label)
    check(any(g.startswith("user.login") for g in groups), "%s: rows grouped under user.login" % label)
    check(int(driver.find_element(By.ID, "slider").get_attribute("max")) == len(steps) - 1, "%s: the slider spans every step" % label)
    body = driver.find_element(By.ID, "timeline").text
    check("false → true" in body, "%s: old → new values shown (loggedIn false → true)" % label)
    check("invoke" in body or "reply" in body, "%s: bridge calls inline" % label)

    move_slider(login_step)
    state = json.loads(state_text())
    check(state.get("user", {}).get("loggedIn") is True and state.get("cart", {}).get("items") == [],
          "%s: at step %d the user is logged in and the cart is empty" % (label, login_step))
    move_slider(pen_step)
    state = json.loads(state_text())
    items = state.get("cart", {}).get("items", [])
    check(len(items) == 1 and items[0].get("id") == "p1" and items[0].get("qty") == 2,
          "%s: at step %d the cart holds the pen, qty 2 (got %s)" % (label, pen_step, items))
    check("step #%d" % steps[pen_step]["step"] in driver.find_element(By.ID, "step-label").text, "%s: the label names the step" % label)
    selected = driver.find_elements(By.CSS_SELECTOR, ".row.selected")
    check(len(selected) == 1 and selected[0].get_attribute("data-step") == str(pen_step), "%s: the selected row follows the slider" % label)
    move_slider(0)
    check("cart" not in json.loads(state_text()) or json.loads(state_text()).get("cart", {}).get("items") == [],
          "%s: at step 0 the pen is not there yet" % label)

    # Filters: store, then channel.
    driver.execute_script("var s = document.getElementById('store-filter'); s.value = 'cart'; s.dispatchEvent(new Event('change'));")
    stores = {r.find_element(By.CLASS_NAME, "store").text.strip() for r in driver.find_elements(By.CLASS_NAME, "row")}
    check(stores == {"cart"}, "%s: the store filter keeps only cart rows (%s)" % (label, sorted(stores)))
    check(set(json.loads(state_text()).keys()) <= {"cart"}, "%s: the state panel follows the store filter" % label)
    driver.execute_script("var s = document.getElementById('store-filter'); s.value = ''; s.dispatchEvent(new Event('change'));")
    driver.find_element(By.ID, "channel-bridge").click()
    check(not driver.find_elements(By.CSS_SELECTOR, ".row.bridge"), "%s: the bridge filter hides bridge calls" % label)
    driver.find_element(By.ID, "channel-bridge").click()
    check(bool(driver.find_elements(By.CSS_SELECTOR, ".row.bridge")), "%s: and shows them again" % label)


def nested_actions():
    """A native-dispatched action that calls another action after an `await`: one group."""
    store = os.path.join(work, "shop.js")
    with open(store, "w", encoding="utf-8") as f:
        f.write("""
const useShop = defineStore('shop', {
  state: () => ({ points: 0, done: false }),
  actions: {
    addPoints(n) { this.points += n },
    async checkout() {
      this.addPoints(1)
      await new Promise(resolve => setTimeout(resolve, 1))
      this.addPoints(5)
      this.done = true
    },
  },
})
useShop()
""")
    nested = os.path.join(work, "nested.ndjson")
    run = subprocess.run([statehub, "run", store, "--dispatch", "shop.checkout", "--trace", nested], cwd=ROOT, capture_output=True, text=True)
    check(run.returncode == 0, "a trace of an action with nested actions after an await (%s)" % run.stderr.strip()[:300])
    nested_steps = shown_steps(nested)
    writes = [s for s in nested_steps if s["type"] == "apply_mutation"]
    check(bool(writes) and all(s.get("action") == "shop.checkout" for s in writes),
          "every write of shop.checkout, before and after its await, is in shop.checkout (%s)" % [s.get("action") for s in writes])
    nested_page = os.path.join(work, "nested.html")
    subprocess.run([statehub, "trace", "view", nested, "--html", nested_page], check=True, capture_output=True)
    driver.get("file://" + nested_page)
    titles = [g.find_element(By.CLASS_NAME, "group-title").text for g in driver.find_elements(By.CLASS_NAME, "group")]
    action_titles = [t for t in titles if t.startswith("shop.")]
    check(len(action_titles) == 1 and action_titles[0].startswith("shop.checkout"),
          "the page shows one group, shop.checkout, not one per nested action (%s)" % titles)
    body = driver.find_element(By.ID, "timeline").text
    check("points: 1 → 6" in body, "the write after the await is in the group, old → new (points: 1 → 6)")


try:
    exercise("file://" + page, "file")
    nested_actions()
    server = subprocess.Popen([statehub, "trace", "view", trace, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        url = line[line.index("http://"):].split()[0]
        check(url.startswith("http://127.0.0.1:"), "trace view serves on loopback (%s)" % url)
        exercise(url, "served")
        move_slider(pen_step)
        shot = os.environ.get("STATEHUB_SCREENSHOT") or os.path.join(work, "trace-view.png")
        driver.save_screenshot(shot)
        check(os.path.getsize(shot) > 10_000, "screenshot saved to %s" % shot)
    finally:
        server.terminate()
        server.wait(timeout=10)
finally:
    driver.quit()

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("trace view: all checks passed")
