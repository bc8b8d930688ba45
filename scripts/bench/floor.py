"""The floor under every request: what a server's CPU costs per request for `/healthz` (no database,
no work) when requests come at a fixed rate, spread over 16 keep-alive connections, as they do when
a database sets the pace. Prints, for each server and rate, the rate reached and the CPU per request
(user + system time of the server's processes from /proc, the peer's workers included).

A read's CPU per request can go no lower than its server's floor at the rate it runs at: that is what
this shows next to scripts/bench-read.

Usage: floor.py --server NAME=URL=PID ... [--rates 200,1000,5000] [--seconds 5]"""

import argparse
import asyncio
import time

from read import cpu_seconds, pids_of


async def connection(host, port, request, interval, start, end, counts):
    reader, writer = await asyncio.open_connection(host, port)
    due = start
    while True:
        now = time.monotonic()
        if now >= end:
            break
        if due > now:
            await asyncio.sleep(due - now)
        due += interval
        writer.write(request)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        if length:
            await reader.readexactly(length)
        counts[0 if head.startswith(b"HTTP/1.1 200") else 1] += 1
    writer.close()


async def paced(url, rate, seconds, connections=16):
    """Sends GET `url` at `rate` requests/s in all; returns (requests answered 200, others, seconds)."""
    hostport, path = url.split("//", 1)[1].split("/", 1)
    host, port = hostport.split(":")
    request = f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\n\r\n".encode()
    interval = connections / rate
    counts = [0, 0]
    start = time.monotonic()
    end = start + seconds
    await asyncio.gather(*[
        connection(host, int(port), request, interval, start + i * interval / connections, end, counts)
        for i in range(connections)])
    return counts[0], counts[1], time.monotonic() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", action="append", required=True, help="NAME=URL=PID")
    parser.add_argument("--rates", default="200,1000,5000")
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    print(f"{'server':<14}{'asked req/s':>12}{'reached':>10}{'CPU ms/req':>12}")
    for spec in args.server:
        name, url, pid = spec.split("=")
        pids = pids_of(int(pid))
        asyncio.run(paced(url + "/healthz", 100, 1))  # warm-up
        for rate in rates:
            before = cpu_seconds(pids)
            ok, bad, elapsed = asyncio.run(paced(url + "/healthz", rate, args.seconds))
            cpu = cpu_seconds(pids) - before
            if bad:
                raise SystemExit(f"{name}: {bad} answers to /healthz were not 200")
            print(f"{name:<14}{rate:>12}{ok / elapsed:>10.0f}{cpu * 1000 / ok:>12.3f}", flush=True)
    print(f"(/healthz at a fixed rate over 16 connections, {args.seconds:g} s each; the load generator "
          "shares the machine's 2 cores, so the highest rates may fall short of what was asked)")


if __name__ == "__main__":
    main()
