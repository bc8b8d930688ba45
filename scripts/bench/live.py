"""Live-recording benchmark: the phone clients' real workload. N routes record at once, each
appending NDJSON batches of 10 points on its own keep-alive connection, for a fixed time. Reports
appends/s, p50/p99 latency, server CPU per append (from /proc) and database round trips per append
(the server's `mongo_operations_total{op}` on /metrics, before and after).

Usage: live.py --server URL --server-pid PID [--routes 200] [--seconds 20]"""

import argparse
import http.client
import json
import os
import re
import statistics
import threading
import time
import urllib.parse
import urllib.request

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def operations(base):
    text = urllib.request.urlopen(base + "/metrics").read().decode()
    counts = {}
    for op, value in re.findall(r'^mongo_operations_total\{op="([^"]+)"\} ([0-9.e+]+)$', text, re.M):
        counts[op] = float(value)
    return counts


def call(base, method, path, body, token=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--routes", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    base = args.server
    url = urllib.parse.urlparse(base)

    # One user per 10 routes: phones of a club recording at once.
    recorders = []
    for r in range(args.routes):
        if r % 10 == 0:
            token = call(base, "POST", "/v1/users", {"id": f"runner{r // 10}", "name": f"Runner {r // 10}"})["token"]
        route = call(base, "POST", "/v1/routes", {"name": f"Live {r}", "activity": "run", "recording": True}, token)
        recorders.append((token, route["id"]))

    stop = threading.Event()
    start_barrier = threading.Barrier(args.routes + 1)
    latencies, errors = [], []
    lock = threading.Lock()

    def record(index, token, route):
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        t = 1_764_000_000.0 + index
        lat, lon = 52.5 + index * 1e-3, 13.4
        mine = []
        start_barrier.wait()
        while not stop.is_set():
            lines = []
            for _ in range(10):
                t += 1.0
                lat += 2e-5
                lines.append(json.dumps({"lat": round(lat, 7), "lon": lon, "t": t}))
            body = ("\n".join(lines) + "\n").encode()
            started = time.monotonic()
            connection.request("POST", f"/v1/routes/{route}/points", body=body, headers={
                "Authorization": f"Bearer {token}", "Content-Type": "application/x-ndjson"})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                errors.append(response.status)
                break
            mine.append(time.monotonic() - started)
        connection.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=record, args=(i, *recorder)) for i, recorder in enumerate(recorders)]
    for thread in threads:
        thread.start()
    ops_before, cpu_before = operations(base), cpu_seconds(args.server_pid)
    start_barrier.wait()
    began = time.monotonic()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    cpu = cpu_seconds(args.server_pid) - cpu_before
    ops_after = operations(base)
    if errors:
        raise SystemExit(f"{len(errors)} appends failed: {errors[:5]}")
    appends = len(latencies)
    delta = {op: ops_after.get(op, 0) - ops_before.get(op, 0) for op in ops_after}
    per_append = sum(delta.values()) / appends
    by_op = ", ".join(f"{op} {count / appends:.2f}" for op, count in sorted(delta.items()) if count)
    latencies.sort()
    print(f"{args.routes} routes recording, batches of 10 points, {elapsed:.0f} s: {appends / elapsed:.0f} appends/s, "
          f"p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {latencies[int(0.99 * (appends - 1))] * 1000:.1f} ms, "
          f"server CPU {cpu * 1000 / appends:.3f} ms/append, database round trips {per_append:.2f}/append ({by_op})")


if __name__ == "__main__":
    main()
