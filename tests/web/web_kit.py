"""A small JSON client of ``onirim serve`` for the tests of tests/web: it keeps its own
session cookie, so two clients are two users."""
from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.error
import urllib.request


class Client:
    """One user of the server: ``get``/``post`` return (status, JSON)."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def _open(self, req):
        try:
            with self.opener.open(req, timeout=60) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path: str):
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, body=None, raw: bytes | None = None):
        data = raw if raw is not None else json.dumps(body or {}).encode()
        return self._open(urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}))

    def wait_job(self, job_id: str, until=("done", "error", "cancelled"), limit_s=120.0):
        """Poll the job until its status is in ``until`` (a guard of ``limit_s``, not a
        timing asserted: a job that never ends fails the test)."""
        t_end = time.monotonic() + limit_s
        while True:
            status, job = self.get(f"/api/job?id={job_id}")
            assert status == 200, job
            if job["status"] in until:
                return job
            assert time.monotonic() < t_end, f"job still {job['status']} after {limit_s} s"
            time.sleep(0.1)


def without_time(ranking):
    """The ranking's JSON without its timings (``seconds``, at any depth: the estimates
    time their steps too), which are the clock's, not the search's."""
    if isinstance(ranking, dict):
        return {k: without_time(v) for k, v in ranking.items() if k != "seconds"}
    if isinstance(ranking, list):
        return [without_time(v) for v in ranking]
    return ranking
