"""A Server-Sent Events follower for the live probes and the live benchmark (stdlib only): reads a
`text/event-stream` on a thread of its own and records every event with the time it arrived."""

import http.client
import json
import threading
import time


class Follower:
    """Follows `path` on `port`; `events` collects (monotonic receipt time, event, id, data) tuples,
    `comments` counts comment lines; `closed` is set when the server ends the stream."""

    def __init__(self, port, path, token=None, last_event_id=None, read=True, timeout=60):
        self.port, self.path, self.token, self.last_event_id = port, path, token, last_event_id
        self.events, self.comments = [], 0
        self.status, self.error, self.body = None, None, b""
        self.closed = threading.Event()
        self.opened = threading.Event()
        self.lock = threading.Lock()
        self.read = read
        self.timeout = timeout
        self.connection = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        try:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            headers = {"Accept": "text/event-stream"}
            if self.token:
                headers["Authorization"] = f"Bearer {self.token}"
            if self.last_event_id is not None:
                headers["Last-Event-ID"] = str(self.last_event_id)
            self.connection.request("GET", self.path, headers=headers)
            response = self.connection.getresponse()
            self.status = response.status
            self.opened.set()
            if response.status != 200:
                self.body = response.read()
                return
            if not self.read:
                # A follower that stops reading: hold the connection open, take nothing.
                while not self.closed.wait(0.2):
                    pass
                return
            event, event_id, data = None, None, []
            while True:
                line = response.readline()
                if not line:
                    break
                line = line.decode().rstrip("\n")
                if line == "":
                    if event is not None or data:
                        with self.lock:
                            self.events.append((time.monotonic(), event or "message", event_id,
                                                "\n".join(data)))
                    event, event_id, data = None, None, []
                elif line.startswith(":"):
                    with self.lock:
                        self.comments += 1
                else:
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "event":
                        event = value
                    elif field == "id":
                        event_id = value
                    elif field == "data":
                        data.append(value)
        except (OSError, http.client.HTTPException) as error:
            self.error = error
        finally:
            self.opened.set()
            self.closed.set()

    def close(self):
        self.closed.set()
        try:
            if self.connection and self.connection.sock:
                self.connection.sock.close()
        except OSError:
            pass

    def snapshot(self):
        with self.lock:
            return list(self.events)

    def points(self):
        """The points of the `points` events so far, checked contiguous: (points, last id)."""
        points, last = [], 0
        for _, event, event_id, data in self.snapshot():
            if event != "points":
                continue
            body = json.loads(data)
            if body["from"] != len(points) + self.first_index():
                raise AssertionError(f"gap or repeat: from {body['from']} after {len(points)} points")
            points.extend(body["points"])
            last = int(event_id)
        return points, last

    def first_index(self):
        return int(self.last_event_id or 0)

    def wait_for(self, predicate, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if predicate(self):
                return True
            time.sleep(0.01)
        return predicate(self)
