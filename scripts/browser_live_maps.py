"""Browser tests for scripts/browser-test, against a server started with --tile-url: maps over an
operator's tiles, and a phone's page that follows it live.

Usage: browser_live_maps.py BASE TILE_PORT [--screenshots DIR]

The test serves the tiles itself: 256-pixel PNGs made here (a checkerboard, so that a screenshot
shows where they are), on TILE_PORT, which the server's --tile-url names. Checks: the app's route
page, a recording route's live view and the link page draw the route over tiles the browser really
fetched from the tile server (no other origin is asked for anything, and Chromium reports no
Content-Security-Policy violation); the attribution is visible; the device page shows its counts,
last seen and current route, and follows points sent by a phone (OwnTracks over HTTP) while it is
open, its map over the tiles too.
"""
import base64
import json
import sys
import threading
import time
import urllib.request
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import browser_common
from browser_common import check, chromium, failures

# Tiles and live points take a little longer than the first script's pages: 10 s, not 8.
def eventually(condition, seconds=10):
    return browser_common.eventually(condition, seconds)

BASE = sys.argv[1]
TILE_PORT = int(sys.argv[2])
TILES = f"http://127.0.0.1:{TILE_PORT}"
SHOTS = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
ATTRIBUTION = "Test tiles © RouteRanker"
def call(method, path, body=None, token=None, headers=None):
    request = urllib.request.Request(
        BASE + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {}),
                 **(headers or {})})
    with urllib.request.urlopen(request) as answer:
        text = answer.read()
        return json.loads(text) if text else None


