"""One tracker device whose messages reach two server processes at once (as a phone behind a load
balancer): never two recording routes for the device, every message answered 200 counts once as
received and once as exactly one kind, the recorded points are the routes' points, and the idle
sweep (running in both processes) finishes the last trip within 30 s."""

import base64
import json
import math
import os
import threading
import time

from common import check, json_request, register, request, run, start_stack

ROUNDS = int(os.environ.get("PROBE_ROUNDS", "6"))
POINTS = int(os.environ.get("PROBE_POINTS", "40"))
SPLIT_S = 10


def probe(workdir, processes):
    _, servers = start_stack(workdir, processes, servers=2)
    token = register(servers[0].port, "rider")
    _, device = json_request(servers[1].port, "POST", "/v1/devices",
                             {"name": "Phone", "activity": "ride", "split_after_s": SPLIT_S}, token, expect=201)
    auth = "Basic " + base64.b64encode(f"rider:{device['key']}".encode()).decode()
    lock = threading.Lock()
    state = {"next": 0, "sent": 0, "failures": [], "most_recording": 0}
    t0 = 1_764_000_000
    metres_per_degree = 111_320 * math.cos(math.radians(52.5))

    def message(i):
        trip, step = divmod(i, POINTS)
        t = t0 + trip * 1000 + step  # 1000 s between trips: a split each time; 1 s within one
        lon = 13.4 + (step * 20) / metres_per_degree
        return json.dumps({"_type": "location", "lat": 52.5, "lon": lon, "tst": t, "tid": "ph",
                           "acc": 5}).encode()

    def sender(index):
        while True:
            with lock:
                i = state["next"]
                if i >= ROUNDS * POINTS:
                    return
                state["next"] += 1
            # Each message goes to both servers at once half of the time: a resend racing itself.
            targets = [servers[index % 2]] + ([servers[(index + 1) % 2]] if i % 2 else [])
            for server in targets:
                status, _, body = request(server.port, "POST", "/v1/track/owntracks", message(i),
                                          content_type="application/json", headers={"Authorization": auth})
                with lock:
                    if status != 200:
                        state["failures"].append(f"message {i}: {status} {body[:200]!r}")
                    else:
                        state["sent"] += 1

    def watcher(stop):
        while not stop.is_set():
            _, page = json_request(servers[0].port, "GET", "/v1/routes?limit=200", token=token, expect=200)
            recording = sum(1 for r in page["items"] if r["state"] == "recording")
            with lock:
                state["most_recording"] = max(state["most_recording"], recording)
            time.sleep(0.05)

    stop = threading.Event()
    watch = threading.Thread(target=watcher, args=(stop,))
    watch.start()
    threads = [threading.Thread(target=sender, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    stop.set()
    watch.join()
    check(not state["failures"], "; ".join(state["failures"][:3]))
    check(state["most_recording"] <= 1, f"{state['most_recording']} recording routes at once for one device")

    _, seen = json_request(servers[1].port, "GET", f"/v1/devices/{device['id']}", token=token, expect=200)
    counts = seen["counts"]
    check(counts["received"] == state["sent"], f"{counts['received']} received, {state['sent']} answered 200")
    kinds = counts["recorded"] + counts["duplicates"] + counts["dropped"] + counts["ignored"]
    check(kinds == counts["received"], f"counts do not add up: {counts}")
    _, page = json_request(servers[0].port, "GET", "/v1/routes?limit=200", token=token, expect=200)
    # Messages racing each other arrive out of order: a late point of one trip may start a route of
    # its own, which the next trip's first point finishes at once and the trip rule deletes (with
    # its recorded point). So the routes hold at most the recorded points, and every trip has one.
    stored = sum(r["stats"]["points"] for r in page["items"])
    check(stored <= counts["recorded"], f"{stored} points in routes, only {counts['recorded']} recorded")
    check(len(page["items"]) >= ROUNDS, f"{len(page['items'])} routes for {ROUNDS} trips")
    check(all(r["stats"]["distance_m"] >= 200 for r in page["items"]), "a kept route that went nowhere")

    # Nothing more comes: the sweep finishes the last trip within split_after_s + 30 s.
    started = time.monotonic()
    while True:
        _, seen = json_request(servers[0].port, "GET", f"/v1/devices/{device['id']}", token=token, expect=200)
        if seen["current_route"] is None:
            break
        check(time.monotonic() - started < SPLIT_S + 30, "the idle route was not finished within 40 s")
        time.sleep(0.5)
    idle = time.monotonic() - started
    _, page = json_request(servers[1].port, "GET", "/v1/routes?limit=200", token=token, expect=200)
    check(all(r["state"] == "finished" for r in page["items"]), "a route still records after the idle finish")
    return (f"{state['sent']} messages through 2 servers: {counts['recorded']} recorded ({stored} kept in "
            f"{len(page['items'])} routes), "
            f"{counts['duplicates']} duplicates, at most {state['most_recording']} recording route, "
            f"{ROUNDS} trips, idle finish after {idle:.1f} s")


if __name__ == "__main__":
    run(probe)
