"""The HTTP server of ``onirim serve``: the page (``static/``) and a small JSON API.

Standard library only (``http.server.ThreadingHTTPServer``, ``json``): every request gets a
thread, and the searches run in worker processes (:mod:`onirim.web.jobs`), so no request
waits for another's analysis.  Each browser gets its own game, by a random session cookie.

Every error is an answer ``{"error": "onirim: error: <field>: <problem>"}`` with a 4xx status
(5xx for a bug, still one line): the line ``onirim`` prints for the same input, never a
traceback.

API (JSON in and out; GET for reading, POST for changing):

====================  =================================================================
GET  /api/state       the game as the player sees it (``WebGame.board``); a new deal if none
POST /api/new         ``{"mode": "solo"|"silent" (or "players": 1|2), "seed": "" or a
                      number, "analysis": bool}``
POST /api/move        ``{"move": "play Os"}`` (an engine action string)
POST /api/undo        analysis mode only
GET  /api/deck        the whole deck in order: analysis mode, or after the game
POST /api/analyse     ``{"position": "" (the game's) or text or JSON, "budget_nodes",
                      "budget_s"}``: a job ranking it as ``onirim best --json``
POST /api/hint        a job: ``onirim play``'s hint for the game's position
GET  /api/job?id=J    a job's status, progress and result
POST /api/cancel      ``{"id": J}``
GET  /api/graph       the win-probability points and the marked drops
POST /api/graph/budget ``{"budget_nodes": N}`` (0: no graph)
POST /api/position    ``{"text": notation or JSON}``: its notation, or the error line
====================  =================================================================
"""
from __future__ import annotations

import argparse
import json
import secrets
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlparse

from engine.errors import OnirimError

from onirim.web.games import MODE_OF_PLAYERS, WebGame, point_of
from onirim.web.jobs import Pool
from onirim.web.worker import check_best, error_line

COOKIE = "onirim_session"
MAX_BODY = 1 << 20             # bytes of a request body
GRAPH_BUDGET_NODES = 5_000     # default node budget of each graph point's ranking
GRAPH_PRIORITY = 1             # the graph's jobs wait for the users' analyses and hints
MAX_SESSIONS = 1000
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
                ".png": "image/png"}


class WebError(Exception):
    """A request the API refuses: ``status`` and the one line the page shows."""

    def __init__(self, status: int, line: str):
        super().__init__(line)
        self.status, self.line = status, line


def _bad(message: str, status: int = 400) -> WebError:
    return WebError(status, error_line(message))


class Session:
    """One browser's game and its jobs."""

    def __init__(self, sid: str, graph_budget: int = GRAPH_BUDGET_NODES):
        self.sid = sid
        self.lock = threading.RLock()
        self.game: WebGame | None = None
        self.analysis_job = None
        self.graph_jobs: list = []          # the graph's jobs of the current game
        self.graph_budget = graph_budget


