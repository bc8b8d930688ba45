"""Read benchmark, RouteRanker against the Bottle peer in one run: seeds the same data into each
server through its API, then drives each hot read with wrk (16 connections) in turn and reports
requests/s, p50/p99 latency and server CPU per request (user + system time of the server's
processes from /proc, for the peer its gunicorn master and workers), and the ratios.

Usage: read.py --server NAME=URL=PID[,PID...] ... [--seconds 10] [--runs 3]"""

import argparse
import json
import os
import re
import statistics
import subprocess
import urllib.request

TICK = os.sysconf("SC_CLK_TCK")


def call(base, method, path, body=None, token=None):
    request = urllib.request.Request(
        base + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"null")


def seed(base):
    """An owner with 60 routes (the first of 500 points), all shared with a friend."""
    owner = call(base, "POST", "/v1/users", {"id": "owner", "name": "Owner", "friends": ["friend"]})["token"]
    friend = call(base, "POST", "/v1/users", {"id": "friend", "name": "Friend", "friends": ["owner"]})["token"]
    routes = []
    for r in range(60):
        n = 500 if r == 0 else 50
        points = [{"lat": 52.5 + i * 1e-4 + r * 1e-3, "lon": 13.4 + i * 5e-5, "t": 1_764_000_000 + r * 10_000 + 3 * i,
                   "ele": 30 + (i % 17)} for i in range(n)]
        route = call(base, "POST", "/v1/routes", {"name": f"Run {r:02d}", "activity": "run", "points": points}, owner)
        call(base, "POST", f"/v1/routes/{route['id']}/shares", {"to": "friend"}, owner)
        routes.append(route["id"])
    return owner, friend, routes[0]


def cpu_seconds(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except FileNotFoundError:
            pass
    return total / TICK


def pids_of(root):
    """The process and its children (gunicorn's workers)."""
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(root)], capture_output=True, text=True).stdout
    return [root] + [int(p) for p in children.split()]


def wrk(url, token, seconds, connections):
    threads = min(2, connections)
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "-H", f"Authorization: Bearer {token}",
                          url], capture_output=True, text=True, check=True).stdout
    def latency(label):
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(match.group(1)), match.group(2)
        return value * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return requests, float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), latency("50"), latency("99"), \
        int(errors.group(1)) if errors else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", action="append", required=True, help="NAME=URL=PID")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16,
                        help="wrk's connections (1: one request at a time, where thread wake-ups cost most)")
    args = parser.parse_args()
    servers = []
    for spec in args.server:
        name, url, pid = spec.split("=")
        owner, friend, big = seed(url)
        servers.append((name, url, int(pid), owner, friend, big))

    reads = [
        ("route summary", lambda s: (f"/v1/routes/{s[5]}", s[4])),
        ("inbox page of 20", lambda s: ("/v1/shares?limit=20", s[4])),
        ("500-point JSON download", lambda s: (f"/v1/routes/{s[5]}/points", s[4])),
        ("500-point GPX download", lambda s: (f"/v1/routes/{s[5]}/points?format=gpx", s[4])),
        ("my routes, limit=50", lambda s: ("/v1/routes?limit=50", s[3])),
    ]
    results = {}
    for label, target in reads:
        for run in range(args.runs):
            for server in servers:
                name, url, pid = server[:3]
                path, token = target(server)
                pids = pids_of(pid)
                before = cpu_seconds(pids)
                requests, rate, p50, p99, errors = wrk(url + path, token, args.seconds, args.connections)
                cpu = cpu_seconds(pids) - before
                if errors:
                    raise SystemExit(f"{name} {label}: {errors} answers were not 2xx/3xx")
                results.setdefault((label, name), []).append((rate, p50, p99, cpu * 1000 / requests))

    names = [s[0] for s in servers]
    print(f"{'read':<26}" + "".join(f"{n + ' req/s':>18}{n + ' p50/p99 ms':>22}{n + ' CPU ms/req':>20}" for n in names)
          + (f"{'CPU ratio':>12}" if len(names) == 2 else ""))
    for label, _ in reads:
        row = f"{label:<26}"
        cpus = []
        for name in names:
            runs = results[(label, name)]
            rate = statistics.median(r[0] for r in runs)
            spread = (max(r[0] for r in runs) - min(r[0] for r in runs)) / rate * 100
            cpu = statistics.median(r[3] for r in runs)
            cpus.append(cpu)
            row += (f"{rate:>12.0f} ±{spread:>3.0f}%" + f"{statistics.median(r[1] for r in runs):>13.2f}/"
                    f"{statistics.median(r[2] for r in runs):<8.2f}" + f"{cpu:>11.3f} ({min(r[3] for r in runs):.3f}–"
                    f"{max(r[3] for r in runs):.3f})")
        if len(cpus) == 2:
            row += f"{cpus[0] / cpus[1]:>12.2f}"
        print(row)
    print(f"(median of {args.runs} runs of {args.seconds} s each, wrk -t{min(2, args.connections)} "
          f"-c{args.connections}; ± is the spread of requests/s, "
          f"CPU ms/req the median (min–max); "
          f"CPU ratio = {names[0]} / {names[-1]})")


if __name__ == "__main__":
    main()
