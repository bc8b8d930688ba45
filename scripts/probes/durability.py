"""Acknowledged means durable: the database is killed (SIGKILL, no pause) right after each of
>= 20 acknowledged writes of every kind — create, append, NDJSON stream, share, group — and
restarted on its data; every acknowledged write is there afterwards."""

import json
import os
import time

from common import (Walker, check, json_request, ndjson_chunks, register, request, run, start_stack,
                    summary_points)

PER_KIND = int(os.environ.get("PROBE_WRITES", "20"))


def probe(workdir, processes):
    database, (server,) = start_stack(workdir, processes)
    port = server.port
    walker = Walker(7)

    token = register(port, "owner", ["friend"])
    register(port, "friend")
    kills = 0

    def acknowledged(write):
        """Runs `write` until it is answered 2xx (503 while the database is back is fine), then
        kills the database at once and restarts it."""
        nonlocal kills
        deadline = time.monotonic() + 60
        while True:
            status, value = write()
            if 200 <= status < 300:
                database.kill()
                kills += 1
                database.start()
                return value
            check(status == 503 and time.monotonic() < deadline, f"a write was answered {status}: {value}")
            time.sleep(0.1)

    def post_json(path, value):
        status, _, body = request(port, "POST", path, json.dumps(value).encode(), token, "application/json")
        return status, (json.loads(body) if body else None)

    created = [acknowledged(lambda: post_json("/v1/routes", {"name": "r", "activity": "run",
                                                              "points": walker.take(50)}))["id"]
               for _ in range(PER_KIND)]

    _, appended = json_request(port, "POST", "/v1/routes", {"name": "appended", "activity": "run",
                                                            "recording": True}, token, expect=201)
    for _ in range(PER_KIND):
        batch = walker.take(10)
        acknowledged(lambda: post_json(f"/v1/routes/{appended['id']}/points", {"points": batch}))

    streamed = acknowledged(lambda: post_json("/v1/routes", {"name": "streamed", "activity": "run",
                                                             "recording": True}))
    for _ in range(PER_KIND):
        batch = walker.take(500)

        def stream():
            status, _, body = request(port, "POST", f"/v1/routes/{streamed['id']}/points", ndjson_chunks(batch, 50),
                                      token, "application/x-ndjson")
            return status, body
        acknowledged(stream)

    for route in created:
        acknowledged(lambda: post_json(f"/v1/routes/{route}/shares", {"to": "friend"}))

    groups = [acknowledged(lambda: post_json("/v1/groups", {"name": f"g{i}", "routes": created[i:i + 3]}))["id"]
              for i in range(PER_KIND)]

    server.wait_ready()
    deadline = time.monotonic() + 30
    while request(port, "GET", "/v1/users/me", token=token)[0] != 200:
        check(time.monotonic() < deadline, "the server did not find the database again")
        time.sleep(0.2)
    for route in created:
        check(summary_points(port, route, token) == 50, f"created route {route} lost points")
        _, shares = json_request(port, "GET", f"/v1/routes/{route}/shares", token=token, expect=200)
        check('"friend"' in json.dumps(shares), f"the share of {route} was lost")
    check(summary_points(port, appended["id"], token) == 10 * PER_KIND, "acknowledged appends were lost")
    check(summary_points(port, streamed["id"], token) == 500 * PER_KIND, "acknowledged streams were lost")
    for i, group in enumerate(groups):
        _, body = json_request(port, "GET", f"/v1/groups/{group}", token=token, expect=200)
        check([r["id"] for r in body["routes"]] == created[i:i + 3], f"group {group} lost routes")
    return f"{kills} database kills right after an acknowledged write ({PER_KIND} of each of 5 kinds): 0 lost"


if __name__ == "__main__":
    run(probe)
