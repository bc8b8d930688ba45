"""Segments benchmark driver (run by scripts/bench-segments). Three measurements, each at a few
sizes so that the growth shows:

- create: `POST /v1/segments` (1 km) with N candidate routes of 5 km along it, and the same with
  as many more routes elsewhere (not candidates): the time follows the candidates only;
- finish: `POST /v1/routes` of one finished 5 km route that passes S segments;
- leaderboard: `GET /v1/segments/{id}/leaderboard` over E efforts of P people (shared with the
  reader), first page of 50.

Each size gets its own database (the caller starts one server per run with a fresh database
name through --database-prefix), so sizes do not see each other's data."""

import argparse
import json
import math
import random
import statistics
import time

from ingest import Client

LAT0, LON0 = 47.30, 8.50
T0 = 1_750_000_000.0


def along(d_m, lat0=LAT0, lon0=LON0, lateral_m=0.0):
    """The point `d_m` metres east of (lat0, lon0), `lateral_m` north of the line."""
    return {"lat": lat0 + lateral_m / 111_320.0,
            "lon": lon0 + d_m / (111_320.0 * math.cos(math.radians(lat0)))}


def line(length_m, step_m, t0, speed, lat0=LAT0, lon0=LON0, noise_m=0.0, seed=0):
    rng = random.Random(seed)
    n = int(length_m / step_m) + 1
    points = []
    for i in range(n):
        p = along(i * step_m, lat0, lon0, rng.uniform(-noise_m, noise_m))
        p["t"] = t0 + i * step_m / speed
        points.append(p)
    return points


def post(client, conn, path, body):
    return client.call(conn, "POST", path, json.dumps(body, separators=(",", ":")))


def register(client, conn, user, friends=()):
    client.token = post(client, conn, "/v1/users", {"id": user, "name": user, "friends": list(friends)})["token"]
    return client.token


def timed(fn, repeat=1):
    samples = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, result


def create(client, candidates, elsewhere):
    conn = client.conn()
    register(client, conn, f"c{random.randrange(10**9)}")
    for k in range(candidates):  # 5 km east, points every 10 m, 3 m of noise: all pass the segment
        post(client, conn, "/v1/routes",
             {"name": f"c{k}", "activity": "run",
              "points": line(5000, 10, T0 + k * 3600, 3 + (k % 7) * 0.1, noise_m=3, seed=k)})
    for k in range(elsewhere):  # the same shape 20 km north: never a candidate
        post(client, conn, "/v1/routes",
             {"name": f"e{k}", "activity": "run",
              "points": line(5000, 10, T0 + k * 3600, 3, lat0=LAT0 + 0.18, noise_m=3, seed=k)})
    segment = [along(d) for d in range(2000, 3001, 10)]  # 1 km in the middle
    ms, created = timed(lambda: post(client, conn, "/v1/segments", {"name": "s", "points": segment}))
    found = client.call(conn, "GET", f"/v1/segments/{created['id']}/efforts?limit=1")["total"]
    return {"measure": "create_segment", "candidate_routes": candidates, "other_routes": elsewhere,
            "create_ms": round(ms, 1), "efforts_found": found}


def finish(client, segments):
    conn = client.conn()
    register(client, conn, f"f{random.randrange(10**9)}")
    for k in range(segments):  # 400 m stretches starting every 40 m along the 5 km line
        start = 100 + k * 40
        post(client, conn, "/v1/segments",
             {"name": f"s{k}", "points": [along(d) for d in range(start, start + 401, 10)]})
    route = line(5000, 4, T0, 4)  # a point every second at 4 m/s
    ms, created = timed(lambda: post(client, conn, "/v1/routes", {"name": "r", "activity": "run", "points": route}))
    return {"measure": "finish_route", "segments_passed": segments, "route_points": len(route),
            "create_finished_route_ms": round(ms, 1)}


def leaderboard(client, people, per_person, repeat):
    conn = client.conn()
    reader = f"reader{random.randrange(10**9)}"
    reader_token = register(client, conn, reader)
    segment = post(client, conn, "/v1/segments",
                   {"name": "s", "points": [along(d) for d in range(20, 121, 10)]})["id"]  # 100 m
    for p in range(people):
        register(client, conn, f"{reader}-p{p}", friends=[reader])
        for k in range(per_person):
            route = post(client, conn, "/v1/routes",
                         {"name": "r", "activity": "run",
                          "points": line(140, 4, T0 + k * 600, 3 + ((p * 7 + k) % 13) * 0.1)})["id"]
            post(client, conn, f"/v1/routes/{route}/shares", {"to": reader})
    client.token = reader_token
    path = f"/v1/segments/{segment}/leaderboard"
    first_ms, board = timed(lambda: client.call(conn, "GET", path))
    ms, _ = timed(lambda: client.call(conn, "GET", path), repeat)
    return {"measure": "leaderboard", "people": people, "efforts": people * per_person,
            "leaderboard_total": board["total"], "first_ms": round(first_ms, 1), "median_ms": round(ms, 1)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--measure", choices=["create", "finish", "leaderboard"], required=True)
    parser.add_argument("--candidates", type=int, default=2000)
    parser.add_argument("--elsewhere", type=int, default=0)
    parser.add_argument("--segments", type=int, default=100)
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--per-person", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    client = Client(args.server)
    if args.measure == "create":
        result = create(client, args.candidates, args.elsewhere)
    elif args.measure == "finish":
        result = finish(client, args.segments)
    else:
        result = leaderboard(client, args.people, args.per_person, args.repeat)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
