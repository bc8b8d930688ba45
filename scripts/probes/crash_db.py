"""kill -9 of the DATABASE in the middle of NDJSON streams (>= 10 trials), restarted on its data
while the server keeps running: requests during the outage get 503 (never another 5xx), the route
holds exactly the acknowledged points — a cut request's all or none — and resending the cut
request gives the right total with no duplicate."""

import os
import random
import threading
import time

from common import (Walker, check, json_request, ndjson_chunks, register, request, run, start_stack,
                    stored_times, stream_points, summary_points)

TRIALS = int(os.environ.get("PROBE_TRIALS", "10"))


def probe(workdir, processes):
    seed = int(os.environ.get("PROBE_SEED", time.time_ns() % 100_000))
    rng = random.Random(seed)
    database, (server,) = start_stack(workdir, processes)

    token = register(server.port, "runner")
    _, route = json_request(server.port, "POST", "/v1/routes", {"name": "streamed", "activity": "run",
                                                                 "recording": True}, token, expect=201)
    route = route["id"]
    walker = Walker(seed)
    acknowledged = cut = answered_503 = 0
    for _ in range(TRIALS):
        points = walker.take(rng.randrange(2_000, 12_000))
        outcome = {}
        thread = threading.Thread(target=stream_points, args=(server.port, route, token, points, outcome))
        thread.start()
        time.sleep(rng.uniform(0.05, 0.5))
        database.kill()
        # Short outages are ridden out by retries; long ones outlast server selection (2 s).
        time.sleep(rng.uniform(0.0, 0.5) if rng.random() < 0.5 else rng.uniform(2.5, 4.0))
        database.start()
        thread.join(60)
        check(not thread.is_alive(), "a client hung while the database was down")
        status = outcome.get("status")
        check(status is None or status < 500 or status == 503, f"a request during the outage was answered {status}")
        server.wait_ready()
        # The server may need a moment to find the database again: 503s until then.
        deadline = time.monotonic() + 30
        while True:
            got, _, _ = request(server.port, "GET", f"/v1/routes/{route}", token=token)
            if got == 200 or time.monotonic() > deadline:
                break
            check(got == 503, f"a read after the outage was answered {got}")
            time.sleep(0.2)
        stored = summary_points(server.port, route, token)
        if status == 200:
            acknowledged += len(points)
            check(stored == acknowledged, f"answered 200, yet {stored} points stored instead of {acknowledged}")
            continue
        cut += 1
        answered_503 += status == 503
        check(stored in (acknowledged, acknowledged + len(points)),
              f"{stored} points after a cut request of {len(points)} (acknowledged {acknowledged}): partly visible")
        got, _, body = request(server.port, "POST", f"/v1/routes/{route}/points", b"".join(ndjson_chunks(points)),
                               token, "application/x-ndjson", timeout=60)
        check(got == 200, f"resending the cut request: {got} {body[:200]!r}")
        acknowledged += len(points)
        times = stored_times(server.port, route, token)
        check(len(times) == acknowledged, f"after the resend {len(times)} points stored instead of {acknowledged}")
    times = stored_times(server.port, route, token)
    check(len(times) == acknowledged, f"{len(times)} points stored, {acknowledged} acknowledged")
    return (f"seed {seed}: {TRIALS} database kills, {cut} requests cut ({answered_503} answered 503), "
            f"{acknowledged} points acknowledged = stored, 0 lost, 0 duplicated")


if __name__ == "__main__":
    run(probe)
