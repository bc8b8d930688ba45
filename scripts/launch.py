"""The one launcher of the Python drivers that start processes themselves (the probes, and the import
benchmark, which kills its server mid-import): the server binary, a SecantusDB that can be killed and
restarted on its data, RouteRanker servers on free ports, waiting until each answers. The shell
scripts' twin is scripts/launch; both start the same processes with the same arguments.

Import it as `from launch import …` after putting scripts/ on `sys.path` (the probes' common.py and
the benchmarks do)."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import time
from typing import IO, Any, Sequence

import pymongo
import pymongo.errors

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv", "bin")


class LaunchFailure(Exception):
    """A process that did not start or did not answer in time."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_binary(configuration: str = "debug") -> str:
    """$ROUTERANKER_BIN if set (e.g. an older build, for an A/B in the same hour), else the path of
    the build of `configuration` (`debug` or `release`); it does not build."""
    if os.environ.get("ROUTERANKER_BIN"):
        return os.environ["ROUTERANKER_BIN"]
    flags = ["-c", "release"] if configuration == "release" else []
    path = subprocess.run(["swift", "build", *flags, "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    return os.path.join(path.stdout.strip(), "routeranker")


def answers(port: int, path: str, timeout: float = 2) -> bool:
    """Whether http://127.0.0.1:PORT/PATH answers 200 now."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


class Process:
    """A child process that may be SIGKILLed (`kill()`) or stopped gracefully (`stop()`)."""

    process: subprocess.Popen[bytes] | None = None
    what = "the process"  # how failures name it

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self, grace: float = 10) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.kill()

    def running(self) -> subprocess.Popen[bytes]:
        """The started process, which must not have exited."""
        if self.process is None:
            raise LaunchFailure(f"{self.what} was never started")
        if self.process.poll() is not None:
            raise LaunchFailure(f"{self.what} exited (status {self.process.returncode})")
        return self.process


class Database(Process):
    """A SecantusDB on its own data folder (`workdir/db`); `kill()` is SIGKILL, `start()` reuses the
    data. `test_commands` enables `configureFailPoint`."""

    what = "SecantusDB"

    def __init__(self, workdir: str, test_commands: bool = False) -> None:
        self.port = free_port()
        self.path = os.path.join(workdir, "db")
        self.test_commands = test_commands
        self.log: IO[bytes] = open(os.path.join(workdir, "db.log"), "ab")

    @property
    def uri(self) -> str:
        return (f"mongodb://127.0.0.1:{self.port}/?serverSelectionTimeoutMS=2000"
                "&connectTimeoutMS=2000&socketTimeoutMS=20000")

    def start(self, seconds: float = 30) -> None:
        os.makedirs(self.path, exist_ok=True)
        arguments = [os.path.join(VENV, "secantusd-py"), "--host", "127.0.0.1", "--port", str(self.port),
                     "--storage-path", self.path, "--log-level", "WARNING"]
        if self.test_commands:
            arguments.append("--enable-test-commands")
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.running()
            client: pymongo.MongoClient[dict[str, Any]] = pymongo.MongoClient(
                port=self.port, serverSelectionTimeoutMS=200)
            try:
                client.admin.command("ping")
                return
            except pymongo.errors.PyMongoError:
                time.sleep(0.05)
            finally:
                client.close()
        raise LaunchFailure(f"SecantusDB did not answer within {seconds:g} s")


class Server(Process):
    """`routeranker serve` on a free port, on the database at `uri` (its log: `workdir/NAME.log`).
    `arguments` go to `serve` after the port, the URI and the log level. Its TMPDIR is `workdir`, so
    that what a killed server leaves behind (an import's archive) goes with the workdir."""

    what = "the server"

    def __init__(self, workdir: str, uri: str, name: str = "server", arguments: Sequence[str] = ()) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.uri = uri
        self.arguments = list(arguments)
        self.log: IO[bytes] = open(os.path.join(workdir, f"{name}.log"), "ab")

    def start(self) -> None:
        self.process = subprocess.Popen(
            [server_binary(), "serve", "--port", str(self.port), "--mongodb-uri", self.uri, "--log-level", "warning",
             *self.arguments], stdout=self.log, stderr=self.log, env=dict(os.environ, TMPDIR=self.workdir))
        self.wait_ready()

    def wait_ready(self, seconds: float = 60) -> None:
        """Until `/readyz` answers 200; fails if the server exits first or `seconds` pass."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.running()
            if answers(self.port, "/readyz"):
                return
            time.sleep(0.1)
        raise LaunchFailure(f"the server was not ready within {seconds:g} s")
