"""The tiny client against the reference service: what it sent (the journal) and how it copes (faults)."""

import pytest

from conftest import control
from market_candles_client import ApiError, Client

KEY = "demo-pro-key"
PAIR = {"exchange": "bitstamp", "interval": "1h", "base": "BTC", "quote": "USD"}


def test_a_page_and_what_the_client_sent(base_url):
    candles = Client(base_url, KEY).exchange_ohlcv(**PAIR, limit=3)
    assert [c["close_ts"] for c in candles][-1] == "2026-06-01T00:00:00Z"
    status, journal = control(base_url, "GET", "/_mock/requests?path=/v1/exchange_ohlcv")
    assert status == 200
    assert len(journal) == 1
    assert journal[0]["query"] == {**PAIR, "limit": "3"}
    assert journal[0]["account"] == "acct_pro"
    assert journal[0]["status"] == 200
    # The journal names the account, never the key.
    assert KEY not in str(journal)


def test_a_503_is_retried_once(base_url):
    status, _ = control(base_url, "POST", "/_mock/faults", {"path": "/v1/exchange_ohlcv", "status": 503})
    assert status == 201
    assert len(Client(base_url, KEY, retries=1).exchange_ohlcv(**PAIR, limit=1)) == 1
    _, journal = control(base_url, "GET", "/_mock/requests")
    assert [(r["status"], r["fault"] and r["fault"]["kind"]) for r in journal] == [(503, "status"), (200, None)]
    _, usage = control(base_url, "GET", "/_mock/usage")
    assert usage["acct_pro"] == 1


def test_a_reset_connection_surfaces_without_retries(base_url):
    control(base_url, "POST", "/_mock/faults", {"kind": "reset"})
    with pytest.raises((ConnectionError, OSError)):
        Client(base_url, KEY).exchange_ohlcv(**PAIR, limit=1)
    _, journal = control(base_url, "GET", "/_mock/requests")
    assert journal[0]["status"] is None and journal[0]["fault"]["kind"] == "reset"


def test_a_rejection_and_its_reason(base_url):
    with pytest.raises(ApiError) as caught:
        Client(base_url, KEY).exchange_ohlcv(**PAIR, limit=0)
    assert caught.value.status == 422
    _, journal = control(base_url, "GET", "/_mock/requests?status=422")
    assert journal[0]["reason"] == {"rule": "validation", "fields": ["limit"]}


def test_wait_for_answers_408_with_what_arrived(base_url):
    Client(base_url, KEY).exchange_ohlcv(**PAIR, limit=1)
    status, body = control(base_url, "GET", "/_mock/requests?wait_for=2&timeout_ms=100")
    assert status == 408
    assert len(body["requests"]) == 1
