"""A Dask backend for ``onirim winrate``: play chunks of seeds on a cluster.

``--cluster local:N`` starts a ``LocalCluster`` of N single-threaded worker processes on this
machine; ``--cluster ADDRESS`` (``tcp://host:8786``) connects to a running scheduler.  Dask and
distributed are an optional extra: ``pip install -e '.[cluster]'``.

The work is :func:`solver.runs.runner.play_chunk` over chunks of seeds, each a task that lasts
seconds.  A task's rows depend only on the job (mode, policy configuration or node budget) and
its seeds, so a task that is retried after a worker died, or that runs on any worker, gives the
same rows.  Only this process (the client) writes to the database: ``on_rows`` gets each
chunk's rows as the chunk finishes and commits them, so an interrupted run resumes from what
is stored and loses at most the chunks in flight.

Each worker process builds and warms its solver or policy once (``runner.get_worker``, cached
per process), on its first task; later tasks of the same job reuse it, so compile or cache-load
time is paid once per worker, never per task, and never inside a deal's ``seconds``.
"""
from __future__ import annotations

import os

from engine.errors import OnirimError

CHUNK_SECONDS = 2.0                  # aim for tasks of about this long
GUESS_DEAL_SECONDS = {"clairvoyant": 0.005, "honest": 0.02}
MAX_CHUNK = 10_000
CONNECT_TIMEOUT_S = 10


class ClusterError(OnirimError):
    """The cluster option is malformed, its scheduler cannot be reached, or Dask is missing."""


def parse_cluster(spec: str):
    """``"local:N"`` -> ``("local", N)``; anything else is a scheduler address."""
    spec = str(spec).strip()
    if not spec:
        raise ClusterError("--cluster: needs local:N or a scheduler address")
    if spec.startswith("local"):
        _, sep, n = spec.partition(":")
        try:
            workers = int(n) if sep else 0
        except ValueError:
            workers = 0
        if not 1 <= workers <= 256:
            raise ClusterError(f"--cluster: {spec!r}: local:N needs N from 1 to 256")
        return "local", workers
    return "address", spec


def require_dask():
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError("--cluster: needs Dask; install it with: pip install -e '.[cluster]' "
                           "(or pip install 'dask[distributed]')") from None


def chunk_size(mode: str, deals: int, workers: int, chunk: int | None = None) -> int:
    """Seeds per task: about ``CHUNK_SECONDS`` of work, and at least two tasks per worker
    when there are enough deals."""
    if chunk:
        return chunk
    size = max(1, int(CHUNK_SECONDS / GUESS_DEAL_SECONDS.get(mode, 0.02)))
    if workers and deals < size * 2 * workers:
        size = max(1, deals // (2 * workers))
    return min(size, MAX_CHUNK)


def dask_setup(worker=None):
    """Worker preload of local clusters: Ctrl-C in the terminal reaches every process of the
    group, and only the client should react to it (it stops, says what is stored and how to
    resume); a worker that took it would print a traceback."""
    import signal
    import threading
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunk_task(job, seeds):
    from solver.runs import runner
    return runner.play_chunk(job, seeds)


def _worker_info():
    """What a worker process holds: its pid and how many workers it has built (warm-ups)."""
    from solver.runs import runner
    return {"pid": os.getpid(), "warm_ups": runner.WARM_UPS}


class ClusterRun:
    """A connection to a cluster for one ``winrate`` run (a context manager)."""

    def __init__(self, spec: str):
        require_dask()
        self.kind, self.target = parse_cluster(spec)
        self.cluster = None
        self.client = None

    def __enter__(self):
        import logging
        from distributed import Client, LocalCluster
        try:
            if self.kind == "local":
                self.cluster = LocalCluster(n_workers=self.target, threads_per_worker=1,
                                            processes=True, dashboard_address=":0",
                                            scheduler_kwargs={"dashboard": False},
                                            silence_logs=logging.CRITICAL,
                                            preload=["solver.runs.cluster"])
                self.client = Client(self.cluster, timeout=CONNECT_TIMEOUT_S)
            else:
                self.client = Client(self.target, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            raise ClusterError(f"--cluster: cannot reach the scheduler at {self.target!r}: "
                               f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") \
                from None
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        for obj in (self.client, self.cluster):
            if obj is not None:
                try:
                    obj.close()
                except Exception:
                    pass
        self.client = self.cluster = None

    def workers(self) -> int:
        return len(self.client.scheduler_info().get("workers", {}))

    def info(self) -> dict:
        """pid and warm-up count of every worker process."""
        return self.client.run(_worker_info)

    def run(self, job: dict, seeds, on_rows, chunk: int | None = None) -> None:
        """Play ``seeds`` of ``job`` on the cluster; ``on_rows(rows)`` gets each chunk's rows
        in this process as the chunk finishes."""
        from distributed import as_completed
        seeds = list(seeds)
        if not seeds:
            return
        size = chunk_size(job["mode"], len(seeds), max(1, self.workers()), chunk)
        chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
        futures = self.client.map(_chunk_task, [job] * len(chunks), chunks, pure=False,
                                  retries=3)
        try:
            for fut in as_completed(futures):
                rows = fut.result()
                fut.release()
                on_rows(rows)
        except BaseException:
            self.client.cancel(futures)
            raise
