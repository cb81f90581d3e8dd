"""The search process of ``onirim serve``: ``python -m onirim.web.worker``.

It reads one job a line (JSON) on standard input and writes JSON lines on its standard
output: progress lines ``{"id": J, "progress": {...}}`` while it works, then one answer
``{"id": J, "result": {...}}`` or ``{"id": J, "error": "onirim: error: ..."}``.  Everything
else the searches print goes to standard error (the server's log).

Jobs:

* ``best``: ``{"position", "budget_nodes", "budget_s"}`` (strings, as the page's fields hold
  them) are read by ``onirim best``'s own argument parser and checks (:func:`best_args`), and
  ranked by :func:`solver.api.rank` as ``onirim best --json`` does (same arguments, so the
  same JSON); the result is ``{"ranking": ranking.to_json(), "json": the line onirim best
  --json prints, "text": the table onirim best prints}``;
* ``hint``: ``{"position": the full position, "stream"}``: ``onirim play``'s hint
  (:class:`onirim.cmd_play.Hinter`: ``onirim best``'s answer near the end of a solo game,
  its proven best action or else its leader; otherwise the default policy; from the player's
  view only), ``{"action", "why"}``.

Stopping: SIGINT while a job runs is Ctrl-C for it, as in ``onirim best``: ``rank`` returns
what it has found, sound, marked interrupted.  Between jobs SIGINT is ignored (a late cancel
never kills the worker).  The server starts each worker in a session of its own, so a Ctrl-C
typed at the server's terminal reaches the server only.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
import sys
import traceback

_BUSY = False


def error_line(message: str) -> str:
    """The one line ``onirim`` prints for a bad input (``onirim.cli.fail``)."""
    from onirim.cli import one_line
    return f"onirim: error: {one_line(message)}"


def best_args(position: str, budget_nodes: str = "", budget_s: str = ""):
    """``onirim best --json [--budget-nodes N] [--budget-s T] POSITION`` parsed by the
    command's own parser and budget checks: (args, budget_nodes, budget_s).  Raises
    ``UsageError`` or an ``OnirimError`` with the command line's own message."""
    from onirim import cmd_best
    from onirim.cli import build_parser
    argv = ["best", "--json", "--no-progress"]
    if str(budget_nodes).strip():
        argv += ["--budget-nodes", str(budget_nodes).strip()]
    if str(budget_s).strip():
        argv += ["--budget-s", str(budget_s).strip()]
    argv += ["--", position]
    args = build_parser("best").parse_args(argv)
    nodes, seconds = cmd_best._budgets(args)
    return args, nodes, seconds


def check_best(position: str, budget_nodes: str = "", budget_s: str = "") -> None:
    """The checks of ``onirim best`` that need no search (arguments, budgets, the position's
    notation): raises the same error the command line would print."""
    from onirim import cmd_best
    from engine.notation import parse_position
    args, _, _ = best_args(position, budget_nodes, budget_s)
    given, _ = cmd_best._player_view(args)
    if isinstance(given, str):
        parse_position(given)


def run_best(job: dict, say) -> dict:
    from onirim import cmd_best
    from onirim.best_output import print_table
    from solver import api
    args, nodes, seconds = best_args(job["position"], job.get("budget_nodes", ""),
                                     job.get("budget_s", ""))
    position, mode = cmd_best._player_view(args)

    def progress(exact, total, done_nodes, rnd):
        say({"exact": exact, "total": total, "nodes": done_nodes, "round": rnd})

    try:
        ranking = api.rank(position, mode, budget_nodes=nodes, budget_s=seconds,
                           threads=args.threads, table_bits=args.table_bits,
                           memo=args.memo, view=args.view, line=False, tree=False,
                           certify=False, on_progress=progress,
                           say=lambda m: say({"note": m}))
    except api.OptionError as e:
        from onirim.cli import UsageError
        flag = "--" + e.option.replace("_", "-")
        raise UsageError(f"{flag}{'' if e.value is None else ' ' + e.value}: "
                         f"{e.problem}") from None
    table = io.StringIO()
    with contextlib.redirect_stdout(table):
        print_table(ranking)
    data = ranking.to_json()
    return {"ranking": data, "json": json.dumps(data), "text": table.getvalue()}


_HINTER = None


def run_hint(job: dict, say) -> dict:
    from engine.notation import parse_position
    from onirim.cmd_play import Hinter
    global _HINTER
    if _HINTER is None:
        _HINTER = Hinter(lambda m: say({"note": m}))
    _HINTER.say = lambda m: say({"note": m})
    state = parse_position(job["position"])
    action, why = _HINTER.hint(state, int(job["stream"]))
    return {"action": state.action_to_string(action), "why": why}


JOBS = {"best": run_best, "hint": run_hint}


def _on_sigint(signum, frame):
    if _BUSY:
        raise KeyboardInterrupt


def serve_jobs(inp, out) -> None:
    """The worker's loop: a job a line in, JSON lines out, until end of input."""
    global _BUSY
    from engine.errors import OnirimError
    from onirim.cli import UsageError

    def send(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    send({"ready": True})
    for line in inp:
        if not line.strip():
            continue
        job = json.loads(line)
        jid = job.get("id")
        answer = {"id": jid}
        try:
            _BUSY = True
            try:
                answer["result"] = JOBS[job["kind"]](
                    job, lambda p: send({"id": jid, "progress": p}))
            finally:
                _BUSY = False
        except (OnirimError, UsageError, argparse.ArgumentError) as e:
            answer["error"] = error_line(str(e))
        except KeyboardInterrupt:
            answer["error"] = "onirim: interrupted"
            answer["interrupted"] = True
        except Exception as e:      # a bug: one line for the page, the traceback in the log
            traceback.print_exc(file=sys.stderr)
            answer["error"] = error_line(f"internal error: {type(e).__name__}: {e}")
        send(answer)


def main() -> int:
    signal.signal(signal.SIGINT, _on_sigint)
    out = sys.stdout
    sys.stdout = sys.stderr          # whatever a search prints goes to the log
    try:
        from solver import api
        api.solver_entries()         # the imports, before the first job
    except Exception:
        traceback.print_exc(file=sys.stderr)
    serve_jobs(sys.stdin, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
