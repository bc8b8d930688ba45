"""Ingest benchmark driver (run by scripts/bench-ingest): streams points to a running RouteRanker
server as NDJSON and as JSON batches of 1000, reports points/s, and samples the server's RSS
during a long stream. Standard library only; nothing here is imported by the server or tests."""

import argparse
import http.client
import json
import math
import random
import threading
import time
import urllib.parse


def make_points(n, seed=7):
    """A plausible run: 1 Hz fixes at ~3 m/s on a gently turning path, with elevation."""
    rng = random.Random(seed)
    lat, lon, heading, t0 = 52.52, 13.40, 0.0, 1_700_000_000.0
    for i in range(n):
        heading += rng.uniform(-0.2, 0.2)
        lat += 3.0 * math.cos(heading) / 111_320.0
        lon += 3.0 * math.sin(heading) / (111_320.0 * math.cos(math.radians(lat)))
        yield {"lat": round(lat, 7), "lon": round(lon, 7), "t": t0 + i, "ele": round(40 + 10 * math.sin(i / 300), 1)}


class Client:
    def __init__(self, base):
        url = urllib.parse.urlparse(base)
        self.host, self.port = url.hostname, url.port or 80
        self.token = None

    def conn(self):
        return http.client.HTTPConnection(self.host, self.port, timeout=600)

    def call(self, conn, method, path, body=None, content_type="application/json", chunked=False):
        headers = {"Content-Type": content_type} if body is not None else {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if chunked:
            headers["Transfer-Encoding"] = "chunked"
        conn.request(method, path, body=body, headers=headers, encode_chunked=chunked)
        response = conn.getresponse()
        data = response.read()
        if response.status >= 300:
            raise SystemExit(f"{method} {path}: {response.status} {data[:300]!r}")
        return json.loads(data) if data else None


def ndjson_chunks(n, chunk_bytes=64 * 1024):
    buffer = []
    size = 0
    for point in make_points(n):
        line = json.dumps(point, separators=(",", ":")) + "\n"
        buffer.append(line)
        size += len(line)
        if size >= chunk_bytes:
            yield "".join(buffer).encode()
            buffer, size = [], 0
    if buffer:
        yield "".join(buffer).encode()


def stream_ndjson(client, n):
    conn = client.conn()
    start = time.perf_counter()
    route = client.call(conn, "POST", "/v1/routes?name=bench-ndjson&activity=run", ndjson_chunks(n),
                        "application/x-ndjson", chunked=True)
    elapsed = time.perf_counter() - start
    assert route["stats"]["points"] == n, route["stats"]["points"]
    return n / elapsed, elapsed


def json_batches(client, n, batch=1000):
    conn = client.conn()
    route = client.call(conn, "POST", "/v1/routes", json.dumps({"name": "bench-json", "activity": "run", "recording": True}))
    points = list(make_points(n))
    bodies = [json.dumps({"points": points[i:i + batch]}, separators=(",", ":")) for i in range(0, n, batch)]
    start = time.perf_counter()
    for body in bodies:
        client.call(conn, "POST", f"/v1/routes/{route['id']}/points", body)
    elapsed = time.perf_counter() - start
    summary = client.call(conn, "GET", f"/v1/routes/{route['id']}")
    assert summary["stats"]["points"] == n, summary["stats"]["points"]
    return n / elapsed, elapsed


def bulk(client, writers, appends, batch=1000):
    """`writers` clients at once, each appending `appends` JSON batches of `batch` points to a
    recording route of its own (the issue's bulk load); points/s over all of them."""
    conn = client.conn()
    routes = [client.call(conn, "POST", "/v1/routes",
                          json.dumps({"name": f"bench-bulk-{w}", "activity": "run", "recording": True}))["id"]
              for w in range(writers)]
    points = list(make_points(appends * batch))
    bodies = [json.dumps({"points": points[i:i + batch]}, separators=(",", ":"))
              for i in range(0, len(points), batch)]
    errors = []

    def write(route):
        own = client.conn()
        try:
            for body in bodies:
                client.call(own, "POST", f"/v1/routes/{route}/points", body)
        except BaseException as error:  # SystemExit from call() included: report, don't hang
            errors.append(f"{route}: {error}")

    threads = [threading.Thread(target=write, args=(route,)) for route in routes]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise SystemExit("bulk: " + "; ".join(errors))
    conn = client.conn()  # the first one sat idle through the load: a server may have closed it
    for route in routes:
        summary = client.call(conn, "GET", f"/v1/routes/{route}")
        assert summary["stats"]["points"] == appends * batch, summary["stats"]["points"]
    return writers * appends * batch / elapsed, elapsed


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def peak_rss_during(client, pid, n):
    baseline = rss_kib(pid)
    peak = [baseline]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        rate, elapsed = stream_ndjson(client, n)
    finally:
        done.set()
        sampler.join()
    return baseline, peak[0], rate, elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--server-pid", type=int)
    parser.add_argument("--points", type=int, default=200_000)
    parser.add_argument("--rss-points", type=int, default=1_000_000)
    parser.add_argument("--bulk-only", action="store_true",
                        help="only the bulk load (for a peer server that speaks the same contract)")
    parser.add_argument("--bulk-writers", type=int, default=4)
    parser.add_argument("--bulk-appends", type=int, default=50)
    args = parser.parse_args()

    client = Client(args.server)
    user = f"bench{random.randrange(10**9)}"
    client.token = client.call(client.conn(), "POST", "/v1/users", json.dumps({"id": user, "name": "Bench"}))["token"]

    results = {}
    results["bulk_points_per_s"], results["bulk_seconds"] = bulk(client, args.bulk_writers, args.bulk_appends)
    if args.bulk_only:
        print(json.dumps(results))
        return
    results["ndjson_points_per_s"], results["ndjson_seconds"] = stream_ndjson(client, args.points)
    results["json_batches_points_per_s"], results["json_batches_seconds"] = json_batches(client, args.points)
    if args.server_pid and args.rss_points > 0:
        base, peak, rate, elapsed = peak_rss_during(client, args.server_pid, args.rss_points)
        results.update(rss_baseline_mib=base / 1024, rss_peak_mib=peak / 1024,
                       rss_stream_points=args.rss_points, rss_stream_points_per_s=rate)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
