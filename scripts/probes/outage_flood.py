"""A database that stops answering while requests keep coming: every request that needs it gets
`503` with `Retry-After` within a few seconds, and `/healthz`, which needs no database, stays
instant throughout. Request handlers run on the database pool's threads (docs/design.md,
"Threads"); the pool keeps threads beyond its clients so that this holds while every client waits
on the dead database."""

import threading
import time

from common import check, register, request, run, start_stack

FLOOD = 60


def probe(workdir, processes):
    database, (server,) = start_stack(workdir, processes)
    port = server.port
    token = register(port, "ada")
    check(request(port, "GET", "/v1/users/me", token=token)[0] == 200, "the server did not answer before the outage")

    database.kill()
    answers = []

    def ask():
        started = time.monotonic()
        status, headers, _ = request(port, "GET", "/v1/users/me", token=token, timeout=30)
        answers.append((status, "Retry-After" in headers, time.monotonic() - started))

    flood = [threading.Thread(target=ask) for _ in range(FLOOD)]
    for thread in flood:
        thread.start()
    time.sleep(0.3)  # every pooled client is now waiting on the dead database
    health = []
    for _ in range(5):
        started = time.monotonic()
        status = request(port, "GET", "/healthz", timeout=10)[0]
        health.append(time.monotonic() - started)
        check(status == 200, f"/healthz answered {status} during the outage")
        time.sleep(0.2)
    for thread in flood:
        thread.join()

    check(max(health) < 0.5, f"/healthz took up to {max(health):.2f} s while {FLOOD} requests waited on the database")
    statuses = sorted({status for status, _, _ in answers})
    check(statuses == [503], f"requests during the outage answered {statuses}, not only 503")
    check(all(retry for _, retry, _ in answers), "a 503 had no Retry-After")
    slowest = max(elapsed for _, _, elapsed in answers)
    # At most the server selection timeout (2 s) waiting for a client, then as long trying one.
    check(slowest < 6, f"a request waited {slowest:.1f} s for its 503")
    return (f"database killed, {FLOOD} requests at once: all 503 + Retry-After within {slowest:.1f} s; /healthz "
            f"meanwhile at most {max(health) * 1000:.0f} ms")


if __name__ == "__main__":
    run(probe)
