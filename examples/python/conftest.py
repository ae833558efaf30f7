"""Fixtures: one reference server for the whole run, one session of it per test.

The server is `npx market-candles serve --port 0`; set MARKET_CANDLES_SERVE to another command line
(e.g. `node node_modules/market-candles/dist/cli.js serve --port 0`) to start it differently.
"""

import json
import os
import re
import shlex
import signal
import subprocess
import urllib.request
import uuid

import pytest


@pytest.fixture(scope="session")
def server_url():
    command = shlex.split(os.environ.get("MARKET_CANDLES_SERVE", "npx market-candles serve --port 0"))
    process = subprocess.Popen(command + ["--now", "2026-06-01T00:00:00Z"], stdout=subprocess.PIPE, text=True)
    # The first line on stdout is "listening on http://HOST:PORT".
    line = process.stdout.readline()
    match = re.match(r"listening on (\S+)", line)
    if not match:
        process.kill()
        raise RuntimeError(f"market-candles serve did not start: {line!r}")
    yield match.group(1)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=10) == 0


@pytest.fixture
def base_url(server_url):
    """A session of its own per test: its usage, journal, faults and clock; no test sees another's."""
    return f"{server_url}/_sessions/py-{uuid.uuid4().hex[:12]}"


def control(base_url, method, path, body=None):
    """Calls the control plane (/_mock/...) of a base URL; returns the status and the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base_url}{path}", data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as res:
            text = res.read()
            return res.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
