"""Browser tests for scripts/browser-test: the share link page and the web app in headless Chromium.

Checks, against a server and database of their own:
- the link page shows the route's name, its stats and a map whose line has exactly as many points as
  a link holder may see; a route named <script>alert(1)</script> renders as text on the link page and
  in the app; a dead link is the 404 page;
- signing in with a token; my routes; a route's page (map, leaderboard of a segment it passes, best
  efforts with PR badges); records, their progression and the training log; a recording route's page
  follows an append made through the API, stopped and started again with the keyboard resumes with
  Last-Event-ID, and says Finished when the route is finished; my segments and a segment's page; the
  compare page draws one box per group in ranking order; inbox and groups;
- the keyboard reaches every control of each page, and nothing hidden;
- axe-core (as the pinned axe-core-python ships it) finds no serious or critical violation on each page
  visited (link, sign-in, my routes, route, live route, records, segment, compare, inbox, groups,
  token, upload, import, account), and no page shows a stray null, undefined or NaN;
- a new person, with the keyboard only (Tab from the top, typing and Enter on the focused element),
  signs up and gets the token page; Tab reaches the upload page's file input (its label outlined),
  which takes a GPX file, a broken one and a JSON file: one row each, a full progress bar and its own
  result or error (the JSON route named by its content, so sent as JSON);
- importing a Strava archive: a progress bar that follows the job, then the per-file results;
- connecting a phone shows each app's settings, and each QR code, as the screen shows it and zbarimg
  reads it, holds this server's address: Traccar Client's OsmAnd address with the key, GPSLogger's
  custom URL, OwnTracks' configuration link (its URL, the owner and the key);
- the export button downloads a valid zip with the uploaded routes; deleting the account ends the token;
- no request leaves the server's origin (Chromium's performance log).
With --screenshots DIR, also saves the link page, a route page, the records and compare pages, the
sign-up token page, the upload page with its three results, the import page when done and the account
page as PNG.
"""
import base64
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from importlib.resources import files as package_files

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_common import check, chromium, eventually, failures

BASE = sys.argv[1]
SHOTS = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
SCRIPT_NAME = "<script>alert(1)</script>"
def call(method, path, body=None, token=None):
    request = urllib.request.Request(
        BASE + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {})})
    with urllib.request.urlopen(request) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def loop(lat0, lon0, t0, n=80, seconds=15, wobble=0.0):
    """A loop of n points, `seconds` apart, with hills."""
    import math
    points = []
    for i in range(n):
        a = 2 * math.pi * i / n
        points.append({"lat": lat0 + 0.006 * math.sin(a) + wobble * math.sin(7 * a),
                       "lon": lon0 + 0.01 * (1 - math.cos(a)), "t": t0 + seconds * i,
                       "ele": 520 + 35 * math.sin(2 * a) + 8 * math.sin(9 * a)})
    return points


# ---- Fixtures -------------------------------------------------------------------------------------
ada = call("POST", "/v1/users", {"id": "ada", "name": "Ada Lovelace", "friends": ["grace"]})["token"]
grace = call("POST", "/v1/users", {"id": "grace", "name": "Grace Hopper", "friends": ["ada"]})["token"]
points = loop(48.137, 11.575, 1_764_000_000)
route = call("POST", "/v1/routes", {"name": "Isar loop", "activity": "run", "points": points}, ada)["id"]
# Hide the points around the start from everyone but Ada.
call("PUT", "/v1/users/me/privacy_zones", [{"lat": 48.137, "lon": 11.575, "radius_m": 200}], ada)
link = call("POST", f"/v1/routes/{route}/links", {}, ada)
visible = len(call("GET", link["url"] + "/points?format=json")["points"])
check(0 < visible < len(points), f"the zone hides some points from link holders ({visible} of {len(points)} visible)")
# A segment along the loop, and a faster run of Grace's on it that she shares with Ada.
segment = call("POST", "/v1/segments", {"name": "Bridge <b>sprint</b>", "route": route, "from": 10, "to": 30}, ada)["id"]
grace_run = call("POST", "/v1/routes", {"name": "Grace's loop", "activity": "run",
                                        "points": loop(48.137, 11.575, 1_764_050_000, seconds=12)}, grace)["id"]