# ---- The tile server ------------------------------------------------------------------------------
def png(light):
    """A 256 × 256 PNG: a checkerboard of 32-pixel squares, light or dark by the tile's parity."""
    def chunk(kind, data):
        return (len(data).to_bytes(4, "big") + kind + data
                + zlib.crc32(kind + data).to_bytes(4, "big"))
    a, b = ((226, 232, 220), (200, 214, 190)) if light else ((190, 206, 222), (170, 190, 210))
    rows = b"".join(b"\x00" + b"".join(bytes(a if ((x // 32) + (y // 32)) % 2 else b) for x in range(256))
                    for y in range(256))
    header = (256).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


TILE_IMAGES = {True: png(True), False: png(False)}
served = []  # the paths of the tiles asked for


class Tiles(BaseHTTPRequestHandler):
    def do_GET(self):
        parts = self.path.strip("/").removesuffix(".png").split("/")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            self.send_error(404)
            return
        served.append(self.path)
        body = TILE_IMAGES[(int(parts[1]) + int(parts[2])) % 2 == 0]
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


tile_server = ThreadingHTTPServer(("127.0.0.1", TILE_PORT), Tiles)
threading.Thread(target=tile_server.serve_forever, daemon=True).start()

# ---- Fixtures -------------------------------------------------------------------------------------
import math

t0 = int(time.time()) - 3600
points = [{"lat": 47.37 + 0.004 * math.sin(2 * math.pi * i / 60), "lon": 8.54 + 0.006 * (1 - math.cos(2 * math.pi * i / 60)),
           "t": t0 + 10 * i} for i in range(60)]
owner = call("POST", "/v1/users", {"id": "tiler", "name": "Tile Tester"})["token"]
route = call("POST", "/v1/routes", {"name": "Zurich loop", "activity": "ride", "points": points}, owner)["id"]
link = call("POST", f"/v1/routes/{route}/links", {}, owner)
recording = call("POST", "/v1/routes", {"name": "Recording loop", "activity": "run", "recording": True,
                                        "points": points[:20]}, owner)["id"]
device = call("POST", "/v1/devices", {"name": "Pocket phone", "activity": "walk"}, owner)


def own_tracks(lat, lon, tst):
    credentials = base64.b64encode(f"tiler:{device['key']}".encode()).decode()
    request = urllib.request.Request(
        BASE + "/v1/track/owntracks", method="POST",
        data=json.dumps({"_type": "location", "lat": lat, "lon": lon, "tst": tst, "tid": "ph"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Basic " + credentials})
    with urllib.request.urlopen(request) as answer:
        return answer.status


# ---- The browser ----------------------------------------------------------------------------------
driver = chromium(logs=("performance", "browser"))
wait = WebDriverWait(driver, 15)
requested = []
console = []


def drain_logs():
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requested.append(message["params"]["request"]["url"])
    console.extend(entry["message"] for entry in driver.get_log("browser"))


def screenshot(name):
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    time.sleep(0.3)
    driver.save_screenshot(f"{SHOTS}/{name}")


TILE_HREFS = "return [...document.querySelectorAll('SELECTOR svg image.tile')].map(i => i.getAttribute('href'))"


def tiles_drawn(selector):
    """The tile addresses of the map under `selector`, once each was fetched from the tile server."""
    hrefs = driver.execute_script(TILE_HREFS.replace("SELECTOR", selector)) or []
    fetched = set(served)
    return hrefs, [h for h in hrefs if h.removeprefix(TILES) not in fetched]


def attribution_visible(selector):
    """The attribution's text and whether its box lies inside the picture's."""
    return driver.execute_script("""
        const svg = document.querySelector(arguments[0] + ' svg');
        const text = svg && svg.querySelector('g.attribution text');
        if (!text) return [null, false];
        const a = svg.getBoundingClientRect(), b = text.getBoundingClientRect();
        return [text.textContent, b.width > 20 && b.left >= a.left && b.right <= a.right + 0.5 && b.bottom <= a.bottom + 0.5];
    """, selector)


try:
    # The link page: server-drawn, no script; its map over the tiles.
    driver.get(BASE + link["page_url"])
    eventually(lambda: tiles_drawn("#map")[0] and not tiles_drawn("#map")[1])
    hrefs, missing = tiles_drawn("#map")
    check(len(hrefs) >= 2 and not missing and all(h.startswith(TILES + "/") for h in hrefs),
          f"link page: the map is drawn over {len(hrefs)} tiles, each fetched from the tile server (missing: {missing[:2]})")
    text, visible = attribution_visible("#map")
    check(text == ATTRIBUTION and visible, f"link page: the attribution is shown ({text}, visible: {visible})")
    line = driver.execute_script("return document.querySelector('#map svg polyline.route').points.numberOfItems")
    check(line == len(points), f"link page: the route's line over the tiles ({line} points)")
    if SHOTS:
        screenshot("link-page-tiles.png")

    # The app: a finished route's page.
    driver.get(BASE + "/")
    driver.execute_script("localStorage.setItem('routeranker.token', arguments[0])", owner)
    driver.get(f"{BASE}/#/route/{route}")
    eventually(lambda: tiles_drawn("#view figure")[0] and not tiles_drawn("#view figure")[1])
    hrefs, missing = tiles_drawn("#view figure")
    check(len(hrefs) >= 2 and not missing, f"app: a route's map over {len(hrefs)} fetched tiles (missing: {missing[:2]})")
    text, visible = attribution_visible("#view figure")
    check(text == ATTRIBUTION and visible, f"app: the attribution is shown ({text}, visible: {visible})")
    rate = driver.execute_script("""const d = [...document.querySelectorAll('#route-stats div')]
        .find(d => d.firstChild.textContent === 'Average speed'); return d ? d.lastChild.textContent : null""")
    check(rate is not None and rate.endswith("km/h"), f"app: a ride reads in km/h ({rate})")
    if SHOTS:
        screenshot("route-page-tiles.png")

    # The live view: a recording route redrawn over the tiles after an append.
    driver.get(f"{BASE}/#/route/{recording}")
    drawn = "return (document.querySelector('#view figure svg polyline.route') || {points: {}}).points.numberOfItems"
    eventually(lambda: driver.execute_script(drawn) == 20 and tiles_drawn("#view figure")[0])
    call("POST", f"/v1/routes/{recording}/points", {"points": points[20:40]}, owner)
    eventually(lambda: driver.execute_script(drawn) == 40 and not tiles_drawn("#view figure")[1])
    hrefs, missing = tiles_drawn("#view figure")
    check(driver.execute_script(drawn) == 40 and hrefs and not missing,
          f"app: the live view follows an append over the tiles ({driver.execute_script(drawn)} points, {len(hrefs)} tiles)")

    # A phone's page: counts, last seen, the route it records, followed while open.
    start = int(time.time()) - 60
    check(own_tracks(47.37, 8.54, start) == 200, "the phone's first point is taken")
    driver.get(f"{BASE}/#/device/{device['id']}")
    count = "return (document.querySelector('#device-counts [data-count=\"COUNT\"] dd') || {}).textContent"
    recorded = lambda: driver.execute_script(count.replace("COUNT", "Recorded"))
    eventually(lambda: recorded() == "1" and driver.find_elements(By.ID, "device-route-link"))
    heading = driver.execute_script("return document.querySelector('#view h1').textContent")
    seen = driver.execute_script(count.replace("COUNT", "Last seen"))
    check(heading == "Pocket phone" and recorded() == "1" and seen not in (None, "never"),
          f"device page: its name, counts and last seen ({heading}, recorded {recorded()}, last seen {seen})")
    current = call("GET", f"/v1/devices/{device['id']}", token=owner)["current_route"]
    target = driver.find_element(By.ID, "device-route-link").get_attribute("href")
    check(current and target.endswith(f"#/route/{current}"), f"device page: a link to the route it records ({target})")
    sent = time.time()
    for i in range(1, 4):
        own_tracks(47.37 + 0.0004 * i, 8.54 + 0.0006 * i, start + 10 * i)
    device_line = "return (document.querySelector('#device-route svg polyline.route') || {points: {}}).points.numberOfItems"
    eventually(lambda: recorded() == "4" and driver.execute_script(device_line) == 4)
    check(recorded() == "4" and driver.execute_script(device_line) == 4,
          f"device page: points sent while it is open show (recorded {recorded()}, "
          f"{driver.execute_script(device_line)} on the map, after {time.time() - sent:.1f} s)")
    status = driver.execute_script("return (document.getElementById('live-status') || {}).textContent")
    check(status == "Live", f"device page: it follows the route live ({status})")
    eventually(lambda: not tiles_drawn("#device-route")[1] and tiles_drawn("#device-route")[0])
    hrefs, missing = tiles_drawn("#device-route")
    check(hrefs and not missing, f"device page: the current route over the tiles ({len(hrefs)} tiles)")
    own_tracks(47.37, 8.54, start + 40)  # the same place again within the rules: counted, maybe not recorded
    eventually(lambda: driver.execute_script(count.replace("COUNT", "Received")) == "5")
    check(driver.execute_script(count.replace("COUNT", "Received")) == "5",
          f"device page: the counts follow every message (received {driver.execute_script(count.replace('COUNT', 'Received'))})")
    sideways = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    check(sideways <= 0, f"device page: nothing makes it scroll sideways ({sideways} px too wide)")
    if SHOTS:
        screenshot("device-page.png")

    drain_logs()
    foreign = [u for u in requested if not (u.startswith(BASE + "/") or u.startswith(TILES + "/")
                                           or u.startswith("data:") or u.startswith("blob:") or u == "about:blank")]
    check(len(requested) > 10 and not foreign,
          f"nothing but the server and the tile server is asked for anything ({len(requested)} requests; foreign: {foreign[:3]})")
    blocked = [m for m in console if "Content Security Policy" in m]
    check(not blocked, f"no Content-Security-Policy violation ({blocked[:2]})")
finally:
    driver.quit()
    tile_server.shutdown()

print(f"browser live-maps tests: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
