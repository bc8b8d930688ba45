"""Live following across processes: two servers on one database. A follower on the second sees every
append made through the first within 1 s, in order, with no gap and no repeat; the database is
killed and restarted under the open stream and events resume (the change stream resumes from its
token); a follower that stops reading is cut off while the server's RSS stays flat; on SIGTERM open
streams end cleanly and the server exits."""

import json
import os
import socket
import time

from common import Walker, check, json_request, register, request, run, start_stack
from sse import Follower

APPENDS = int(os.environ.get("PROBE_LIVE_APPENDS", "60"))


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def append(port, route, token, points, tries=80):
    """Appends `points`, retrying (as a phone would) while the database is away. Returns when the
    accepted request was sent: the commit lies between that and its answer, and the follower on the
    other server may well see it before the writer has its answer, so latencies are measured from it
    (an upper bound of commit → receipt)."""
    body = "".join(json.dumps(p) + "\n" for p in points).encode()
    for _ in range(tries):
        started = time.monotonic()
        try:
            status, _, answer = request(port, "POST", f"/v1/routes/{route}/points", body, token,
                                        "application/x-ndjson", timeout=10)
        except OSError:
            status, answer = None, b""
        if status == 200:
            return started
        check(status in (None, 409, 503), f"append: {status} {answer[:200]!r}")
        time.sleep(0.25)
    check(False, "an append never succeeded")


def contiguous_points(follower):
    try:
        return follower.points()
    except AssertionError as error:  # a gap or a repeat
        check(False, str(error))


def check_contiguous(follower, expected_times):
    points, last = contiguous_points(follower)
    times = [p["t"] for p in points]
    check(times == expected_times[:len(times)], "the follower's points differ from those appended")
    return len(points), last


def wait_count(follower, count, seconds):
    return follower.wait_for(lambda f: len(contiguous_points(f)[0]) >= count, seconds)


def probe(workdir, processes):
    database, (a, b) = start_stack(workdir, processes, servers=2)
    token = register(a.port, "runner")
    walker = Walker(7)
    sent = walker.take(20)
    _, route = json_request(a.port, "POST", "/v1/routes", {"name": "live", "activity": "run", "recording": True,
                                                           "points": sent}, token, expect=201)
    route = route["id"]
    times = [p["t"] for p in sent]
    follower = Follower(b.port, f"/v1/routes/{route}/live", token)
    check(follower.opened.wait(10) and follower.status == 200, f"follow: {follower.status} {follower.body[:200]!r}")
    check(wait_count(follower, 20, 5), "the catch-up did not arrive")

    # 1. Appends through A reach the follower on B within 1 s, in order.
    latencies = []
    for _ in range(APPENDS):
        points = walker.take(5)
        committed = append(a.port, route, token, points)
        times += [p["t"] for p in points]
        check(wait_count(follower, len(times), 1.0), f"append {len(times)} not seen on B within 1 s")
        received = follower.snapshot()[-1][0]
        latencies.append(received - committed)
        time.sleep(0.02)
    check_contiguous(follower, times)
    latencies.sort()

    # 2. The database killed and restarted under the open stream: events resume, nothing lost or repeated.
    database.kill()
    restarted = time.monotonic()
    database.start()
    for _ in range(5):
        points = walker.take(5)
        append(a.port, route, token, points)
        times += [p["t"] for p in points]
    check(wait_count(follower, len(times), 15), "events did not resume after the database restart")
    resumed_after = time.monotonic() - restarted
    check(not follower.closed.is_set(), "the stream ended during the database restart")
    count, _ = check_contiguous(follower, times)

    # 3. A follower that stops reading is cut off; the server's memory stays flat meanwhile. (Also: a
    # follower of an idle route gets a keep-alive comment within 15 s.)
    _, idle_route = json_request(a.port, "POST", "/v1/routes", {"name": "idle", "recording": True}, token,
                                 expect=201)
    idle = Follower(a.port, f"/v1/routes/{idle_route['id']}/live", token)
    idle_started = time.monotonic()
    stalled = socket.create_connection(("127.0.0.1", a.port))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 * 1024)
    stalled.sendall(f"GET /v1/routes/{route}/live HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n"
                    .encode())
    batch = 1000
    rss = []
    stall_started = time.monotonic()
    for i in range(150):
        points = walker.take(batch)
        append(a.port, route, token, points)
        times += [p["t"] for p in points]
        if i in (30, 149):
            rss.append(rss_mib(a.process.pid))
    time.sleep(11)  # the stall limit is 10 s per event
    stalled.settimeout(20)
    drained, cut = 0, False
    try:
        while True:
            data = stalled.recv(1 << 20)
            if not data:
                cut = True
                break
            drained += len(data)
    except ConnectionResetError:
        cut = True
    except socket.timeout:
        cut = False
    stalled.close()
    check(cut, "the follower that stopped reading was not disconnected")
    growth = rss[1] - rss[0]
    check(growth < 40, f"server RSS grew {growth:.0f} MiB while a follower stalled ({rss[0]:.0f} → {rss[1]:.0f})")
    # The reading follower on B kept up with all of it.
    check(wait_count(follower, len(times), 10), "the reading follower fell behind")
    check_contiguous(follower, times)

    check(idle.wait_for(lambda f: f.comments >= 1, max(0.0, 16 - (time.monotonic() - idle_started))),
          "no keep-alive comment within 16 s on an idle stream")
    idle.close()

    # 4. SIGTERM with an open stream: it ends cleanly and the server exits promptly.
    stopping = time.monotonic()
    b.process.terminate()
    b.process.wait(15)
    check(follower.closed.wait(5) and follower.error is None, f"the stream did not end cleanly: {follower.error}")
    shutdown_s = time.monotonic() - stopping

    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    return (f"{APPENDS} appends via A seen on B in order, no gap/repeat, append sent→receipt p50 {p50:.0f} ms "
            f"p99 {p99:.0f} ms; db restart: resumed {resumed_after:.1f} s after the kill ({count} points, "
            f"no gap); stalled follower cut off after {drained // 1024} KiB, RSS {rss[0]:.0f}→{rss[1]:.0f} MiB "
            f"over {len(times) - count} more points; keep-alive seen; SIGTERM: stream ended, exit in {shutdown_s:.1f} s")


if __name__ == "__main__":
    run(probe)