call("POST", f"/v1/routes/{grace_run}/shares", {"to": "ada"}, grace)
board = call("GET", f"/v1/segments/{segment}/leaderboard", token=ada)["items"]
check([item["user"]["id"] for item in board] == ["grace", "ada"], f"the segment's leaderboard: Grace, then Ada")
# A route still being recorded, for live following.
live_points = loop(48.3, 11.7, 1_764_300_000)
live = call("POST", "/v1/routes", {"name": "Live loop", "activity": "run", "recording": True,
                                   "points": live_points[:30]}, ada)["id"]
evil = call("POST", "/v1/routes", {"name": SCRIPT_NAME, "activity": "walk", "points": loop(48.2, 11.6, 1_764_100_000)},
            ada)["id"]
evil_link = call("POST", f"/v1/routes/{evil}/links", {}, ada)
groups = {}
for label, factor in [("Via the bridge", 1.12), ("Through the park", 1.0), ("Along the river", 1.05)]:
    ids = []
    for k in range(5):
        seconds = 15 * factor * (1 + 0.03 * ((k * 7) % 5 - 2))
        ids.append(call("POST", "/v1/routes", {"name": f"{label} #{k + 1}", "activity": "run",
                                               "points": loop(48.15, 11.58, 1_764_200_000 + 10_000 * k, seconds=seconds)},
                        ada)["id"])
    groups[label] = call("POST", "/v1/groups", {"name": label, "routes": ids}, ada)["id"]
group_ids = list(groups.values())
ranking = call("GET", f"/v1/compare?groups={','.join(group_ids)}", token=ada)["ranking"]

# ---- The browser ----------------------------------------------------------------------------------
downloads = tempfile.mkdtemp(prefix="routeranker-browser-downloads-")
driver = chromium(prefs={"download.default_directory": downloads, "download.prompt_for_download": False})
wait = WebDriverWait(driver, 15)
files = None  # the files the new person uploads, made further on
requested = []
resumed = []  # the Last-Event-ID of each request that sent one


def drain_network_log():
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requested.append(message["params"]["request"]["url"])
            headers = {k.lower(): v for k, v in message["params"]["request"].get("headers", {}).items()}
            if "last-event-id" in headers:
                resumed.append(headers["last-event-id"])


def no_alert(where):
    try:
        driver.switch_to.alert
        check(False, f"no alert on {where}")
    except NoAlertPresentException:
        check(True, f"no alert on {where}")


def screenshot(name):
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    time.sleep(0.2)
    os.makedirs(SHOTS, exist_ok=True)
    check(driver.save_screenshot(os.path.join(SHOTS, name)), f"screenshot {name} saved")


# axe-core, as the pinned axe-core-python ships it. WebDriver's scripts run through DevTools, which
# the pages' Content-Security-Policy (script-src 'self') does not govern: axe runs on the real page.
AXE = (package_files("axe_core_python") / "axe.min.js").read_text(encoding="utf-8")


axe_proven = False


