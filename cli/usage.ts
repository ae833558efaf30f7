/** The top-level usage: one line per command; `market-candles COMMAND --help` has the rest. */
export const USAGE = `Usage: market-candles <command> [options]

Commands:
  serve         serve the reference service over HTTP (for tests in any language)
  export        page full histories into SQLite, CSV, JSON Lines or Parquet
  conformance   check a deployment of the service against the contract

  market-candles <command> --help    the options of one command
  market-candles --version

Exit codes: 0 done, 1 failed (the message says why), 2 bad usage, 130 interrupted (Ctrl-C).`
