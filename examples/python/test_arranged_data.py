"""Arranging the world per test over HTTP: a gap and a new pair, in this test's own session."""

from conftest import control
from market_candles_client import Client

KEY = "demo-pro-key"
PAIR = {"exchange": "bitstamp", "interval": "1h", "base": "BTC", "quote": "USD"}
WINDOW = {"start": "2026-05-31T18:00:00Z", "end": "2026-05-31T23:00:00Z"}


def candle(close_ts, price):
    return {
        "exchange": "bitstamp", "interval": "1h", "base": "PEPE", "quote": "USD", "close_ts": close_ts,
        "open": price, "high": price * 1.01, "low": price * 0.99, "close": price,
        "base_volume": 1000.0, "quote_volume": 1000.0 * price,
        "source_provider": "test", "source_channel": "rest", "flag": None,
    }


def test_an_outage_is_a_gap_the_client_sees(base_url):
    status, removed = control(
        base_url, "DELETE",
        "/_mock/data/candles?exchange=bitstamp&interval=1h&base=BTC&quote=USD"
        "&from=2026-05-31T20:00:00Z&to=2026-05-31T21:00:00Z",
    )
    assert (status, removed) == (200, {"candles": 2})
    candles = Client(base_url, KEY).exchange_ohlcv(**PAIR, **WINDOW)
    assert [c["close_ts"][11:16] for c in candles] == ["18:00", "19:00", "22:00", "23:00"]


def test_a_new_pair_after_its_asset(base_url):
    status, asset = control(base_url, "PUT", "/_mock/data/assets/PEPE", {"name": "Pepe", "asset_type": "CRYPTO"})
    assert status == 200 and asset["ticker"] == "PEPE"
    status, stored = control(base_url, "POST", "/_mock/data/candles",
                             [candle("2026-05-31T22:00:00Z", 0.5), candle("2026-05-31T23:00:00Z", 0.75)])
    assert (status, stored) == (200, {"candles": 2})
    candles = Client(base_url, KEY).exchange_ohlcv(**{**PAIR, "base": "PEPE"}, **WINDOW)
    assert [(c["close_ts"], c["close"]) for c in candles] == [("2026-05-31T22:00:00Z", 0.5), ("2026-05-31T23:00:00Z", 0.75)]


def test_a_bad_row_is_named_and_nothing_changes(base_url):
    status, body = control(base_url, "POST", "/_mock/data/candles",
                           [candle("2026-05-31T22:00:00Z", 0.5), {**candle("2026-05-31T23:00:00Z", 0.5), "low": 2}])
    assert status == 422
    # PEPE is not an asset of this session: every row says so; row 1 also breaks low <= high.
    locs = [tuple(issue["loc"]) for issue in body["detail"]]
    assert ("body", 1, "low") in locs and ("body", 0, "base") in locs


def test_the_changes_stay_in_their_session(server_url, base_url):
    control(base_url, "DELETE", "/_mock/data/candles?exchange=bitstamp&interval=1h&base=BTC&quote=USD"
                                "&from=2026-05-31T20:00:00Z&to=2026-05-31T21:00:00Z")
    # The server's root (and every other session) still has those candles.
    candles = Client(server_url, KEY).exchange_ohlcv(**PAIR, **WINDOW)
    assert len(candles) == 6
