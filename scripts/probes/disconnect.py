"""Work stops when the client goes away: `GET /v1/routes/{id}/similar` costs the
server seconds of CPU when answered; when the client disconnects early, the server's CPU use after
the disconnect must be a small part of that (Hummingbird cancels the request's task). (The bound
on one request's work is a test: SimilarRoutesTests.theWorkOfOneRequestIsBounded.)"""

import os
import socket
import time

from common import check, json_request, register, request, run, start_stack

ROUTES = int(os.environ.get("PROBE_ROUTES", "16"))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def probe(workdir, processes):
    database, (server,) = start_stack(workdir, processes)
    port, pid = server.port, server.process.pid
    token = register(port, "driver")
    # Drives of ~30 km along the same road, compared within max_m=1000 (the widest band whose
    # cells all take the geodesic's fast path, so that the request's weighted cost is its cells):
    # each pair scans a band ~200 cells wide along 3,000 samples, ~1.2 million Fréchet cells (18
    # million in all, within the bounds), so the work is many short pairs and cancellation between
    # two of them is seen at once. (At max_m=10000 each cell weighs ~31: the request is refused.)
    points = [{"lat": 40 + i * 0.0027, "lon": 10.0, "t": 1_700_000_000 + 10 * i} for i in range(100)]
    ids = [json_request(port, "POST", "/v1/routes", {"name": f"drive {k}", "activity": "drive", "points": points},
                        token, expect=201)[1]["id"] for k in range(ROUTES)]
    path = f"/v1/routes/{ids[0]}/similar?max_m=1000"

    request(port, "GET", path, token=token, timeout=300)  # the first also stores the resampled paths
    before = cpu_seconds(pid)
    status, headers, _ = request(port, "GET", path, token=token, timeout=300)
    full = cpu_seconds(pid) - before
    check(status == 200, f"similar answered {status}")
    if os.environ.get("PROBE_SKIP_CLOSE_CHECK") is None:
        check(headers.get("Connection", "").lower() == "close", "similar's answer did not say Connection: close")

    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: probe\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    time.sleep(min(0.3, full / 4))
    connection.close()
    time.sleep(0.2)  # the close reaches the server; cancellation takes effect at the next pair
    after = cpu_seconds(pid)
    time.sleep(max(2.0, full))
    rest = cpu_seconds(pid) - after
    check(rest < 0.25 * full, f"after the client left, the server still used {rest:.2f} s of CPU (a full answer: "
                              f"{full:.2f} s)")
    check(request(port, "GET", "/healthz")[0] == 200, "the server did not answer afterwards")
    return (f"similar over {ROUTES} routes of ~30 km at max_m=1000: {full:.2f} s CPU answered, {rest:.2f} s "
            f"after a disconnect")

if __name__ == "__main__":
    run(probe)
