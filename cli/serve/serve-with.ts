import { startMockServer } from '../../mocks/server/http-server.js'
import { isLoopbackHost } from '../../mocks/server/control-token.js'
import { demoKeys } from '../../mocks/data/accounts.js'
import { EXIT } from '../exit-codes.js'
import { DataFileError, loadDataFile } from './load-data.js'
import type { ServeArgs } from './args.js'
import type { CliIo } from '../cli-io.js'
import { plural } from '../../src/internal/plural.js'

function describeClock(args: ServeArgs): string {
  const from = args.now ?? 'system time'
  if (args.clockRate === undefined) return from
  return args.clockRate === 0 ? `${from}, fixed` : `from ${from}, running at ${args.clockRate}x`
}

function describeVariant(v: NonNullable<ServeArgs['variant']>): string {
  return `timestamps ${v.timestamps}, missing key ${v.missingKey}, error bodies ${v.errorBodies}, rate-limit headers ${v.rateLimitHeaders}, null fields ${v.nullFields}, extra fields ${v.extraFields ? 'on' : 'off'}`
}

/** Serves with arguments already parsed: the service's modules load only here, after the flags were checked. */
export async function serveWith(args: ServeArgs, io: CliIo): Promise<number> {
  const serviceOptions = {
    now: args.now,
    clockRate: args.clockRate,
    publishDelayMs: args.publishDelay,
    rateLimit: args.rateLimit ? undefined : false as const,
    journal: args.journalSize === 0 ? false as const : { size: args.journalSize },
    variant: args.variant,
  }
  let loaded
  try {
    loaded = args.data === undefined ? undefined : await loadDataFile(args.data, serviceOptions)
  } catch (error) {
    if (!(error instanceof DataFileError)) throw error
    io.err(`market-candles: ${error.message}`)
    return EXIT.failure
  }
  // Before listening, so it shows even when the address cannot be bound.
  if (args.controlToken === undefined && !isLoopbackHost(args.host)) {
    io.err(
      `market-candles: warning: --host ${args.host} is reachable from other machines and the control plane (/_mock) is not locked: anyone who reaches this server can change its data, keys and faults. Set MARKET_CANDLES_CONTROL_TOKEN (or --control-token) to require 'Authorization: Bearer <token>'.`,
    )
  }
  let server
  try {
    server = await startMockServer({ port: args.port, host: args.host, latency: args.latency, controlToken: args.controlToken, ...(loaded ? { service: loaded.service } : serviceOptions) })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') io.err(`market-candles: port ${args.port} is in use; choose another with --port, or --port 0 for a free one`)
    else io.err(`market-candles: cannot listen on ${args.host}:${args.port}: ${(error as Error).message}`)
    return EXIT.failure
  }
  const running = server
  // SIGINT or SIGTERM: answers in flight complete, then the server closes and the command exits 0.
  // Listened for before the first line: a supervisor may signal as soon as it reads "listening on",
  // and a signal without a listener kills the process (exit by signal, not 0).
  const stopped = new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      void running.close().finally(() => resolve(EXIT.ok))
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  io.out(`listening on ${server.url}`)
  io.out('')
  io.out(`clock: ${describeClock(args)}; rate limit: ${args.rateLimit ? '10 requests/second per account' : 'off'}${args.latency ? `; latency: ${args.latency} ms` : ''}${args.publishDelay ? `; publish delay: ${args.publishDelay} ms` : ''}`)
  if (loaded?.keyCount !== undefined) {
    // The user's own keys are not printed: a key never appears in a log line.
    io.out(`dataset: ${args.data}; ${plural(loaded.keyCount, 'key')} from that file (header X-API-Key)`)
  } else {
    if (loaded) io.out(`dataset: ${args.data}${loaded.candles === undefined ? '' : `, ${plural(loaded.candles, 'candle')} recorded by market-candles export`}`)
    io.out('demo keys (header X-API-Key):')
    for (const k of demoKeys) io.out(`  ${k.key.padEnd(24)} ${k.revoked ? 'revoked' : `account ${k.account}`}`)
  }
  io.out('')
  io.out('try:')
  io.out(`  curl '${server.url}/v1/exchanges'`)
  if (!loaded) io.out(`  curl -H 'X-API-Key: demo-pro-key' '${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=3'`)
  io.out('')
  io.out(`  curl '${server.url}/openapi.json'`)
  io.out('')
  io.out('control plane for test suites: GET /_mock/health, GET|DELETE /_mock/requests, GET /_mock/usage,')
  io.out('POST /_mock/reset, GET|POST|DELETE /_mock/faults, GET|POST /_mock/clock, POST|DELETE /_mock/data/candles,')
  io.out('PUT /_mock/data/exchanges/NAME, PUT /_mock/data/assets/TICKER, POST /_mock/data/generate, POST /_mock/data/reset,')
  io.out('PUT /_mock/keys/KEY, GET /_mock/plans, PUT /_mock/plans/NAME, GET|PUT /_mock/variant (described by GET /_mock/openapi.json).')
  if (args.variant !== undefined) io.out(`variant: ${describeVariant(args.variant)} (GET|PUT /_mock/variant)`)
  if (args.controlToken !== undefined) io.out("control plane locked: send 'Authorization: Bearer <your control token>' to /_mock.")
  io.out(`parallel suites: ${server.url}/_sessions/NAME is a session of its own (usage, rate windows, journal, faults, clock).`)
  io.out('Ctrl-C stops.')
  return stopped
}
