"""What ``onirim best`` prints: the progress bars on standard error while it searches, and the
ranking as a table of at most 80 columns (``onirim/cmd_best.py`` parses and calls
:func:`solver.api.rank`)."""
from __future__ import annotations

import re
import sys
import textwrap
import time

WIDTH = 80             # the text output fits this many columns


# ------------------------------------------------------------------------- progress
BAR_FORMAT = "{n_fmt}/{total_fmt} actions exact |{bar}| {desc}"


class Bars:
    """tqdm bars on standard error (a terminal, no --json or --no-progress): actions exact
    out of all, the round, the nodes and the time against the budget; then --certify's."""

    def __init__(self, args, budget_s):
        self.on = not (args.json or args.no_progress or not sys.stderr.isatty())
        self.t0, self.budget_s, self.bar, self.cert = time.perf_counter(), budget_s, None, None

    def report(self, exact, total, nodes, rnd):
        if self.on and self.bar is None:
            from tqdm import tqdm
            tqdm.monitor_interval = 0
            self.bar = tqdm(total=total, file=sys.stderr, dynamic_ncols=True, leave=False,
                            bar_format=BAR_FORMAT)
        if self.on:
            self.bar.total, self.bar.n = total, exact
            t = time.perf_counter() - self.t0
            budget = "" if self.budget_s is None else f"/{self.budget_s:g}"
            what = "probes" if rnd == 0 else f"round {rnd}"
            # the status goes in ``desc``: tqdm writes ``postfix`` after a comma of its own
            self.bar.set_description_str(f"{what}, {nodes:,} nodes, {t:.0f}{budget} s",
                                         refresh=False)
            self.bar.refresh()

    def certify(self, n):
        if self.on and self.cert is None:
            from tqdm import tqdm
            self.close()
            self.cert = tqdm(file=sys.stderr, leave=False, unit=" positions", desc="certify")
        if self.on:
            self.cert.update(n - self.cert.n)

    def close(self):
        for b in (self.bar, self.cert):
            if b is not None:
                b.close()


# ------------------------------------------------------------------------- the table
def _num(x) -> str:
    return "-" if x is None else f"{x:8.6f}"


class _Wrapper(textwrap.TextWrapper):
    """Breaks at spaces and after commas (a position's card lists), never inside a word."""
    wordsep_simple_re = re.compile(r"(\s+|(?<=,)(?=\S))")


def _say(out, text: str, indent: str = "  ") -> None:
    """``text`` wrapped to WIDTH columns, continuation lines indented."""
    w = _Wrapper(WIDTH, subsequent_indent=indent, break_on_hyphens=False)
    out.write("\n".join(w.wrap(text)) + "\n")


def print_table(r) -> None:
    """The ranking as a table of at most WIDTH columns.  ``value`` is shown only when exact
    (``-`` otherwise); the estimate columns only when there are estimates.  A long action
    (a prophecy's order) goes on a line of its own above its numbers."""
    out = sys.stdout
    _say(out, f"position: {r.position}", "    ")
    out.write(f"mode: {r.mode}\n")
    for label, text in (("view", r.view_note), ("information", r.extra.get("information"))):
        if text:
            _say(out, f"{label}: {text}")
    est = any(a.estimate is not None for a in r.actions)
    cols = f"{'value':>8}  {'lo':>8}  {'hi':>8}  exact"
    if est:
        cols += f"  {'estimate':>8}  {'ci95':<14}"
    room = WIDTH - 5 - len(cols) - 2          # "  1  " + action + "  " + the numbers
    w = max([len(a.action) for a in r.actions if len(a.action) <= room] + [6])
    out.write(f"{'#':>3}  {'action':<{w}}  {cols}".rstrip() + "\n")
    for i, a in enumerate(r.actions, 1):
        nums = (f"{_num(a.value if a.exact else None):>8}  {a.lo:8.6f}  {a.hi:8.6f}  "
                f"{'yes' if a.exact else 'no ':<5}")
        if est:
            ci = "-" if a.ci95 is None else f"[{a.ci95[0]:.3f}, {a.ci95[1]:.3f}]"
            nums += f"  {_num(a.estimate):>8}  {ci:<14}"
        if len(a.action) > w:                 # its own line, the numbers under it
            out.write(f"{i:>3}  {a.action}\n")
            out.write(f"{'':>3}  {'':<{w}}  {nums}".rstrip() + "\n")
        else:
            out.write(f"{i:>3}  {a.action:<{w}}  {nums}".rstrip() + "\n")
    _print_verdict(out, r, est)
    for i, step in enumerate(r.line):
        _say(out, ("line: " if i == 0 else "      ") + step, "        ")
    out.write(f"nodes: {r.nodes}  seconds: {r.seconds:.3f}\n")
    notes = ("interrupted: the search was stopped (Ctrl-C or SIGTERM); the bounds above are "
             "what it proved before, sound" if r.interrupted else None, r.memo_note,
             _certificate(r.extra.get("certificate")))
    for note in filter(None, notes):
        _say(out, note)


def _print_verdict(out, r, est) -> None:
    if r.best is not None:
        _say(out, f"best: {r.best}")
    else:
        out.write("best: undecided (no action's lo reaches every other's hi)\n")
        _say(out, f"leader: {r.leader}, by {r.criterion}" if r.leader else r.criterion)
    if est:
        d = r.extra.get("estimates", {})
        if d.get("estimator") == "policy":
            _say(out, f"estimates: {d.get('search')}, the search of {d.get('policy')}: the "
                      "mean of its playouts after each action it searched (up to "
                      f"{d.get('playouts_per_action', '?')}; fewer for an action it dropped as "
                      f"clearly worse), {d.get('interval', '95%')} interval; an estimate of "
                      "that policy's value, not a bound on the best play's")
            return
        who = f"{d['estimator']} estimator" if "estimator" in d else d.get("method", "?")
        _say(out, f"estimates: the winning chance of {d.get('policy', 'greedy')} play after "
                  f"the action ({d.get('playouts_per_action', '?')} playouts per action, "
                  f"{who}), {d.get('interval', '95%')} interval; an estimate of that "
                  "policy's value, not a bound on the best play's"
                  + (f" ({d['note']})" if d.get("note") else ""))


def _certificate(c) -> str | None:
    if c is None or c["ok"] is None:
        return None if c is None else f"certificate: none ({c['reason']})"
    verdict = ("equals the best action's value" if c["ok"]
               else f"DISAGREES with the value claimed ({c['claimed']:.12g})")
    return (f"certificate: the engine replays one optimal strategy ({c['positions']:,} "
            f"positions, {c['seconds']:.1f} s): it wins with probability {c['fraction']} = "
            f"{c['value']:.12g}, which {verdict}")
