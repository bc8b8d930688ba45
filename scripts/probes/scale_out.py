"""Three servers behind nginx (deploy/nginx.conf, Debian's package), one of them killed with kill -9
mid-run and started again: 50 routes recording NDJSON batches, 200 live followers (150 from the
start, 50 joining later through share links), reads and two tracker devices (OwnTracks, OsmAnd),
all through the proxy. Checked: every acknowledged point stored exactly once (points whose answer
was lost: once or not at all); every follower, resuming through the proxy with Last-Event-ID after
a cut, saw every point of its route once and in order, then `finished`; every failed request and
cut stream is one the killed process had in flight (nginx's access log names the server of each
request), no more failed than it had in flight, and a 409 (a resent batch meeting the killed
process's last commit) only in the seconds after the kill; the restarted server serves again.
PROBE_SEED replays the choices (the server killed, when, every batch and pause); PROBE_SCALE_OUT_S
sets the seconds of load (default 20)."""

import asyncio
import base64
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.parse

from common import ROOT, Process, ProbeFailure, Walker, check, free_port, run, start_stack

LOAD_S = float(os.environ.get("PROBE_SCALE_OUT_S", "20"))
ROUTES = 50
FOLLOWERS = 200  # 4 a route: 3 from the start (3 friends' tokens), 1 joining later (a share link)
FANS = 3
RESTART_AFTER_S = 3.0
SERVERS = 3


