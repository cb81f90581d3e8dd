"""``onirim serve [--port P] [--host 127.0.0.1]``: the analysis board in the browser.

Starts a local web server (``onirim/web/``, the standard library's HTTP server, no network
access beyond it) and prints its address; Ctrl-C stops it and its search processes.  The
page: ``docs/WEB.md``.  Installed with the optional extra ``onirim[web]``.
"""
from __future__ import annotations

from onirim.cli import UsageError


def add_arguments(parser):
    parser.add_argument("--port", type=int, default=8000,
                        help="TCP port (default 8000; 0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--workers", type=int, default=2, metavar="N",
                        help="search processes shared by the users' analyses (default 2)")


def run(args) -> int:
    from onirim.web.server import serve
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port: must be from 0 to 65535, not {args.port}")
    if not 1 <= args.workers <= 64:
        raise UsageError(f"--workers: must be from 1 to 64, not {args.workers}")
    try:
        return serve(args.host, args.port, args.workers)
    except OSError as e:
        raise UsageError(f"--port: cannot listen on {args.host}:{args.port}: "
                         f"{e.strerror or e}") from None
