import { EXIT } from '../exit-codes.js'
import type { CliIo } from '../cli-io.js'
import { SERVE_USAGE, parseServeArgs } from './args.js'

/**
 * Runs `market-candles serve ARGS`: resolves with an exit code when it cannot start, and once
 * SIGINT or SIGTERM has closed the server. Throws {@link UsageError} for bad flags.
 */
export async function runServe(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseServeArgs([...argv], env)
  if (args.help) {
    io.out(SERVE_USAGE)
    return EXIT.ok
  }
  return (await import('./serve-with.js')).serveWith(args, io)
}