class Nginx(Process):
    """Debian's nginx running the shipped deploy/nginx.conf, its upstream servers and listen port
    replaced; one process (`master_process off`: nothing needs root), everything in `workdir`."""

    def __init__(self, workdir, upstream_ports):
        self.binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
        check(self.binary, "nginx is not installed (scripts/setup installs Debian's package)")
        self.port = free_port()
        self.workdir = workdir
        with open(os.path.join(ROOT, "deploy", "nginx.conf")) as file:
            site = file.read()
        site, servers = re.subn(
            r"(?m)^(\s*)server routeranker:8080([^;\n]*);",
            lambda m: "\n".join(f"{m[1]}server 127.0.0.1:{port}{m[2]};" for port in upstream_ports), site)
        site, listens = re.subn(r"(?m)^(\s*)listen 80;", rf"\g<1>listen 127.0.0.1:{self.port};", site)
        check(servers == 1 and listens == 1,
              "deploy/nginx.conf no longer has one `server routeranker:8080 …;` and one `listen 80;` line")
        temp = os.path.join(workdir, "nginx-temp")
        os.makedirs(temp, exist_ok=True)
        self.site = os.path.join(workdir, "nginx-site.conf")
        with open(self.site, "w") as file:
            file.write(site)
        self.access_log = os.path.join(workdir, "nginx-access.log")
        self.error_log = os.path.join(workdir, "nginx-error.log")
        self.config = os.path.join(workdir, "nginx.conf")
        temp_paths = "\n".join(f"    {kind}_temp_path {temp}/{kind};"
                               for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        with open(self.config, "w") as file:
            file.write(f"""daemon off;
master_process off;
pid {workdir}/nginx.pid;
error_log {self.error_log} warn;
events {{ worker_connections 4096; }}
http {{
    # Which server each request went to, by the probe's request id.
    log_format probe '$msec $request_time $status $http_x_probe_id "$upstream_addr" "$upstream_status"';
    access_log {self.access_log} probe;
{temp_paths}
    include {self.site};
}}
""")
        self.log = open(os.path.join(workdir, "nginx.out"), "ab")

    def start(self):
        test = subprocess.run([self.binary, "-t", "-q", "-c", self.config, "-e", self.error_log],
                              capture_output=True, text=True, timeout=20)
        check(test.returncode == 0, f"nginx -t: {test.stderr.strip()[:400]}")
        self.process = subprocess.Popen([self.binary, "-c", self.config, "-e", self.error_log],
                                        stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            check(self.process.poll() is None, "nginx exited at start (see nginx-error.log)")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise ProbeFailure("nginx did not listen within 10 s")

    def entries(self):
        """The access log: probe id → (start, end, status, upstream addresses, upstream statuses)."""
        entries = {}
        pattern = re.compile(r'^(\S+) (\S+) (\d+) (\S+) "([^"]*)" "([^"]*)"$')
        with open(self.access_log) as file:
            for line in file:
                match = pattern.match(line.strip())
                if not match or match[4] == "-":
                    continue
                end, duration = float(match[1]), float(match[2])
                upstreams = [a for a in re.split(r"[,:]\s+", match[5]) if a and a != "-"]
                entries[int(match[4])] = (end - duration, end, int(match[3]), upstreams, match[6])
        return entries


class Client:
    """HTTP/1.1 through the proxy on asyncio streams, one connection a request (as phones and
    browsers that come and go); every request carries an `X-Probe-Id` that nginx logs, and is
    recorded here: {id, kind, start, end, status, error}."""

    def __init__(self, port):
        self.port = port
        self.next_id = 0
        self.records = {}

    def begin(self, kind):
        self.next_id += 1
        record = {"id": self.next_id, "kind": kind, "start": time.time(), "end": None, "status": None, "error": None}
        self.records[self.next_id] = record
        return record

    async def open(self, record, method, target, headers, timeout=5):
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port), timeout)
        lines = [f"{method} {target} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", f"X-Probe-Id: {record['id']}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        return reader, writer

    async def call(self, kind, method, target, token=None, body=None, content_type=None, chunks=None,
                   headers=None, timeout=15):
        """(status, headers, body), status None when the connection failed or the answer was cut."""
        record = self.begin(kind)
        sent = dict(headers or {}, Connection="close")
        if token:
            sent["Authorization"] = f"Bearer {token}"
        if content_type:
            sent["Content-Type"] = content_type
        if chunks is not None:
            sent["Transfer-Encoding"] = "chunked"
        elif body is not None:
            sent["Content-Length"] = str(len(body))

        async def exchange():
            reader, writer = await self.open(record, method, target, sent)
            try:
                if chunks is not None:
                    for i, chunk in enumerate(chunks):
                        if i:
                            await asyncio.sleep(0.02)  # a phone's stream: nginx passes it on as it comes
                        writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        await writer.drain()
                    writer.write(b"0\r\n\r\n")
                elif body is not None:
                    writer.write(body)
                await writer.drain()
                status, answer_headers = await read_head(reader)
                return status, answer_headers, await read_body(reader, answer_headers)
            finally:
                writer.close()

        try:
            status, answer_headers, data = await asyncio.wait_for(exchange(), timeout)
            record["status"] = status
            return status, answer_headers, data
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError,
                ValueError) as error:
            record["error"] = type(error).__name__
            return None, {}, b""
        finally:
            record["end"] = time.time()

    async def json(self, kind, method, target, value=None, token=None, expect=200, headers=None):
        body = None if value is None else json.dumps(value).encode()
        status, _, data = await self.call(kind, method, target, token, body,
                                          "application/json" if body is not None else None, headers=headers)
        check(status == expect, f"{method} {target}: expected {expect}, got {status} {data[:200]!r}")
        return json.loads(data) if data else None


async def read_head(reader):
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_chunk(reader):
    """One chunk of a chunked body; b"" for the last. A connection that ends first raises."""
    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
    if size == 0:
        await reader.readuntil(b"\r\n")
        return b""
    data = await reader.readexactly(size)
    await reader.readexactly(2)
    return data


async def read_body(reader, headers):
    if headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while chunk := await read_chunk(reader):
            parts.append(chunk)
        return b"".join(parts)
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    return await reader.read()


