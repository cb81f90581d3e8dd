"""The server's side of the search processes (:mod:`onirim.web.worker`).

A :class:`Pool` keeps ``size`` worker processes, each driven by a thread of its own that
takes jobs from one queue (by priority: a user's analysis and hint before the graph's
points), writes the job to its process and reads the progress lines and
the answer back.  The HTTP threads only put jobs in the queue and read their status, so a
long analysis never blocks a request; the searches run in other processes, so they do not
hold this process's interpreter either.

Cancelling a queued job drops it; cancelling a running one sends SIGINT to its process,
which is Ctrl-C for ``onirim best``: the ranking found so far comes back, marked
interrupted.  The signal is sent under the pool's lock while the job is still marked
running, and a worker ignores SIGINT between jobs, so a late cancel cannot hit the next job.
A worker that dies is started again; its job ends with an error line.
"""
from __future__ import annotations

import itertools
import json
import os
import queue
import secrets
import signal
import subprocess
import sys
import threading
import time

STOP_WAIT_S = 3.0          # at shutdown: seconds a worker gets to end before it is killed
KEEP_DONE = 200            # finished jobs kept per pool for their owners to read


class Job:
    """One request to a worker.  ``status``: queued, running, done, error or cancelled
    (dropped before it ran); ``interrupted``: it was stopped and ``result`` is what it had
    found so far.  ``on_done(job)`` runs in the pool's thread when it ends."""

    def __init__(self, kind: str, payload: dict, owner: str, on_done=None):
        self.id = secrets.token_hex(8)
        self.kind, self.payload, self.owner, self.on_done = kind, payload, owner, on_done
        self.status = "queued"
        self.progress: dict = {}
        self.notes: list[str] = []
        self.result = None
        self.error = None
        self.interrupted = False
        self.cancel_requested = False
        self.pid = None
        self.t0 = time.monotonic()
        self.seconds = None

    def public(self) -> dict:
        """What the page sees of the job."""
        d = {"id": self.id, "kind": self.kind, "status": self.status,
             "progress": self.progress, "notes": self.notes[-3:],
             "interrupted": self.interrupted, "cancel_requested": self.cancel_requested,
             "elapsed": round((self.seconds if self.seconds is not None
                               else time.monotonic() - self.t0), 2)}
        if self.error is not None:
            d["error"] = self.error
        if self.result is not None:
            d["result"] = self.result
        return d


class _Worker:
    """One worker process and the thread that feeds it."""

    def __init__(self, pool: "Pool", index: int):
        self.pool, self.index = pool, index
        self.proc = None
        self.thread = threading.Thread(target=self._loop, name=f"onirim-worker-{index}",
                                       daemon=True)

    def _start(self):
        self.proc = subprocess.Popen(
            self.pool.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.pool.log, text=True, bufsize=1, start_new_session=True)
        line = self.proc.stdout.readline()          # {"ready": true} once imported
        if not line:
            raise OSError("the worker process ended before it was ready")

    def _loop(self):
        while True:
            _, _, job = self.pool.queue.get()
            if job is None:
                return
            with self.pool.lock:
                if job.status != "queued":         # cancelled while it waited
                    continue
            try:
                if self.proc is None or self.proc.poll() is not None:
                    self._start()
                with self.pool.lock:
                    if job.status != "queued" or self.pool.closed:   # cancelled meanwhile
                        if self.pool.closed:
                            self._stop_process()
                        continue
                    job.status, job.pid = "running", self.proc.pid
                self.proc.stdin.write(json.dumps(dict(job.payload, id=job.id,
                                                      kind=job.kind)) + "\n")
                self.proc.stdin.flush()
                answer = self._read(job)
            except (OSError, ValueError) as e:
                answer = {"error": f"onirim: error: the search process failed ({e})"}
                self._stop_process()
            self.pool._finish(job, answer)

    def _read(self, job: Job) -> dict:
        proc = self.proc             # (close() may clear self.proc meanwhile)
        while True:
            line = proc.stdout.readline()
            if not line:
                code = proc.wait()
                self.proc = None
                return {"error": f"onirim: error: the search process ended (status {code})"}
            msg = json.loads(line)
            if msg.get("id") != job.id:
                continue
            if "progress" in msg:
                p = msg["progress"]
                with self.pool.lock:
                    if "note" in p:
                        job.notes.append(p["note"])
                    else:
                        job.progress = p
                continue
            return msg

    def _stop_process(self):
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.terminate()
            proc.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        except OSError:
            pass


class Pool:
    """``size`` worker processes behind one queue of jobs."""

    def __init__(self, size: int = 2, log=None, argv=None):
        self.size = size
        self.log = log if log is not None else sys.stderr
        self.argv = argv or [sys.executable, "-m", "onirim.web.worker"]
        self.queue: queue.PriorityQueue = queue.PriorityQueue()
        self.order = itertools.count()
        self.lock = threading.RLock()
        self.jobs: dict[str, Job] = {}
        self.closed = False
        self.workers = [_Worker(self, i) for i in range(size)]
        for w in self.workers:
            w.thread.start()

    def submit(self, kind: str, payload: dict, owner: str, on_done=None,
               priority: int = 0) -> Job:
        """Queue a job; the lower ``priority`` goes first (first come first within one)."""
        job = Job(kind, payload, owner, on_done)
        with self.lock:
            self.jobs[job.id] = job
            self._forget_old()
        self.queue.put((priority, next(self.order), job))
        return job

    def get(self, job_id: str, owner: str) -> Job | None:
        with self.lock:
            job = self.jobs.get(job_id)
        return job if job is not None and job.owner == owner else None

    def cancel(self, job: Job) -> None:
        with self.lock:
            job.cancel_requested = True
            if job.status == "queued":
                job.status = "cancelled"
                job.seconds = time.monotonic() - job.t0
            elif job.status == "running" and job.pid is not None:
                try:
                    os.kill(job.pid, signal.SIGINT)
                except OSError:
                    pass

    def _finish(self, job: Job, answer: dict) -> None:
        with self.lock:
            job.seconds = time.monotonic() - job.t0
            if "result" in answer:
                job.result = answer["result"]
                job.status = "done"
                ranking = job.result.get("ranking") if isinstance(job.result, dict) else None
                job.interrupted = bool(ranking and ranking.get("interrupted"))
            else:
                job.error = answer.get("error", "onirim: error: no answer")
                job.interrupted = bool(answer.get("interrupted"))
                job.status = "error"
        if job.on_done is not None:
            try:
                job.on_done(job)
            except Exception as e:       # the callback's bug must not stop the worker
                print(f"onirim serve: {type(e).__name__}: {e}", file=self.log)

    def _forget_old(self) -> None:
        done = [j for j in self.jobs.values() if j.status in ("done", "error", "cancelled")]
        for j in done[:max(0, len(done) - KEEP_DONE)]:
            del self.jobs[j.id]

    def close(self) -> None:
        """Stop every worker (the running searches are ended)."""
        with self.lock:
            self.closed = True
            for job in self.jobs.values():
                if job.status == "queued":
                    job.status = "cancelled"
        for _ in self.workers:
            self.queue.put((-1, next(self.order), None))
        for w in self.workers:
            w._stop_process()
        for w in self.workers:
            w.thread.join(STOP_WAIT_S)
