#!/usr/bin/env python3
"""The console in a real browser, against a real `statehub serve`.

Starts `statehub serve` on a fresh SQLite folder, uploads two versions of a micro-app and
publishes theme 1.1.0 through the admin API (what a pipeline does), then drives /console in
headless Chromium (Debian's chromium + chromium-driver, selenium from PyPI), the server being a
copy of the binary in a temporary folder (the console is embedded, no build folder beside it):
a wrong token is refused; sign in with the keyboard; an invalid theme shows every problem at its
JSON path with its line marked; the fixed theme previews in light and dark mode with the very
custom properties the server produces, publishes, and GET /themes/current then returns it with a
new ETag; a 50% rollout saved in the release editor answers "what does user X get?" for several
users exactly as the manifest route does; pin, lift the pin and roll back; the page fits a
phone-sized window and every field has a label. Saves a screenshot of each screen into the folder
named by STATEHUB_SCREENSHOTS when it is set. Fails, never skips, when a tool is missing.

Usage: scripts/test-console.py PATH/TO/statehub
"""
import base64, hashlib, json, os, re, secrets, shutil, subprocess, sys, tempfile, time, urllib.error, urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_support import Checks, headless_chromium, start_server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp(prefix="statehub-console-")
# A copy of the binary, away from its build folder: the console is embedded in it.
statehub = shutil.copy(sys.argv[1], os.path.join(work, "statehub"))
screenshots = os.environ.get("STATEHUB_SCREENSHOTS")
check = Checks()
token = secrets.token_hex(16)
server, base = start_server(statehub, os.path.join(work, "data"), token)
driver = None


def call(method, path, body=None, auth=True, raw=None):
    """(status, headers, parsed body) of one request; HTTP errors are answers, not exceptions."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
            return response.status, response.headers, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        return error.code, error.headers, (json.loads(text) if text.startswith("{") else text)


# A wait ends at the event it waits for; the deadline only guards against a hang (docs/testing.md):
# on a loaded machine the server may take far longer than usual to answer, never this long.
EVENT_WAIT_SECONDS = 120


def wait_for(condition, seconds=EVENT_WAIT_SECONDS):
    try:
        WebDriverWait(driver, seconds).until(lambda d: condition())
        return True
    except Exception:
        return False


def shot(name, at=None):
    """A screenshot of the window, scrolled to the element with id `at` (docs/console.md shows them)."""
    if screenshots:
        os.makedirs(screenshots, exist_ok=True)
        if at:
            driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", at)
        driver.save_screenshot(os.path.join(screenshots, "console-%s.png" % name))


def table(id):
    """The cells of a table's body, read in one call (each render replaces the rows)."""
    return driver.execute_script("return Array.from(document.getElementById(arguments[0]).tBodies[0].rows)"
                                 ".map(r => Array.from(r.cells).map(c => c.textContent))", id)


def confirm_dialog():
    """The in-page confirmation of a production change: its title and lines, once it is open."""
    wait_for(lambda: driver.execute_script("return document.getElementById('confirm').open"))
    return driver.execute_script("var d = document.getElementById('confirm'); return d.open ? "
                                 "document.getElementById('confirm-title').textContent + ' | ' + "
                                 "Array.from(d.querySelectorAll('li')).map(l => l.textContent).join(' | ') : null")


def confirm():
    """Says yes to the confirmation that the last click opened; returns what it said."""
    said = confirm_dialog()
    check(said is not None, "the change asks for confirmation first (%s)" % said)
    if said is not None:
        driver.find_element(By.ID, "confirm-yes").click()
        wait_for(lambda: not driver.execute_script("return document.getElementById('confirm').open"))
    return said or ""


def bucket(app, user):
    return int.from_bytes(hashlib.sha256(("%s:%s" % (app, user)).encode()).digest()[:4], "big") % 10000


