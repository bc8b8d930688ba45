"""Live-following benchmark: R routes recording (one append of 10 points per route every
`--interval` s) and F followers spread evenly over them, each on its own SSE connection to
`GET /v1/links/{secret}/live` (as browsers follow). Reports delivery latency — from the append's
acknowledgement, and from when it was sent (the commit lies between the two) to the follower's
receipt of the event — as p50/p99 over every (append, follower) pair, plus the server's CPU and RSS.

The followers are read by one thread with `selectors` (not a thread each), so the client's own
scheduling adds little to the latencies. It relies on the server writing one HTTP chunk per event
(Hummingbird writes each `write` as a chunk), so `id:` lines are never split by chunk framing.

Usage: live_followers.py --server URL --server-pid PID [--routes 50] [--followers 1000] [--seconds 20]"""

import argparse
import http.client
import json
import selectors
import socket
import statistics
import threading
import time
import urllib.parse

from live import call, cpu_seconds


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--routes", type=int, default=50)
    parser.add_argument("--followers", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--interval", type=float, default=1.0)
    args = parser.parse_args()
    base = args.server
    url = urllib.parse.urlparse(base)

    routes = []
    for r in range(args.routes):
        if r % 10 == 0:
            token = call(base, "POST", "/v1/users", {"id": f"club{r // 10}", "name": f"Club {r // 10}"})["token"]
        route = call(base, "POST", "/v1/routes", {"name": f"Followed {r}", "activity": "run", "recording": True},
                     token)["id"]
        secret = call(base, "POST", f"/v1/routes/{route}/links", {}, token)["url"].rsplit("/", 1)[1]
        routes.append((token, route, secret))

    # Receipts: (route index, id) -> list of receipt times, one per follower.
    receipts, lock = {}, threading.Lock()
    selector = selectors.DefaultSelector()

    def follow(r, last_id=0):
        """Opens a follower of route `r`, resuming after `last_id` as an EventSource does."""
        sock = socket.create_connection((url.hostname, url.port))
        resume = f"Last-Event-ID: {last_id}\r\n" if last_id else ""
        sock.sendall(f"GET /v1/links/{routes[r][2]}/live HTTP/1.1\r\nHost: bench\r\n{resume}\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, [r, b"", True, last_id])

    for f in range(args.followers):
        follow(f % args.routes)
        # Followers arrive over about 2 s. Those the server turns away while its database pool's
        # queue is full (503 with Retry-After: 1) come back a second later, as an app would.
        time.sleep(2.0 / args.followers)
    stop, stop_reading = threading.Event(), threading.Event()
    cut = [0]
    refused = []  # route indices of followers answered 503, to open again

    def read_all():
        # A stream the server ends is opened again a second later with the last id seen, as an
        # EventSource does; a catch-up event then covers every append since that id.
        reopen = []
        while not stop_reading.is_set():
            now = time.monotonic()
            for due, r, last_id in [entry for entry in reopen if entry[0] <= now]:
                reopen.remove((due, r, last_id))
                follow(r, last_id)
            for key, _ in selector.select(0.2):
                now = time.monotonic()
                try:
                    data = key.fileobj.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    cut[0] += 1
                    reopen.append((now + 1, key.data[0], key.data[3]))
                    continue
                r, rest, first, _ = key.data
                if first and data.startswith(b"HTTP/1.1 503"):
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    with lock:
                        refused.append(r)
                    continue
                key.data[2] = False
                lines = (rest + data).split(b"\n")
                key.data[1] = lines.pop()
                for line in lines:
                    if line.startswith(b"id: "):
                        seen, last = int(line[4:]), key.data[3]
                        with lock:
                            # Appends are 10 points each: this event delivers every one after `last`.
                            for count in range(last + 10, seen + 1, 10):
                                receipts.setdefault((r, count), []).append(now)
                        key.data[3] = seen

    reader = threading.Thread(target=read_all)
    reader.start()
    time.sleep(1)  # every follower caught up (the routes are empty)
    retries = 0
    for _ in range(30):
        with lock:
            again, refused[:] = list(refused), []
        if not again:
            break
        retries += len(again)
        for r in again:
            follow(r)
            time.sleep(2.0 / args.followers)
        time.sleep(1)
    if refused:
        raise SystemExit(f"{len(refused)} followers still refused after 30 tries")

    # Appends: (route index, count after it) -> (sent, acknowledged).
    commits, errors = {}, []

    def record(r, token, route):
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        t, lat, count = 1_764_000_000.0 + r, 52.5 + r * 1e-3, 0
        next_at = time.monotonic() + (r / args.routes) * args.interval
        while not stop.is_set():
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at += args.interval
            lines = []
            for _ in range(10):
                t += 1.0
                lat += 2e-5
                lines.append(json.dumps({"lat": round(lat, 7), "lon": 13.4, "t": t}))
            sent = time.monotonic()
            connection.request("POST", f"/v1/routes/{route}/points", body=("\n".join(lines) + "\n").encode(),
                               headers={"Authorization": f"Bearer {token}", "Content-Type": "application/x-ndjson"})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                errors.append(response.status)
                return
            count += 10
            with lock:
                commits[(r, count)] = (sent, time.monotonic())
        connection.close()

    writers = [threading.Thread(target=record, args=(r, token, route)) for r, (token, route, _) in enumerate(routes)]
    cpu_before, began = cpu_seconds(args.server_pid), time.monotonic()
    for writer in writers:
        writer.start()
    time.sleep(args.seconds)
    rss_loaded = rss_mib(args.server_pid)
    stop.set()
    for writer in writers:
        writer.join()
    cpu = cpu_seconds(args.server_pid) - cpu_before
    elapsed = time.monotonic() - began
    time.sleep(2)  # the last appends' events arrive
    stop_reading.set()
    reader.join()
    if errors:
        raise SystemExit(f"{len(errors)} appends failed: {errors[:5]}")

    per_follower = args.followers // args.routes
    from_ack, from_sent, missing = [], [], 0
    with lock:
        for (r, count), (sent, acknowledged) in commits.items():
            got = receipts.get((r, count), [])
            missing += max(0, per_follower - len(got))
            for received in got:
                from_ack.append(received - acknowledged)
                from_sent.append(received - sent)
    delivered = len(from_sent)
    print(f"{args.routes} routes recording (10 points every {args.interval:g} s), {args.followers} followers "
          f"({per_follower} per route), {elapsed:.0f} s: {len(commits)} appends, {delivered} deliveries, "
          f"{missing} missing, {cut[0]} streams ended by the server and resumed, {retries} opens answered 503 and "
          f"retried; delivery from the append's answer p50 "
          f"{statistics.median(from_ack) * 1000:.1f} ms p99 {percentile(from_ack, 0.99) * 1000:.1f} ms, from its "
          f"sending p50 {statistics.median(from_sent) * 1000:.1f} ms p99 {percentile(from_sent, 0.99) * 1000:.1f} ms; "
          f"server CPU {cpu / elapsed * 100:.0f} % of a core ({cpu * 1000 / max(1, delivered):.3f} ms/delivery), "
          f"RSS {rss_loaded:.0f} MiB")


if __name__ == "__main__":
    main()
