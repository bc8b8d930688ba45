"""FIT vs GPX upload benchmark (run by scripts/bench-ingest): the same 24,000 points as one FIT
file (written by scripts/fit_synthetic.py, which shares no code with the server) and as one GPX
file, each uploaded several times to a running server; reports points/s and the ratio."""

import argparse
import http.client
import json
import math
import os
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from fit_synthetic import EALT, LAT, LON, RECORD, TS, FIT_EPOCH, FitWriter, field, file_id, semis, session  # noqa: E402


def make_points(n):
    """1 Hz fixes at 3 m/s on a gently turning path, with elevation (times whole seconds, as FIT has)."""
    lat, lon, heading, t0 = 52.52, 13.40, 0.0, 1_700_000_000
    for i in range(n):
        heading += 0.01 * math.sin(i / 50)
        lat += 3.0 * math.cos(heading) / 111_320.0
        lon += 3.0 * math.sin(heading) / (111_320.0 * math.cos(math.radians(lat)))
        yield lat, lon, t0 + i, 40 + 10 * math.sin(i / 300)


def fit_file(points):
    w = FitWriter()
    file_id(w)
    w.define(1, RECORD, [field(TS), field(LAT), field(LON), field(EALT)])
    for lat, lon, t, ele in points:
        w.data(1, [t - FIT_EPOCH, semis(lat), semis(lon), round((ele + 500) * 5)])
    session(w, 2, 1)
    return w.file()


def gpx_file(points):
    parts = ['<?xml version="1.0"?><gpx version="1.1" creator="bench"><trk><name>bench</name><trkseg>']
    for lat, lon, t, ele in points:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
        parts.append(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>{ele:.1f}</ele><time>{stamp}</time></trkpt>')
    parts.append("</trkseg></trk></gpx>")
    return "".join(parts).encode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--points", type=int, default=24_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    url = urllib.parse.urlparse(args.server)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    conn.request("POST", "/v1/users", body=json.dumps({"id": f"watch-{os.getpid()}", "name": "Watch"}),
                 headers={"Content-Type": "application/json"})
    token = json.loads(conn.getresponse().read())["token"]
    points = list(make_points(args.points))
    bodies = {"fit": (fit_file(points), "application/vnd.ant.fit"), "gpx": (gpx_file(points), "application/gpx+xml")}
    rates = {}
    for name, (body, content_type) in bodies.items():
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            conn.request("POST", "/v1/routes?activity=run", body=body,
                         headers={"Content-Type": content_type, "Authorization": f"Bearer {token}"})
            response = conn.getresponse()
            data = response.read()
            if response.status != 201:
                raise SystemExit(f"{name}: {response.status} {data[:200]!r}")
            kept = json.loads(data)["stats"]["points"]
            times.append(time.perf_counter() - start)
        times.sort()
        rates[name] = kept / times[len(times) // 2]
        print(f"{name}: {len(body) / 1e6:.2f} MB, {kept} points, median {times[len(times) // 2] * 1000:.0f} ms "
              f"({rates[name]:,.0f} points/s; runs {', '.join(f'{t * 1000:.0f}' for t in times)} ms)")
    print(f"FIT / GPX points/s: {rates['fit'] / rates['gpx']:.2f}")


if __name__ == "__main__":
    main()
