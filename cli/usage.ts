import { EXIT_MEANINGS } from './exit-codes.js'

/** The top-level usage: one line per command; `market-candles COMMAND --help` has the rest. */
export const USAGE = `Usage: market-candles <command> [options]

Commands:
  market-candles serve [options]         serve the reference service over HTTP (for tests in any language)
  market-candles export [options]        page full histories into files and databases, resumable
  market-candles conformance [options]   check a deployment of the service against the contract
  market-candles --version

  market-candles <command> --help        the options of one command

Exit codes:
${Object.entries(EXIT_MEANINGS).map(([code, meaning]) => `  ${code.padEnd(4)} ${meaning}`).join('\n')}

Guide: https://github.com/market-candles/market-candles/blob/main/docs/cli.md`