def accessible(where):
    """Runs axe-core on the page as it is; its serious and critical violations fail the test."""
    global axe_proven
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(AXE)
    if not axe_proven:  # once: axe does run on this page, and finds a button without a name
        flagged = driver.execute_async_script("""
            const done = arguments[arguments.length - 1], probe = document.createElement('div');
            probe.innerHTML = '<button type="button"></button>';
            document.body.append(probe);
            axe.run(probe, {runOnly: ['button-name']}).then(r => { probe.remove(); done(r.violations.map(v => v.id)); })
               .catch(e => { probe.remove(); done([String(e)]); });""")
        check(flagged == ["button-name"], f"axe {driver.execute_script('return axe.version')} runs on the page ({flagged})")
        axe_proven = True
    found = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']})
           .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                                  targets: v.nodes.map(n => n.target.join(' '))}))))
           .catch(e => done([{id: 'axe-failed', impact: 'critical', help: String(e), targets: []}]));""")
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    for v in bad:
        print(f"     axe {v['impact']}: {v['id']} ({v['help']}) at {v['targets'][:8]}", flush=True)
    minor = sorted({f"{v['id']} ({v['impact']})" for v in found if v not in bad})
    check(not bad, f"{where}: axe finds no serious or critical violation" + (f" (lesser: {', '.join(minor)})" if minor else ""))
    stray = driver.execute_script("return document.body.innerText.match(/\\b(null|undefined|NaN|\\[object \\w+\\])/g)")
    check(not stray, f"{where}: no stray null, undefined or NaN in the text {stray or ''}")
    sideways = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    check(sideways <= 0, f"{where}: nothing makes the page scroll sideways ({sideways} px too wide)")


def names_are(where, expected):
    """Each control (by CSS selector) has exactly the accessible name people and screen readers
    find it by (Chromium's computed label, as WebDriver reports it)."""
    names = {selector: driver.find_element(By.CSS_SELECTOR, selector).accessible_name for selector in expected}
    check(names == expected, f"{where}: the controls are named {list(expected.values())} ({list(names.values())})")


def keyboard_reaches_every_control(where):
    """Tab from the top of the page through every control; each must take the focus."""
    controls = driver.execute_script("""
        const all = document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])');
        return [...all].filter(e => !e.disabled && e.getClientRects().length > 0 && !e.closest('[hidden]'));""")
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)  # the first Tab enters the page
    reached = {}
    for _ in range(len(controls) * 2 + 5):
        active = driver.switch_to.active_element
        reached[active.id] = active
        active.send_keys(Keys.TAB)
    missing = [c.get_attribute("outerHTML")[:80] for c in controls if c.id not in reached]
    check(not missing and len(controls) > 0, f"{where}: Tab reaches all {len(controls)} controls {missing[:3]}")
    # ... and nothing that is meant to be hidden (a CSS display rule can undo the hidden attribute).
    hidden = driver.execute_script("return arguments[0].filter(e => e.closest('[hidden]')).map(e => e.outerHTML.slice(0, 60))",
                                   list(reached.values()))
    check(not hidden, f"{where}: Tab reaches nothing hidden {hidden[:3]}")


def focused():
    return driver.switch_to.active_element


def from_the_top():
    """Puts the start of Tab's way at the top of the page (as a fresh page load does)."""
    driver.execute_script("""const b = document.body; b.tabIndex = -1; b.focus(); b.removeAttribute('tabindex');
                             window.scrollTo(0, 0);""")


def tab_to(is_target, limit=40):
    """Presses Tab on the focused element until is_target(the focused element); the presses it took, or None."""
    for presses in range(1, limit + 1):
        focused().send_keys(Keys.TAB)
        if is_target(focused()):
            return presses
    return None


def with_id(name):
    return lambda element: element.get_attribute("id") == name


