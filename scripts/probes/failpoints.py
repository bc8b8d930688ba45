"""One injected database error at a time, under a steady stream of mixed requests from
several clients: each must be absorbed within the request that met it (no non-2xx answer, at most
0.5 s added latency) and affect no other request. The database is a healthy SecantusDB started
with `--enable-test-commands`; each fault is a `configureFailPoint: "failCommand"` with
`mode: {times: 1}`, scoped to the server's pooled client by `appName: "RouteRanker"` (the live
feed's client is "RouteRanker-stream" and is not hit). After each fault the probe checks that the
failpoint fired, by replaying its command under that appName.

What a fault does inside libmongoc 1.23 (Debian 12): a "not primary" / "node is recovering" reply
without a newer `topologyVersion` marks the server Unknown; the pool's monitor is in streaming
mode (awaitable `hello` with `maxAwaitTimeMS` = `heartbeatFrequencyMS`, 10 s by libmongoc's
default) and does not check again until that `hello` returns, so every server selection meanwhile
waits out `serverSelectionTimeoutMS` and fails. The server sets `heartbeatFrequencyMS=500` when the
URI has none; `PROBE_URI_OPTIONS='&heartbeatFrequencyMS=10000'` shows the process-wide refusals
that libmongoc's default gives.

Asserted: every fault fired; no request answered non-2xx; no request slowed by more than 1 s over
what 95 % took before the fault (the goal is 0.5 s: each fault's largest added latency is printed,
so a run shows it, while a loaded CI machine's scheduling noise cannot fail the probe).

Environment: PROBE_FAULTS (comma-separated names, default all), PROBE_SECONDS (per fault, 6),
PROBE_THREADS (6), PROBE_URI_OPTIONS (appended to the connection string)."""

import json
import os
import random
import subprocess
import threading
import time

import pymongo

from common import (VENV, Database, Server, Walker, check, json_request, register, request, run)

APP = "RouteRanker"
SECONDS = float(os.environ.get("PROBE_SECONDS", "6"))
THREADS = int(os.environ.get("PROBE_THREADS", "6"))
URI_OPTIONS = os.environ.get("PROBE_URI_OPTIONS", "")
ADDED_LATENCY = 1.0
# A dropped connection marks the server Unknown and cancels the monitor's check, which libmongoc 1.23
# notices at its next 500 ms poll tick and follows with a fresh check no sooner than
# minHeartbeatFrequencyMS (500 ms, fixed): 0.5-1.0 s before any operation can select the server
# again, whatever the URI says (measured 0.89 s).
ADDED_LATENCY_NETWORK = 1.0

# name: (failCommands, the rest of the failpoint's data)
FAULTS = {
    "notwritable-update": (["update"], {"errorCode": 10107}),
    "notwritable-insert": (["insert"], {"errorCode": 10107}),
    "shutdown-find": (["find"], {"errorCode": 11600}),
    "shutdown-aggregate": (["aggregate"], {"errorCode": 11600}),
    "shutdowninprogress-update": (["update"], {"errorCode": 91, "errorLabels": ["RetryableWriteError"]}),
    "steppeddown-find": (["find"], {"errorCode": 189}),
    "notprimarynosecondaryok-aggregate": (["aggregate"], {"errorCode": 13435}),
    "replstatechange-update": (["update"], {"errorCode": 11602}),
    "notwritable-count": (["count"], {"errorCode": 10107}),
    "close-find": (["find"], {"closeConnection": True}),
    "close-update": (["update"], {"closeConnection": True}),
    "wce91-update": (["update"], {"writeConcernError": {"code": 91, "errmsg": "shutting down"},
                                  "errorLabels": ["RetryableWriteError"]}),
}


