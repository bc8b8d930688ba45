"""Resource limits: 500 idle connections and 100 slowloris connections (headers one byte a second)
do not stop the server from answering others promptly; a flood of 300 simultaneous authenticated
requests gets 2xx or 503 with Retry-After — never another 5xx, never a hang. Afterwards every
thread of the server, those it started under the load included, is scheduled as `SCHED_BATCH`
(`serve --scheduling`'s default)."""

import os
import socket
import statistics
import threading
import time

from common import check, json_request, register, request, run, start_stack

IDLE, SLOWLORIS, FLOOD = 500, 100, 300

SCHED_BATCH = 3  # <linux/sched.h>


def thread_policies(pid):
    """Each thread's scheduling policy (`/proc/PID/task/TID/stat`, field 41), by "TID name"."""
    policies = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                text = stat.read()
        except FileNotFoundError:  # the thread exited since the listing
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        policies[f"{tid} {name}"] = int(text[text.rindex(")") + 2:].split()[38])
    return policies


def probe(workdir, processes):
    # Two database connections, so that the flood outgrows the bound on waiting requests (32 per
    # connection) and the refusals are seen.
    database, (server,) = start_stack(workdir, processes, uri_options="&maxPoolSize=2")
    port = server.port
    token = register(port, "reader")
    _, route = json_request(port, "POST", "/v1/routes", {"name": "r", "activity": "run", "points": [
        {"lat": 52.5, "lon": 13.4, "t": 1_700_000_000 + i, "ele": 30} for i in range(100)]}, token, expect=201)

    idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(IDLE)]
    slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(SLOWLORIS)]
    stop = threading.Event()

    def slowloris():
        header = f"GET /v1/routes/{route['id']} HTTP/1.1\r\nHost: x\r\nX-Slow: {'a' * 200}".encode()
        for i in range(len(header)):
            if stop.wait(1.0):
                return
            for connection in list(slow):
                try:
                    connection.send(header[i:i + 1])
                except OSError:
                    slow.remove(connection)
    dripping = threading.Thread(target=slowloris)
    dripping.start()
    try:
        latencies = []
        for i in range(60):
            started = time.monotonic()
            path = "/healthz" if i % 2 else f"/v1/routes/{route['id']}"
            status, _, _ = request(port, "GET", path, token=token, timeout=10)
            latencies.append(time.monotonic() - started)
            check(status == 200, f"GET {path} answered {status} beside {IDLE} idle and {SLOWLORIS} slow connections")
            time.sleep(0.1)
        check(max(latencies) < 5, f"an ordinary request took {max(latencies):.1f} s")
    finally:
        stop.set()
        dripping.join()
        for connection in idle + slow:
            connection.close()

    results, barrier = [], threading.Barrier(FLOOD)

    def flood():
        barrier.wait()
        started = time.monotonic()
        try:
            status, headers, _ = request(port, "GET", f"/v1/routes/{route['id']}/points", token=token, timeout=30)
            results.append((status, headers.get("Retry-After"), time.monotonic() - started))
        except OSError as error:
            results.append((str(error), None, time.monotonic() - started))
    threads = [threading.Thread(target=flood) for _ in range(FLOOD)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    check(len(results) == FLOOD, "some flood requests hung")
    bad = [r for r in results if r[0] != 200 and not (r[0] == 503 and r[1])]
    check(not bad, f"{len(bad)} flood answers were neither 200 nor 503 with Retry-After: {bad[:3]}")
    refused = sum(1 for r in results if r[0] == 503)
    policies = thread_policies(server.process.pid)
    others = {name: policy for name, policy in policies.items() if policy != SCHED_BATCH}
    check(not others, f"threads not scheduled as SCHED_BATCH (policy {SCHED_BATCH}): {others}")
    return (f"{IDLE} idle + {SLOWLORIS} slowloris: ordinary requests p50 {statistics.median(latencies) * 1000:.0f} ms, "
            f"max {max(latencies) * 1000:.0f} ms; flood of {FLOOD}: {FLOOD - refused} answered, {refused} refused "
            f"with 503 + Retry-After, slowest {max(r[2] for r in results):.1f} s; {len(policies)} threads, all SCHED_BATCH")


if __name__ == "__main__":
    run(probe)