try:
    # The link page, as someone without an account.
    driver.get(BASE + link["page_url"])
    check(driver.find_element(By.ID, "route-name").text == "Isar loop", "link page: the route's name")
    check(driver.find_element(By.ID, "owner-name").text == "Ada Lovelace", "link page: the owner's name")
    distance = driver.find_element(By.ID, "stat-distance").text
    check(distance.endswith(" km"), f"link page: distance for people ({distance})")
    check(":" in driver.find_element(By.ID, "stat-duration").text, "link page: time as h:mm:ss")
    drawn = driver.execute_script("return document.querySelector('#map svg polyline.route').points.numberOfItems")
    check(drawn == visible, f"link page: the map's line has the {visible} points a link holder may see ({drawn})")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#profile svg polyline.series")) == 1, "link page: an elevation profile")
    keyboard_reaches_every_control("link page")
    accessible("link page")
    if SHOTS:
        screenshot("link-page.png")

    # A name that is markup stays text.
    driver.get(BASE + evil_link["page_url"])
    check(driver.find_element(By.ID, "route-name").text == SCRIPT_NAME, "link page: a <script> name is text")
    check(driver.title.startswith(SCRIPT_NAME), "link page: the <script> name is text in the title")
    no_alert("the link page of a <script> name")

    # A dead link is a 404 page.
    driver.get(BASE + "/l/made-up-secret")
    check("does not work" in driver.find_element(By.TAG_NAME, "h1").text, "a dead link shows the 404 page")

    # The app: sign in by pasting the token.
    driver.get(BASE + "/")
    wait.until(lambda d: d.find_elements(By.ID, "token"))
    keyboard_reaches_every_control("sign-in page")
    accessible("sign-in page")
    driver.find_element(By.ID, "token").send_keys(ada + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#view table tbody tr"))
    check(driver.execute_script("return localStorage.getItem('routeranker.token')") == ada, "app: the token is kept")
    names = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#view tbody a")]
    check(SCRIPT_NAME in names, "app: my routes list the <script> name as text")
    keyboard_reaches_every_control("my routes")
    accessible("my routes")

    driver.get(f"{BASE}/#/route/{evil}")
    heading = "return (document.querySelector('#view h1') || {}).textContent"
    try:
        wait.until(lambda d: d.execute_script(heading) == SCRIPT_NAME)
    except Exception:
        pass
    check(driver.execute_script(heading) == SCRIPT_NAME, "app: route page shows the <script> name as text")
    no_alert("the app's route page of a <script> name")

    driver.get(f"{BASE}/#/route/{route}")
    wait.until(lambda d: d.execute_script(heading) == "Isar loop"
               and len(d.find_elements(By.CSS_SELECTOR, "#view figure svg")) == 2)
    own = driver.execute_script("return document.querySelector('#view figure svg polyline.route').points.numberOfItems")
    check(own == len(points), f"app: the owner's map has every point ({own})")
    board_rows = "return [...document.querySelectorAll('#route-segments .segment-board tbody tr')]" \
                 ".map(r => [...r.cells].map(c => c.textContent))"
    eventually(lambda: driver.execute_script(board_rows))
    rows = driver.execute_script(board_rows) or []
    check([r[:2] for r in rows] == [["1", "Grace Hopper"], ["2", "Ada Lovelace"]] and all(":" in r[2] for r in rows)
          and all(r[3].endswith("km/h") for r in rows) and [r[4] for r in rows] == ["1", "1"],
          f"app: route page shows the leaderboard of the segment it passes {rows}")
    title = driver.execute_script("return (document.querySelector('#route-segments h3') || {}).textContent")
    check(title == "Bridge <b>sprint</b>", f"app: the segment's name is text ({title})")
    # Best efforts with PR badges, as the API ranks them among Ada's runs.
    effort_rows = "return [...document.querySelectorAll('#best-efforts tbody tr')].map(r => [...r.cells].map(c => c.textContent))"
    eventually(lambda: driver.execute_script(effort_rows))
    efforts = driver.execute_script(effort_rows) or []
    badges = [{1: "PR 1st", 2: "PR 2nd", 3: "PR 3rd"}.get(e["pr_rank"], "")
              for e in call("GET", f"/v1/routes/{route}/best_efforts", token=ada)["items"]]
    check(len(efforts) >= 4 and efforts[0][0] == "400 m" and all(r[2].endswith("/km") for r in efforts)
          and [r[3] for r in efforts] == badges, f"app: route page shows the best efforts with pace and PR badges {efforts}")
    keyboard_reaches_every_control("route page")
    accessible("route page")
    if SHOTS:
        screenshot("route-page.png")

    # Records: mine per distance, the progression chart, the friends' ranking and the training log.
    driver.get(f"{BASE}/#/records")
    ranking_rows = "return [...document.querySelectorAll('#records-ranking tbody tr')].map(r => [...r.cells].map(c => c.textContent))"
    wait.until(lambda d: d.execute_script(heading) == "Records" and d.execute_script(ranking_rows))
    friends_ranking = driver.execute_script(ranking_rows)
    check([r[:2] for r in friends_ranking] == [["1", "Grace Hopper"], ["2", "Ada Lovelace"]],
          f"app: the friends' ranking of the first distance, Grace's shared run first {friends_ranking}")
    record_rows = driver.execute_script("return [...document.querySelectorAll('#records tbody tr')].map(r => r.dataset.distance)")
    check(record_rows[:3] == ["400m", "half_mile", "1k"], f"app: my records by distance {record_rows}")
    check(driver.execute_script("return document.querySelectorAll('#progression-chart path.progression').length") == 1,
          "app: a record's progression is drawn")
    eventually(lambda: driver.execute_script("return document.querySelectorAll('#view figure svg rect.bar').length") >= 1)
    check(driver.execute_script("return document.querySelectorAll('#view figure svg rect.bar').length") >= 1,
          "app: the training log's chart is drawn")
    keyboard_reaches_every_control("records page")
    accessible("records page")
    if SHOTS:
        screenshot("records-page.png")
    # The route that holds the 400 m record shows it as her 1st.
    holder = call("GET", "/v1/users/me/records", token=ada)["items"][0]["route"]
    driver.get(f"{BASE}/#/route/{holder}")
    eventually(lambda: (driver.execute_script(effort_rows) or [[None] * 4])[0][3] == "PR 1st")
    check((driver.execute_script(effort_rows) or [[None] * 4])[0][3] == "PR 1st",
          f"app: the record's route shows PR 1st at 400 m {driver.execute_script(effort_rows)}")
    driver.get(f"{BASE}/#/records?activity=ride")
    wait.until(lambda d: "No ride records yet" in d.find_element(By.ID, "view").text)

    # Live: the page of a recording route follows appends made through the API while it is open.
    driver.get(f"{BASE}/#/route/{live}")
    status = "return (document.getElementById('live-status') || {}).textContent"
    drawn = "return (document.querySelector('#view figure svg polyline.route') || {points: {}}).points.numberOfItems"
    stat_points = """const d = [...document.querySelectorAll('#route-stats div')].find(d => d.firstChild.textContent === 'Points');
                     return d ? d.lastChild.textContent : null"""
    eventually(lambda: driver.execute_script(status) == "Live" and driver.execute_script(drawn) == 30)
    check(driver.execute_script(status) == "Live" and driver.execute_script(drawn) == 30,
          f"app: a recording route's page says Live ({driver.execute_script(status)}, {driver.execute_script(drawn)} points)")
    keyboard_reaches_every_control("live route page")
    accessible("live route page")
    started = time.time()
    call("POST", f"/v1/routes/{live}/points", {"points": live_points[30:60]}, ada)
    eventually(lambda: driver.execute_script(stat_points) == "60" and driver.execute_script(drawn) == 60)
    seen = time.time() - started
    check(driver.execute_script(stat_points) == "60" and driver.execute_script(drawn) == 60,
          f"app: an append shows on the open page ({driver.execute_script(stat_points)} points in the stats, "
          f"{driver.execute_script(drawn)} on the map, after {seen:.1f} s)")
    # Stop following with the keyboard, append, follow again: the page resumes with Last-Event-ID.
    driver.find_element(By.ID, "live-toggle").send_keys(Keys.ENTER)
    eventually(lambda: driver.execute_script(status) == "Not following")
    call("POST", f"/v1/routes/{live}/points", {"points": live_points[60:70]}, ada)
    time.sleep(1.5)
    check(driver.execute_script(stat_points) == "60", "app: a stopped page does not follow")
    driver.find_element(By.ID, "live-toggle").send_keys(Keys.ENTER)
    eventually(lambda: driver.execute_script(stat_points) == "70" and driver.execute_script(drawn) == 70)
    check(driver.execute_script(stat_points) == "70" and driver.execute_script(drawn) == 70
          and driver.execute_script(status) == "Live",
          f"app: following again catches up ({driver.execute_script(stat_points)} points, {driver.execute_script(status)})")
    call("POST", f"/v1/routes/{live}/finish", {}, ada)
    eventually(lambda: driver.execute_script(status) == "Finished")
    check(driver.execute_script(status) == "Finished", f"app: finishing shows Finished ({driver.execute_script(status)})")

    # My segments, and a segment's own page.
    driver.get(f"{BASE}/#/segments")
    eventually(lambda: driver.find_elements(By.CSS_SELECTOR, "#view tbody a"))
    links = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#view tbody a")]
    check(links == ["Bridge <b>sprint</b>"], f"app: my segments {links}")
    driver.get(f"{BASE}/#/segment/{segment}")
    eventually(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#view .leaderboard tbody tr")) == 2)
    check(len(driver.find_elements(By.CSS_SELECTOR, "#view .leaderboard tbody tr")) == 2, "app: a segment's page ranks both")
    keyboard_reaches_every_control("segment page")
    accessible("segment page")

    driver.get(f"{BASE}/#/compare?groups={','.join(group_ids)}&metric=duration_s")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#view figure svg g.group"))
    order = driver.execute_script(
        "return [...document.querySelectorAll('#view figure svg g.group')].map(g => g.dataset.group)")
    check(order == ranking, f"compare page: the groups in ranking order {order}")
    boxes = driver.execute_script(
        "return [...document.querySelectorAll('#view figure svg g.group')].map(g => g.querySelectorAll('rect.box').length)")
    check(boxes == [1, 1, 1], f"compare page: one box per group {boxes}")
    rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#compare-table tbody tr")]
    check(len(rows) == 3, "compare page: a table row per group")
    keyboard_reaches_every_control("compare page")
    accessible("compare page")
    if SHOTS:
        screenshot("compare-page.png")

    for path, title in [("#/inbox", "Shared with me"), ("#/groups", "Groups")]:
        driver.get(f"{BASE}/{path}")
        wait.until(lambda d: d.execute_script(heading) == title)
        time.sleep(0.3)
        keyboard_reaches_every_control(path)
        accessible(path)

    # A new person starts with the web app alone: sign up and upload with the keyboard only, keep
    # the token, import an archive, connect a phone, export everything, and leave.
    # Keys go only to the element that has the focus (as a person's keyboard does).
    driver.execute_script("localStorage.clear()")
    driver.get(BASE + "/")
    wait.until(lambda d: d.find_elements(By.ID, "sign-up-form"))
    check(not driver.execute_script("return document.getElementById('nav').getClientRects().length"),
          "sign-in page: the sections' links are hidden before signing in")
    if SHOTS:
        screenshot("first-screen.png")
    names_are("sign-in page", {"#new-id": "Id", "#new-name": "Name", "#sign-up-form button": "Sign up",
                               "#token": "Token", "#sign-in-form button": "Sign in"})
    from_the_top()
    presses = tab_to(with_id("new-id"))
    check(presses == 2, f"sign-up: Tab from the top of the page reaches the id field after the skip link ({presses} presses)")
    focused().send_keys("newcomer")
    check(tab_to(with_id("new-name"), 1) == 1, "sign-up: the next Tab reaches the name field")
    focused().send_keys("New Comer")
    check(tab_to(lambda e: e.tag_name == "button" and e.text == "Sign up", 1) == 1,
          "sign-up: the next Tab reaches the Sign up button")
    focused().send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.ID, "new-token") and d.find_element(By.ID, "new-token").text)
    shown = driver.find_element(By.ID, "new-token").text
    check(shown.startswith("newcomer~") and driver.execute_script("return localStorage.getItem('routeranker.token')") == shown,
          "sign-up with the keyboard: the token is shown once and kept")
    if SHOTS:
        screenshot("sign-up.png")
    keyboard_reaches_every_control("token page")
    accessible("token page")

    files = tempfile.mkdtemp(prefix="routeranker-browser-files-")
    def gpx_text(shift):
        return ('<?xml version="1.0"?><gpx version="1.1" creator="t"><trk><trkseg>' + "".join(
            f'<trkpt lat="{p["lat"]}" lon="{p["lon"]}"><time>{time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(p["t"] + shift))}</time></trkpt>'
            for p in points) + "</trkseg></trk></gpx>")
    gpx_path = os.path.join(files, "Morning loop.gpx")
    with open(gpx_path, "w") as out:
        out.write(gpx_text(400_000))
    bad_path = os.path.join(files, "broken.gpx")
    with open(bad_path, "w") as out:
        out.write("<gpx>")
    # JSON names its own route (the file's name does not), so it only reads right if the app sent
    # it as application/json, as it picks the type from the file's name.
    json_path = os.path.join(files, "watch-export.json")
    with open(json_path, "w") as out:
        json.dump({"name": "Evening jog", "activity": "run", "points": loop(48.16, 11.6, 1_764_600_000)}, out)
    # To the upload page by the token page's link, then to the file input, all with Tab and Enter.
    from_the_top()
    check(tab_to(with_id("token-continue")) is not None, "token page: Tab reaches the link to the upload page")
    focused().send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.ID, "upload-files") and d.execute_script("return document.activeElement.id") == "main")
    from_the_top()
    presses = tab_to(with_id("upload-files"))
    label = focused().accessible_name if presses else None
    outlined = driver.execute_script("const l = document.activeElement.closest('label');"
                                     "return l ? getComputedStyle(l).outlineStyle : 'none'")
    check(presses is not None and label == "Upload routes" and outlined != "none",
          f"upload: Tab reaches the file input ({presses} presses from the top; named {label!r}; its label outlined: {outlined})")
    # Headless Chromium cannot open the file chooser that Enter or Space would open: WebDriver
    # hands the focused input its files instead (and the input's change event follows).
    focused().send_keys("\n".join([gpx_path, bad_path, json_path]))
    results = """return [...document.querySelectorAll('#upload-rows tr')].map(r => {
        const bar = r.querySelector('progress'), link = r.cells[2].querySelector('a');
        return [r.dataset.file, bar.value == bar.max, r.cells[2].textContent, link && link.getAttribute('href')]; })"""
    eventually(lambda: len(driver.execute_script(results)) == 3 and all("…" not in r[2] for r in driver.execute_script(results)), 15)
    uploaded = {r[0]: r for r in driver.execute_script(results)}
    check(sorted(uploaded) == sorted(["Morning loop.gpx", "broken.gpx", "watch-export.json"]),
          f"upload: one row per file {sorted(uploaded)}")
    check(all(r[1] for r in uploaded.values()), f"upload: each row's progress bar is full {[r[1] for r in uploaded.values()]}")
    gpx_row, bad_row, json_row = (uploaded.get(n, [None, False, "", None])
                                  for n in ["Morning loop.gpx", "broken.gpx", "watch-export.json"])
    check(gpx_row[2].startswith("Uploaded: Morning loop") and gpx_row[2].endswith(" km") and gpx_row[3],
          f"upload: the GPX file's route, named after the file ({gpx_row[2]})")
    check("not well-formed" in bad_row[2] and not bad_row[3], f"upload: the broken file's error ({bad_row[2]})")
    check(json_row[2].startswith("Uploaded: Evening jog") and json_row[3],
          f"upload: the JSON file's route, named by its content ({json_row[2]})")
    uploaded_ids = [r[3].rsplit("/", 1)[-1] for r in (gpx_row, json_row) if r[3]]
    accessible("upload page")
    if SHOTS:
        screenshot("upload-page.png")

    archive_path = os.path.join(files, "strava.zip")
    with zipfile.ZipFile(archive_path, "w") as z:
        z.writestr("activities.csv", "Activity ID,Activity Name,Activity Type,Filename\n1,Evening ride,Ride,activities/1.gpx.gz\n")
        z.writestr("activities/1.gpx.gz", gzip.compress(gpx_text(500_000).encode()))
        z.writestr("activities/2.gpx", open(gpx_path, "rb").read())
        z.writestr("media/x.jpg", b"x")
    driver.get(f"{BASE}/#/import")
    wait.until(lambda d: d.find_elements(By.ID, "import-file"))
    accessible("import page")
    names_are("import page", {"#import-file": "Import an archive"})
    driver.find_element(By.ID, "import-file").send_keys(archive_path)
    eventually(lambda: "done" in driver.find_element(By.ID, "import-state").text, 30)
    state = driver.find_element(By.ID, "import-state").text
    statuses = driver.execute_script("return [...document.querySelectorAll('#import-files tbody tr')].map(r => r.dataset.status)")
    bar = driver.execute_script("const b = document.getElementById('import-progress'); return [b.value, b.max]")
    check("done" in state and statuses == ["skipped", "imported", "duplicate", "skipped"] and bar == [4, 4],
          f"import: a progress bar that follows the job, then the per-file table ({state}; {statuses}; {bar})")
    accessible("import page, done")
    if SHOTS:
        screenshot("import-page.png")

    driver.get(f"{BASE}/#/account")
    wait.until(lambda d: d.find_elements(By.ID, "device-form"))
    keyboard_reaches_every_control("account page")
    driver.find_element(By.CSS_SELECTOR, "#device-form button").click()
    eventually(lambda: "Traccar Client" in driver.find_element(By.ID, "connect").text)
    settings = driver.find_element(By.ID, "connect").text
    check("OwnTracks" in settings and "GPSLogger" in settings and "newcomer" in settings and "/v1/track/osmand" in settings,
          "account: connecting a phone shows each app's settings")
    eventually(lambda: driver.execute_script("return document.querySelectorAll('#connect figure.qr svg path').length") == 3)
    check(driver.execute_script("return document.querySelectorAll('#connect figure.qr svg path').length") == 3,
          "account: a QR code for each app, drawn by the server")
    # Each code, as a phone's camera would see it on the screen, read back with zbarimg.
    tables = driver.execute_script("""return [...document.querySelectorAll('#connect table.settings')].map(t =>
        Object.fromEntries([...t.rows].map(r => [r.cells[0].textContent, r.cells[1].textContent])))""")
    key = tables[1].get("Device identifier", "") if len(tables) == 3 else ""
    scanned = {}
    for figure in driver.find_elements(By.CSS_SELECTOR, "#connect figure.qr"):
        app = figure.get_attribute("data-app")
        png = os.path.join(files, f"qr-{app}.png")
        with open(png, "wb") as out:
            out.write(figure.screenshot_as_png)
        scan = subprocess.run(["zbarimg", "--raw", "-q", png], capture_output=True, text=True, timeout=30)
        scanned[app] = scan.stdout.strip() if scan.returncode == 0 else f"(zbarimg exited {scan.returncode})"
    osmand = f"{BASE}/v1/track/osmand"
    check(bool(key) and scanned.get("osmand") == f"{osmand}?id={urllib.parse.quote(key, safe='')}"
          and tables[1].get("Server URL") == osmand,
          f"account: Traccar Client's code is this server's OsmAnd address with the key as id ({scanned.get('osmand')})")
    check(bool(key) and scanned.get("gpslogger") == tables[2].get("URL")
          and scanned.get("gpslogger", "").startswith(f"{osmand}?id={key}&lat=%LAT&lon=%LON"),
          f"account: GPSLogger's code is the custom URL shown ({scanned.get('gpslogger')})")
    owntracks = scanned.get("owntracks", "")
    try:
        inline = urllib.parse.parse_qs(urllib.parse.urlsplit(owntracks).query)["inline"][0]
        configuration = json.loads(base64.b64decode(inline))
    except Exception as error:
        configuration = {"error": repr(error)}
    check(owntracks.startswith("owntracks:///config?inline=") and bool(key) and configuration == {
              "_type": "configuration", "mode": 3, "url": f"{BASE}/v1/track/owntracks", "auth": True,
              "username": "newcomer", "password": key} and tables[0].get("URL") == configuration.get("url"),
          f"account: OwnTracks' code configures this server's OwnTracks address, the owner and the key "
          f"({ {k: v for k, v in configuration.items() if k != 'password'} })")
    accessible("account page")
    if SHOTS:
        screenshot("account-page.png")

    # Export: the zip the button downloads holds the uploaded routes.
    driver.find_element(By.ID, "export").click()
    archive = os.path.join(downloads, "routeranker-newcomer.zip")
    eventually(lambda: os.path.exists(archive) and not [f for f in os.listdir(downloads) if f.endswith(".crdownload")], 20)
    try:
        with zipfile.ZipFile(archive) as z:
            names = z.namelist()
            intact = z.testzip() is None
            listed = [r["name"] for r in json.loads(z.read("routes.json"))] if "routes.json" in names else []
    except (OSError, zipfile.BadZipFile) as error:
        names, intact, listed = [repr(error)], False, []
    check(intact and "account.json" in names and len(uploaded_ids) == 2
          and all(f"routes/{i}.gpx" in names for i in uploaded_ids)
          and {"Morning loop", "Evening jog", "Evening ride"} <= set(listed),
          f"export: the button downloads a valid zip with the uploaded routes ({sorted(names)}; {sorted(listed)})")

    names_are("account page", {"#delete-form input": "Type your id to confirm", "#delete-form button": "Delete my account"})
    driver.find_element(By.CSS_SELECTOR, "#delete-form input").send_keys("newcomer")
    driver.find_element(By.CSS_SELECTOR, "#delete-form button").click()
    wait.until(lambda d: d.find_elements(By.ID, "sign-up-form"))
    gone = urllib.request.Request(BASE + "/v1/users/me", headers={"Authorization": "Bearer " + shown})
    try:
        urllib.request.urlopen(gone)
        status = 200
    except urllib.error.HTTPError as error:
        status = error.code
    check(status == 401, f"leaving: back to the first screen, the token no longer works ({status})")

    drain_network_log()
    check(resumed == ["60"], f"app: following again sends Last-Event-ID: 60 ({resumed})")
    foreign = [url for url in requested if not (url.startswith(BASE + "/") or url.startswith("data:") or url == "about:blank")]
    check(len(requested) > 10 and not foreign, f"no request leaves the origin ({len(requested)} requests; foreign: {foreign[:3]})")
finally:
    driver.quit()
    shutil.rmtree(downloads, ignore_errors=True)
    if files:
        shutil.rmtree(files, ignore_errors=True)

print(f"browser tests: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