class App:
    """The server's state: the sessions and the worker pool."""

    def __init__(self, workers: int = 2, log=None, graph_budget: int = GRAPH_BUDGET_NODES):
        self.pool = Pool(workers, log=log)
        self.new_graph_budget = graph_budget        # a new session's
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()
        self.static = resources.files("onirim.web") / "static"

    def session(self, sid: str | None) -> tuple[Session, bool]:
        with self.lock:
            if sid and sid in self.sessions:
                return self.sessions[sid], False
            if len(self.sessions) >= MAX_SESSIONS:       # the oldest goes
                self.sessions.pop(next(iter(self.sessions)))
            s = Session(secrets.token_hex(16), self.new_graph_budget)
            self.sessions[s.sid] = s
            return s, True

    # ---------------------------------------------------------------- games
    def new_game(self, sess: Session, body: dict) -> dict:
        from onirim.cmd_play import seed_arg
        mode = body.get("mode")
        if mode is None:
            players = body.get("players", 1)
            if players not in (1, 2, "1", "2"):
                raise _bad(f"--players: invalid choice: {players!r} (choose from 1, 2)")
            mode = MODE_OF_PLAYERS[int(players)]
        seed_text = str(body.get("seed", "") or "").strip()
        if seed_text:
            try:
                seed = seed_arg(seed_text)
            except argparse.ArgumentTypeError as e:
                raise _bad(f"--seed: {e}") from None
        else:
            seed = secrets.randbelow(1_000_000)
        try:
            game = WebGame(mode, seed, bool(body.get("analysis", False)))
        except OnirimError as e:
            raise _bad(str(e)) from None
        with sess.lock:
            self._cancel_analysis(sess)
            for job in sess.graph_jobs:         # the old game's points are not wanted now
                self.pool.cancel(job)
            sess.graph_jobs = []
            sess.game = game
            self._graph_job(sess, 0)
            return sess.game.board()

    def game(self, sess: Session) -> WebGame:
        if sess.game is None:
            self.new_game(sess, {})
        return sess.game

    def move(self, sess: Session, body: dict) -> dict:
        with sess.lock:
            game = self.game(sess)
            try:
                game.move(str(body.get("move", "")))
            except OnirimError as e:
                raise _bad(str(e)) from None
            self._cancel_analysis(sess)
            if not game.state.is_terminal():
                self._graph_job(sess, len(game.moves))
            return game.board()

    def undo(self, sess: Session) -> dict:
        with sess.lock:
            game = self.game(sess)
            try:
                game.undo()
            except OnirimError as e:
                raise _bad(str(e), 403 if not game.analysis else 400) from None
            self._cancel_analysis(sess)
            return game.board()

    def deck(self, sess: Session) -> dict:
        with sess.lock:
            try:
                return self.game(sess).deck()
            except OnirimError as e:
                raise _bad(str(e), 403) from None

    # ---------------------------------------------------------------- jobs
    def _graph_job(self, sess: Session, index: int) -> None:
        game = sess.game
        if not sess.graph_budget or game.state.is_terminal():
            return
        position = game.view_text()

        def done(job, game=game, index=index, position=position):
            if job.status != "done":
                return
            with sess.lock:
                current = (game.moves[index]["position"] if index < len(game.moves)
                           else game.view_text() if index == len(game.moves) else None)
                if sess.game is game and current == position:
                    point = point_of(job.result["ranking"])
                    if point is not None:
                        game.points[index] = point

        sess.graph_jobs = [j for j in sess.graph_jobs if j.status in ("queued", "running")]
        sess.graph_jobs.append(self.pool.submit(
            "best", {"position": position, "budget_nodes": str(sess.graph_budget)},
            sess.sid, done, priority=GRAPH_PRIORITY))

    def _cancel_analysis(self, sess: Session) -> None:
        if sess.analysis_job is not None and sess.analysis_job.status in ("queued",
                                                                          "running"):
            self.pool.cancel(sess.analysis_job)
        sess.analysis_job = None

    def analyse(self, sess: Session, body: dict) -> dict:
        text = str(body.get("position", "") or "").strip()
        nodes, secs = str(body.get("budget_nodes", "")), str(body.get("budget_s", ""))
        with sess.lock:
            position = self.game(sess).view_text() if not text else self.notation(text)
            try:
                check_best(position, nodes, secs)
            except Exception as e:        # the command line's own checks and messages
                raise self._error(e) from None
            self._cancel_analysis(sess)
            sess.analysis_job = self.pool.submit(
                "best", {"position": position, "budget_nodes": nodes, "budget_s": secs},
                sess.sid)
            return sess.analysis_job.public()

    def hint(self, sess: Session) -> dict:
        with sess.lock:
            game = self.game(sess)
            if game.state.is_terminal():
                raise _bad("the game is over: no hint")
            job = self.pool.submit("hint", {"position": game.full_text(),
                                            "stream": game.hint_stream()}, sess.sid)
            return job.public()

    def job(self, sess: Session, job_id: str) -> dict:
        job = self.pool.get(job_id, sess.sid)
        if job is None:
            raise _bad(f"job {job_id!r}: no such job", 404)
        with self.pool.lock:
            return job.public()

    def cancel(self, sess: Session, body: dict) -> dict:
        job = self.pool.get(str(body.get("id", "")), sess.sid)
        if job is None:
            raise _bad(f"job {body.get('id')!r}: no such job", 404)
        self.pool.cancel(job)
        with self.pool.lock:
            return job.public()

    def graph_budget(self, sess: Session, body: dict) -> dict:
        from solver.budgets import check_nodes
        try:
            n = int(str(body.get("budget_nodes", "")).strip())
            check_nodes(n, "--budget-nodes", allow_zero=True)
        except (ValueError, OnirimError) as e:
            raise _bad(f"--budget-nodes: {e}" if isinstance(e, ValueError) else str(e)) \
                from None
        with sess.lock:
            sess.graph_budget = n
            game = self.game(sess)
            if n and len(game.moves) not in game.points:
                self._graph_job(sess, len(game.moves))
        return {"budget_nodes": n}

    # ---------------------------------------------------------------- positions
    @staticmethod
    def notation(text: str) -> str:
        """A pasted position as notation: JSON (starts with ``{``) is read as ``onirim show``
        reads it; notation is returned as it is (``onirim best`` reads it)."""
        if not text.lstrip().startswith("{"):
            return text
        from engine.notation import format_position, from_json
        from engine.view import is_duo_view, observation_text
        try:
            state = from_json(text, views=True)
        except OnirimError as e:
            raise _bad(str(e)) from None
        except ValueError as e:
            raise _bad(f"position: cannot read it ({e})") from None
        return observation_text(state) if is_duo_view(state) else format_position(state)

    def position(self, body: dict) -> dict:
        text = str(body.get("text", "") or "")
        notation = self.notation(text)
        try:
            check_best(notation)
        except Exception as e:
            raise self._error(e) from None
        return {"position": notation}

    @staticmethod
    def _error(e: Exception) -> WebError:
        from onirim.cli import UsageError
        if isinstance(e, (OnirimError, UsageError)):
            return _bad(str(e))
        return _bad(f"internal error: {type(e).__name__}: {e}", 500)

    def close(self) -> None:
        self.pool.close()