class Follower:
    """One live follower: an EventSource through the proxy that reopens with Last-Event-ID."""

    def __init__(self, route, target, token):
        self.route, self.target, self.token = route, target, token
        self.created = time.time()
        self.times, self.last_id = [], 0
        self.finished, self.violation = False, None
        self.connections, self.cuts, self.refused = 0, 0, 0
        self.gaps, self.receipts = [], []  # reopen delays; (last point's t, receipt time) per event

    async def run(self, client, deadline):
        cut_at = None
        while not self.finished and self.violation is None and time.monotonic() < deadline:
            record = client.begin("live")
            headers = {"Accept": "text/event-stream"}
            if self.token:
                headers["Authorization"] = f"Bearer {self.token}"
            if self.last_id:
                headers["Last-Event-ID"] = str(self.last_id)
            writer = None
            try:
                reader, writer = await client.open(record, "GET", self.target, headers)
                status, answer_headers = await asyncio.wait_for(read_head(reader), 10)
                record["status"] = status
                if status != 200:
                    await asyncio.wait_for(read_body(reader, answer_headers), 5)
                    self.refused += 1
                    await asyncio.sleep(float(answer_headers.get("retry-after", "1")))
                    continue
                self.connections += 1
                if cut_at is not None:
                    self.gaps.append(time.time() - cut_at)
                    cut_at = None
                buffer = b""
                while True:
                    # The server sends a keep-alive comment after 15 s of silence.
                    chunk = await asyncio.wait_for(read_chunk(reader), 30)
                    if not chunk:
                        break  # the server ended the stream
                    buffer += chunk
                    *events, buffer = buffer.split(b"\n\n")
                    for event in events:
                        self.take(event)
                if not self.finished:
                    self.cuts += 1  # ended without `finished`: reopen with the last id
                    record["error"] = "ended"
                    cut_at = time.time()
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError,
                    ValueError) as error:
                record["error"] = type(error).__name__
                self.cuts += 1
                cut_at = time.time()
                await asyncio.sleep(0.1)
            finally:
                record["end"] = time.time()
                if writer:
                    writer.close()

    def lags(self, acked_at):
        """Append answer → receipt, per event whose points were answered after this follower came
        (a late follower's first catch-up is not a delay); negative when it came before the answer."""
        lags = []
        for t, received in self.receipts:
            acknowledged = acked_at.get(t)
            if acknowledged is not None and acknowledged >= self.created:
                lags.append(received - acknowledged)
        return lags

    def take(self, event):
        name, event_id, data = "message", None, []
        for line in event.decode().split("\n"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "id":
                event_id = int(value)
            elif field == "data":
                data.append(value)
        if name == "points":
            body = json.loads("\n".join(data))
            times = [p["t"] for p in body["points"]]
            if body["from"] != len(self.times) or event_id != len(self.times) + len(times):
                self.violation = (f"route {self.route}: event from {body['from']} id {event_id} after "
                                  f"{len(self.times)} points (a gap or a repeat)")
                return
            self.times += times
            self.last_id = event_id
            self.receipts.append((times[-1], time.time()))
        elif name == "finished":
            self.finished = True
        elif name == "gone":
            self.violation = f"route {self.route}: `gone` for a route still there"


async def scenario(servers, nginx, seed, state):
    rng = random.Random(seed)
    client = Client(nginx.port)
    victim = servers[rng.randrange(SERVERS)]

    # Setup, through the proxy: followers' users, owners listing them as friends, routes, shares,
    # links, tracker devices.
    fans = [(await client.json("setup", "POST", "/v1/users", {"id": f"fan{i}", "name": f"Fan {i}"},
                               expect=201))["token"] for i in range(FANS)]
    friends = [f"fan{i}" for i in range(FANS)]

    async def owner(r):
        token = (await client.json("setup", "POST", "/v1/users", {"id": f"rider{r}", "name": f"Rider {r}",
                                                                   "friends": friends}, expect=201))["token"]
        route = (await client.json("setup", "POST", "/v1/routes", {"name": f"Ride {r}", "activity": "ride",
                                                                    "recording": True}, token, expect=201))["id"]
        for fan in friends:
            await client.json("setup", "POST", f"/v1/routes/{route}/shares", {"to": fan}, token, expect=201)
        link = (await client.json("setup", "POST", f"/v1/routes/{route}/links", {}, token, expect=201))["url"]
        return token, route, link

    owners = []
    for first in range(0, ROUTES, 10):
        owners += await asyncio.gather(*(owner(r) for r in range(first, min(ROUTES, first + 10))))
    tracker_token = (await client.json("setup", "POST", "/v1/users", {"id": "phone", "name": "Phone"},
                                       expect=201))["token"]
    devices = []
    for i in range(2):
        device = await client.json("setup", "POST", "/v1/devices", {"name": f"Phone {i}", "activity": "ride",
                                                                    "split_after_s": 3600}, tracker_token, expect=201)
        check(f"//127.0.0.1:{nginx.port}/" in device["ingest"]["owntracks"],
              f"the ingest address does not name the proxy: {device['ingest']['owntracks']}")
        devices.append(device)

    state["acked_at"] = [{} for _ in range(ROUTES)]
    sent = [set() for _ in range(ROUTES)]
    acked = [set() for _ in range(ROUTES)]
    totals = {"appends": 0, "append_failures": 0, "conflicts": 0, "resent_committed": 0, "accepted": 0,
              "tracker_ok": 0, "tracker_failures": 0, "reads": 0, "read_failures": 0}
    violations = []

    # Followers: 3 a route from the start (opened over about 3 s), 1 a route later, by link.
    start_by = time.monotonic()
    hard_deadline = start_by + LOAD_S + 45
    followers, follower_tasks = [], []
    for r, (_, route, _) in enumerate(owners):
        for i in range(FOLLOWERS // ROUTES - 1):
            follower = Follower(r, f"/v1/routes/{route}/live", fans[i % FANS])
            followers.append(follower)
            follower_tasks.append(asyncio.create_task(follower.run(client, hard_deadline)))
            await asyncio.sleep(3.0 / FOLLOWERS)
    await asyncio.sleep(1)

    began = time.monotonic()
    state["began"] = time.time()
    load_end = began + LOAD_S
    kill_at = began + rng.uniform(0.3, 0.45) * LOAD_S
    late_starts = [began + rng.uniform(0.05, 0.95) * LOAD_S for _ in range(ROUTES)]

    async def late_follower(r):
        await asyncio.sleep(max(0.0, late_starts[r] - time.monotonic()))
        follower = Follower(r, owners[r][2] + "/live", None)
        followers.append(follower)
        await follower.run(client, hard_deadline)

    follower_tasks += [asyncio.create_task(late_follower(r)) for r in range(ROUTES)]

    async def append(r, points):
        """Sends one batch until it is answered 200 (a phone resends: a resent batch is harmless)."""
        token, route, _ = owners[r]
        lines = [(json.dumps(p) + "\n").encode() for p in points]
        chunks = [b"".join(lines[:len(lines) // 2]), b"".join(lines[len(lines) // 2:])]
        times = [p["t"] for p in points]
        sent[r].update(times)
        for attempt in range(60):
            if time.monotonic() > load_end + 20:
                break
            status, headers, body = await client.call("append", "POST", f"/v1/routes/{route}/points", token,
                                                      content_type="application/x-ndjson", chunks=chunks)
            totals["appends"] += 1
            if status == 200:
                result = json.loads(body)
                if result["accepted"] + result["duplicates"] != len(points) or result["dropped"]:
                    violations.append(f"route {r}: {result} for a batch of {len(points)}")
                elif attempt == 0 and result["accepted"] != len(points):
                    violations.append(f"route {r}: a first attempt answered {result}")
                elif result["duplicates"] not in (0, len(points)):
                    violations.append(f"route {r}: a resent batch partly stored before: {result}")
                totals["accepted"] += result["accepted"]
                totals["resent_committed"] += result["duplicates"] > 0
                acked[r].update(times)
                now = time.time()
                for t in times:
                    state["acked_at"][r][t] = now
                return
            if status == 409:
                totals["conflicts"] += 1  # the route's version moved under it: send it again
                await asyncio.sleep(0.05)
                continue
            totals["append_failures"] += 1
            if status is not None and status < 500:
                violations.append(f"route {r}: append answered {status} {body[:200]!r}")
                return
            await asyncio.sleep(float(headers.get("retry-after", "0.2")) if status == 503 else 0.2)

    async def recorder(r):
        walker = Walker(seed * 1000 + r, t0=1_700_000_000.0 + r * 100_000)
        pace = random.Random(seed * 1000 + r)
        await asyncio.sleep(pace.uniform(0, 1))
        while time.monotonic() < load_end:
            await append(r, walker.take(pace.randint(3, 12)))
            await asyncio.sleep(pace.uniform(0.6, 1.4))

    tracker_sent = [[], []]
    tracker_acked = [set(), set()]

    async def tracker(i):
        """Device 0 speaks OwnTracks (POST), device 1 OsmAnd as GPSLogger sends it (GET)."""
        device = devices[i]
        auth = "Basic " + base64.b64encode(f"phone:{device['key']}".encode()).decode()
        t, lat = 1_760_000_000 + i * 100_000, 52.4 + i * 0.01
        while time.monotonic() < load_end:
            t += 2
            lat += 0.0001  # 11 m in 2 s
            tracker_sent[i].append(t)
            for _ in range(40):
                if i == 0:
                    body = json.dumps({"_type": "location", "lat": round(lat, 6), "lon": 13.3, "tst": t,
                                       "tid": "p0", "acc": 5}).encode()
                    status, _, _ = await client.call("tracker", "POST", "/v1/track/owntracks", body=body,
                                                     content_type="application/json",
                                                     headers={"Authorization": auth})
                else:
                    query = urllib.parse.urlencode({"id": device["key"], "lat": round(lat, 6), "lon": 13.3,
                                                    "timestamp": t, "accuracy": 5})
                    status, _, _ = await client.call("tracker", "GET", f"/v1/track/osmand?{query}")
                if status == 200:
                    totals["tracker_ok"] += 1
                    tracker_acked[i].add(t)
                    break
                totals["tracker_failures"] += 1
                if status is not None and status < 500:
                    violations.append(f"device {i}: a tracker message answered {status}")
                    return
                await asyncio.sleep(0.2)
            await asyncio.sleep(0.5)

    async def reader():
        pick = random.Random(seed + 1)
        while time.monotonic() < load_end:
            await asyncio.sleep(pick.uniform(0.05, 0.15))
            r = pick.randrange(ROUTES)
            token, route, link = owners[r]
            target, who = pick.choice([(f"/v1/routes/{route}", token), (f"/v1/routes/{route}/points?format=ndjson",
                                                                       fans[pick.randrange(FANS)]),
                                       ("/v1/shares?limit=20", fans[pick.randrange(FANS)]),
                                       (link, None), (f"/v1/devices/{devices[0]['id']}", tracker_token)])
            status, _, body = await client.call("read", "GET", target, who)
            totals["reads"] += 1
            if status != 200:
                totals["read_failures"] += 1
                if status is not None and status < 500:
                    violations.append(f"GET {target}: {status} {body[:200]!r}")

    restart_done = threading.Event()

    async def killer():
        await asyncio.sleep(max(0.0, kill_at - time.monotonic()))
        state["kill"] = time.time()
        victim.kill()
        await asyncio.sleep(RESTART_AFTER_S)

        def restart():
            try:
                victim.start()
                state["restarted"] = time.time()
            except ProbeFailure as failure:
                state["restart_failure"] = str(failure)
            finally:
                restart_done.set()
        threading.Thread(target=restart, daemon=True).start()
        while not restart_done.is_set():
            await asyncio.sleep(0.05)

    work = ([asyncio.create_task(recorder(r)) for r in range(ROUTES)] +
            [asyncio.create_task(tracker(i)) for i in range(2)] + [asyncio.create_task(reader()),
                                                                    asyncio.create_task(killer())])
    done, pending = await asyncio.wait(work, timeout=LOAD_S + 30)
    check(not pending, f"{len(pending)} recorders, trackers or readers still busy 30 s after the load")
    for task in done:
        task.result()
    check("restart_failure" not in state, f"the killed server did not start again: {state.get('restart_failure')}")
    check(not violations, "; ".join(violations[:3]))

    # Finish every route (a finish on a finished route is 200 again: safe to resend), then every
    # follower gets `finished` and its stream ends.
    async def finish(r):
        token, route, _ = owners[r]
        for _ in range(20):
            status, _, body = await client.call("finish", "POST", f"/v1/routes/{route}/finish", token)
            if status == 200:
                return
            await asyncio.sleep(0.3)
        violations.append(f"route {r}: finish never answered 200 ({status} {body[:200]!r})")

    await asyncio.gather(*(finish(r) for r in range(ROUTES)))
    done, pending = await asyncio.wait(follower_tasks, timeout=20)
    for task in pending:
        task.cancel()
    check(not violations, "; ".join(violations[:3]))
    check(not pending, f"{len(pending)} followers had no `finished` 20 s after the routes were finished")

    # Every acknowledged point stored once; what was sent and not acknowledged, at most once.
    stored_total = acked_total = unacked_stored = 0
    for r, (token, route, _) in enumerate(owners):
        body = await client.json("verify", "GET", f"/v1/routes/{route}/points", token=token)
        times = [p["t"] for p in body["points"]]
        check(all(a < b for a, b in zip(times, times[1:])), f"route {r}: stored points repeat or go back")
        check(acked[r] <= set(times), f"route {r}: {len(acked[r] - set(times))} acknowledged points lost")
        check(set(times) <= sent[r], f"route {r}: stored points that were never sent")
        stored_total += len(times)
        acked_total += len(acked[r])
        unacked_stored += len(set(times) - acked[r])
        for follower in followers:
            if follower.route != r:
                continue
            check(follower.violation is None, follower.violation or "")
            check(follower.finished, f"route {r}: a follower never got `finished`")
            check(follower.times == times, f"route {r}: a follower saw {len(follower.times)} points, "
                                           f"{len(times)} stored (missed, repeated or out of order)")
    check(len(followers) == FOLLOWERS, f"{len(followers)} followers started")

    for i, device in enumerate(devices):
        seen = await client.json("verify", "GET", f"/v1/devices/{device['id']}", token=tracker_token)
        check(seen["current_route"], f"device {i}: no recording route")
        body = await client.json("verify", "GET", f"/v1/routes/{seen['current_route']}/points",
                                 token=tracker_token)
        times = [p["t"] for p in body["points"]]
        check(all(a < b for a, b in zip(times, times[1:])), f"device {i}: stored points repeat or go back")
        check(tracker_acked[i] <= set(times),
              f"device {i}: {len(tracker_acked[i] - set(times))} acknowledged tracker points lost")
        check(set(times) <= set(tracker_sent[i]), f"device {i}: stored points that were never sent")
        check(seen["counts"]["received"] >= len(tracker_acked[i]),
              f"device {i}: {seen['counts']['received']} received, {len(tracker_acked[i])} answered 200")

    return {"client": client, "victim": victim, "followers": followers, "totals": totals,
            "stored": stored_total, "acked": acked_total, "unacked_stored": unacked_stored,
            "tracker_points": sum(len(a) for a in tracker_acked), "load_s": time.monotonic() - began}


def probe(workdir, processes):
    seed = int(os.environ.get("PROBE_SEED", time.time_ns() % 100_000))

    def too_long(signum, frame):
        raise ProbeFailure("still running after the time limit (a hang?)")
    signal.signal(signal.SIGALRM, too_long)
    signal.alarm(int(LOAD_S) + 70)
    try:
        _, servers = start_stack(workdir, processes, servers=SERVERS)
        nginx = Nginx(workdir, [s.port for s in servers])
        processes.append(nginx)
        nginx.start()
        state = {}
        try:
            result = asyncio.run(asyncio.wait_for(scenario(servers, nginx, seed, state), LOAD_S + 60))
        except asyncio.TimeoutError:
            raise ProbeFailure(f"the scenario did not end within {LOAD_S + 60:.0f} s (a hang?)")
    finally:
        signal.alarm(0)

    # Every failure is one of the killed server's requests in flight at the kill (nginx's access log
    # names the server each request went to), and no more failed than it had in flight then.
    client, victim, followers, totals = result["client"], result["victim"], result["followers"], result["totals"]
    entries = nginx.entries()
    kill, address = state["kill"], f"127.0.0.1:{victim.port}"
    failures = [rec for rec in client.records.values()
                if rec["error"] or rec["status"] is None or rec["status"] >= 500 or rec["status"] == 409
                or (rec["kind"] == "live" and rec["status"] != 200)]
    for rec in failures:
        entry = entries.get(rec["id"])
        what = f"{rec['kind']} request {rec['id']} ({rec['status'] or rec['error']})"
        check(entry is not None, f"{what} is not in nginx's access log: it did not reach the proxy")
        start, end, _, upstreams, _ = entry
        if rec["status"] == 409:
            # The killed server's last commit, still on its way to the database, moved the route's
            # version under the resent batch.
            check(kill <= start <= kill + 15, f"{what} outside the kill's aftermath")
            continue
        check(upstreams and upstreams[-1] == address,
              f"{what} failed on {upstreams or 'no server'}, not on the killed {address}")
        check(start <= kill + 0.25 and end >= kill - 0.05,
              f"{what} was not in flight at the kill ({start - kill:+.2f} s … {end - kill:+.2f} s)")
    cut_streams = [rec for rec in failures if rec["kind"] == "live"]
    failed = [rec for rec in failures if rec["kind"] != "live" and rec["status"] != 409]
    on_victim = [(rid, start, end) for rid, (start, end, _, upstreams, _) in entries.items()
                 if address in upstreams and rid in client.records]
    requests_on_victim = sum(1 for rid, start, end in on_victim if client.records[rid]["kind"] != "live"
                             and start <= kill + 0.25 and end >= kill - 0.05)
    streams_on_victim = sum(1 for rid, start, end in on_victim if client.records[rid]["kind"] == "live"
                            and start <= kill <= end)
    passed_on = sum(1 for _, _, _, upstreams, _ in entries.values() if len(upstreams) > 1)
    check(len(failed) <= requests_on_victim,
          f"{len(failed)} requests failed, only {requests_on_victim} were in flight on the killed server")
    check(cut_streams, "no stream was cut: the killed server had no follower")
    check(totals["conflicts"] <= 3 * max(1, totals["append_failures"]),
          f"{totals['conflicts']} appends answered 409 after {totals['append_failures']} failed")
    served_after = sum(1 for start, _, status, upstreams, _ in entries.values()
                       if upstreams and upstreams[-1] == address and start >= state["restarted"] and status == 200)
    check(served_after > 0, "the restarted server got no request through the proxy")
    with open(nginx.error_log) as file:
        serious = [line for line in file if re.search(r"\[(crit|alert|emerg)\]", line)]
    check(not serious, f"nginx: {serious[0].strip() if serious else ''}")

    reconnected = sum(1 for f in followers if f.cuts)
    gaps = [g for f in followers for g in f.gaps]
    lags = sorted(lag for f in followers for lag in f.lags(state["acked_at"][f.route]))
    check(max(lags) < 10, f"a follower got an append {max(lags):.1f} s after its answer")
    return (f"seed {seed}: {SERVERS} servers behind nginx, server {servers.index(victim) + 1} killed at "
            f"{kill - state['began']:.0f} s of load and back {state['restarted'] - kill:.1f} s later; "
            f"appends {totals['appends'] - totals['append_failures'] - totals['conflicts']} ok / "
            f"{totals['append_failures']} failed / {totals['conflicts']} 409, {totals['resent_committed']} resent "
            f"batches already stored; points {result['acked']} acked = stored {result['stored']} "
            f"({result['unacked_stored']} unacked stored), 0 lost, 0 doubled; followers {len(followers)} ok, "
            f"{reconnected} resumed with Last-Event-ID (max gap {max(gaps, default=0):.2f} s), "
            f"append→follower p99 {lags[int(0.99 * (len(lags) - 1))] * 1000:.0f} ms max {lags[-1]:.2f} s; "
            f"tracker points {result['tracker_points']} acked = stored; reads {totals['reads']}; errors "
            f"{len(failed)} requests (of {requests_on_victim} on the killed server at the kill; nginx passed "
            f"{passed_on} on to another) + {len(cut_streams)} streams (of {streams_on_victim} on it), none elsewhere; "
            f"load {result['load_s']:.0f} s")


if __name__ == "__main__":
    run(probe)
