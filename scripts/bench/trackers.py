"""Tracker benchmark: N devices each post one OwnTracks location every 5 s (the apps' own rhythm)
for a fixed time, spread evenly over the 5 s, each device on its own keep-alive connection (as
phones are: one device's slow answer delays only its own next point, never another's). Reports
points/s, p50/p99 latency, server CPU per point (from /proc), database round trips per point (the
server's `mongo_operations_total{op}` on /metrics, before and after) and the server's thread
switches per point (voluntary and involuntary, all its threads, from /proc).

Also: how many of the offered points were answered within 1 s of their time (a device whose
previous answer was late sends late), how many the devices' counters say were recorded, and the
server's RSS before and after.

Usage: trackers.py --server URL --server-pid PID [--devices 1000] [--seconds 60]
                   [--protocol owntracks|osmand]"""

import argparse
import asyncio
import base64
import json
import math
import os
import statistics
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

    latencies, errors = [], []
    metres_per_degree = 111_320 * math.cos(math.radians(52.5))
    loop_began = time.monotonic() + 1.0
    end = loop_began + args.seconds

    async def phone(d):
        """One device: its own keep-alive connection, opened at its first point (as a phone does),
        one point every 5 s at its own phase, each sent after the previous one was answered."""
        reader = writer = None
        n = 0
        while True:
            at = loop_began + PERIOD_S * d / len(devices) + n * PERIOD_S
            if at >= end:
                break
            delay = at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if writer is None:
                reader, writer = await asyncio.open_connection(url.hostname, url.port)
            tst, lat, lon = 1_764_000_000 + int(n * PERIOD_S), 52.5 + d * 1e-3, 13.4 + n * 30 / metres_per_degree
            if args.protocol == "owntracks":
                body = json.dumps({"_type": "location", "tid": "ph", "tst": tst, "acc": 6, "lat": lat, "lon": lon,
                                   "batt": 80, "conn": "m"}).encode()
                head = (f"POST /v1/track/owntracks HTTP/1.1\r\nHost: {url.netloc}\r\n"
                        f"Authorization: {devices[d][0]}\r\nContent-Type: application/json; charset=utf-8\r\n"
                        f"Content-Length: {len(body)}\r\n\r\n")
            else:
                query = urllib.parse.urlencode({"id": devices[d][1], "lat": f"{lat:.7f}", "lon": f"{lon:.7f}",
                                                "timestamp": tst, "accuracy": 6, "batt": 80})
                body, head = b"", f"GET /v1/track/osmand?{query} HTTP/1.1\r\nHost: {url.netloc}\r\n\r\n"
            started = time.monotonic()
            writer.write(head.encode() + body)
            status = await read_response(reader)
            finished = time.monotonic()
            if status != 200:
                errors.append((status, round(started - loop_began, 1)))
            latencies.append((finished - started, finished - at))
            n += 1
        if writer is not None:
            writer.close()

    rss_connected, rss_every_10_s, cpu_every_10_s = [], [], []

    async def rss_samples():
        # Every device has connected and sent once by 5 s; what the server holds then is its
        # working set for this load, and "flat" means it holds no more later on.
        await asyncio.sleep(max(0.0, loop_began + PERIOD_S + 1 - time.monotonic()))
        rss_connected.append(rss_mib(args.server_pid))
        last_cpu, last_count = cpu_seconds(args.server_pid), len(latencies)
        while time.monotonic() + 10 < end:
            await asyncio.sleep(10)
            rss_every_10_s.append(rss_mib(args.server_pid))
            cpu_now, count_now = cpu_seconds(args.server_pid), len(latencies)
            cpu_every_10_s.append((cpu_now - last_cpu) * 1000 / max(1, count_now - last_count))
            last_cpu, last_count = cpu_now, count_now

    async def all_phones():
        await asyncio.gather(rss_samples(), *(phone(d) for d in range(len(devices))))

    rss_before = rss_mib(args.server_pid)
    ops_before, cpu_before = operations(base), cpu_seconds(args.server_pid)
    switches_before = context_switches(args.server_pid)
    asyncio.run(all_phones())
    elapsed = time.monotonic() - loop_began
    cpu = cpu_seconds(args.server_pid) - cpu_before
    switches = context_switches(args.server_pid) - switches_before
    ops_after = operations(base)
    if errors:
        statuses = sorted({status for status, _ in errors})
        print(f"{len(errors)} messages answered {statuses}, sent at {sorted({at for _, at in errors})} s")
    rss_after = rss_mib(args.server_pid)
    offered = sum(1 for d in range(len(devices)) for n in range(int(args.seconds / PERIOD_S) + 1)
                  if loop_began + PERIOD_S * d / len(devices) + n * PERIOD_S < end)
    recorded = sum(device["counts"]["recorded"] for token in tokens for device in devices_of(base, token))
    on_time = sum(1 for _, late in latencies if late <= 1.0)
    latencies = sorted(latency for latency, _ in latencies)
    points = len(latencies)
    delta = {op: ops_after.get(op, 0) - ops_before.get(op, 0) for op in ops_after}
    per_point = sum(delta.values()) / points
    by_op = ", ".join(f"{op} {count / points:.2f}" for op, count in sorted(delta.items()) if count)
    print(f"{args.devices} devices, one {args.protocol} point each every {PERIOD_S:.0f} s, {elapsed:.0f} s: "
          f"{offered} offered, {points - len(errors)} answered 200 ({(points - len(errors)) / offered * 100:.2f} %), "
          f"{recorded} recorded "
          f"({recorded / offered * 100:.2f} %), {on_time / offered * 100:.2f} % answered within 1 s of their time; "
          f"RSS {rss_before:.0f} MiB before, {rss_connected[0]:.0f} once all were connected, then every 10 s "
          f"{' '.join(f'{rss:.0f}' for rss in rss_every_10_s)}, {rss_after:.0f} at the end")
    print(f"{args.devices} devices, one {args.protocol} point each every {PERIOD_S:.0f} s, {elapsed:.0f} s: "
          f"{points} answers, {points / elapsed:.0f} a second, p50 {statistics.median(latencies) * 1000:.1f} ms, "
          f"p99 {latencies[int(0.99 * (points - 1))] * 1000:.1f} ms, server CPU {cpu * 1000 / points:.3f} ms/point, "
          f"database round trips {per_point:.2f}/point ({by_op}), "
          f"{switches / points:.1f} thread switches/point (per answer); server CPU per point in each 10 s after "
          f"the first 6: {' '.join(f'{ms:.3f}' for ms in cpu_every_10_s)} ms")


async def read_response(reader):
    """The status of one HTTP/1.1 response, its body read (by Content-Length, or chunked)."""
    status_line = await reader.readline()
    if not status_line:
        raise SystemExit("the server closed a connection")
    status = int(status_line.split()[1])
    length, chunked = 0, False
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
        elif name.strip().lower() == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if chunked:
        while (size := int((await reader.readline()).split(b";")[0], 16)) > 0:
            await reader.readexactly(size + 2)
        await reader.readline()
    elif length:
        await reader.readexactly(length)
    return status


def context_switches(pid):
    """Voluntary and involuntary context switches of all the server's threads so far."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as status:
                for line in status:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


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
