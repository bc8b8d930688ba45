"""What every reliability probe needs: a SecantusDB that can be killed and restarted on its data and
RouteRanker server processes (both from scripts/launch.py), and plain HTTP (stdlib only, so that a
cut connection is seen as it happens). Each probe starts its own database and servers on free ports
and stops them on exit."""

import http.client
import json
import os
import random
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import launch  # noqa: E402  (scripts/launch.py: the database, the servers, waiting for them)
from launch import ROOT, VENV, Database, LaunchFailure, Process, free_port, server_binary  # noqa: E402,F401

NAME = os.path.splitext(os.path.basename(sys.argv[0]))[0]


class ProbeFailure(LaunchFailure):
    """A broken guarantee: the probe reports it and exits non-zero."""


def check(condition, message):
    if not condition:
        raise ProbeFailure(message)


class Server(launch.Server):
    """A RouteRanker server process on `database` (in the database named `probe`)."""

    def __init__(self, workdir, database, name="server", uri_options=""):
        super().__init__(workdir, database.uri + uri_options, name, ["--database", "probe"])
        self.database = database


def start_stack(workdir, processes, servers=1, uri_options=""):
    """A database and `servers` servers on it, started and registered for clean-up."""
    database = Database(workdir)
    processes.append(database)
    database.start()
    started = []
    for i in range(servers):
        server = Server(workdir, database, "server" if servers == 1 else f"server-{i + 1}", uri_options)
        processes.append(server)
        server.start()
        started.append(server)
    return database, started


def request(port, method, path, body=None, token=None, content_type=None, headers=None, timeout=30):
    """One request on a new connection: (status, headers, body bytes). `body` may be bytes or an
    iterable of bytes (sent chunked)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if content_type:
            sent["Content-Type"] = content_type
        chunked = body is not None and not isinstance(body, (bytes, bytearray))
        connection.request(method, path, body=body, headers=sent, encode_chunked=chunked)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def json_request(port, method, path, value=None, token=None, expect=None, headers=None, timeout=30):
    body = None if value is None else json.dumps(value).encode()
    status, answer_headers, data = request(
        port, method, path, body, token, "application/json" if body is not None else None, headers, timeout)
    if expect is not None:
        check(status in (expect if isinstance(expect, tuple) else (expect,)),
              f"{method} {path}: expected {expect}, got {status} {data[:300]!r}")
    return status, (json.loads(data) if data and answer_headers.get("Content-Type", "").startswith(
        "application/json") else None)


def register(port, user_id, friends=()):
    _, body = json_request(port, "POST", "/v1/users", {"id": user_id, "name": user_id, "friends": list(friends)},
                           expect=201)
    return body["token"]


class Walker:
    """Points of a plausible run (about 3 m/s), with strictly increasing times, continuing forever."""

    def __init__(self, seed, t0=1_700_000_000.0):
        self.random = random.Random(seed)
        self.lat, self.lon, self.t = 52.5, 13.4, t0

    def take(self, n):
        points = []
        for _ in range(n):
            self.t += 1.0
            self.lat += self.random.uniform(0.000005, 0.00002)
            self.lon += self.random.uniform(-0.00001, 0.00002)
            points.append({"lat": round(self.lat, 7), "lon": round(self.lon, 7), "t": self.t,
                           "ele": round(self.random.uniform(30, 40), 1)})
        return points


def ndjson_chunks(points, per_chunk=200):
    for i in range(0, len(points), per_chunk):
        yield "".join(json.dumps(p) + "\n" for p in points[i:i + per_chunk]).encode()


def stream_points(port, route, token, points, outcome):
    """Appends `points` as a slow chunked NDJSON stream (100 points a chunk), recording the answer
    (`status`, `body`) or the connection's failure (`error`) in `outcome`; run it on a thread."""
    def slow_chunks():
        for chunk in ndjson_chunks(points, 100):
            yield chunk
            time.sleep(0.005)
    try:
        status, _, body = request(port, "POST", f"/v1/routes/{route}/points", slow_chunks(), token,
                                  "application/x-ndjson", timeout=60)
        outcome["status"], outcome["body"] = status, body
    except OSError as error:
        outcome["error"] = error


def download(port, route, token, fmt="json"):
    status, headers, data = request(port, "GET", f"/v1/routes/{route}/points?format={fmt}", token=token, timeout=60)
    check(status == 200, f"download {fmt}: {status} {data[:200]!r}")
    return data


def stored_times(port, route, token):
    """The route's point times from the JSON download, checked well formed and strictly increasing,
    and checked against the GPX download's count."""
    points = json.loads(download(port, route, token))["points"]
    times = [p["t"] for p in points]
    check(all(a < b for a, b in zip(times, times[1:])), "stored points are not strictly increasing (a duplicate?)")
    import xml.etree.ElementTree as ElementTree
    gpx = ElementTree.fromstring(download(port, route, token, "gpx"))
    count = sum(1 for element in gpx.iter() if element.tag.endswith("trkpt"))
    check(count == len(times), f"the GPX download has {count} points, the JSON one {len(times)}")
    return times


def summary_points(port, route, token):
    _, body = json_request(port, "GET", f"/v1/routes/{route}", token=token, expect=200)
    return body["stats"]["points"]


def run(probe):
    """Runs `probe(workdir, processes)`; prints its summary line or the failure; exits accordingly."""
    workdir = tempfile.mkdtemp(prefix=f"routeranker-probe-{probe.__name__}-")
    processes = []
    started = time.monotonic()
    status = 0
    try:
        summary = probe(workdir, processes)
        print(f"{NAME:<14} ok      {summary} ({time.monotonic() - started:.0f} s)")
    except LaunchFailure as failure:  # a ProbeFailure, or a process that did not start
        print(f"{NAME:<14} FAILED  {failure} (logs kept in {workdir})")
        status = 1
    finally:
        for process in reversed(processes):
            process.stop()
        if status == 0:
            shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(status)