try:
    # What a pipeline did before anyone opened the console.
    # 1.1.0 carries a signature of the right form that nothing signed: the server cannot tell.
    claimed = {"keyId": "0123456789abcdef", "value": base64.b64encode(bytes(64)).decode()}
    for version in ["1.0.0", "1.1.0"]:
        body = {"bundle": "globalThis.shop = '%s';" % version, "minNativeVersion": "1.0.0"}
        if version == "1.1.0":
            body["signature"] = claimed
        status, _, _ = call("PUT", "/admin/apps/shop/versions/" + version, body)
        check(status == 201, "version %s is uploaded" % version)
    check(call("PUT", "/admin/apps/shop/release", {"stable": "1.0.0"})[0] == 200, "the first release is set")
    standard = open(os.path.join(ROOT, "examples/themes/standard.json"), encoding="utf-8").read()
    check(call("PUT", "/admin/themes/1.1.0", raw=standard.encode())[0] == 201, "theme 1.1.0 is uploaded")
    check(call("POST", "/admin/themes/1.1.0/publish")[0] == 200, "theme 1.1.0 is published")
    status, headers, before = call("GET", "/themes/current?nativeVersion=1.0.0", auth=False)
    old_etag = headers.get("ETag")
    check(status == 200 and before["metadata"]["version"] == "1.1.0" and old_etag, "/themes/current answers 1.1.0 before")

    # The console's own routes refuse a wrong token like every admin route.
    for path in ["/admin/console/apps", "/admin/console/themes"]:
        status, headers, body = call("GET", path, auth=False)
        check(status == 401 and headers.get("WWW-Authenticate") == "Bearer", "%s without a token is 401" % path)

    driver = headless_chromium(1200, 900)
    driver.get(base + "/console")
    check(wait_for(lambda: driver.execute_script("return document.documentElement.dataset.ready === 'true'")),
          "the console starts (its script ran on the runtime)")
    check(driver.execute_script("return typeof StateHubPinia === 'object' && typeof defineStore === 'function'"),
          "the page runs on the store runtime the loader page ships")
    unlabelled = driver.execute_script(
        "return Array.from(document.querySelectorAll('input, select, textarea')).filter(e => !e.labels || e.labels.length === 0).map(e => e.id)")
    check(unlabelled == [], "every field has a label (%s)" % unlabelled)

    # A wrong token is refused.
    field = driver.find_element(By.ID, "token")
    field.send_keys("shk_wrong-token", Keys.ENTER)
    check(wait_for(lambda: "refused" in driver.find_element(By.ID, "sign-in-status").text),
          "a wrong token is refused (%s)" % driver.find_element(By.ID, "sign-in-status").text)
    check(not driver.find_element(By.ID, "themes-screen").is_displayed() and not driver.find_element(By.ID, "nav").is_displayed(),
          "nothing of the console shows after a refused token")
    shot("sign-in")
    # An empty token: the browser refuses the form, and the status line says so instead of the old refusal.
    field.send_keys(Keys.ENTER)
    check(wait_for(lambda: driver.find_element(By.ID, "sign-in-status").text.startswith("Not sent: Admin token")),
          "a form the browser refuses replaces the status line (%s)" % driver.find_element(By.ID, "sign-in-status").text)

    # Sign in with the keyboard: the field, Enter.
    field.send_keys(token, Keys.ENTER)
    check(wait_for(lambda: driver.find_element(By.ID, "themes-screen").is_displayed()), "signed in, the themes screen shows")
    check(wait_for(lambda: driver.execute_script("return document.activeElement.id") == "theme-text"),
          "after sign-in the focus is on the theme editor, the screen's first useful control (%s)"
          % driver.execute_script("return document.activeElement.id"))
    kept = driver.execute_script("""
        var token = arguments[0];
        return { url: location.href.indexOf(token) >= 0, cookie: document.cookie, local: localStorage.length, session: sessionStorage.length,
                 stores: JSON.stringify(getActivePinia().state.value).indexOf(token) >= 0,
                 field: document.getElementById('token').value };""", token)
    check(kept == {"url": False, "cookie": "", "local": 0, "session": 0, "stores": False, "field": ""},
          "the token is in no URL, cookie, storage, store state or field (%s)" % kept)

    # An invalid theme: every problem at its path, each line marked.
    def paste(text):
        driver.execute_script("var t = document.getElementById('theme-text'); t.value = arguments[0]; "
                              "t.dispatchEvent(new Event('input'));", text)
        driver.find_element(By.ID, "theme-check").click()

    broken = open(os.path.join(ROOT, "examples/themes/broken.json"), encoding="utf-8").read()
    paste(broken)
    check(wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#theme-problems li")) > 0), "the check answers")
    shown = [(e.get_attribute("data-path"), e.get_attribute("data-line"))
             for e in driver.find_elements(By.CSS_SELECTOR, "#theme-problems li")]
    expected = [("metadata.version", "3"), ("metadata.author", "5"), ("colors.accent", "9"), ("fonts.body.size", "13"),
                ("components.primaryButton.backgroundColor", "17"), ("components.primaryButton.cornerRadius", "19"),
                ("components.primaryButton.font", "20"), ("components.cardView.elevation", "24"),
                ("components.cardView.shadow.opacity", "25"), ("dark.colors.secondary", "29")]
    check(shown == expected, "every problem shows at its JSON path and line (%s)" % shown)
    problem_texts = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#theme-problems li")]
    check(all(path in text for (path, _), text in zip(expected, problem_texts)) and "#12345G" in problem_texts[2],
          "each problem names its path and the server's message")
    marked = sorted(int(e.get_attribute("id").split("-")[-1]) for e in driver.find_elements(By.CSS_SELECTOR, "#theme-source li.marked"))
    check(marked == sorted({int(line) for _, line in expected}), "the offending lines are marked (%s)" % marked)
    lines = broken.split("\n")
    check(all(driver.find_element(By.ID, "theme-line-%d" % n).text == lines[n - 1] for n in marked),
          "each marked line shows the pasted text of that line")
    check(driver.find_element(By.CSS_SELECTOR, "#theme-line-9 mark").text.strip().startswith('"accent"'), "line 9 is marked at \"accent\"")
    driver.find_element(By.CSS_SELECTOR, "#theme-problems li[data-path='colors.accent'] a").send_keys(Keys.ENTER)
    check(wait_for(lambda: driver.execute_script("return document.activeElement.id") == "theme-line-9"),
          "a problem's link moves the focus to its line (keyboard)")
    check(not driver.find_element(By.ID, "theme-publish").is_enabled(), "an invalid theme cannot be published")
    check(not driver.find_element(By.ID, "theme-preview-section").is_displayed(), "an invalid theme has no preview")
    shot("theme-problems", "theme-problems-section")

    # The fixed theme: preview in light and dark with the server's variables.
    fixed = open(os.path.join(ROOT, "examples/themes/standard-dark.json"), encoding="utf-8").read()
    paste(fixed)
    check(wait_for(lambda: driver.find_element(By.ID, "theme-preview-section").is_displayed()), "the fixed theme previews")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#theme-problems li")) == 0, "the fixed theme has no problems")
    _, _, served = call("POST", "/admin/console/theme-check", raw=fixed.encode())
    stylesheet = served["stylesheet"]
    root, dark_part = stylesheet.split("@media (prefers-color-scheme: dark)")
    declarations = dict(re.findall(r"(--[a-z0-9-]+): ([^;]+);", root))
    dark = dict(declarations, **dict(re.findall(r"(--[a-z0-9-]+): ([^;]+);", dark_part)))
    read = "return Object.fromEntries(arguments[1].map(n => [n, getComputedStyle(document.getElementById(arguments[0])).getPropertyValue(n).trim()]))"
    check(driver.execute_script(read, "preview-light", list(declarations)) == declarations,
          "the light preview carries every variable of the server's stylesheet, with its value")
    check(driver.execute_script(read, "preview-dark", list(dark)) == dark,
          "the dark preview carries the stylesheet's dark values over its root ones")
    style = "var e = document.querySelector(arguments[0]); var s = getComputedStyle(e); return [s.backgroundColor, s.color, s.borderRadius, s.boxShadow]"
    light_button = driver.execute_script(style, "#preview-light [data-component=primaryButton]")
    dark_button = driver.execute_script(style, "#preview-dark [data-component=primaryButton]")
    card = driver.execute_script(style, "#preview-light [data-component=cardView]")
    check(light_button[:3] == ["rgb(0, 122, 255)", "rgb(255, 255, 255)", "12px"], "the light button is drawn from the variables (%s)" % light_button)
    check(dark_button[0] == "rgb(10, 132, 255)", "the dark button takes the dark primary colour (%s)" % dark_button)
    check(card[0] == "rgb(255, 255, 255)" and card[2] == "16px" and "0px 4px 8px" in card[3] and re.search(r"(rgba\(0, 0, 0, 0\.1\d*\)|color\(srgb 0 0 0 / 0\.1\d*\))", card[3]) is not None,
          "the card has its radius and its shadow (%s)" % card)
    panels = driver.execute_script("return ['preview-light', 'preview-dark'].map(id => getComputedStyle(document.getElementById(id)).backgroundColor)")
    check(panels == ["rgb(242, 242, 247)", "rgb(0, 0, 0)"], "the panels take the theme's background in each mode (%s)" % panels)
    warned = driver.execute_script("return ['preview-light', 'preview-dark'].map(id => Array.from("
                                   "document.querySelectorAll('#' + id + ' .contrast-warnings li')).map(e => [e.dataset.name, e.dataset.ratio]))")
    # The white card inherits the dark theme's white text (1:1); on the light panel its text is #1C1C1E on white.
    check(["cardView", "1"] in warned[1] and all(name != "cardView" for name, _ in warned[0]),
          "the dark preview warns that the card's text has no contrast, the light one does not (%s)" % warned)
    # iOS blue under white text is 4.0:1, under AA's 4.5:1, in both modes.
    check(["primaryButton", "4"] in warned[0], "the light preview names the button's contrast (%s)" % warned[0])
    fonts = driver.execute_script("return Array.from(document.querySelectorAll('#preview-light .font-sample')).map(e => getComputedStyle(e).fontSize)")
    check(fonts == ["28px", "17px", "12px"], "a line of text per font at its size (%s)" % fonts)
    check(wait_for(lambda: driver.find_element(By.ID, "theme-diff-section").is_displayed()), "the diff against the published theme shows")
    changes = driver.execute_script("return Array.from(document.querySelectorAll('#theme-diff tbody tr'))"
                                    ".map(r => [r.dataset.path, r.dataset.kind].concat(Array.from(r.cells).slice(2).map(c => c.textContent)))")
    check(changes == [["metadata.version", "changed", '"1.1.0"', '"1.2.0"'],
                      ["metadata.description", "changed", '"Standard theme with updated primary button style."',
                       '"Standard theme with dark-appearance colours."']]
          + [["dark.colors." + name, "added", "—", '"%s"' % value] for name, value in
             [("primary", "#0A84FF"), ("secondary", "#5E5CE6"), ("background", "#000000"), ("textPrimary", "#FFFFFF"),
              ("textSecondary", "#8D8D93"), ("error", "#FF453A")]],
          "the diff against 1.1.0 lists every changed and added path (%s)" % changes)
    check("against 1.1.0" in driver.find_element(By.ID, "theme-diff-summary").text, "the diff names the published theme")
    shot("theme-preview", "theme-preview-section")

    # A theme without a dark block: the dark panel says so and shows the light values on light fallbacks.
    paste(open(os.path.join(ROOT, "examples/themes/standard.json"), encoding="utf-8").read())
    check(wait_for(lambda: driver.execute_script("return document.getElementById('preview-dark').dataset.fallback") == "light"),
          "a theme without a dark block previews dark mode with the light values")
    panels = driver.execute_script("return ['preview-light', 'preview-dark'].map(id => getComputedStyle(document.getElementById(id)).backgroundColor)")
    check(panels[0] == panels[1] == "rgb(242, 242, 247)", "both panels show the theme's one background (%s)" % panels)
    note = driver.execute_script("var n = document.querySelector('#preview-dark .preview-note'); return n && n.textContent")
    check(note is not None and "no dark block" in note, "the dark panel says the theme has no dark block (%s)" % note)
    paste(fixed)
    check(wait_for(lambda: driver.execute_script("return document.getElementById('preview-dark').dataset.fallback") == "dark"),
          "the fixed theme previews again")

    # Publish asks first: Escape cancels and nothing is sent; then Tab to the yes button and Enter.
    driver.find_element(By.ID, "theme-publish").click()
    said = confirm_dialog()
    check(said is not None and "Publish theme 1.2.0?" in said and "shells of 1.x get 1.1.0" in said,
          "publishing asks first and says what shells get now (%s)" % said)
    check(driver.execute_script("return document.activeElement.id") == "confirm-no", "the confirmation opens on Cancel: Enter alone publishes nothing")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    check(wait_for(lambda: driver.find_element(By.ID, "theme-status").text.startswith("Cancelled: Publish theme 1.2.0?")),
          "Escape cancels, and the status line says nothing was sent (%s)" % driver.find_element(By.ID, "theme-status").text)
    check(call("GET", "/themes/current?nativeVersion=1.0.0", auth=False)[1].get("ETag") == old_etag, "nothing was published")
    driver.find_element(By.ID, "theme-publish").click()
    confirm_dialog()
    driver.switch_to.active_element.send_keys(Keys.TAB)
    check(driver.execute_script("return document.activeElement.id") == "confirm-yes", "Tab reaches the yes button")
    shot("confirm")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    check(wait_for(lambda: driver.find_element(By.ID, "theme-current").get_attribute("data-etag")), "the console publishes (keyboard)")
    status, headers, after = call("GET", "/themes/current?nativeVersion=1.0.0", auth=False)
    new_etag = headers.get("ETag")
    check(status == 200 and after["metadata"]["version"] == "1.2.0", "/themes/current now answers 1.2.0")
    check(new_etag and new_etag != old_etag, "with a new ETag (%s, before %s)" % (new_etag, old_etag))
    check(driver.find_element(By.ID, "theme-current").get_attribute("data-etag") == new_etag, "the console shows that ETag")
    check(old_etag in driver.find_element(By.ID, "theme-current").text, "and the one before")
    rows = [row[:2] for row in table("theme-list")]
    check(rows == [["1.2.0", "current"], ["1.1.0", "published"]], "the theme list shows both, 1.2.0 current (%s)" % rows)

    # Theme history: rolling back unpublishes 1.2.0, and /themes/current answers 1.1.0 again.
    def theme_action(version):
        driver.find_element(By.CSS_SELECTOR, "#theme-list button.theme-action[data-version='%s']" % version).click()
        return confirm()

    check(driver.find_element(By.CSS_SELECTOR, "#theme-list button[data-version='1.2.0']").text == "Roll back (unpublish 1.2.0)",
          "the current theme offers a rollback")
    said = theme_action("1.2.0")
    check("Roll back (unpublish) theme 1.2.0?" in said and "get 1.2.0; afterwards 1.1.0" in said,
          "the rollback says what shells get before and after (%s)" % said)
    check(wait_for(lambda: driver.find_element(By.ID, "theme-current").get_attribute("data-version") == "1.1.0"), "the console rolls the theme back")
    status, headers, body = call("GET", "/themes/current?nativeVersion=1.0.0", auth=False)
    check(status == 200 and body["metadata"]["version"] == "1.1.0" and headers.get("ETag") == old_etag,
          "/themes/current answers 1.1.0 again, with its old ETag")
    check(driver.find_element(By.ID, "theme-current").get_attribute("data-etag") == old_etag, "the console shows that ETag")
    check(wait_for(lambda: [row[:2] for row in table("theme-list")] == [["1.2.0", "uploaded"], ["1.1.0", "current"]]),
          "the history shows 1.1.0 current, 1.2.0 uploaded (%s)" % table("theme-list"))
    theme_action("1.2.0")
    check(wait_for(lambda: driver.find_element(By.ID, "theme-current").get_attribute("data-version") == "1.2.0"), "publishing from the history")
    check(call("GET", "/themes/current?nativeVersion=1.0.0", auth=False)[1].get("ETag") == new_etag, "/themes/current answers 1.2.0 again")
    shot("themes", "theme-current-title")

    # Rolling back the only published theme of a major: the console says shells would get no
    # theme, and the server refuses it (409); nothing changes.
    said = theme_action("1.1.0")
    check("Unpublish theme 1.1.0?" in said and "get 1.2.0; afterwards 1.2.0" in said, "unpublishing an older theme changes nothing for shells (%s)" % said)
    check(wait_for(lambda: [row[:2] for row in table("theme-list")] == [["1.2.0", "current"], ["1.1.0", "uploaded"]]), "1.1.0 is unpublished")
    said = theme_action("1.2.0")
    check("only published theme of major 1" in said and "no theme (404)" in said and "server refuses" in said,
          "the rollback of the last published theme says shells would get no theme (%s)" % said)
    check(wait_for(lambda: "409 last-published-theme" in driver.find_element(By.ID, "theme-status").text),
          "the server refuses it and the console shows why (%s)" % driver.find_element(By.ID, "theme-status").text)
    check(call("GET", "/themes/current?nativeVersion=1.0.0", auth=False)[1].get("ETag") == new_etag, "/themes/current still answers 1.2.0")
    check([row[:2] for row in table("theme-list")] == [["1.2.0", "current"], ["1.1.0", "uploaded"]], "the history is unchanged")
    theme_action("1.1.0")
    check(wait_for(lambda: [row[:2] for row in table("theme-list")] == [["1.2.0", "current"], ["1.1.0", "published"]]), "1.1.0 is published again")

    # Opening a theme file checks it the same way as pasting.
    driver.find_element(By.ID, "theme-file").send_keys(os.path.join(ROOT, "examples/themes/broken.json"))
    check(wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#theme-problems li")) == len(expected)),
          "an opened file is checked: its problems show")
    check(driver.execute_script("return document.getElementById('theme-text').value") == broken, "and its text is in the editor")

    # Micro-apps: versions, a 50% rollout, "what does user X get?".
    driver.find_element(By.ID, "nav-apps").click()
    check(wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#version-table tbody tr")) == 2), "the versions show")
    cells = table("version-table")
    bundle_hash = hashlib.sha256(b"globalThis.shop = '1.0.0';").hexdigest()
    check(cells[0][0] == "1.0.0" and cells[0][2] == "%d B" % len("globalThis.shop = '1.0.0';") and cells[0][3] == bundle_hash[:16] + "…"
          and cells[0][4] == "unsigned" and cells[0][5].endswith("UTC"),
          "each version shows its size, hash, signing key and upload time (%s)" % cells[0])
    check(cells[1][4] == "claims key 0123456789abcdef (not verified by the server; devices verify it)",
          "a signature's key id is shown as a claim the server did not verify (%s)" % cells[1][4])
    Select(driver.find_element(By.ID, "release-stable")).select_by_value("1.0.0")
    Select(driver.find_element(By.ID, "release-mode")).select_by_value("rollout")
    Select(driver.find_element(By.ID, "arm-a-version")).select_by_value("1.1.0")
    percent = driver.find_element(By.ID, "arm-a-percent")
    percent.clear()
    percent.send_keys("50")
    driver.find_element(By.ID, "release-save").click()
    said = confirm()
    check("Now: stable 1.0.0." in said and "Afterwards: stable 1.0.0, 50% 1.1.0." in said, "saving a release says what changes (%s)" % said)
    check(wait_for(lambda: driver.find_element(By.ID, "app-status").text == "Release saved."), "the release is saved")
    _, _, app = call("GET", "/admin/apps/shop")
    check(app["release"] == {"stable": "1.0.0", "arms": [{"version": "1.1.0", "percent": 50}], "users": {}}, "the server has the 50%% rollout (%s)" % app["release"])
    check("50% 1.1.0" in driver.find_element(By.ID, "release-now").text, "the console shows it")

    def ask(user):
        box = driver.find_element(By.ID, "ask-user")
        box.clear()
        box.send_keys(user, Keys.ENTER)
        answer = driver.find_element(By.ID, "ask-answer")
        wait_for(lambda: answer.text.startswith(user + " gets") or answer.text.startswith(user + ":"))
        return {"version": answer.get_attribute("data-version"), "reason": answer.get_attribute("data-reason"),
                "bucket": answer.get_attribute("data-bucket")}

    users = ["user-%d" % n for n in range(12)]
    seen = set()
    for user in users:
        shown = ask(user)
        _, _, manifest = call("GET", "/apps/shop/manifest?user=" + user, auth=False)
        served = {"version": manifest["version"], "reason": manifest["reason"], "bucket": str(manifest["bucket"])}
        check(shown == served, "%s (bucket %d) gets what the manifest route says: %s" % (user, bucket("shop", user), shown))
        seen.add(shown["version"])
    check(seen == {"1.0.0", "1.1.0"}, "the 50%% rollout hands out both versions (%s)" % sorted(seen))
    shot("apps", "version-table")

    # Pin, lift the pin, roll back.
    Select(driver.find_element(By.ID, "pin-version")).select_by_value("1.0.0")
    driver.find_element(By.ID, "pin").click()
    said = confirm()
    check("Pin everybody on shop to 1.0.0?" in said, "pinning asks first (%s)" % said)
    check(wait_for(lambda: "pinned to 1.0.0" in driver.find_element(By.ID, "release-now").text), "pinned to 1.0.0")
    rollout_user = next(u for u in users if bucket("shop", u) < 5000)
    check(ask(rollout_user) == {"version": "1.0.0", "reason": "pinned", "bucket": str(bucket("shop", rollout_user))},
          "a user of the rollout gets the pinned version")
    driver.find_element(By.ID, "unpin").click()
    check("Lift the pin of shop?" in confirm(), "lifting the pin asks first")
    check(wait_for(lambda: "pinned" not in driver.find_element(By.ID, "release-now").text),
          "the pin is lifted (%s; %s)" % (driver.find_element(By.ID, "release-now").text, driver.find_element(By.ID, "app-status").text))
    check(ask(rollout_user)["version"] == "1.1.0", "that user gets the rollout again")
    driver.find_element(By.ID, "rollback").click()
    said = confirm()
    check("Afterwards: stable 1.0.0 (the release before the current one)." in said, "the rollback says what it restores (%s)" % said)
    check(wait_for(lambda: driver.find_element(By.ID, "release-now").text == "Now: stable 1.0.0."), "rolled back in the console")
    check(call("GET", "/admin/apps/shop")[2]["release"] == {"stable": "1.0.0", "arms": [], "users": {}}, "the server's release is the previous one")
    history = [row[1:] for row in table("release-history")]
    check(history == [["stable 1.0.0", "current"], ["stable 1.0.0, 50% 1.1.0", ""], ["stable 1.0.0", ""]],
          "the release history lists the rollback, the rollout and the first release (%s)" % history)
    check(all(row[0].endswith("UTC") for row in table("release-history")), "each with the time it was set")
    driver.find_element(By.ID, "rollback").click()
    check("no earlier release" in confirm(), "a rollback past the first release is announced as refused")
    check(wait_for(lambda: "nothing-to-roll-back" in driver.find_element(By.ID, "app-status").text),
          "a rollback past the first release shows the server's refusal")

    # Upload a version from the page: the bundle and stylesheet are files the browser reads.
    def upload(version, bundle_text, stylesheet_text=None):
        bundle_file = os.path.join(work, "bundle-%s.js" % secrets.token_hex(4))
        open(bundle_file, "w").write(bundle_text)
        for id in ["upload-app", "upload-version", "upload-native"]:
            driver.find_element(By.ID, id).clear()
        driver.find_element(By.ID, "upload-app").send_keys("shop")
        driver.find_element(By.ID, "upload-version").send_keys(version)
        driver.find_element(By.ID, "upload-native").send_keys("1.0.0")
        driver.find_element(By.ID, "upload-bundle").send_keys(bundle_file)
        if stylesheet_text is not None:
            stylesheet_file = os.path.join(work, "style-%s.css" % secrets.token_hex(4))
            open(stylesheet_file, "w").write(stylesheet_text)
            driver.find_element(By.ID, "upload-stylesheet").send_keys(stylesheet_file)
        driver.execute_script("document.getElementById('app-status').textContent = ''")
        driver.find_element(By.ID, "upload").click()
        said = confirm()
        check(("Upload shop %s?" % version) in said and "cannot be replaced" in said and "It is unsigned" in said,
              "an upload asks first and says the version is unsigned (%s)" % said)
        wait_for(lambda: driver.find_element(By.ID, "app-status").text not in ("", "Uploading shop %s…" % version))
        return driver.find_element(By.ID, "app-status").text

    driver.execute_script("document.getElementById('upload-stylesheet').value = ''")
    said = upload("1.2.0", "globalThis.shop = '1.2.0';", "body{color:red}")
    check(said == "Uploaded shop 1.2.0, unsigned.", "a version is uploaded from the page (%s)" % said)
    check(wait_for(lambda: [row[0] for row in table("version-table")] == ["1.0.0", "1.1.0", "1.2.0"]), "it shows in the versions")
    served = urllib.request.urlopen(base + "/apps/shop/1.2.0/style.css", timeout=10).read().decode()
    check(served == "body{color:red}", "the server serves its stylesheet")
    check(table("version-table")[2][2] == "%d B" % (len("globalThis.shop = '1.2.0';") + len("body{color:red}")), "its size counts both files")
    driver.execute_script("document.getElementById('upload-stylesheet').value = ''")
    said = upload("1.2.0", "globalThis.shop = 'other';")
    check("409 version-exists" in said, "other bytes under an uploaded version are refused (%s)" % said)
    logo = os.path.join(work, "logo.png")
    logo_bytes = bytes(range(256)) * 3  # every byte value: base64 in the page must keep them all
    open(logo, "wb").write(logo_bytes)
    driver.find_element(By.ID, "upload-assets").send_keys(logo)
    said = upload("1.3.0", "globalThis.shop = '1.3.0';")
    check(said == "Uploaded shop 1.3.0, unsigned.", "a version with an asset is uploaded (%s)" % said)
    check(urllib.request.urlopen(base + "/apps/shop/1.3.0/logo.png", timeout=10).read() == logo_bytes, "the server serves the asset's bytes")
    check(wait_for(lambda: len(table("version-table")) == 4 and "(1 assets)" in table("version-table")[3][2]),
          "the versions list counts it (%s)" % table("version-table")[-1])
    driver.execute_script("document.getElementById('upload-assets').value = ''")
    # A 422 lists every problem of the assets, each at its path, not only a count such as
    # "1 problem(s) with the assets".
    clashing = []
    for folder, name in [("a", "Icon.png"), ("b", "icon.png")]:
        os.makedirs(os.path.join(work, folder), exist_ok=True)
        clashing.append(os.path.join(work, folder, name))
        open(clashing[-1], "wb").write(b"x")
    driver.find_element(By.ID, "upload-assets").send_keys("\n".join(clashing))
    said = upload("1.4.0", "globalThis.shop = '1.4.0';")
    check("422 invalid-assets" in said and "assets[1].path:" in said and "icon.png" in said,
          "an upload's 422 shows each asset's problem at its path (%s)" % said)
    driver.execute_script("document.getElementById('upload-assets').value = ''")
    # A form the browser refuses (the app field is required) replaces the old status line.
    driver.find_element(By.ID, "upload-app").clear()
    driver.find_element(By.ID, "upload").click()
    check(wait_for(lambda: driver.find_element(By.ID, "app-status").text.startswith("Not sent: App:")),
          "the browser's refusal replaces \"Uploaded\" in the status line (%s)" % driver.find_element(By.ID, "app-status").text)
    check(not driver.execute_script("return document.getElementById('confirm').open"), "and asks nothing")

    # An A/B split between 1.1.0 and 1.2.0: the arm each user lands in is the manifest route's.
    Select(driver.find_element(By.ID, "release-mode")).select_by_value("ab")
    Select(driver.find_element(By.ID, "arm-a-version")).select_by_value("1.1.0")
    Select(driver.find_element(By.ID, "arm-b-version")).select_by_value("1.2.0")
    for id, value in [("arm-a-percent", "50"), ("arm-b-percent", "50")]:
        driver.find_element(By.ID, id).clear()
        driver.find_element(By.ID, id).send_keys(value)
    # An explicit-user line without "=" is refused, naming the line; nothing is sent.
    release_before = call("GET", "/admin/apps/shop")[2]["release"]
    driver.find_element(By.ID, "release-users").clear()
    driver.find_element(By.ID, "release-users").send_keys("qa-1=1.0.0\nqa-2 1.1.0")
    driver.find_element(By.ID, "release-save").click()
    check(wait_for(lambda: 'line 2 ("qa-2 1.1.0"): no "="' in driver.find_element(By.ID, "app-status").text),
          "a user line without = is refused, naming it (%s)" % driver.find_element(By.ID, "app-status").text)
    check(not driver.execute_script("return document.getElementById('confirm').open"), "nothing is asked or sent")
    check(call("GET", "/admin/apps/shop")[2]["release"] == release_before, "the server's release is unchanged")
    check(driver.execute_script("return document.activeElement.id") == "release-users", "the focus goes to the users field")
    driver.find_element(By.ID, "release-users").clear()
    driver.find_element(By.ID, "release-users").send_keys("qa-1=1.0.0")
    driver.find_element(By.ID, "release-save").click()
    confirm()
    check(wait_for(lambda: "(arm B)" in driver.find_element(By.ID, "release-now").text), "an A/B split is saved (%s)" % driver.find_element(By.ID, "release-now").text)
    check(call("GET", "/admin/apps/shop")[2]["release"]["arms"] == [{"version": "1.1.0", "percent": 50, "label": "A"},
                                                                    {"version": "1.2.0", "percent": 50, "label": "B"}], "the server has both arms")
    arms = set()
    for user in users[:8]:
        shown = ask(user)
        shown["variant"] = driver.find_element(By.ID, "ask-answer").get_attribute("data-variant")
        _, _, manifest = call("GET", "/apps/shop/manifest?user=" + user, auth=False)
        check(shown == {"version": manifest["version"], "reason": "variant", "bucket": str(manifest["bucket"]), "variant": manifest["variant"]},
              "%s gets the arm the manifest route gives: %s" % (user, shown))
        arms.add(shown["variant"])
    check(arms == {"A", "B"}, "both arms are handed out (%s)" % sorted(arms))
    check(call("GET", "/admin/apps/shop")[2]["release"]["users"] == {"qa-1": "1.0.0"}, "the explicit user is saved")
    check(ask("qa-1") == {"version": "1.0.0", "reason": "user", "bucket": str(bucket("shop", "qa-1"))},
          "an explicit user gets their version, as the manifest route says")

    # The editor keeps what the API holds, verbatim: an id with spaces around it or an "=" in it,
    # custom arm labels. Saved unchanged from the editor, the release is the same.
    verbatim = {"stable": "1.0.0", "arms": [{"version": "1.1.0", "percent": 30, "label": "control"},
                                             {"version": "1.2.0", "percent": 30, "label": "treatment"}],
                "users": {" alice": "1.1.0", "a=b": "1.2.0", "bob ": "1.0.0"}}
    check(call("PUT", "/admin/apps/shop/release", verbatim)[0] == 200, "a release with such ids and labels is set through the API")
    driver.find_element(By.ID, "nav-apps").click()
    check(wait_for(lambda: "(arm treatment)" in driver.find_element(By.ID, "release-now").text), "the console reads it")
    check(driver.execute_script("return [document.getElementById('arm-a-label').value, document.getElementById('arm-b-label').value]")
          == ["control", "treatment"], "the editor shows the arms' labels")
    driver.find_element(By.ID, "release-save").click()
    said = confirm()
    check(wait_for(lambda: driver.find_element(By.ID, "app-status").text == "Release saved."), "saved from the editor unchanged (%s)" % said)
    check(call("GET", "/admin/apps/shop")[2]["release"] == verbatim, "the server's release is the same, ids and labels verbatim (%s)"
          % call("GET", "/admin/apps/shop")[2]["release"])

    # A concurrent change: the confirmation re-reads the release and says it changed; a change made
    # while the dialog is open is refused by the server (If-Match, 412), never overwritten.
    concurrent = {"stable": "1.1.0", "arms": [], "users": {}}
    check(call("PUT", "/admin/apps/shop/release", concurrent)[0] == 200, "someone else saves a release meanwhile")
    driver.find_element(By.ID, "release-save").click()
    said = confirm_dialog()
    check(said is not None and "Now: stable 1.1.0." in said and "changed since this screen loaded it" in said,
          "the confirmation states the current release and that it changed (%s)" % said)
    check(call("PUT", "/admin/apps/shop/release", {"stable": "1.2.0"})[0] == 200, "and saves again while the dialog is open")
    driver.find_element(By.ID, "confirm-yes").click()
    check(wait_for(lambda: "412 release-changed" in driver.find_element(By.ID, "app-status").text),
          "the save is refused and the console says the release changed (%s)" % driver.find_element(By.ID, "app-status").text)
    check(call("GET", "/admin/apps/shop")[2]["release"] == {"stable": "1.2.0", "arms": [], "users": {}}, "the other save stands")
    check(wait_for(lambda: driver.find_element(By.ID, "release-now").text == "Now: stable 1.2.0."), "the console reloads the release")
    check(call("PUT", "/admin/apps/shop/release", verbatim)[0] == 200, "the verbatim release is set again")
    driver.find_element(By.ID, "nav-apps").click()
    check(wait_for(lambda: "(arm treatment)" in driver.find_element(By.ID, "release-now").text), "and read")

    # A colleague's change found by the re-read, the warning cancelled, then Save again: the editor
    # still shows the release it loaded, so the second save is refused too (412) and the colleague's
    # change stands: the re-read must not move the tag the editor saves against.
    colleague = dict(verbatim, users=dict(verbatim["users"], vip="1.1.0"))
    check(call("PUT", "/admin/apps/shop/release", colleague)[0] == 200, "a colleague adds an explicit user through the API")
    driver.find_element(By.ID, "release-save").click()
    said = confirm_dialog()
    check(said is not None and "changed since this screen loaded it" in said, "the first save warns that the release changed (%s)" % said)
    driver.find_element(By.ID, "confirm-no").click()
    check(wait_for(lambda: driver.find_element(By.ID, "app-status").text.startswith("Cancelled")), "cancelled")
    check("vip" not in driver.find_element(By.ID, "release-users").get_attribute("value"), "the editor still shows what it loaded")
    driver.find_element(By.ID, "release-save").click()
    said = confirm_dialog()
    check(said is not None and "changed since this screen loaded it" in said, "the second save warns too (%s)" % said)
    driver.find_element(By.ID, "confirm-yes").click()
    check(wait_for(lambda: "412 release-changed" in driver.find_element(By.ID, "app-status").text),
          "the second save is refused (%s)" % driver.find_element(By.ID, "app-status").text)
    check(call("GET", "/admin/apps/shop")[2]["release"] == colleague, "the colleague's change stands")
    check(wait_for(lambda: "vip=1.1.0" in driver.find_element(By.ID, "release-users").get_attribute("value")),
          "the editor is reloaded with it")

    # An explicit user named "__proto__" survives a save of the unchanged editor (a plain
    # `users[id] = version` would set the object's prototype instead).
    proto = {"stable": "1.0.0", "arms": [], "users": {"__proto__": "1.1.0", "constructor": "1.2.0", "alice": "1.1.0"}}
    check(call("PUT", "/admin/apps/shop/release", raw=b'{"stable":"1.0.0","arms":[],"users":{"__proto__":"1.1.0","constructor":"1.2.0","alice":"1.1.0"}}')[0] == 200,
          "a release with the user __proto__ is set through the API")
    driver.find_element(By.ID, "nav-apps").click()
    check(wait_for(lambda: "__proto__=1.1.0" in driver.find_element(By.ID, "release-users").get_attribute("value")), "the editor shows __proto__")
    driver.find_element(By.ID, "release-save").click()
    confirm()
    check(wait_for(lambda: driver.find_element(By.ID, "app-status").text == "Release saved."), "saved unchanged")
    _, _, raw_release = call("GET", "/admin/apps/shop")
    check(raw_release["release"] == proto and json.dumps(raw_release["release"]["users"], sort_keys=True) == json.dumps(proto["users"], sort_keys=True),
          "the server's release still has __proto__, constructor and alice (%s)" % raw_release["release"])
    check(driver.execute_script("return ({}).polluted === undefined && Object.getPrototypeOf({}) === Object.prototype"), "nothing is polluted")

    # "What does user X get?" asks with the id verbatim: " alice" is not "alice".
    check(call("PUT", "/admin/apps/shop/release", {"stable": "1.0.0", "users": {" alice": "1.2.0"}})[0] == 200, "an id with a leading space")
    driver.find_element(By.ID, "nav-apps").click()
    check(wait_for(lambda: " alice=1.2.0" in driver.find_element(By.ID, "release-users").get_attribute("value")), "read")
    box = driver.find_element(By.ID, "ask-user")
    box.clear()
    box.send_keys(" alice", Keys.ENTER)
    check(wait_for(lambda: driver.find_element(By.ID, "ask-answer").get_attribute("data-version") == "1.2.0"
                   and driver.find_element(By.ID, "ask-answer").get_attribute("data-reason") == "user"),
          "\" alice\" gets her explicit version (%s)" % driver.find_element(By.ID, "ask-answer").text)

    # Leaving an A/B split for a rollout clears the arms' labels and says so.
    check(call("PUT", "/admin/apps/shop/release", {"stable": "1.0.0", "arms": [{"version": "1.1.0", "percent": 50, "label": "A"},
                                                                              {"version": "1.2.0", "percent": 50, "label": "B"}]})[0] == 200, "an A/B split")
    driver.find_element(By.ID, "nav-apps").click()
    check(wait_for(lambda: driver.find_element(By.ID, "arm-a-label").get_attribute("value") == "A"), "read with its labels")
    Select(driver.find_element(By.ID, "release-mode")).select_by_value("rollout")
    check(driver.find_element(By.ID, "arm-a-label").get_attribute("value") == "" and
          'label(s) "A" and "B" were cleared' in driver.find_element(By.ID, "app-status").text,
          "the labels are cleared and the status line says so (%s)" % driver.find_element(By.ID, "app-status").text)
    driver.find_element(By.ID, "release-save").click()
    confirm()
    check(wait_for(lambda: driver.find_element(By.ID, "app-status").text == "Release saved."), "the rollout is saved")
    check(call("GET", "/admin/apps/shop")[2]["release"]["arms"] == [{"version": "1.1.0", "percent": 50}], "with no label")
    check(call("PUT", "/admin/apps/shop/release", verbatim)[0] == 200, "the verbatim release is set again")
    driver.find_element(By.ID, "nav-apps").click()
    check(wait_for(lambda: "(arm treatment)" in driver.find_element(By.ID, "release-now").text), "and read")

    # Another app chosen: the status line spoke of shop's release, so it is cleared.
    check(call("PUT", "/admin/apps/zoo/versions/1.0.0", {"bundle": "globalThis.zoo = 1;"})[0] == 201, "a second app is uploaded")
    driver.find_element(By.ID, "nav-apps").click()
    # Read in one call: each render replaces the options, so elements found before may be stale.
    check(wait_for(lambda: "zoo" in driver.execute_script("return Array.from(document.getElementById('app-select').options).map(o => o.value)")),
          "it is listed")
    check(driver.find_element(By.ID, "app-status").text != "", "shop's screen has a status line (%s)" % driver.find_element(By.ID, "app-status").text)
    Select(driver.find_element(By.ID, "app-select")).select_by_value("zoo")
    check(wait_for(lambda: [row[0] for row in table("version-table")] == ["1.0.0"] and driver.find_element(By.ID, "app-status").text == ""),
          "choosing another app clears the status line (%s)" % driver.find_element(By.ID, "app-status").text)
    Select(driver.find_element(By.ID, "app-select")).select_by_value("shop")
    check(wait_for(lambda: len(table("version-table")) == 4), "back to shop")

    # The audit list: more changes than one page (pin and lift through the API), then the tab.
    for _ in range(26):
        call("PUT", "/admin/apps/shop/pin", {"version": "1.0.0"})
        call("DELETE", "/admin/apps/shop/pin")
    _, _, page = call("GET", "/admin/console/audit?limit=200")
    server_rows = page["entries"]
    check(len(server_rows) > 50 and "next" not in page, "the server lists every change (%d)" % len(server_rows))
    driver.find_element(By.ID, "nav-audit").click()
    check(wait_for(lambda: len(table("audit-table")) == 50), "the audit tab shows the newest 50 (%d)" % len(table("audit-table")))
    rows = table("audit-table")
    check(rows[0][1:4] == ["initial (token 1)", "pin.lift", "shop"] and rows[0][4] == "pinned to 1.0.0" and rows[0][5] == "not pinned",
          "each row says who, what, the target, before and after (%s)" % rows[0])
    check(all(row[0].endswith("UTC") for row in rows), "and when")
    driver.find_element(By.ID, "audit-older").click()
    check(wait_for(lambda: len(table("audit-table")) == len(server_rows)), "Older shows the rest (%d of %d)" % (len(table("audit-table")), len(server_rows)))
    shown = driver.execute_script("return Array.from(document.querySelectorAll('#audit-table tbody tr')).map(r => [Number(r.dataset.id), r.dataset.action])")
    check(shown == [[row["id"], row["action"]] for row in server_rows], "the tab lists exactly the server's rows, newest first")
    check(not driver.find_element(By.ID, "audit-older").is_enabled(), "the oldest page disables Older")
    # A release row says what changed for whom, not counts: each arm, each explicit user by id.
    release_changes = driver.execute_script(
        "return Array.from(document.querySelectorAll('#audit-table tbody tr[data-action=\"release.set\"] td.audit-change'))"
        ".map(td => Array.from(td.children).map(d => d.textContent))")
    expected_change = ['arm 1: 50% 1.1.0 (label "A") → 30% 1.1.0 (label "control")',
                       'arm 2: 50% 1.2.0 (label "B") → 30% 1.2.0 (label "treatment")',
                       'user " alice": none → 1.1.0', 'user "a=b": none → 1.2.0', 'user "bob ": none → 1.0.0',
                       'user "qa-1": 1.0.0 → none (removed)']
    check(expected_change in release_changes, "a release row lists what changed: arms and each explicit user (%s)" % release_changes[-8:])
    check(["no change (saved again as it was)"] in release_changes, "a release saved again unchanged says so")
    actions = [row[2] for row in table("audit-table")]
    check(all(action in actions for action in ["version.upload", "theme.upload", "theme.publish", "theme.unpublish", "release.set",
                                               "release.rollback", "pin.set", "pin.lift"]),
          "every kind of change the console made is there (%s)" % sorted(set(actions)))
    publish_row = next(row for row in table("audit-table") if row[2] == "theme.unpublish" and row[3] == "1.2.0")
    check(publish_row[4] == "published, shells get 1.2.0" and publish_row[5] == "not published, shells get 1.1.0",
          "the theme rollback's row says what shells got before and after (%s)" % publish_row)
    # The screenshot shows release rows with what changed (the pin rows above them are many).
    driver.execute_script("var rows = document.querySelectorAll('#audit-table tr[data-action^=\"release.\"]'); "
                          "rows[Math.min(2, rows.length - 1)].scrollIntoView()")
    shot("audit")

    # Traces: a trace `statehub run --trace` wrote, opened from a file in the page, read by the server
    # (POST /admin/console/trace-timeline) and shown by the timeline script `statehub trace view` uses.
    trace = os.path.join(work, "demo.ndjson")
    run = subprocess.run([statehub, "run", "js/examples/user.js", "js/examples/cart.js", "js/examples/micro-app.js",
                          "--dispatch", "user.login", '["ada"]',
                          "--dispatch", "cart.add", '[{"id":"p1","name":"Pen","price":1.5,"qty":2}]',
                          "--trace", trace], cwd=ROOT, capture_output=True, text=True)
    check(run.returncode == 0, "statehub run records a trace (%s)" % run.stderr.strip()[:300])
    cli_steps = json.loads(subprocess.run([statehub, "trace", "show", "--json", trace], capture_output=True, text=True).stdout)["steps"]
    trace_bytes = open(trace, "rb").read()
    status, _, served = call("POST", "/admin/console/trace-timeline", raw=trace_bytes)
    check(status == 200 and served["steps"] == cli_steps and served["records"] == len(cli_steps),
          "the server reads the trace as `trace show --json` does, step for step (%d steps)" % len(cli_steps))

    def open_trace(path):
        driver.execute_script("document.getElementById('trace-status').textContent = ''")
        driver.find_element(By.ID, "trace-file").send_keys(path)
        wait_for(lambda: driver.find_element(By.ID, "trace-status").text not in ("", "Reading %s…" % os.path.basename(path)))
        return driver.find_element(By.ID, "trace-status").text

    def trace_rows():
        return len(driver.find_elements(By.CSS_SELECTOR, "#trace-view .row"))

    driver.find_element(By.ID, "nav-traces").click()
    check(wait_for(lambda: driver.find_element(By.ID, "traces-screen").is_displayed()), "the Traces tab shows")
    # A file past the server's cap is refused in the page, naming both sizes; nothing is sent.
    large = os.path.join(work, "large.ndjson")
    limit = int(driver.find_element(By.ID, "trace-file").get_attribute("data-max-bytes"))
    with open(large, "wb") as f:
        f.write(b" " * (limit + 1))
    said = open_trace(large)
    check(said == "Not sent: large.ndjson is %d bytes; the server reads traces of at most %d bytes." % (limit + 1, limit) and limit == 8 << 20,
          "a trace past the cap is refused in the page, naming both sizes (%s)" % said)
    # A line that is no record: the server's 422 names the line; nothing of a timeline shows.
    malformed = os.path.join(work, "malformed.ndjson")
    lines = trace_bytes.split(b"\n")
    with open(malformed, "wb") as f:
        f.write(lines[0] + b"\n" + lines[1] + b"\n{\"step\": oops\n" + lines[2] + b"\n")
    said = open_trace(malformed)
    check("Cannot show malformed.ndjson" in said and "422 invalid-trace: line 3 of the trace is not valid JSON" in said,
          "a malformed trace names its line (%s)" % said)
    check("error" in driver.find_element(By.ID, "trace-status").get_attribute("class") and trace_rows() == 0,
          "the message is an error, and no timeline shows")
    # Markup in store names and values is text: no element is made of it, no script runs.
    hostile = os.path.join(work, "hostile.ndjson")
    store = '<img src=x onerror="window.pwned=1">'
    state = {"name": "</script><script>window.pwned=2</script>", "<b>key</b>": "<svg onload=window.pwned=3>"}
    records = [
        {"channel": "nativeBridge", "direction": "web_to_native", "engine": "<i>page</i>", "store": store, "type": "sync_state",
         "message": json.dumps({"type": "sync_state", "payload": {"reason": "created", "state": state}}), "size": 10, "step": 0, "time": 0},
        {"channel": "nativeBridge", "direction": "web_to_native", "engine": "<i>page</i>", "store": store, "type": "apply_mutation",
         "message": json.dumps({"type": "apply_mutation", "action": "<script>window.pwned=4</script>", "payload": {"mutations": [
             {"ops": [{"op": "set", "path": ["name"], "value": "<iframe src=javascript:window.pwned=5>"}]}]}}),
         "note": "<u>note</u>", "size": 10, "step": 1, "time": 1000},
    ]
    with open(hostile, "w", encoding="utf-8") as f:
        f.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))
    said = open_trace(hostile)
    check(said == "hostile.ndjson: 2 record(s).", "a trace with markup in it is read (%s)" % said)
    check(wait_for(lambda: trace_rows() == 2), "its two records show")
    made = driver.execute_script("return document.querySelectorAll('#trace-view img, #trace-view script, #trace-view svg, "
                                 "#trace-view iframe, #trace-view b, #trace-view i, #trace-view u').length")
    text = driver.find_element(By.ID, "trace-view").text
    check(made == 0 and driver.execute_script("return window.pwned === undefined"), "markup from the trace makes no element and runs nothing")
    check(store in text and "<iframe src=javascript:window.pwned=5>" in text and "<u>note</u>" in text,
          "it shows as text: the store name, the value, the note")
    # A trace whose last line was cut (a killed recorder): the records before it show, the line is named.
    cut = os.path.join(work, "cut.ndjson")
    with open(cut, "wb") as f:
        f.write(trace_bytes[:-40])
    said = open_trace(cut)
    check(("Its last line (line %d) is cut" % len(cli_steps)) in said and wait_for(lambda: trace_rows() == len(cli_steps) - 1),
          "a cut last line is named, and the records before it show (%s)" % said)
    # The real trace: grouped under its actions, old → new, and the state at the step the slider selects.
    said = open_trace(trace)
    check(said == "demo.ndjson: %d record(s)." % len(cli_steps), "the demo's trace is read (%s)" % said)
    check(wait_for(lambda: trace_rows() == len(cli_steps)), "every record is a row (%d)" % trace_rows())
    titles = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#trace-view .group-title")]
    check(any(t.startswith("user.login") for t in titles) and any(t.startswith("cart.add") for t in titles),
          "rows are grouped under user.login and cart.add (%s)" % titles)
    check("false → true" in driver.find_element(By.ID, "trace-timeline").text, "old → new values show (loggedIn false → true)")
    pen = next(i for i, step in enumerate(cli_steps) if step.get("action") == "cart.add" and step["type"] == "apply_mutation")
    driver.execute_script("var s = document.getElementById('trace-slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));", pen)
    state = json.loads(driver.find_element(By.ID, "trace-state").text)
    items = state.get("cart", {}).get("items", [])
    check(state.get("user", {}).get("loggedIn") is True and len(items) == 1 and items[0].get("qty") == 2,
          "at step %d the user is logged in and the cart holds the pen, qty 2 (%s)" % (pen, items))
    check(driver.find_element(By.CSS_SELECTOR, "#trace-view .row.selected").get_attribute("data-step") == str(pen), "the selected row follows the slider")
    # The same file picked again is read again (the input is emptied once read).
    said = open_trace(trace)
    check(said == "demo.ndjson: %d record(s)." % len(cli_steps), "picking the same file again reads it again (%s)" % said)
    # A trace whose timeline passes its bounds: the server's 422 names the bound.
    amplified = os.path.join(work, "amplified.ndjson")
    big = "x" * (256 << 10)
    amp_records = [
        {"channel": "nativeBridge", "direction": "web_to_native", "engine": "e", "store": "s", "type": "sync_state",
         "message": json.dumps({"type": "sync_state", "payload": {"state": {"a": big}}}), "size": 1, "step": 0, "time": 0},
        {"channel": "nativeBridge", "direction": "web_to_native", "engine": "e", "store": "s", "type": "apply_mutation",
         "message": json.dumps({"type": "apply_mutation", "payload": {"mutations": [{"ops": [{"op": "set", "path": ["a", "x", "y"], "value": 1}]
                                + [{"op": "delete", "path": ["a"]}] * 2000}]}}), "size": 1, "step": 1, "time": 1},
    ]
    with open(amplified, "w") as f:
        f.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in amp_records))
    said = open_trace(amplified)
    check("Cannot show amplified.ndjson: 422 timeline-too-large: the timeline of this trace would be larger than 67108864 bytes" in said
          and trace_rows() == 0, "an amplifying trace is refused naming the bound (%s)" % said)
    # The page's timeline keeps the padding bound itself, whatever steps it is handed.
    refused = driver.execute_script("""
        var box = document.createElement('div');
        var ops = []; for (var i = 1; i <= 12; i++) ops.push({op: 'set', path: ['arr', i * 100000], value: 1});
        var steps = [{step: 0, store: 's', channel: 'nativeBridge', type: 'sync_state', snapshot: {arr: []}, changes: []},
                     {step: 1, store: 's', channel: 'nativeBridge', type: 'apply_mutation', ops: ops, changes: []}];
        var t = StateHubTimeline.mount(box, steps, {maxPaddingNulls: 1048576});
        return [t.error || null, box.textContent];""")
    check(refused[0] is not None and "more than 1048576 nulls" in refused[0] and refused[1].startswith("Not shown:"),
          "timeline.js refuses steps past its padding bound, before growing anything (%s)" % refused)
    said = open_trace(trace)
    check(wait_for(lambda: trace_rows() == len(cli_steps)), "the demo's trace shows again")
    driver.execute_script("document.getElementById('traces-title').scrollIntoView()")
    shot("traces")

    # A phone-sized window: one column, nothing wider than the screen, no word broken inside a table cell.
    driver.set_window_size(390, 844)
    broken_words = """
        var broken = [];
        document.querySelectorAll('table').forEach(function (table) {
          if (!table.offsetParent) return;
          table.querySelectorAll('td, th').forEach(function (cell) {
            var walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (var node = walker.nextNode(); node; node = walker.nextNode()) {
              var pattern = /\S+/g, match;
              while ((match = pattern.exec(node.data)) !== null) {
                var range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                var lines = new Set(Array.from(range.getClientRects()).map(function (r) { return Math.round(r.top); }));
                if (lines.size > 1) broken.push(table.id + ': ' + match[0]);
              }
            }
          });
        });
        return broken;"""
    for screen in ["apps", "themes", "audit", "traces"]:
        driver.find_element(By.ID, "nav-" + screen).click()
        time.sleep(0.5)
        overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 0, "the %s screen fits a phone-sized window (overflow %dpx)" % (screen, overflow))
        if screen == "traces":
            continue  # the timeline is no table
        tables = driver.execute_script("return Array.from(document.querySelectorAll('table')).filter(t => t.offsetParent && t.tBodies[0].rows.length).length")
        broken = driver.execute_script(broken_words)
        check(tables > 0 and broken == [], "no word is broken inside a table cell on the %s screen (%d tables; %s)" % (screen, tables, broken[:5]))
        if screen == "apps":
            shot("phone")

    check(trace_rows() > 0, "a trace is shown before signing out")
    driver.find_element(By.ID, "sign-out").click()
    check(wait_for(lambda: driver.find_element(By.ID, "sign-in-screen").is_displayed()), "signing out shows the sign-in again")
    check(trace_rows() == 0 and driver.execute_script("return document.getElementById('trace-view').textContent === '' && "
                                                      "document.getElementById('trace-status').textContent === ''"),
          "signing out forgets the trace shown")

    # A token revoked while signed in: the next request signs the page out.
    driver.set_window_size(1200, 900)
    status, _, made = call("POST", "/admin/tokens", {"label": "console-test"})
    check(status == 201, "a second token is made")
    driver.find_element(By.ID, "token").send_keys(made["token"], Keys.ENTER)
    check(wait_for(lambda: driver.find_element(By.ID, "nav").is_displayed()), "signed in with it")
    check(call("DELETE", "/admin/tokens/%d" % made["id"])[0] == 204, "it is revoked")
    driver.find_element(By.ID, "nav-apps").click()
    check(wait_for(lambda: driver.find_element(By.ID, "sign-in-screen").is_displayed()
                   and "no longer accepts" in driver.find_element(By.ID, "sign-in-status").text),
          "the next request signs the page out (%s)" % driver.find_element(By.ID, "sign-in-status").text)
    check(not driver.find_element(By.ID, "apps-screen").is_displayed(), "nothing of the console shows then")
    errors = [entry["message"] for entry in driver.get_log("browser")
              if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"] and " 401 " not in entry["message"]
              and " 409 " not in entry["message"] and " 412 " not in entry["message"]
              and " 422 " not in entry["message"]]  # the refused token, rollback, upload, stale release save, malformed trace
    check(not errors, "no errors in the browser console but the refused token, rollback, stale save and malformed trace %s" % errors[:3])
finally:
    if driver is not None:
        driver.quit()
    server.terminate()
    server.wait(timeout=30)
    shutil.rmtree(work, ignore_errors=True)

check.finish("console")
