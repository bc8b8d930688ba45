"""An import interrupted by `kill -9` of the server that works on it, finished by another: two
servers on one database; an archive of N GPX files (some gzip'd) is uploaded through the first;
once it has recorded some entries, the first is killed; the second claims the job when its lease
has run out (30 s) and goes on from the last entry recorded. Asserted: the job ends `done` with
every entry recorded once, exactly N routes exist (none imported twice, none lost), each entry's
route is distinct, and importing the same archive again creates nothing. Prints the time the job
stood still and how long it took to finish after the takeover."""

import gzip
import io
import json
import os
import time
import zipfile

from common import check, json_request, register, request, run, start_stack

FILES = int(os.environ.get("PROBE_FILES", "240"))


def archive():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        # Each row names its entry as the archive does (Strava's name gzip'd files with their .gz).
        z.writestr("activities.csv", "Activity ID,Activity Name,Activity Type,Filename\r\n" + "".join(
            f"{i},Run {i},Run,activities/{i}.gpx{'.gz' if i % 3 == 0 else ''}\r\n" for i in range(FILES)))
        for i in range(FILES):
            t0 = 1_700_000_000 + i * 86_400
            points = "".join(
                f'<trkpt lat="{48.1 + k * 0.0002:.6f}" lon="{11.5 + (i % 50) * 0.001:.6f}">'
                f'<time>{time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0 + k * 10))}</time></trkpt>'
                for k in range(120))
            gpx = (f'<?xml version="1.0"?><gpx version="1.1" creator="probe"><trk><name>f{i}</name><trkseg>{points}'
                   '</trkseg></trk></gpx>').encode()
            if i % 3 == 0:
                z.writestr(f"activities/{i}.gpx.gz", gzip.compress(gpx))
            else:
                z.writestr(f"activities/{i}.gpx", gpx)
    return out.getvalue()


def upload(port, token, body):
    status, headers, data = request(port, "POST", "/v1/imports", body, token, "application/zip", timeout=120)
    check(status == 202, f"upload: {status} {data[:200]!r}")
    return json.loads(data)["id"]


def wait_done(port, token, job, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        _, value = json_request(port, "GET", f"/v1/imports/{job}", token=token, expect=200)
        if value["state"] in ("done", "failed"):
            return value
        time.sleep(0.2)
    raise AssertionError("unreachable")  # check() below reports it


def probe(workdir, processes):
    _, (first, second) = start_stack(workdir, processes, servers=2)
    token = register(second.port, "mover")
    body = archive()
    job = upload(first.port, token, body)
    # Kill the first server as soon as the job is under way (whichever server claimed it, the first
    # is killed: if the second holds it, the kill costs nothing and the probe still checks the end).
    deadline = time.monotonic() + 60
    done_before = 0
    while time.monotonic() < deadline:
        _, value = json_request(second.port, "GET", f"/v1/imports/{job}", token=token, expect=200)
        done_before = value["files_done"]
        if done_before >= 10:
            break
        time.sleep(0.05)
    check(done_before >= 10, f"the import did not start within 60 s ({done_before} entries done)")
    first.kill()
    killed_at = time.monotonic()
    _, after_kill = json_request(second.port, "GET", f"/v1/imports/{job}", token=token, expect=200)
    value = None
    finish_deadline = time.monotonic() + 240
    while time.monotonic() < finish_deadline:
        _, value = json_request(second.port, "GET", f"/v1/imports/{job}", token=token, expect=200)
        if value["state"] in ("done", "failed"):
            break
        time.sleep(0.2)
    check(value and value["state"] == "done", f"the import did not finish after the kill: {value}")
    finished_after = time.monotonic() - killed_at
    total = FILES + 1
    check(value["files_total"] == total and value["files_done"] == total, f"entries recorded: {value}")
    check(value["counts"] == {"imported": FILES, "duplicates": 0, "failed": 0, "skipped": 1},
          f"counts after the takeover: {value['counts']}")
    routes = set()
    cursor = None
    while True:
        path = f"/v1/imports/{job}/files?limit=200" + (f"&cursor={cursor}" if cursor else "")
        _, page = json_request(second.port, "GET", path, token=token, expect=200)
        routes.update(item["route"] for item in page["items"] if item["route"])
        cursor = page["next"]
        if not cursor:
            break
    check(len(routes) == FILES, f"{len(routes)} distinct routes for {FILES} files")
    _, mine = json_request(second.port, "GET", "/v1/routes?limit=1", token=token, expect=200)
    check(mine["total"] == FILES, f"{mine['total']} routes stored for {FILES} files (none twice, none lost)")
    for route in sorted(routes)[:20]:
        _, one = json_request(second.port, "GET", f"/v1/routes/{route}", token=token, expect=200)
        check(one["name"].startswith("Run "), f"names from activities.csv: {one['name']}")

    again = upload(second.port, token, body)
    started = time.monotonic()
    second_value = None
    while time.monotonic() - started < 120:
        _, second_value = json_request(second.port, "GET", f"/v1/imports/{again}", token=token, expect=200)
        if second_value["state"] in ("done", "failed"):
            break
        time.sleep(0.2)
    check(second_value["counts"]["duplicates"] == FILES and second_value["counts"]["imported"] == 0,
          f"the same archive again: {second_value['counts']}")
    _, mine = json_request(second.port, "GET", "/v1/routes?limit=1", token=token, expect=200)
    check(mine["total"] == FILES, f"{mine['total']} routes after importing the same archive again")
    return (f"{FILES} files ({len(body) // 1024} KiB): server killed after {done_before} entries "
            f"({after_kill['files_done']} recorded at the kill); the other server finished the job "
            f"{finished_after:.1f} s later (30 s lease); {FILES} routes, none twice; re-import: {FILES} duplicates")


if __name__ == "__main__":
    run(probe)
