"""Two server processes on one database, interleaving appends to one route: every point answered
as accepted is stored once, a 409 resend is harmless, and the stats equal a recomputation from the
download (`routeranker stats`, the same code path as a fresh upload)."""

import json
import os
import subprocess
import threading
import time

from common import (Walker, check, download, json_request, register, request, run, server_binary, start_stack,
                    stored_times)

BATCHES = int(os.environ.get("PROBE_BATCHES", "150"))


def probe(workdir, processes):
    seed = int(os.environ.get("PROBE_SEED", time.time_ns() % 100_000))
    database, servers = start_stack(workdir, processes, servers=2)

    token = register(servers[0].port, "runner")
    _, route = json_request(servers[1].port, "POST", "/v1/routes", {"name": "two servers", "activity": "run",
                                                                     "recording": True}, token, expect=201)
    route = route["id"]
    walker, lock = Walker(seed), threading.Lock()
    totals = {"batches": 0, "accepted": 0, "duplicates": 0, "conflicts": 0, "sent": set()}
    failures = []

    def writer(index):
        server = servers[index % 2]
        while True:
            with lock:
                if totals["batches"] >= BATCHES:
                    return
                totals["batches"] += 1
                points = walker.take(10)
                totals["sent"].update(p["t"] for p in points)
            body = "".join(json.dumps(p) + "\n" for p in points).encode()
            for _ in range(20):
                status, _, answer = request(server.port, "POST", f"/v1/routes/{route}/points", body, token,
                                            "application/x-ndjson")
                if status == 409:
                    with lock:
                        totals["conflicts"] += 1
                    continue  # the contract's answer to a race: send it again
                if status != 200:
                    failures.append(f"append through server {index % 2 + 1}: {status} {answer[:200]!r}")
                    return
                result = json.loads(answer)
                with lock:
                    totals["accepted"] += result["accepted"]
                    totals["duplicates"] += result["duplicates"]
                break

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    check(not failures, "; ".join(failures[:3]))

    for server in servers:
        times = stored_times(server.port, route, token)
        check(len(times) == totals["accepted"],
              f"{len(times)} points stored, {totals['accepted']} answered as accepted")
        check(set(times) <= totals["sent"], "a stored point that nobody sent")
    _, summary = json_request(servers[0].port, "GET", f"/v1/routes/{route}", token=token, expect=200)
    path = os.path.join(workdir, "download.ndjson")
    with open(path, "wb") as file:
        file.write(download(servers[1].port, route, token, "ndjson"))
    recomputed = json.loads(subprocess.run([server_binary(), "stats", path, "--activity", "run"],
                                           capture_output=True, text=True, check=True).stdout)
    stats = summary["stats"]
    worst = 0.0
    for key in ("points", "distance_m", "duration_s", "moving_time_s", "max_speed_mps", "elevation_gain_m"):
        a, b = stats[key], recomputed[key]
        error = abs(a - b) / max(abs(b), 1e-300)
        worst = max(worst, error)
        check(error <= 1e-9, f"stats.{key}: stored {a}, recomputed from the download {b}")
    return (f"seed {seed}: {BATCHES} batches through 2 servers, {totals['accepted']} accepted = stored, "
            f"{totals['duplicates']} duplicates skipped, {totals['conflicts']} 409s resent, "
            f"stats = recomputation (worst relative difference {worst:.1e})")


if __name__ == "__main__":
    run(probe)