class Handler(BaseHTTPRequestHandler):
    server_version = "onirim"
    app: App = None          # set by make_server

    def log_message(self, fmt, *args):      # quiet: errors only (log_error)
        pass

    # ---------------------------------------------------------------- plumbing
    def _session(self):
        sid = None
        for part in self.headers.get("Cookie", "").split(";"):
            k, _, v = part.strip().partition("=")
            if k == COOKIE:
                sid = v
        return self.app.session(sid)

    def _send(self, status: int, body: bytes, ctype: str, cookie: str | None = None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if cookie:
            self.send_header("Set-Cookie", f"{COOKIE}={cookie}; Path=/; HttpOnly; "
                                           "SameSite=Strict")
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):    # the page went away: nothing to do
            pass

    def _json(self, status: int, obj, cookie=None):
        self._send(status, json.dumps(obj).encode(), "application/json", cookie)

    def _body(self) -> dict:
        n = int(self.headers.get("Content-Length") or 0)
        if n > MAX_BODY:
            raise _bad(f"request: too large ({n} bytes; at most {MAX_BODY})", 413)
        raw = self.rfile.read(n) if n else b"{}"
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise _bad("request: not valid JSON") from None
        if not isinstance(body, dict):
            raise _bad("request: expected a JSON object")
        return body

    def _api(self, method: str):
        url = urlparse(self.path)
        sess, new = self._session()
        cookie = sess.sid if new else None
        try:
            out = self._route(method, url, sess)
            if isinstance(out, dict) and "fields" in out:      # a board: the session's
                out["graph_budget"] = sess.graph_budget        # graph setting with it
        except WebError as e:
            return self._json(e.status, {"error": e.line}, cookie)
        except Exception as e:       # a bug: one line for the page, the traceback in the log
            import traceback
            traceback.print_exc(file=sys.stderr)
            return self._json(500, {"error": error_line(
                f"internal error: {type(e).__name__}: {e}")}, cookie)
        return self._json(200, out, cookie)

    def _route(self, method: str, url, sess: Session):
        app, path = self.app, url.path
        if method == "GET":
            if path == "/api/state":
                with sess.lock:
                    return app.game(sess).board()
            if path == "/api/graph":
                with sess.lock:
                    return app.game(sess).graph()
            if path == "/api/deck":
                return app.deck(sess)
            if path == "/api/job":
                return app.job(sess, parse_qs(url.query).get("id", [""])[0])
            raise _bad(f"{path}: no such page", 404)
        routes = {"/api/new": lambda b: app.new_game(sess, b),
                  "/api/move": lambda b: app.move(sess, b),
                  "/api/undo": lambda b: app.undo(sess),
                  "/api/analyse": lambda b: app.analyse(sess, b),
                  "/api/hint": lambda b: app.hint(sess),
                  "/api/cancel": lambda b: app.cancel(sess, b),
                  "/api/graph/budget": lambda b: app.graph_budget(sess, b),
                  "/api/position": lambda b: app.position(b)}
        if path not in routes:
            raise _bad(f"{path}: no such page", 404)
        return routes[path](self._body())

    # ---------------------------------------------------------------- methods
    def do_GET(self):
        path = urlparse(self.path).path
        if path.startswith("/api/"):
            return self._api("GET")
        name = "index.html" if path in ("/", "/index.html") else path.removeprefix("/static/")
        suffix = "." + name.rpartition(".")[2]
        if "/" in name or name.startswith(".") or suffix not in STATIC_TYPES:
            return self._json(404, {"error": error_line(f"{path}: no such page")})
        f = self.app.static / name
        if not f.is_file():
            return self._json(404, {"error": error_line(f"{path}: no such page")})
        self._send(200, f.read_bytes(), STATIC_TYPES[suffix])

    def do_POST(self):
        if not urlparse(self.path).path.startswith("/api/"):
            return self._json(404, {"error": error_line(f"{self.path}: no such page")})
        self._api("POST")


