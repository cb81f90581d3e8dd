"""``onirim serve``: an analysis board in the browser (docs/WEB.md).

A thin layer over the package: :mod:`engine` plays the game (rules, the player's view, the
notation), :func:`solver.api.rank` ranks the moves and the default policies give the hint,
exactly as ``onirim best`` and ``onirim play`` use them; nothing here decides a rule or a
value.

* :mod:`onirim.web.games`: one user's game (the engine ``State``, the moves so far, the undo
  stack of analysis mode) and what the page may see of it;
* :mod:`onirim.web.worker`: a separate process that runs the searches (``rank``, the hint),
  so that a long analysis never holds the server's threads, and stops on SIGINT as
  ``onirim best`` does on Ctrl-C;
* :mod:`onirim.web.jobs`: the server's side of the workers (a small pool, a queue, cancel);
* :mod:`onirim.web.server`: the HTTP server (the standard library's ``ThreadingHTTPServer``)
  and its JSON API; the page is ``static/``, shipped as package data.
"""
