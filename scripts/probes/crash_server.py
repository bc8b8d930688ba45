"""kill -9 of the server in the middle of NDJSON streams, at random moments (>= 10 trials): after
a restart on the same database, the route holds exactly the points of the requests that were
answered — the cut request's points all or none — the downloads are well formed, and resending the
cut request gives the right total with no duplicate."""

import os
import random
import threading
import time

from common import (Walker, check, json_request, ndjson_chunks, register, request, run, start_stack,
                    stored_times, stream_points, summary_points)

TRIALS = int(os.environ.get("PROBE_TRIALS", "12"))


def probe(workdir, processes):
    seed = int(os.environ.get("PROBE_SEED", time.time_ns() % 100_000))
    rng = random.Random(seed)
    database, (server,) = start_stack(workdir, processes)

    token = register(server.port, "runner")
    _, route = json_request(server.port, "POST", "/v1/routes", {"name": "streamed", "activity": "run",
                                                                 "recording": True}, token, expect=201)
    route = route["id"]
    walker = Walker(seed)
    acknowledged = 0
    cut = committed_cuts = 0
    for _ in range(TRIALS):
        points = walker.take(rng.randrange(2_000, 12_000))
        outcome = {}
        thread = threading.Thread(target=stream_points, args=(server.port, route, token, points, outcome))
        thread.start()
        time.sleep(rng.uniform(0.05, 0.5))
        server.kill()
        thread.join(60)
        check(not thread.is_alive(), "a client hung after the server died")
        server.start()
        stored = summary_points(server.port, route, token)
        if outcome.get("status") == 200:
            acknowledged += len(points)
            check(stored == acknowledged, f"answered 200, yet {stored} points stored instead of {acknowledged}")
            continue
        check("status" not in outcome or outcome["status"] < 500 or outcome["status"] == 503,
              f"the cut request was answered {outcome.get('status')}")
        cut += 1
        check(stored in (acknowledged, acknowledged + len(points)),
              f"{stored} points after a cut request of {len(points)} (acknowledged {acknowledged}): partly visible")
        committed_cuts += stored != acknowledged
        # The client does what the contract says: sends the cut request again.
        status, _, body = request(server.port, "POST", f"/v1/routes/{route}/points", b"".join(ndjson_chunks(points)),
                                  token, "application/x-ndjson", timeout=60)
        check(status == 200, f"resending the cut request: {status} {body[:200]!r}")
        acknowledged += len(points)
        times = stored_times(server.port, route, token)
        check(len(times) == acknowledged, f"after the resend {len(times)} points stored instead of {acknowledged}")
    times = stored_times(server.port, route, token)
    check(len(times) == acknowledged, f"{len(times)} points stored, {acknowledged} acknowledged")
    return (f"seed {seed}: {TRIALS} server kills, {cut} cut mid-request ({committed_cuts} had committed), "
            f"{acknowledged} points acknowledged = stored, 0 lost, 0 duplicated")


if __name__ == "__main__":
    run(probe)
