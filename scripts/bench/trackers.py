"""Tracker benchmark: N devices each post one OwnTracks location every 5 s (the apps' own rhythm)
for a fixed time, spread evenly over the 5 s, through keep-alive connections shared by worker
threads. Reports points/s, p50/p99 latency, server CPU per point (from /proc) and database round
trips per point (the server's `mongo_operations_total{op}` on /metrics, before and after).

Also: how many of the offered points were answered in time (a worker that falls behind its
schedule sends late), how many the devices' counters say were recorded, and the server's RSS
before and after.

Usage: trackers.py --server URL --server-pid PID [--devices 1000] [--seconds 60] [--workers 50]
                   [--protocol owntracks|osmand]"""

import argparse
import base64
import http.client
import json
import math
import statistics
import threading
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from live import call, cpu_seconds, operations

PERIOD_S = 5.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=50)
    parser.add_argument("--protocol", choices=["owntracks", "osmand"], default="owntracks")
    args = parser.parse_args()
    base = args.server
    url = urllib.parse.urlparse(base)

    # One user per 10 devices, set up by 16 threads (sequential set-up takes minutes on a busy machine).
    def set_up(u):
        user = f"rider{u}"
        token = call(base, "POST", "/v1/users", {"id": user, "name": user})["token"]
        made = []
        for d in range(u * 10, min(u * 10 + 10, args.devices)):
            device = call(base, "POST", "/v1/devices", {"name": f"Phone {d}", "activity": "ride"}, token)
            made.append(("Basic " + base64.b64encode(f"{user}:{device['key']}".encode()).decode(), device["key"]))
        return token, made

    with ThreadPoolExecutor(16) as pool:
        made = list(pool.map(set_up, range((args.devices + 9) // 10)))
    tokens = [token for token, _ in made]
    devices = [credentials for _, credentials in made for credentials in credentials]

    latencies, errors, lock = [], [], threading.Lock()
    metres_per_degree = 111_320 * math.cos(math.radians(52.5))
    began = time.monotonic() + 1.0
    end = began + args.seconds

    def worker(index):
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        mine = [d for d in range(len(devices)) if d % args.workers == index]
        # Each device's phase within the 5 s period, so that the load is even.
        schedule = [(began + PERIOD_S * d / len(devices), d, 0) for d in mine]
        measured = []
        while schedule:
            schedule.sort()
            at, d, n = schedule.pop(0)
            if at >= end:
                continue
            delay = at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            tst, lat, lon = 1_764_000_000 + int(n * PERIOD_S), 52.5 + d * 1e-3, 13.4 + n * 30 / metres_per_degree
            started = time.monotonic()
            if args.protocol == "owntracks":
                body = json.dumps({"_type": "location", "tid": "ph", "tst": tst, "acc": 6, "lat": lat, "lon": lon,
                                   "batt": 80, "conn": "m"}).encode()
                connection.request("POST", "/v1/track/owntracks", body=body, headers={
                    "Authorization": devices[d][0], "Content-Type": "application/json; charset=utf-8"})
            else:
                query = urllib.parse.urlencode({"id": devices[d][1], "lat": f"{lat:.7f}", "lon": f"{lon:.7f}",
                                                "timestamp": tst, "accuracy": 6, "batt": 80})
                connection.request("GET", "/v1/track/osmand?" + query)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                with lock:
                    errors.append(response.status)
            measured.append((time.monotonic() - started, time.monotonic() - at))
            schedule.append((at + PERIOD_S, d, n + 1))
        connection.close()
        with lock:
            latencies.extend(measured)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.workers)]
    rss_before = rss_mib(args.server_pid)
    ops_before, cpu_before = operations(base), cpu_seconds(args.server_pid)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    cpu = cpu_seconds(args.server_pid) - cpu_before
    ops_after = operations(base)
    if errors:
        raise SystemExit(f"{len(errors)} messages failed: {sorted(set(errors))}")
    rss_after = rss_mib(args.server_pid)
    offered = sum(1 for d in range(len(devices)) for n in range(int(args.seconds / PERIOD_S) + 1)
                  if began + PERIOD_S * d / len(devices) + n * PERIOD_S < end)
    recorded = sum(device["counts"]["recorded"] for token in tokens for device in devices_of(base, token))
    on_time = sum(1 for _, late in latencies if late <= 1.0)
    latencies = sorted(latency for latency, _ in latencies)
    points = len(latencies)
    delta = {op: ops_after.get(op, 0) - ops_before.get(op, 0) for op in ops_after}
    per_point = sum(delta.values()) / points
    by_op = ", ".join(f"{op} {count / points:.2f}" for op, count in sorted(delta.items()) if count)
    print(f"{args.devices} devices, one {args.protocol} point each every {PERIOD_S:.0f} s, {elapsed:.0f} s: "
          f"{offered} offered, {points} answered 200 ({points / offered * 100:.2f} %), {recorded} recorded "
          f"({recorded / offered * 100:.2f} %), {on_time / offered * 100:.2f} % answered within 1 s of their time; "
          f"RSS {rss_before:.0f} → {rss_after:.0f} MiB")
    print(f"{args.devices} devices, one {args.protocol} point each every {PERIOD_S:.0f} s, {elapsed:.0f} s: "
          f"{points} points, {points / elapsed:.0f} points/s, p50 {statistics.median(latencies) * 1000:.1f} ms, "
          f"p99 {latencies[int(0.99 * (points - 1))] * 1000:.1f} ms, server CPU {cpu * 1000 / points:.3f} ms/point, "
          f"database round trips {per_point:.2f}/point ({by_op})")


def devices_of(base, token):
    request = urllib.request.Request(base + "/v1/devices?limit=200", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())["items"]


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


if __name__ == "__main__":
    main()
