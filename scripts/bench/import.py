"""Import benchmark (scripts/bench-import): builds an archive of N GPX files of P points each (a
third gzip'd, with a Strava-like activities.csv), starts the server, uploads the archive and
follows the job: routes/s and points/s, upload time, the server's RSS sampled every second.
Then a second user imports the same archive while the server is `kill -9`ed a third of the way
in and started again: how long the job stood still and how long it took to finish.

Usage: import.py [--files 1000] [--points 10000]   (env: ROUTERANKER_BIN, BENCH_DB, BENCH_WORKDIR)"""

import argparse
import gzip
import http.client
import json
import os
import sys
import time
import urllib.request
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from launch import Server  # noqa: E402


def call(port, method, path, body=None, token=None, content_type="application/json"):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method,
        data=None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode()),
        headers={"Content-Type": content_type, **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=600) as answer:
        return json.loads(answer.read())


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def build_archive(path, files, points):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("activities.csv", "Activity ID,Activity Name,Activity Type,Filename\r\n" + "".join(
            f"{i},Ride {i},Ride,activities/{i}.gpx{'.gz' if i % 3 == 0 else ''}\r\n" for i in range(files)))
        for i in range(files):
            t0 = 1_600_000_000 + i * 86_400
            body = "".join(
                f'<trkpt lat="{47.0 + k * 0.00005:.6f}" lon="{8.0 + (i % 100) * 0.01 + (k % 7) * 0.00001:.6f}">'
                f'<ele>{400 + k % 50}</ele><time>{time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0 + k))}</time></trkpt>\n'
                for k in range(points))
            gpx = f'<?xml version="1.0"?><gpx version="1.1" creator="bench"><trk><trkseg>\n{body}</trkseg></trk></gpx>\n'
            if i % 3 == 0:
                z.writestr(f"activities/{i}.gpx.gz", gzip.compress(gpx.encode(), 1))
            else:
                z.writestr(f"activities/{i}.gpx", gpx)


def upload(server, token, path):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    size = os.path.getsize(path)
    started = time.monotonic()
    with open(path, "rb") as archive:
        connection.request("POST", "/v1/imports", body=archive, headers={
            "Authorization": f"Bearer {token}", "Content-Type": "application/zip", "Content-Length": str(size)})
        response = connection.getresponse()
        answer = json.loads(response.read())
    if response.status != 202:
        raise SystemExit(f"upload: {response.status} {answer}")
    return answer["id"], time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--points", type=int, default=10000)
    args = parser.parse_args()
    workdir = os.environ["BENCH_WORKDIR"]
    path = os.path.join(workdir, "archive.zip")
    started = time.monotonic()
    build_archive(path, args.files, args.points)
    size = os.path.getsize(path)
    print(f"archive: {args.files} GPX files of {args.points} points, {size / 2**20:.0f} MiB zipped "
          f"(built in {time.monotonic() - started:.0f} s)", flush=True)

    server = Server(workdir, os.environ["BENCH_DB"])
    try:
        measure(server, path, size, args.files, args.points)
    finally:
        server.stop()


def measure(server, path, size, files, points):
    """The import, then the interrupted one (the server killed a third of the way in)."""
    server.start()
    token = call(server.port, "POST", "/v1/users", {"id": "mover", "name": "Mover"})["token"]
    job, upload_s = upload(server, token, path)
    rss, began = [], time.monotonic()
    while True:
        value = call(server.port, "GET", f"/v1/imports/{job}", token=token)
        rss.append(rss_mib(server.process.pid))
        if value["state"] in ("done", "failed"):
            break
        time.sleep(1)
    took = time.monotonic() - began
    counts = value["counts"]
    print(f"upload {upload_s:.1f} s ({size / 2**20 / upload_s:.0f} MiB/s); import {took:.0f} s: {counts}, "
          f"{counts['imported'] / took:.1f} routes/s, {counts['imported'] * points / took:,.0f} points/s", flush=True)
    print("server RSS MiB every ~10 s: " + " ".join(f"{r:.0f}" for r in rss[::10]) + f" (max {max(rss):.0f})", flush=True)

    # Interrupted: a second user's import, the server killed a third of the way in.
    other = call(server.port, "POST", "/v1/users", {"id": "second", "name": "Second"})["token"]
    job, _ = upload(server, other, path)
    while call(server.port, "GET", f"/v1/imports/{job}", token=other)["files_done"] < files // 3:
        time.sleep(0.2)
    server.kill()
    killed = time.monotonic()
    server.start()
    restarted = time.monotonic() - killed
    done_at_kill = call(server.port, "GET", f"/v1/imports/{job}", token=other)["files_done"]
    moved = None
    while True:
        value = call(server.port, "GET", f"/v1/imports/{job}", token=other)
        if moved is None and value["files_done"] > done_at_kill:
            moved = time.monotonic() - killed
        if value["state"] in ("done", "failed"):
            break
        time.sleep(0.5)
    total = time.monotonic() - killed
    routes = call(server.port, "GET", "/v1/routes?limit=1", token=other)["total"]
    print(f"interrupted: killed at {done_at_kill} files, server back in {restarted:.1f} s, the job moved again "
          f"{moved:.1f} s after the kill (the 30 s lease), done {total:.0f} s after it: {value['counts']}; "
          f"{routes} routes (none twice)", flush=True)


if __name__ == "__main__":
    main()
