"""Fixtures: one reference server for the whole run, one session of it per test.

The server is `npx market-candles serve --port 0`; set MARKET_CANDLES_SERVE to another command line
(e.g. `node node_modules/market-candles/dist/cli.js serve --port 0`) to start it differently.

npx runs `serve` as a child process of its own, so the server is started in a process group of its
own and stopped by signalling the whole group: stopping npx alone would leave `serve` running.
"""

import json
import os
import re
import shlex
import signal
import subprocess
import time
import urllib.request
import uuid

import pytest


STOP_TIMEOUT_S = 10


def group_members(pgid):
    """PIDs of the live (not zombie) processes of a process group, read from /proc."""
    if not os.path.isdir("/proc"):
        try:
            os.killpg(pgid, 0)
            return ["?"]
        except ProcessLookupError:
            return []
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the command name: state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry))
    return members


def stop_group(process, through_launcher):
    """SIGTERM to the server's process group; fails, naming what is left, if it has not stopped in time."""
    pgid = process.pid  # start_new_session: the launcher leads a group of its own
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while time.monotonic() < deadline and (process.poll() is None or group_members(pgid)):
        time.sleep(0.05)
    left = group_members(pgid)
    if process.poll() is None or left:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=5)
        raise AssertionError(
            f"market-candles serve did not stop within {STOP_TIMEOUT_S} s of SIGTERM "
            f"(processes {left or [process.pid]} of group {pgid} killed)"
        )
    # `serve` exits 0 on SIGTERM; a launcher such as npx may instead end by the signal it was sent.
    expected = (0, -signal.SIGTERM) if through_launcher else (0,)
    assert process.returncode in expected, f"market-candles serve exited with {process.returncode} on SIGTERM"


@pytest.fixture(scope="session")
def server_url():
    command = shlex.split(os.environ.get("MARKET_CANDLES_SERVE", "npx market-candles serve --port 0"))
    process = subprocess.Popen(
        command + ["--now", "2026-06-01T00:00:00Z"], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    # The first line on stdout is "listening on http://HOST:PORT".
    line = process.stdout.readline()
    match = re.match(r"listening on (\S+)", line)
    if not match:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=5)
        raise RuntimeError(f"market-candles serve did not start: {line!r}")
    try:
        yield match.group(1)
    finally:
        stop_group(process, os.path.basename(command[0]) in ("npx", "npm", "pnpm", "yarn", "bunx"))
        process.stdout.close()


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
