"""The costliest requests a client can make, each in a pathological form, measured one at a time
on an otherwise idle server: its wall time and the server's CPU (user + system, from /proc) while
it ran. A refusal ("too costly", 422) must come from what can be counted cheaply, before the work;
a request that is served must stay within a bounded cost.

- `similar` on an 891 km route with 50 candidates that follow it (the outside probe's case);
- `similar` on the same route with 8 candidates (served: the largest work that is accepted);
- `similar` with the widest `max_m` over 50 candidates of 20 km;
- `compare` of 50 groups of 1,000 routes each; one group's stats and its box plot;
- a segment created on a street that 1,000 finished routes follow;
- the map and the profile of a 1,000,000-point route.

Assertions hold in a debug build too (the CI runs one): the refusals answer before any path is
read, served requests answer 2xx; `PROBE_MAX_CPU_S` (default: none) bounds the CPU per request
when set, for a release build. Prints one line per request."""

import json
import os
import time

from common import check, json_request, register, request, run, start_stack

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
MAX_CPU_S = float(os.environ["PROBE_MAX_CPU_S"]) if os.environ.get("PROBE_MAX_CPU_S") else None
MILLION = int(os.environ.get("PROBE_BIG_POINTS", "1000000"))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def line_route(lat, lon, n, step_deg, t0, dt, offset=0.0):
    """`n` points eastwards from (lat, lon), `step_deg` of longitude apart, `dt` seconds apart."""
    return [{"lat": round(lat + offset, 7), "lon": round(lon + i * step_deg, 7), "t": t0 + i * dt,
             "ele": float(100 + (i % 50))} for i in range(n)]


def create(port, token, name, activity, points):
    _, body = json_request(port, "POST", "/v1/routes", {"name": name, "activity": activity, "points": points},
                           token, expect=201, timeout=300)
    return body["id"]


def probe(workdir, processes):
    _, (server,) = start_stack(workdir, processes)
    port, pid = server.port, server.process.pid
    lines, figures = [], []

    def measure(label, method, path, token, body=None, expect=(200,), slow_ok=False):
        before_cpu, before = cpu_seconds(pid), time.monotonic()
        if body is None:
            status, _, data = request(port, method, path, token=token, timeout=600)
        else:
            status, _, data = request(port, method, path, json.dumps(body).encode(), token, "application/json",
                                      timeout=600)
        wall, cpu = time.monotonic() - before, cpu_seconds(pid) - before_cpu
        check(status in expect, f"{label}: expected {expect}, got {status} {data[:300]!r}")
        if MAX_CPU_S is not None and not slow_ok:
            check(cpu <= MAX_CPU_S, f"{label}: {cpu:.2f} s of CPU, more than {MAX_CPU_S} s")
        lines.append(f"  {label:<58} {status}  {wall * 1000:8.0f} ms wall  {cpu:6.2f} s CPU  {len(data):>9} bytes")
        figures.append((label, status, wall, cpu))
        return status, data, wall, cpu

    # 1. similar: 891 km, points every ~700 m (drive), 50 candidates a metre or two apart.
    alice = register(port, "alice")
    anchor = create(port, alice, "anchor", "drive", line_route(48.0, 2.0, 1200, 0.01, 1.7e9, 20))
    for i in range(50):
        create(port, alice, f"copy {i}", "drive", line_route(48.0, 2.0, 1200, 0.01, 1.7e9 + 86400 * (i + 1), 20,
                                                             offset=0.00001 * (i % 5)))
    status, _, wall, cpu = measure("similar, 891 km, 50 candidates", "GET", f"/v1/routes/{anchor}/similar", alice,
                                   expect=(422,))
    check(cpu < 0.5, f"the refusal of similar cost {cpu:.2f} s of CPU: it did the work first")
    measure("similar, 891 km, 50 candidates, max_m=10", "GET", f"/v1/routes/{anchor}/similar?max_m=10", alice,
            expect=(422,))

    bob = register(port, "bob")
    anchor_b = create(port, bob, "anchor", "drive", line_route(40.0, -4.0, 1200, 0.0087, 1.7e9, 20))
    for i in range(8):
        create(port, bob, f"copy {i}", "drive", line_route(40.0, -4.0, 1200, 0.0087, 1.7e9 + 86400 * (i + 1), 20))
    measure("similar, 891 km, 8 candidates (served)", "GET", f"/v1/routes/{anchor_b}/similar", bob)

    carol = register(port, "carol")
    anchor_c = create(port, carol, "anchor", "drive", line_route(45.0, 7.0, 200, 0.0013, 1.7e9, 10))
    for i in range(50):
        create(port, carol, f"copy {i}", "drive", line_route(45.0, 7.0, 200, 0.0013, 1.7e9 + 86400 * (i + 1), 10))
    measure("similar, 20 km, 50 candidates, max_m=10000", "GET", f"/v1/routes/{anchor_c}/similar?max_m=10000",
            carol, expect=(200, 422))

    # 2. compare and group stats: 1,000 routes that 1,000 finished runs along one street make,
    # which also serve the segment below.
    dave = register(port, "dave")
    street = []
    for i in range(1000):
        street.append(create(port, dave, f"run {i}", "run",
                             line_route(51.5, -0.1 + 0.00001 * (i % 7), 60, 0.0002, 1.6e9 + 3600 * i, 5)))
    groups = []
    for g in range(50):
        _, group = json_request(port, "POST", "/v1/groups", {"name": f"g{g}", "routes": street}, dave, expect=201,
                                timeout=120)
        groups.append(group["id"])
    measure("compare, 50 groups of 1,000 routes", "GET", f"/v1/compare?groups={','.join(groups)}", dave)
    measure("compare.svg, 50 groups of 1,000 routes", "GET", f"/v1/compare.svg?groups={','.join(groups)}", dave)
    measure("group stats, 1,000 routes", "GET", f"/v1/groups/{groups[0]}/stats", dave)

    # 3. a segment that 1,000 finished routes follow.
    measure("segment on a street 1,000 routes follow", "POST", "/v1/segments", dave,
            body={"name": "the street", "points": [{"lat": 51.5, "lon": -0.0995}, {"lat": 51.5, "lon": -0.0905}]},
            expect=(201,))

    # 4. pictures of a 1,000,000-point route, streamed as NDJSON.
    erin = register(port, "erin")
    _, big = json_request(port, "POST", "/v1/routes", {"name": "a million", "activity": "run", "recording": True},
                          erin, expect=201)
    big = big["id"]

    def chunks():
        lat, lon = 60.0, 10.0
        for start in range(0, MILLION, 10_000):
            out = []
            for i in range(start, min(MILLION, start + 10_000)):
                k = i % 10_000  # laps of an 8 km out-and-back at 1.7 m/s
                along = k if k < 5000 else 10_000 - k
                out.append('{"lat":%.7f,"lon":%.7f,"t":%d,"ele":%.1f}\n' % (
                    lat + 0.00002 * (k >= 5000), lon + 0.00003 * along, 1_600_000_000 + i, 100 + (i % 100) / 10))
            yield "".join(out).encode()

    status, _, data = request(port, "POST", f"/v1/routes/{big}/points", chunks(), erin, "application/x-ndjson",
                              timeout=600)
    check(status == 200, f"the million-point append: {status} {data[:200]!r}")
    json_request(port, "POST", f"/v1/routes/{big}/finish", None, erin, expect=200, timeout=300)
    measure(f"map.svg of a {MILLION:,}-point route", "GET", f"/v1/routes/{big}/map.svg", erin)
    measure(f"profile.svg of a {MILLION:,}-point route", "GET", f"/v1/routes/{big}/profile.svg", erin)
    measure(f"profile.svg?y=pace&x=time of a {MILLION:,}-point route", "GET",
            f"/v1/routes/{big}/profile.svg?y=pace&x=time", erin)

    worst = max(figures, key=lambda f: f[3])
    refusals = [f for f in figures if f[1] == 422]
    print("\n".join(lines))
    return (f"{len(figures)} costly requests; worst {worst[3]:.2f} s CPU ({worst[0]}); refusals answered in "
            f"≤ {max(f[2] for f in refusals) * 1000:.0f} ms")


if __name__ == "__main__":
    run(probe)
