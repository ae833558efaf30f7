"""A tiny Python client of the market-candles API: the code under test in this example suite."""

import json
import urllib.error
import urllib.parse
import urllib.request


class ApiError(Exception):
    """An answer other than 200: its status and its `detail`."""

    def __init__(self, status, detail):
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


class Client:
    """GETs candles with an API key; retries 5xx answers and broken connections `retries` times."""

    def __init__(self, base_url, api_key, retries=0, timeout=5.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.retries = retries
        self.timeout = timeout

    def exchange_ohlcv(self, **params):
        return self._get("/v1/exchange_ohlcv", params)

    def _get(self, path, params):
        url = f"{self.base_url}{path}?{urllib.parse.urlencode(params)}"
        request = urllib.request.Request(url, headers={"X-API-Key": self.api_key})
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as res:
                    return json.loads(res.read())
            except urllib.error.HTTPError as error:
                if error.code < 500 or last:
                    raise ApiError(error.code, json.loads(error.read()).get("detail")) from None
            except (ConnectionError, urllib.error.URLError):
                if last:
                    raise
