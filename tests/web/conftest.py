"""The analysis board's server for the tests of tests/web: one per test module, on a free
port, with its worker processes; and a client (``web_kit.Client``) of a new user."""
from __future__ import annotations

import threading

import pytest

from onirim.web.server import make_server
from web_kit import Client


@pytest.fixture(scope="module")
def web_server():
    """(base URL, app) of a server on a free port of 127.0.0.1 with 2 workers.  Its users
    have no graph until they set its budget (the tests that look at the graph do), so that
    the other tests' moves queue no work."""
    httpd, app = make_server("127.0.0.1", 0, workers=2, graph_budget=0)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1},
                              daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", app
    httpd.shutdown()
    httpd.server_close()
    app.close()


@pytest.fixture
def client(web_server):
    return Client(web_server[0])