def make_server(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, log=None,
                graph_budget: int = GRAPH_BUDGET_NODES):
    """The server (not started) and its app; port 0 picks a free port; ``graph_budget``:
    a new session's node budget of the graph's points (0: no graph until it sets one)."""
    handler = type("BoundHandler", (Handler,), {"app": None})
    httpd = ThreadingHTTPServer((host, port), handler)    # first: a busy port starts nothing
    app = handler.app = App(workers, log=log, graph_budget=graph_budget)
    httpd.daemon_threads = True
    return httpd, app


def serve(host: str, port: int, workers: int = 2, out=None) -> int:
    """Serve until Ctrl-C (or SIGTERM); then stop the workers and return 0."""
    out = out if out is not None else sys.stdout
    httpd, app = make_server(host, port, workers)
    old = old_int = None
    if threading.current_thread() is threading.main_thread():
        old = signal.signal(signal.SIGTERM, _raise_interrupt)
        # Ctrl-C stops the server even when it was started with SIGINT ignored (a
        # background job of a script)
        old_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    shown = f"[{host}]" if ":" in host else host
    try:
        print(f"onirim serve: http://{shown}:{httpd.server_address[1]}/  (Ctrl-C stops it)",
              file=out, flush=True)
        httpd.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
            signal.signal(signal.SIGINT, old_int)
        httpd.server_close()
        app.close()
    print("onirim serve: stopped", file=out, flush=True)
    return 0


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt
