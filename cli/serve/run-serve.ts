import { EXIT } from '../exit-codes.js'
import { SERVE_USAGE, parseServeArgs } from './args.js'

/**
 * Runs `market-candles serve ARGS`: resolves with an exit code when it cannot start, and once
 * SIGINT or SIGTERM has closed the server. Throws {@link UsageError} for bad flags.
 */
export async function runServe(argv: readonly string[]): Promise<number> {
  const args = parseServeArgs([...argv])
  if (args.help) {
    console.log(SERVE_USAGE)
    return EXIT.ok
  }
  return (await import('./serve-with.js')).serveWith(args)
}
