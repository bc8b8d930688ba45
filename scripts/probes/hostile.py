"""A probe that tries to kill the server: every row of issue 43's table (an outside security test's
findings), replayed against one real server process, each row a small case with the answer the
contract requires (API.md, "Details that the sections above leave open": HTTP, Limits and hostile
input). One line per case, then one line of figures.

Asserted:
- the server's pid is the one it started with and `/healthz` answers at the end (a case that kills
  the server is reported, the server is restarted on the same database so that the other cases
  still run, and the probe fails);
- every case answers the contract's 4xx with the error envelope `{"error":{"code","message"}}`, or
  2xx where the input is valid (pictures and pages of extreme but valid values answer 200), and a
  refused request changes nothing;
- the costly cases (#6, #7, #8's big lists, #9) run one after another while a victim reads its own
  route every 50 ms: every one of the victim's reads answers 200 within 1 s (max and p99 printed);
- the server's RSS (VmRSS sampled every 100 ms, and VmHWM at the end) stays under RSS_BOUND_MIB,
  768 MiB. Measured in a debug build: ~70 MiB after set-up, ~300 MiB while four lists of 12.6 MB
  are encoded (#8), 335-575 MiB while an import reads a 257 MiB entry (#14, #9: the one import
  worker of a process holds up to 256 MiB of an entry, and a copy, one entry at a time), a peak
  of 480-580 MiB over a whole run (what the allocator kept from #8 under #9's); the bound leaves
  a third on top, and is well under the outside test's 1,100 MiB.

Sizes, chosen so that a debug build on 2 cores finishes in under a minute while the code before
the fixes still shows each problem:
- #6: two concurrent GPX uploads whose first `trkpt` has 150,000 and 300,000 attributes (1.7 and
  3.5 MB; the XML parser's handling is quadratic: two of 150,000 took 19 s each before the fixes);
- #7: four concurrent `similar?max_m=10000` and one `similar_to` group on a 664 km route and a
  copy of it (the outside test's length; its points are ~740 m apart, but paths are resampled
  every 10 m whatever the points, so the work is that of its 300,000-point route: 80 s before the
  fixes);
- #8: twelve routes of 1,000 annotations of 1,000 characters (the most allowed, 1 MB each), listed
  four times at once: twice the outside test's six, so that the case is decided clear of the 1 s
  bound (four lists of six cost 2 s of CPU, a stall of about 1 s on 2 cores; of twelve, a stall
  of 1.35-1.6 s on an idle 2-core machine, 2-3 s on a busy one, while lists are encoded on the
  request threads);
- #9: three imports of one user whose entries inflate to 257 MiB each (gzip of zeros, ~260 KB,
  made here), and a victim's one-file import; #14: one such entry.
Before the fixes (debug build), #1, #2, #3 and #4 killed the server and #7 hung it.

`PROBE_HOSTILE_ROWS=1,7` runs only those rows; `PROBE_GPX_ATTRIBUTES` sets #6's smaller count.
Deterministic: fixed data, no randomness; every request has a timeout and every wait a deadline.
Traffic only to 127.0.0.1."""

import base64
import io
import json
import os
import socket
import subprocess
import threading
import time
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, cast
from urllib.parse import quote, urlsplit

from common import ProbeFailure, Server, check, register, request, run, start_stack
from costly import create, line_route

RSS_BOUND_MIB = 768
VICTIM_BOUND_S = 1.0
VICTIM_PERIOD_S = 0.05
GPX_ATTRIBUTES = int(os.environ.get("PROBE_GPX_ATTRIBUTES", "150000"))
GPX_BOUND_S = 5.0
BOMB_BYTES = 257 << 20
EXTREME_POINTS = 2_000
ANNOTATED_ROUTES = 12
ROWS = {int(row) for row in os.environ.get("PROBE_HOSTILE_ROWS", "").split(",") if row}  # default: all
TIMEOUT_S = 90


# --- HTTP ---------------------------------------------------------------------------------------

@dataclass
class Reply:
    """An answer: status, headers with lower-case names, body."""
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float = 0.0

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


def call(port: int, method: str, path: str, value: Any = None, token: Optional[str] = None,
         body: Optional[bytes] = None, content_type: Optional[str] = None,
         headers: Optional[dict[str, str]] = None, timeout: float = TIMEOUT_S) -> Reply:
    """One request (common.request); `value` is sent as JSON."""
    if value is not None:
        body, content_type = json.dumps(value).encode(), "application/json"
    started = time.monotonic()
    status, answer_headers, data = request(port, method, path, body, token, content_type, headers, timeout)
    return Reply(status, {k.lower(): v for k, v in answer_headers.items()}, data, time.monotonic() - started)


