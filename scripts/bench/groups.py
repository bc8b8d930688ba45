"""Groups benchmark driver (run by scripts/bench-groups): the latency of comparing two groups of
1,000 routes each, and of `similar` over 1,000 candidate routes of 5 km, each measured for routes
with few and with many points, to show that neither grows with the points per route."""

import argparse
import json
import math
import random
import statistics
import time

from ingest import Client


def route_points(n, length_m, seed, lateral_m=0.0):
    """`n` points along a 5 km line heading north-east, with `lateral_m` metres of noise."""
    rng = random.Random(seed)
    lat0, lon0 = 52.50, 13.30
    points = []
    t = 1_700_000_000.0
    for i in range(n):
        d = length_m * i / (n - 1)
        north, east = d * math.cos(math.pi / 4), d * math.sin(math.pi / 4)
        east += rng.uniform(-lateral_m, lateral_m)
        points.append({"lat": lat0 + north / 111_320.0,
                       "lon": lon0 + east / (111_320.0 * math.cos(math.radians(lat0))),
                       "t": t})
        t += (1800.0 / n) * (1 + rng.uniform(0, 0.2))  # ~5 km in 30–36 min, always forward
    return points


def create_routes(client, conn, count, points_per_route, seed):
    ids = []
    for k in range(count):
        body = {"name": f"r{seed}-{k}", "activity": "run",
                "points": route_points(points_per_route, 5000.0, seed * 100_000 + k, lateral_m=3.0)}
        ids.append(client.call(conn, "POST", "/v1/routes", json.dumps(body, separators=(",", ":")))["id"])
    return ids


def timed(client, conn, path, repeat):
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        client.call(conn, "GET", path)
        samples.append(time.perf_counter() - start)
    return samples


def scenario(client, routes_per_group, points_per_route, repeat):
    conn = client.conn()
    user = f"bench{random.randrange(10**9)}"
    client.token = client.call(conn, "POST", "/v1/users", json.dumps({"id": user, "name": "Bench"}))["token"]
    start = time.perf_counter()
    a = create_routes(client, conn, routes_per_group, points_per_route, 1)
    b = create_routes(client, conn, routes_per_group, points_per_route, 2)
    setup = time.perf_counter() - start
    g1 = client.call(conn, "POST", "/v1/groups", json.dumps({"name": "a", "routes": a}))["id"]
    g2 = client.call(conn, "POST", "/v1/groups", json.dumps({"name": "b", "routes": b}))["id"]
    compare = timed(client, conn, f"/v1/compare?groups={g1},{g2}&metric=duration_s", repeat)
    first_similar = timed(client, conn, f"/v1/routes/{a[0]}/similar?max_m=50", 1)[0]
    similar = timed(client, conn, f"/v1/routes/{a[0]}/similar?max_m=50", repeat)
    matches = len(client.call(conn, "GET", f"/v1/routes/{a[0]}/similar?max_m=50")["items"])
    return {"routes_per_group": routes_per_group, "points_per_route": points_per_route,
            "setup_s": round(setup, 1),
            "compare_median_ms": round(statistics.median(compare) * 1000, 1),
            "similar_first_ms": round(first_similar * 1000, 1),
            "similar_median_ms": round(statistics.median(similar) * 1000, 1),
            "similar_candidates": 2 * routes_per_group, "similar_matches": matches}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--routes", type=int, default=1000)
    parser.add_argument("--points", type=int, nargs="+", default=[50, 500])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for points in args.points:
        print(json.dumps(scenario(Client(args.server), args.routes, points, args.repeat)))


if __name__ == "__main__":
    main()