class TestDatabase(Database):
    """SecantusDB with `configureFailPoint` enabled."""

    def start(self):
        os.makedirs(self.path, exist_ok=True)
        self.process = subprocess.Popen(
            [os.path.join(VENV, "secantusd-py"), "--host", "127.0.0.1", "--port", str(self.port),
             "--storage-path", self.path, "--log-level", "WARNING", "--enable-test-commands"],
            stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            check(self.process.poll() is None, "SecantusDB exited at start")
            try:
                pymongo.MongoClient(port=self.port, serverSelectionTimeoutMS=200).admin.command("ping")
                return
            except pymongo.errors.PyMongoError:
                time.sleep(0.1)
        check(False, "SecantusDB did not answer within 30 s")


class Client:
    """One user with a recording route: reads it, appends to it, creates routes, lists them."""

    def __init__(self, port, index):
        self.port = port
        self.token = register(port, f"client-{index}")
        self.walker = Walker(index)
        _, body = json_request(port, "POST", "/v1/routes", {"name": "live", "activity": "walk", "recording": True},
                               self.token, expect=201)
        self.route = body["id"]

    def one(self):
        kind = random.choices(["get", "append", "create", "list"], weights=[4, 3, 2, 1])[0]
        if kind == "get":
            return kind, request(self.port, "GET", f"/v1/routes/{self.route}", token=self.token)[0]
        if kind == "append":
            body = "".join(json.dumps(p) + "\n" for p in self.walker.take(5)).encode()
            return kind, request(self.port, "POST", f"/v1/routes/{self.route}/points", body, self.token,
                                 "application/x-ndjson")[0]
        if kind == "create":
            value = {"name": "run", "activity": "run", "points": Walker(random.random()).take(20)}
            return kind, json_request(self.port, "POST", "/v1/routes", value, self.token)[0]
        return kind, request(self.port, "GET", "/v1/routes?limit=5", token=self.token)[0]


def fired(as_app, commands):
    """Whether the failpoint was used up: an armed one fails this replay of its command."""
    db = as_app.get_database("failpoint_check")
    try:
        {"find": lambda: list(db.c.find({"_id": 1})),
         "aggregate": lambda: list(db.c.aggregate([{"$match": {"_id": 1}}])),
         "count": lambda: db.command({"count": "c", "query": {"_id": 1}}),
         "update": lambda: db.c.update_one({"_id": 1}, {"$inc": {"n": 1}}, upsert=True),
         "insert": lambda: db.c.insert_one({})}[commands[0]]()
        return True
    except pymongo.errors.PyMongoError:
        return False


def run_fault(server, admin, as_app, clients, name):
    commands, data = FAULTS[name]
    records, lock, stop = [], threading.Lock(), threading.Event()

    def loop(client):
        while not stop.is_set():
            started = time.monotonic()
            try:
                kind, status = client.one()
            except OSError:
                kind, status = "?", 0
            with lock:
                records.append((started, time.monotonic(), kind, status))
            time.sleep(random.uniform(0.01, 0.03))

    threads = [threading.Thread(target=loop, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    injected = time.monotonic()
    admin.admin.command({"configureFailPoint": "failCommand", "mode": {"times": 1},
                         "data": dict(data, failCommands=commands, appName=APP)})
    time.sleep(SECONDS)
    stop.set()
    for thread in threads:
        thread.join()
    was_fired = fired(as_app, commands)
    admin.admin.command({"configureFailPoint": "failCommand", "mode": "off"})
    before = sorted(e - s for s, e, _, st in records if e < injected and 200 <= st < 300)
    # What 95 % of requests took before the fault: a loaded machine's own spread is not the fault's.
    typical = before[int(len(before) * 0.95)] if before else 0
    after = [(s - injected, e - injected, k, st) for s, e, k, st in records if e >= injected]
    failed = [r for r in after if not 200 <= r[3] < 300]
    bound = ADDED_LATENCY_NETWORK if data.get("closeConnection") else ADDED_LATENCY
    added = [(r[1] - r[0]) - typical for r in after if 200 <= r[3] < 300]
    slowed = [a for a in added if a > bound]
    window = (f"non-2xx +{min(r[0] for r in failed):.1f}..+{max(r[1] for r in failed):.1f} s" if failed else "")
    return {"name": name, "fired": was_fired, "requests": len(after), "failed": len(failed),
            "statuses": sorted({r[3] for r in failed}), "slowed": len(slowed), "bound": bound, "window": window,
            "max": max((r[1] - r[0] for r in after), default=0), "typical": typical,
            "added": max(added, default=0)}


def probe(workdir, processes):
    database = TestDatabase(workdir)
    processes.append(database)
    database.start()
    server = Server(workdir, database, uri_options=URI_OPTIONS)
    processes.append(server)
    server.start()
    admin = pymongo.MongoClient(port=database.port, appname="probe-admin")
    as_app = pymongo.MongoClient(port=database.port, appname=APP, retryReads=False, retryWrites=False)
    clients = [Client(server.port, i) for i in range(THREADS)]
    names = [n for n in os.environ.get("PROBE_FAULTS", ",".join(FAULTS)).split(",") if n]
    results = []
    for name in names:
        deadline = time.monotonic() + 30
        while request(server.port, "GET", f"/v1/routes/{clients[0].route}", token=clients[0].token)[0] != 200:
            check(time.monotonic() < deadline, f"the server did not recover after {results[-1]['name']}")
            time.sleep(0.2)
        time.sleep(1)
        result = run_fault(server, admin, as_app, clients, name)
        results.append(result)
        print(f"  {name:<34} fired={result['fired']!s:<5} requests={result['requests']:4d} "
              f"failed={result['failed']:3d} {result['statuses']} slowed>{result['bound']}s={result['slowed']:3d} "
              f"max {result['max']:.2f} s (p95 before {result['typical']:.2f} s) {result['window']}", flush=True)
    for result in results:
        check(result["fired"], f"{result['name']}: the failpoint never fired")
    bad = [r for r in results if r["failed"] or r["slowed"]]
    check(not bad, "; ".join(f"{r['name']}: {r['failed']} failed {r['statuses']}, {r['slowed']} slowed "
                             f"by > {r['bound']} s {r['window']}" for r in bad))
    worst = max(results, key=lambda r: r["added"])
    return (f"{len(results)} single faults, each absorbed: 0 failed requests of "
            f"{sum(r['requests'] for r in results)}; largest added latency {worst['added']:.2f} s "
            f"({worst['name']}), median of the faults' largest "
            f"{sorted(r['added'] for r in results)[len(results) // 2]:.2f} s")


if __name__ == "__main__":
    run(probe)