def raw_exchange(port: int, head: bytes, timeout: float = 30) -> Reply:
    """Writes `head` (a whole request) on a new connection and reads the answer to the end: for
    what http.client will not send (huge request lines) or hides (a body after a HEAD). A server
    that closes before reading everything must still have answered."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        try:
            connection.sendall(head)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered early and closed: read what it said
        data = b""
        try:
            while chunk := connection.recv(65536):
                data += chunk
        except ConnectionResetError:
            check(bool(data), "the connection was reset without an answer")
    check(b"\r\n\r\n" in data, f"no complete answer: {data[:200]!r}")
    header_block, body = data.split(b"\r\n\r\n", 1)
    lines = header_block.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, content = line.partition(":")
        headers[name.strip().lower()] = content.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = dechunk(body)
    return Reply(int(lines[0].split()[1]), headers, body, time.monotonic() - started)


def dechunk(data: bytes) -> bytes:
    out, rest = b"", data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2:]
    return out


def envelope(reply: Reply, statuses: Iterable[int], label: str, code: Optional[str] = None) -> dict[str, Any]:
    """Checks an error answer: one of `statuses`, JSON, `{"error":{"code","message"}}`; the error."""
    statuses = tuple(statuses)
    check(reply.status in statuses, f"{label}: expected {'/'.join(map(str, statuses))}, got {reply.status} "
                                     f"{reply.body[:200]!r}")
    check(reply.header("content-type").startswith("application/json"),
          f"{label}: {reply.status} without a JSON body (Content-Type {reply.header('content-type')!r}, "
          f"body {reply.body[:100]!r})")
    try:
        error = reply.json()["error"]
    except (ValueError, KeyError, TypeError):
        raise ProbeFailure(f"{label}: {reply.status} body is not the error envelope: {reply.body[:200]!r}")
    check(isinstance(error, dict) and isinstance(error.get("code"), str) and isinstance(error.get("message"), str)
          and error["message"] != "", f"{label}: the envelope lacks code or message: {reply.body[:200]!r}")
    if code is not None:
        check(error["code"] == code, f"{label}: code {error['code']!r}, expected {code!r}")
    return cast(dict[str, Any], error)


def ok(reply: Reply, statuses: Iterable[int], label: str) -> Reply:
    statuses = tuple(statuses)
    check(reply.status in statuses, f"{label}: expected {'/'.join(map(str, statuses))}, got {reply.status} "
                                     f"{reply.body[:200]!r}")
    return reply


def b64url(value: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).decode().rstrip("=")


# --- The server, its memory, and a victim -------------------------------------------------------

class Target:
    """The server under attack: the pid it started with, and every death a case caused (after
    which it is started again on the same database, so that the remaining cases still run)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.first_pid = self.process.pid
        self.deaths: list[str] = []

    @property
    def process(self) -> subprocess.Popen[bytes]:
        return cast("subprocess.Popen[bytes]", self.server.process)

    @property
    def port(self) -> int:
        return int(self.server.port)

    @property
    def pid(self) -> int:
        return self.process.pid

    def survived(self, case: str) -> bool:
        """False (and the server restarted) if it died during `case`. A trapped Swift process
        prints its backtrace before it exits: a server that does not answer `/healthz` is given
        30 s to exit (and killed if it hangs instead)."""
        process = self.process
        if process.poll() is None:
            try:
                if call(self.port, "GET", "/healthz", timeout=10).status == 200:
                    return True
            except OSError:
                pass
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.deaths.append(f"#{case} (hung: no /healthz within 40 s, killed)")
                self.server.start()
                return False
        self.deaths.append(f"#{case} (exit status {process.returncode})")
        self.server.start()
        return False


