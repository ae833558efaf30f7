#!/usr/bin/env node
import { startMockServer } from '../server/http-server.js'
import { demoKeys } from '../data/accounts.js'
import { USAGE, UsageError, parseServeArgs } from './parse-serve-args.js'
import { runExport } from '../../cli/export/index.js'

/** Runs the CLI; returns the exit code, or never returns while serving. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE)
    console.log('\n       market-candles export [options]   full histories into SQLite, CSV or JSON Lines (export --help)')
    return command === undefined ? 2 : 0
  }
  if (command === 'export') return runExport(rest)
  if (command !== 'serve') throw new UsageError(`unknown command '${command}'`)
  const args = parseServeArgs(rest)
  if (args.help) {
    console.log(USAGE)
    return 0
  }
  let server
  try {
    server = await startMockServer({
      port: args.port,
      host: args.host,
      now: args.now,
      latency: args.latency,
      rateLimit: args.rateLimit ? undefined : false,
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') console.error(`market-candles: port ${args.port} is in use; choose another with --port, or --port 0 for a free one`)
    else console.error(`market-candles: cannot listen on ${args.host}:${args.port}: ${(error as Error).message}`)
    return 1
  }
  console.log(`listening on ${server.url}`)
  console.log('')
  console.log(`clock: ${args.now ?? 'system time'}; rate limit: ${args.rateLimit ? '10 requests/second per account' : 'off'}${args.latency ? `; latency: ${args.latency} ms` : ''}`)
  console.log('demo keys (header X-API-Key):')
  for (const k of demoKeys) console.log(`  ${k.key.padEnd(24)} ${k.revoked ? 'revoked' : `account ${k.account}`}`)
  console.log('')
  console.log('try:')
  console.log(`  curl '${server.url}/v1/exchanges'`)
  console.log(`  curl -H 'X-API-Key: demo-pro-key' '${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=3'`)
  console.log('')
  console.log('state for test suites: GET /_mock/usage, POST /_mock/reset. Ctrl-C stops.')
  const stop = () => {
    void server.close().finally(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return new Promise<number>(() => {})
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`market-candles: ${error.message}\n\n${USAGE}`)
      process.exit(2)
    }
    console.error(error)
    process.exit(1)
  },
)