class Memory(threading.Thread):
    """The server's peak VmRSS, sampled every 100 ms (any pid it has had)."""

    def __init__(self, target: Target) -> None:
        super().__init__(daemon=True)
        self.target, self.peak_kib, self.stopping = target, 0, threading.Event()
        self.phase = "set-up"
        self.peaks: dict[str, int] = {}

    @staticmethod
    def status_kib(pid: int, key: str) -> int:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith(key + ":"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def run(self) -> None:
        while not self.stopping.wait(0.1):
            rss = self.status_kib(self.target.pid, "VmRSS")
            self.peak_kib = max(self.peak_kib, rss)
            self.peaks[self.phase] = max(self.peaks.get(self.phase, 0), rss // 1024)

    def finish(self) -> int:
        """The peak in MiB, VmHWM included."""
        self.stopping.set()
        self.join()
        return max(self.peak_kib, self.status_kib(self.target.pid, "VmHWM")) // 1024


class Victim(threading.Thread):
    """Another user reading their own route every 50 ms while the costly cases run."""

    def __init__(self, port: int, token: str, route: str) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.route = port, token, route
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self.stopping = threading.Event()
        self.phase = ""
        self.slowest: dict[str, float] = {}

    def run(self) -> None:
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                status = call(self.port, "GET", f"/v1/routes/{self.route}", token=self.token, timeout=10).status
                if status != 200:
                    self.failures.append(f"status {status}")
            except OSError as error:
                self.failures.append(repr(error))
            self.latencies.append(time.monotonic() - started)
            self.slowest[self.phase] = max(self.slowest.get(self.phase, 0.0), self.latencies[-1])
            self.stopping.wait(max(0.0, VICTIM_PERIOD_S - (time.monotonic() - started)))

    def finish(self) -> tuple[float, float]:
        """(max, p99) of the reads, in seconds."""
        self.stopping.set()
        self.join()
        ordered = sorted(self.latencies) or [0.0]
        return ordered[-1], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def concurrently(calls: list[Callable[[], Reply]]) -> list[Reply | BaseException]:
    """Runs `calls` at once on threads; each one's reply or exception, in order."""
    results: list[Reply | BaseException] = [ProbeFailure("not run")] * len(calls)

    def one(i: int) -> None:
        try:
            results[i] = calls[i]()
        except BaseException as error:  # reported by the caller
            results[i] = error

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def replied(result: Reply | BaseException, label: str) -> Reply:
    if isinstance(result, BaseException):
        raise ProbeFailure(f"{label}: {result!r}")
    return result


# --- Data ---------------------------------------------------------------------------------------

def points(lat: float, lon: float, eles: list[float], t0: float = 1_700_000_000) -> list[dict[str, float]]:
    """One point per `ele`, 10 m and 10 s apart."""
    return [{"lat": lat, "lon": round(lon + 0.000135 * i, 7), "t": t0 + 10 * i, "ele": ele}
            for i, ele in enumerate(eles)]


def gpx(name: str, trkpt_attributes: str = "", count: int = 2) -> bytes:
    """A GPX 1.1 track of `count` points, the first with `trkpt_attributes` too."""
    pts = "".join(
        f'<trkpt lat="{48.1 + 0.0001 * i:.4f}" lon="11.1"{trkpt_attributes if i == 0 else ""}>'
        f'<time>2024-01-01T00:{i // 60:02d}:{i % 60:02d}Z</time></trkpt>' for i in range(count))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="probe" '
            f'xmlns="http://www.topografix.com/GPX/1/1"><trk><name>{name}</name><trkseg>{pts}'
            f'</trkseg></trk></gpx>').encode()


def gzip_of_zeros(size: int) -> bytes:
    """A gzip member of `size` zero bytes, compressed as it is made (~1/1000 of `size`)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    out = [compressor.compress(zeros) for _ in range(size >> 20)]
    return b"".join(out) + compressor.flush()


def zip_of(entries: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


# --- The world the cases act in -----------------------------------------------------------------

@dataclass
class World:
    target: Target
    tokens: dict[str, str] = field(default_factory=dict)
    routes: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)
    bomb: bytes = b""
    figures: dict[str, str] = field(default_factory=dict)

    @property
    def port(self) -> int:
        return self.target.port

    def as_user(self, user: str, method: str, path: str, value: Any = None, **options: Any) -> Reply:
        return call(self.port, method, path, value, token=self.tokens[user], **options)

    def route(self, user: str, name: str, pts: list[dict[str, float]], activity: str = "run",
              **fields: Any) -> str:
        reply = ok(self.as_user(user, "POST", "/v1/routes",
                                {"name": name, "activity": activity, "points": pts, **fields}), (201,), name)
        return str(reply.json()["id"])

    def link(self, user: str, route: str) -> str:
        """A share link's secret."""
        reply = ok(self.as_user(user, "POST", f"/v1/routes/{route}/links", {}), (201,), "link")
        return str(reply.json()["url"]).rsplit("/", 1)[1]


def set_up(world: World) -> None:
    """Two people (mallory, who attacks, and victim), befriended both ways; each of mallory's lists
    non-empty, so that a forged cursor reaches the code that compares positions; the routes the
    cases read."""
    port = world.port
    world.tokens["victim"] = register(port, "victim", ["mallory"])
    world.tokens["mallory"] = register(port, "mallory", ["victim"])
    world.routes["victim"] = world.route("victim", "victim's walk", points(40.0, -3.0, [600.0] * 50), "walk")
    ok(world.as_user("victim", "POST", f"/v1/routes/{world.routes['victim']}/shares", {"to": "mallory"}), (201,),
       "share to mallory")
    world.routes["near"] = world.route("mallory", "at 48,11", points(48.0, 11.0, [500.0] * 20))
    ok(world.as_user("mallory", "POST", f"/v1/routes/{world.routes['near']}/shares", {"to": "victim"}), (201,),
       "share to victim")
    world.link("mallory", world.routes["near"])
    ok(world.as_user("mallory", "POST", "/v1/groups", {"name": "g", "routes": [world.routes["near"]]}), (201,), "group")
    ok(world.as_user("mallory", "POST", "/v1/devices", {"name": "phone"}), (201,), "device")
    ok(world.as_user("mallory", "POST", "/v1/segments",
                     {"name": "s", "points": [{"lat": 48.0, "lon": 11.0}, {"lat": 48.0, "lon": 11.003}]}), (201,),
       "segment")
    # Valid but extreme: ele alternating between the bounds (gain 112 km a point pair).
    world.routes["extreme"] = world.route(
        "mallory", "extreme", points(47.5, 9.0, [-12_000.0 if i % 2 else 100_000.0 for i in range(EXTREME_POINTS)]))
    world.secrets["extreme"] = world.link("mallory", world.routes["extreme"])
    world.bomb = gzip_of_zeros(BOMB_BYTES)


# --- The cases, one per row ---------------------------------------------------------------------

# Keys that no list's cursor has (not an array of strings, or the wrong number of parts): 400.
MALFORMED_KEYS: list[Any] = [[], ["a"], ["v"], ["n"], ["a", "b", "c", "d", "e"], "key", None, [1, 2], {"k": 1}]
# Well-formed keys with extreme values: 400, or a page of the same list (a position before or past
# every item), never 500. (Whether a value is possible depends on the list: "nan" is a name.)
EXTREME_KEYS: list[Any] = [["9223372036854775807", "x"], ["-9223372036854775809", "x"], ["nan", "x"],
                           ["1e999", "x"], ["v", "1e999", "x"], ["v", "nan", "x"], ["v", "-9223372036854775808", "x"],
                           ["n", ""], ["\u0000", "\u0000"]]
GARBAGE_CURSORS = ["!!!", b64url([1, 2]), b64url("x"), b64url({"list": 1, "key": []}), "A" * 5000]


def with_cursor(path: str, cursor: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}cursor={cursor}"


def forged_cursors(world: World, path: str, name: str, strict: tuple[list[str], ...] = ()) -> tuple[int, int]:
    """Forged cursors for the list at `path` named `name`: malformed ones and `strict` keys 400,
    extreme ones 400 or a page. (Requests sent, extreme ones answered with a page.)"""
    def cursor(key: Any) -> str:
        return b64url({"list": name, "key": key})

    label = f"GET {path} with cursor {{list: {name}, key: %s}}"
    for key in MALFORMED_KEYS + list(strict):
        envelope(world.as_user("mallory", "GET", with_cursor(path, cursor(key))), (400,), label % json.dumps(key))
    for garbage in GARBAGE_CURSORS:
        envelope(world.as_user("mallory", "GET", with_cursor(path, garbage)), (400,), f"GET {path}: {garbage[:20]!r}")
    paged = 0
    for key in EXTREME_KEYS:
        reply = world.as_user("mallory", "GET", with_cursor(path, cursor(key)))
        if reply.status == 200:
            page = reply.json()
            check(isinstance(page.get("items"), list) and isinstance(page.get("total"), int),
                  f"{label % json.dumps(key)}: 200 but not a page: {reply.body[:200]!r}")
            paged += 1
        else:
            envelope(reply, (400,), label % json.dumps(key))
    return len(MALFORMED_KEYS) + len(strict) + len(GARBAGE_CURSORS) + len(EXTREME_KEYS), paged


def row1(world: World) -> str:
    """A forged `near` cursor (the list's own name, a position of any shape; the outside test's
    `[]` trapped): 400 (or, for a well-formed extreme position, a page)."""
    n, paged = forged_cursors(world, "/v1/routes?near=48,11&radius_m=1000", "routes:near:48.0,11.0,1000.0")
    return f"{n} forged near cursors → 400 ({paged} extreme positions → a page)"


def row10(world: World) -> str:
    """Forged cursors on every other list (sorted routes, inbox, friends, groups, devices,
    segments, imports, a route's shares and links): 400 (the outside test's date of 2^63 ms
    too), a page for a well-formed extreme position; a genuine cursor of one list is 400 in
    every other."""
    route = world.routes["near"]
    issue = (["v", "9223372036854775807", "a"],)
    lists = [("/v1/routes", "routes:-started_at", issue), ("/v1/routes?sort=started_at", "routes:started_at", issue),
             ("/v1/routes?sort=-distance_m", "routes:-distance_m", ()), ("/v1/routes?sort=name", "routes:name", ()),
             ("/v1/shares", "inbox", ()), ("/v1/friends", "friends", ()), ("/v1/groups", "groups", ()),
             ("/v1/devices", "devices", ()), ("/v1/segments", "segments", ()), ("/v1/imports", "imports", ()),
             (f"/v1/routes/{route}/shares", f"shares:{route}", ()), (f"/v1/routes/{route}/links", f"links:{route}", ())]
    sent = paged = 0
    for path, name, strict in lists:
        n, p = forged_cursors(world, path, name, strict)
        sent, paged = sent + n, paged + p
    genuine = ok(world.as_user("mallory", "GET", "/v1/routes?limit=1"), (200,), "a first page").json()["next"]
    check(isinstance(genuine, str), "no next cursor after a page of 1")
    ok(world.as_user("mallory", "GET", with_cursor("/v1/routes?limit=1", genuine)), (200,), "the genuine cursor")
    for path, _, _ in lists[1:] + [("/v1/routes?near=48,11&radius_m=1000", "", ())]:
        envelope(world.as_user("mallory", "GET", with_cursor(path, genuine)), (400,), f"a foreign cursor on {path}")
        sent += 1
    return f"{sent} forged and foreign cursors on {len(lists)} lists → 400 ({paged} extreme positions → a page)"


def refused_point(world: World, label: str, reply: Reply, index: int, key: str) -> None:
    error = envelope(reply, (400,), label, "invalid_request")
    check(error.get("index") == index and error.get("key") == key,
          f"{label}: the error names index {error.get('index')!r} and key {error.get('key')!r}, "
          f"expected {index} and {key!r}")


def then_pages(world: World, route: str, user: str = "mallory") -> list[str]:
    """After a route was accepted that should not have been: what its pages do (for the report)."""
    secret = world.link(user, route)
    outcome = []
    for path in (f"/l/{secret}", f"/v1/routes/{route}/profile.svg", "/v1/users/me/log.svg?metric=elevation"):
        try:
            outcome.append(f"{path.split('?')[0].rsplit('/', 1)[-1]} {world.as_user(user, 'GET', path).status}")
        except OSError as error:
            outcome.append(f"{path} {error.__class__.__name__}")
            break
    return outcome


def pages_answer(world: World, route: str, secret: str, user: str = "mallory") -> int:
    """Every page and picture of `route` answers 200 (through its link too)."""
    paths = [f"/l/{secret}", f"/v1/links/{secret}", f"/v1/links/{secret}/map.svg",
             f"/v1/routes/{route}/profile.svg", f"/v1/routes/{route}/profile.svg?x=time",
             f"/v1/routes/{route}/profile.svg?y=pace", f"/v1/routes/{route}/map.svg", f"/v1/routes/{route}",
             f"/v1/routes/{route}/points?format=gpx", f"/v1/routes/{route}/best_efforts"]
    for path in paths:
        ok(world.as_user(user, "GET", path), (200,), f"GET {path}")
    return len(paths)


def row2(world: World) -> str:
    """`ele` 1e300 is refused at ingest; a route of extreme valid elevations has its pages."""
    reply = world.as_user("mallory", "POST", "/v1/routes", {"name": "1e300", "points": points(47.0, 8.0,
                                                                                               [0, 1e300, 1e300])})
    if reply.status == 201:
        raise ProbeFailure(f"ele 1e300 accepted (201); then {', '.join(then_pages(world, reply.json()['id']))}")
    refused_point(world, "ele 1e300", reply, 1, "ele")
    n = pages_answer(world, world.routes["extreme"], world.secrets["extreme"])
    gain = ok(world.as_user("mallory", "GET", f"/v1/routes/{world.routes['extreme']}"), (200,),
              "extreme").json()["stats"]["elevation_gain_m"]
    return f"1e300 → 400; gain {gain:.3g} m: {n} pages 200"


def row3(world: World) -> str:
    """`ele` 0, 5e-324, 0 (a subnormal: in range) is taken, and every picture and page of it draws."""
    route = world.route("mallory", "subnormal", points(46.0, 7.0, [0, 5e-324, 0]))
    n = pages_answer(world, route, world.link("mallory", route))
    return f"5e-324 taken, {n} pages 200"


def row4(world: World) -> str:
    """`ele` past its bounds (a gain above 9.2e18 needs one) and `acc` past its are 400; a route
    at the bounds is taken; the training log's elevation chart of the extreme valid route draws."""
    refused = [("ele", value) for value in (1e19, -1e19, 100_000.001, -12_000.001)]
    refused += [("acc", value) for value in (1e308, 1_000_000.5, -0.5)]
    for key, value in refused:
        pts = points(46.5, 7.5, [0, 0])
        pts[1][key] = value
        reply = world.as_user("mallory", "POST", "/v1/routes", {"name": "high", "points": pts})
        if reply.status == 201:
            raise ProbeFailure(f"{key} {value} accepted (201); then "
                               f"{', '.join(then_pages(world, reply.json()['id']))}")
        refused_point(world, f"{key} {value}", reply, 1, key)
    at_bounds = points(46.5, 7.5, [-12_000.0, 100_000.0, 0.0])
    at_bounds[0]["acc"], at_bounds[1]["acc"] = 0.0, 1_000_000.0
    world.route("mallory", "at the bounds", at_bounds)
    for query in ("metric=elevation", "metric=elevation&period=year", "metric=elevation&period=month",
                  "metric=distance", "metric=time"):
        ok(world.as_user("mallory", "GET", f"/v1/users/me/log.svg?{query}"), (200,), f"log.svg?{query}")
    ok(world.as_user("mallory", "GET", "/v1/users/me/log"), (200,), "log")
    return f"{len(refused)} ele/acc out of range → 400, at the bounds 201; log.svg ×5 200"


def row5(world: World) -> str:
    """Appends with `ele` ±1.7e308 to a route shared with the victim: 400, nothing stored, the
    victim's inbox and `near` still answer, and the attacker's export is a whole zip."""
    route = ok(world.as_user("mallory", "POST", "/v1/routes", {"name": "shared", "recording": True,
                                                                "points": points(45.0, 6.0, [300.0] * 10)}),
               (201,), "recording route").json()["id"]
    ok(world.as_user("mallory", "POST", f"/v1/routes/{route}/shares", {"to": "victim"}), (201,), "share")
    before = world.as_user("mallory", "GET", f"/v1/routes/{route}").json()["stats"]
    later = points(45.0, 6.01, [300.0, 1.7e308], t0=1_700_001_000)
    for ele in (1.7e308, -1.7e308):
        later[1]["ele"] = ele
        refused_point(world, f"append ele {ele}", world.as_user("mallory", "POST", f"/v1/routes/{route}/points",
                                                                {"points": later}), 1, "ele")
    ndjson = "".join(json.dumps(p) + "\n" for p in later).encode()
    refused_point(world, "NDJSON append ele", world.as_user("mallory", "POST", f"/v1/routes/{route}/points",
                                                            body=ndjson, content_type="application/x-ndjson"), 1,
                  "ele")
    text = f"45.0,6.02,1700002000,300#45.0,6.021,1700002010,{1.7e308!r}".encode()
    envelope(world.as_user("mallory", "POST", f"/v1/routes/{route}/points", body=text, content_type="text/plain"),
             (400,), "text append ele")
    after = ok(world.as_user("mallory", "GET", f"/v1/routes/{route}"), (200,), "route after").json()["stats"]
    check(after == before, f"the refused appends changed the route's stats: {before} → {after}")
    ok(world.as_user("victim", "GET", "/v1/shares"), (200,), "victim's inbox")
    near = ok(world.as_user("victim", "GET", "/v1/routes?near=45,6&radius_m=5000"), (200,), "victim's near").json()
    check(any(item["id"] == route for item in near["items"]), "the shared route is not in the victim's near list")
    download = ok(world.as_user("mallory", "GET", f"/v1/routes/{route}/points"), (200,), "download").json()
    check(len(download["points"]) == 10, f"the download has {len(download['points'])} points, not 10")
    export = ok(world.as_user("mallory", "GET", "/v1/users/me/export"), (200,), "export").body
    with zipfile.ZipFile(io.BytesIO(export)) as archive:
        check(archive.testzip() is None and f"routes/{route}.gpx" in archive.namelist(), "the export is broken")
    return "±1.7e308 → 400 (JSON, NDJSON, text); route unchanged; victim's inbox and near 200; export whole"


def gpx_upload(world: World, attributes: int) -> Callable[[], Reply]:
    body = gpx("attributes", "".join(f' a{i}="{i % 10}"' for i in range(attributes)))
    return lambda: world.as_user("mallory", "POST", "/v1/routes?activity=run", body=body,
                                 content_type="application/gpx+xml")


def row6(world: World) -> str:
    """Two concurrent GPX uploads whose first `trkpt` has 150,000 and 300,000 attributes (1.7 and
    3.5 MB): refused or parsed, within GPX_BOUND_S each, without stalling the victim."""
    counts = [GPX_ATTRIBUTES, 2 * GPX_ATTRIBUTES]
    replies = [replied(result, "GPX upload") for result in concurrently([gpx_upload(world, n) for n in counts])]
    answers = [f"{reply.status} in {reply.seconds:.1f} s" for reply in replies]
    world.figures["gpx"] = f"GPX {counts[1] // 1000}k attributes {answers[1]}"
    for count, reply in zip(counts, replies):
        if reply.status != 201:
            envelope(reply, (400, 413, 422), f"GPX with {count:,} attributes")
        check(reply.seconds < GPX_BOUND_S, f"the GPX with {count:,} attributes took {reply.seconds:.1f} s "
                                           f"to answer {reply.status} (bound {GPX_BOUND_S:.0f} s)")
    return ", ".join(f"{count:,} attributes: {answer}" for count, answer in zip(counts, answers))


def row7(world: World) -> str:
    """`similar?max_m=10000` ×4 and a `similar_to` group on a 664 km route: served (200/201), or
    refused within 1 s as too costly (422) or past the user's budget of costly requests (429 with
    Retry-After)."""
    route = world.routes["long"]
    calls: list[Callable[[], Reply]] = [
        lambda: world.as_user("mallory", "GET", f"/v1/routes/{route}/similar?max_m=10000")] * 4
    calls.append(lambda: world.as_user("mallory", "POST", "/v1/groups",
                                       {"name": "similar", "similar_to": route, "max_m": 10000}))
    replies = [replied(result, "similar") for result in concurrently(calls)]
    answers = [f"{reply.status} {reply.seconds:.2f} s" for reply in replies]
    world.figures["similar"] = f"similar 664 km {answers[0]}"
    for reply in replies:
        if reply.status in (422, 429):
            envelope(reply, (422, 429), "similar refusal")
            check(reply.seconds < 1.0, f"similar was refused after {reply.seconds:.1f} s (the work came first)")
            check(reply.status == 422 or reply.header("retry-after").isdigit(), "429 without Retry-After")
        else:
            ok(reply, (200, 201), "similar")
    return "664 km, max_m=10000, ×4 + group: " + ", ".join(answers)


def notes(n: int, text: str, lat: float = 44.0, lon: float = 5.0) -> list[dict[str, Any]]:
    return [{"lat": lat, "lon": lon, "t": 1_700_000_000 + i, "text": text} for i in range(n)]


def row8(world: World) -> str:
    """1,001 annotations → 413 (on create and on append), a text of 1,001 characters → 400, nothing
    stored; twelve routes of 1,000 × 1,000 characters (the most allowed), shared with the victim,
    listed four times at once, and in the victim's `near`."""
    count = ok(world.as_user("mallory", "GET", "/v1/routes"), (200,), "list").json()["total"]
    envelope(world.as_user("mallory", "POST", "/v1/routes", {"name": "many", "points": points(44.0, 5.0, [1.0] * 3),
                                                             "annotations": notes(1001, "x")}),
             (413,), "1,001 annotations", "payload_too_large")
    envelope(world.as_user("mallory", "POST", "/v1/routes", {"name": "long", "points": points(44.0, 5.0, [1.0] * 3),
                                                             "annotations": notes(1, "x" * 1001)}),
             (400,), "a text of 1,001 characters")
    check(world.as_user("mallory", "GET", "/v1/routes").json()["total"] == count, "a refused route was stored")
    big = []
    for i in range(ANNOTATED_ROUTES):
        route = ok(world.as_user("mallory", "POST", "/v1/routes", {
            "name": f"annotated {i}", "recording": True, "points": points(44.0, 5.0 + i * 0.002, [1.0] * 3),
            "annotations": notes(1000, chr(ord("a") + i) * 1000)}), (201,), "1,000 annotations").json()["id"]
        ok(world.as_user("mallory", "POST", f"/v1/routes/{route}/shares", {"to": "victim"}), (201,), "share")
        big.append(route)
    more = {"points": points(44.0, 5.0, [1.0], t0=1_800_000_000), "annotations": notes(1, "one too many")}
    envelope(world.as_user("mallory", "POST", f"/v1/routes/{big[0]}/points", more), (413,),
             "an append past 1,000 annotations", "payload_too_large")
    lists: list[Callable[[], Reply]] = [lambda: world.as_user("mallory", "GET", "/v1/routes?limit=200")] * 4
    sizes = [len(ok(replied(result, "list"), (200,), "lists of annotated routes").body)
             for result in concurrently(lists)]
    near = ok(world.as_user("victim", "GET", "/v1/routes?near=44,5&radius_m=5000"), (200,), "victim's near").json()
    check({item["id"] for item in near["items"]} >= set(big), "the victim's near list lacks the shared routes")
    return (f"1,001 → 413, 1,001 characters → 400; {ANNOTATED_ROUTES} × 1,000 annotations listed ×4 at once "
            f"({max(sizes) / 1e6:.1f} MB each)")


def wait_import(world: World, user: str, job: str, seconds: float = TIMEOUT_S) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = ok(world.as_user(user, "GET", f"/v1/imports/{job}"), (200,), "import").json()
        if state["state"] in ("done", "failed"):
            return dict(state)
        time.sleep(0.1)
    raise ProbeFailure(f"import {job} not finished within {seconds:.0f} s")


def post_import(world: World, user: str, archive: bytes) -> Reply:
    return world.as_user(user, "POST", "/v1/imports", body=archive, content_type="application/zip")


def bombs(world: World, n: int) -> bytes:
    return zip_of([(f"activities/{i}.gpx.gz", world.bomb) for i in range(n)])


def row9(world: World) -> str:
    """Mallory's third import while two are in flight: 429 with Retry-After; the victim's one-file
    import then finishes before mallory's second (fair share), whatever the number of workers."""
    first, second = bombs(world, 2), bombs(world, 6)
    jobs = [ok(post_import(world, "mallory", archive), (202,), "import").json()["id"] for archive in (first, second)]
    third = post_import(world, "mallory", first)
    if third.status == 202:
        jobs.append(third.json()["id"])
    victim_started = time.monotonic()
    victim = ok(post_import(world, "victim", zip_of([("activities/walk.gpx", gpx("walk", count=30))])), (202,),
                "victim's import").json()["id"]
    done = wait_import(world, "victim", victim)
    victim_wait = time.monotonic() - victim_started
    check(done["state"] == "done" and done["counts"]["imported"] == 1, f"the victim's import: {done}")
    mallory = [wait_import(world, "mallory", job) for job in jobs]
    world.figures["imports"] = f"victim's import {victim_wait:.1f} s"
    envelope(third, (429,), "a third import in flight", "too_many_requests")
    check(third.header("retry-after").isdigit(), f"429 without a Retry-After in seconds: {third.headers}")
    check(done["finished_at"] <= mallory[1]["finished_at"],
          f"the victim's import finished at {done['finished_at']}, after mallory's second "
          f"({mallory[1]['finished_at']}): one queue for everyone")
    return f"third → 429 (Retry-After {third.header('retry-after')}); victim's import done in {victim_wait:.1f} s"


def row14(world: World) -> str:
    """A `.gpx.gz` entry inflating past 256 MiB: that file failed with `payload_too_large`."""
    job = ok(post_import(world, "mallory", bombs(world, 1)), (202,), "import").json()["id"]
    state = wait_import(world, "mallory", job)
    check(state["state"] == "done", f"the import as a whole: {state}")
    files = ok(world.as_user("mallory", "GET", f"/v1/imports/{job}/files"), (200,), "files").json()["items"]
    check(len(files) == 1 and files[0]["status"] == "failed", f"the entry: {files}")
    error = files[0]["error"]
    check(error.get("code") == "payload_too_large", f"the entry failed with {error}, not payload_too_large")
    return "257 MiB entry → failed, payload_too_large"


def row11(world: World) -> str:
    """User ids `.` and `..` refused; revoking share `%2E%2E` (or `..`) never deletes the route."""
    for user_id in ("..", "."):
        envelope(call(world.port, "POST", "/v1/users", {"id": user_id, "name": "dots", "friends": []}), (400,),
                 f"register {user_id!r}")
    route = world.routes["near"]
    for name in ("%2E%2E", "%2e%2e", "..", "%2E", "%2E%2E%2F", "%252E%252E"):
        reply = world.as_user("mallory", "DELETE", f"/v1/routes/{route}/shares/{name}")
        envelope(reply, (400, 404), f"DELETE …/shares/{name}")
        ok(world.as_user("mallory", "GET", f"/v1/routes/{route}"), (200,), f"the route after revoking {name}")
    return "'.', '..' → 400; 6 revokes of dot names → 4xx, route kept"


def row12(world: World) -> str:
    """`Cache-Control: no-store` where a secret is answered, `private, no-cache` on other
    authenticated answers, `nosniff` on every answer."""
    port, route = world.port, world.routes["near"]
    seen: list[Reply] = []

    def store(reply: Reply, expected: str, label: str) -> None:
        seen.append(reply)
        check(reply.status < 300, f"{label}: {reply.status} {reply.body[:200]!r}")
        got = reply.header("cache-control").replace(" ", "")
        check(got == expected.replace(" ", ""), f"{label}: Cache-Control {got!r}, expected {expected!r}")

    new = call(port, "POST", "/v1/users", {"id": "rotator", "name": "r", "friends": []})
    store(new, "no-store", "register")
    store(call(port, "POST", "/v1/users/me/token", token=new.json()["token"]), "no-store", "token rotation")
    device = world.as_user("mallory", "POST", "/v1/devices", {"name": "headers"})
    store(device, "no-store", "device create")
    store(world.as_user("mallory", "POST", f"/v1/devices/{device.json()['id']}/key"), "no-store", "device key")
    link = world.as_user("mallory", "POST", f"/v1/routes/{route}/links", {})
    store(link, "no-store", "link create")
    for path in ("/v1/users/me", "/v1/routes", f"/v1/routes/{route}", "/v1/shares", "/v1/groups", "/v1/devices",
                 f"/v1/routes/{route}/points", f"/v1/routes/{route}/points?format=gpx", f"/v1/routes/{route}/map.svg"):
        store(world.as_user("mallory", "GET", path), "private, no-cache", f"GET {path}")
    secret = link.json()["url"].rsplit("/", 1)[1]
    for path in ("/healthz", "/openapi.yaml", "/", f"/l/{secret}", f"/v1/links/{secret}", "/v1/nothing",
                 "/v1/users/me"):
        seen.append(call(port, "GET", path))
    for reply in seen:
        check(reply.header("x-content-type-options").lower() == "nosniff",
              f"an answer ({reply.status} {reply.header('content-type')}) without X-Content-Type-Options: nosniff")
    return f"no-store ×5, private ×9, nosniff on {len(seen)} answers"


def row13(world: World) -> str:
    """A hostile `Host` is refused (400) or never reflected in a device's ingest addresses."""
    answers = []
    for host in ("a b", 'x"><script>alert(1)</script>', "evil.example/path?", "a\tb"):
        reply = world.as_user("mallory", "POST", "/v1/devices", {"name": "host"}, headers={"Host": host})
        answers.append(str(reply.status))
        if reply.status == 400:
            envelope(reply, (400,), f"Host {host!r}")
            continue
        ok(reply, (201,), f"Host {host!r}")
        for app, address in reply.json()["ingest"].items():
            parts = urlsplit(address)
            check(parts.scheme in ("http", "https") and all(c.isalnum() or c in ".-:[]" for c in parts.netloc)
                  and parts.netloc != "" and host not in address and "<" not in address and '"' not in address,
                  f"Host {host!r} reflected into the {app} address {address!r}")
    return "hostile Host ×4 → " + "/".join(answers)


def same_but_empty(world: World, path: str, token: Optional[str]) -> None:
    """`HEAD path` answers as `GET path` does, without a body."""
    get = call(world.port, "GET", path, token=token)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = raw_exchange(world.port, f"HEAD {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Connection: close\r\n\r\n"
                        .encode())
    check(head.status == get.status, f"HEAD {path}: {head.status}, GET {get.status}")
    check(head.body == b"", f"HEAD {path}: a body of {len(head.body)} bytes")
    for name in ("content-type", "cache-control", "etag", "x-content-type-options"):
        check(head.header(name) == get.header(name), f"HEAD {path}: {name} {head.header(name)!r}, GET "
                                                     f"{get.header(name)!r}")
    length = head.header("content-length")
    check(length in ("", str(len(get.body))), f"HEAD {path}: Content-Length {length}, GET's body {len(get.body)}")


def row15(world: World) -> str:
    """HEAD wherever GET is; an oversized header, query or path gets its status in the envelope."""
    route, token = world.routes["near"], world.tokens["mallory"]
    paths = ["/healthz", "/openapi.yaml", "/", f"/l/{world.secrets['extreme']}", "/v1/nothing"]
    authenticated = ["/v1/users/me", "/v1/routes", f"/v1/routes/{route}", f"/v1/routes/{route}/points?format=gpx",
                     f"/v1/routes/{route}/map.svg", f"/v1/routes/{route}/profile.svg", "/v1/users/me/log.svg"]
    for path in paths:
        same_but_empty(world, path, None)
    for path in authenticated:
        same_but_empty(world, path, token)
    port = world.port
    big_header = raw_exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 +
                              b"\r\nConnection: close\r\n\r\n")
    envelope(big_header, (431,), "a 100 KB header")
    big_query = raw_exchange(port, b"GET /v1/routes?x=" + b"a" * 1_000_000 + b" HTTP/1.1\r\nHost: x\r\n"
                             b"Connection: close\r\n\r\n")
    envelope(big_query, (414,), "a 1 MB query")
    big_path = raw_exchange(port, b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    envelope(big_path, (414, 400), "a 100 KB path")
    return f"HEAD on {len(paths) + len(authenticated)} GET routes; 431, 414, {big_path.status} in the envelope"


BAD_CHARACTERS = {"U+202E": "\u202e", "U+2066": "\u2066", "NUL": "\u0000", "BEL": "\u0007", "CR/LF": "\r\n",
                  "U+0085": "\u0085", "DEL": "\u007f"}


def row16(world: World) -> str:
    """Control characters and bidi overrides in every name and text: 400, nothing stored (a GPX
    file's own name may instead be stored without them)."""
    port, route = world.port, world.routes["near"]
    n = 0
    for label, bad in BAD_CHARACTERS.items():
        name = f"evil{bad}gpj.exe"
        attempts: list[tuple[str, Reply]] = [
            ("route name", world.as_user("mallory", "POST", "/v1/routes", {"name": name,
                                                                           "points": points(43.0, 4.0, [1.0] * 2)})),
            ("route rename", world.as_user("mallory", "PATCH", f"/v1/routes/{route}", {"name": name})),
            ("user name", call(port, "POST", "/v1/users", {"id": f"u{n}", "name": name, "friends": []})),
            ("my name", world.as_user("mallory", "PATCH", "/v1/users/me", {"name": name})),
            ("group name", world.as_user("mallory", "POST", "/v1/groups", {"name": name, "routes": [route]})),
            ("device name", world.as_user("mallory", "POST", "/v1/devices", {"name": name})),
            ("segment name", world.as_user("mallory", "POST", "/v1/segments", {"name": name, "points": [
                {"lat": 48.0, "lon": 11.0}, {"lat": 48.0, "lon": 11.003}]})),
            ("annotation", world.as_user("mallory", "POST", "/v1/routes", {
                "name": "ok", "points": points(43.0, 4.0, [1.0] * 2), "annotations": notes(1, name)})),
            ("?name=", world.as_user("mallory", "POST", f"/v1/routes?name={quote(name)}",
                                     body=b'{"lat":43,"lon":4,"t":1700000000}\n',
                                     content_type="application/x-ndjson")),
        ]
        if bad not in ("\u0000", "\r\n", "\u0007", "\u007f", "\u0085"):  # XML 1.0 cannot carry them
            attempts.append(("GPX name", world.as_user("mallory", "POST", "/v1/routes", body=gpx(name),
                                                       content_type="application/gpx+xml")))
        for what, reply in attempts:
            if what == "GPX name" and reply.status == 201:  # a name inside a file may be cleaned instead
                stored = reply.json()["name"]
                check(bad not in stored, f"{what} with {label} stored as {stored!r}")
            else:
                envelope(reply, (400,), f"{what} with {label}")
            n += 1
    named = ok(world.as_user("mallory", "GET", f"/v1/routes/{route}"), (200,), "route").json()["name"]
    check(named == "at 48,11", f"a refused rename changed the name to {named!r}")
    return f"{n} names and texts with control or bidi characters → 400"


@dataclass
class Case:
    row: int
    title: str
    run: Callable[[World], str]
    costly: bool = False


CASES = [
    Case(1, "forged near cursor", row1),
    Case(2, "ele 1e300; a link page of extreme gain", row2),
    Case(3, "ele 0, 5e-324, 0", row3),
    Case(4, "gain past 9.2e18; log.svg", row4),
    Case(5, "±1.7e308 into a shared route", row5),
    Case(6, "GPX trkpt attributes", row6, costly=True),
    Case(7, "similar, max_m=10000, 664 km", row7, costly=True),
    Case(8, "annotations", row8, costly=True),
    Case(9, "three imports of one user", row9, costly=True),
    Case(10, "forged cursors, every list", row10),
    Case(11, "user id '..'; revoke %2E%2E", row11),
    Case(12, "Cache-Control, nosniff", row12),
    Case(13, "hostile Host", row13),
    Case(14, "import entry past 256 MiB", row14),
    Case(15, "HEAD; oversized header, query, path", row15),
    Case(16, "control and bidi characters", row16),
]


def attempt(world: World, case: Case, results: dict[int, str], memory: Memory, victim: Optional[Victim]) -> None:
    """Runs one case; its line: the outcome, its time, the server's peak RSS and the victim's
    slowest read meanwhile."""
    phase = f"#{case.row}"
    memory.phase = phase
    if victim:
        victim.phase = phase
    started = time.monotonic()
    try:
        note, failed = case.run(world), False
    except ProbeFailure as failure:
        note, failed = str(failure), True
    except (OSError, ValueError, KeyError, TypeError) as error:
        note, failed = f"{error.__class__.__name__}: {error}", True
    if not world.target.survived(str(case.row)):
        note, failed = f"THE SERVER DIED; {note}", True
    if victim and victim.slowest.get(phase, 0) >= VICTIM_BOUND_S:
        note, failed = f"a victim's read took {victim.slowest[phase]:.2f} s meanwhile; {note}", True
    results[case.row] = ("FAILED  " if failed else "ok      ") + note
    during = f"{time.monotonic() - started:.1f} s"
    if phase in memory.peaks:
        during += f", RSS ≤ {memory.peaks[phase]} MiB"
    if victim:
        during += f", victim ≤ {victim.slowest.get(phase, 0) * 1000:.0f} ms"
    print(f"  #{case.row:<3} {case.title:<38} {results[case.row]} ({during})", flush=True)


def probe(workdir: str, processes: list[Any]) -> str:
    _, (server,) = start_stack(workdir, processes)
    target = Target(server)
    memory = Memory(target)
    memory.start()
    world = World(target)
    set_up(world)
    world.routes["long"] = create(world.port, world.tokens["mallory"], "664 km", "drive",
                                  line_route(48.0, 2.0, 892, 0.01, 1.7e9, 20))
    create(world.port, world.tokens["mallory"], "664 km again", "drive",
           line_route(48.0, 2.0, 892, 0.01, 1.7e9 + 86_400, 20))
    results: dict[int, str] = {}
    cases = [case for case in CASES if not ROWS or case.row in ROWS]
    for case in cases:
        if not case.costly:
            attempt(world, case, results, memory, None)
    victim = Victim(world.port, world.tokens["victim"], world.routes["victim"])
    victim.start()
    for case in cases:
        if case.costly:
            attempt(world, case, results, memory, victim)
    slowest, p99 = victim.finish()
    peak = memory.finish()

    figures = (f"victim {len(victim.latencies)} reads, max {slowest * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms; "
               f"RSS peak {peak} MiB (bound {RSS_BOUND_MIB}); " + "; ".join(world.figures.values()))
    problems = [f"#{row}" for row, result in sorted(results.items()) if result.startswith("FAILED")]
    if target.deaths:
        problems.append(f"the server died in {', '.join(target.deaths)}")
    elif call(world.port, "GET", "/healthz").status != 200:
        problems.append("/healthz did not answer 200 at the end")
    if victim.failures:
        problems.append(f"victim's reads failed: {victim.failures[:3]}")
    if slowest >= VICTIM_BOUND_S:
        problems.append(f"a victim's read took {slowest:.2f} s")
    if peak >= RSS_BOUND_MIB:
        problems.append(f"RSS {peak} MiB over {RSS_BOUND_MIB}")
    check(not problems, f"{'; '.join(problems)} | {figures}")
    return f"{len(results)} rows; pid {target.pid} unchanged; {figures}"


if __name__ == "__main__":
    run(probe)
