#!/usr/bin/env node
import { startMockServer } from '../server/http-server.js'
import { demoKeys } from '../data/accounts.js'
import { DataFileError, loadDataFile } from './load-data.js'
import { USAGE, UsageError, parseServeArgs } from './parse-serve-args.js'
import { packageVersion } from './version.js'
import { runExportInWorker } from '../../cli/export/run-in-worker.js'

/** Runs the CLI; returns the exit code, or never returns while serving. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE)
    return command === undefined ? 2 : 0
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    console.log(packageVersion())
    return 0
  }
  if (command === 'export') return runExportInWorker(rest)
  if (command !== 'serve') throw new UsageError(`unknown command '${command}'`)
  const args = parseServeArgs(rest)
  if (args.help) {
    console.log(USAGE)
    return 0
  }
  const serviceOptions = { now: args.now, rateLimit: args.rateLimit ? undefined : false as const }
  let loaded
  try {
    loaded = args.data === undefined ? undefined : loadDataFile(args.data, serviceOptions)
  } catch (error) {
    if (!(error instanceof DataFileError)) throw error
    console.error(`market-candles: ${error.message}`)
    return 1
  }
  let server
  try {
    server = await startMockServer({ port: args.port, host: args.host, latency: args.latency, ...(loaded ? { service: loaded.service } : serviceOptions) })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') console.error(`market-candles: port ${args.port} is in use; choose another with --port, or --port 0 for a free one`)
    else console.error(`market-candles: cannot listen on ${args.host}:${args.port}: ${(error as Error).message}`)
    return 1
  }
  console.log(`listening on ${server.url}`)
  console.log('')
  console.log(`clock: ${args.now ?? 'system time'}; rate limit: ${args.rateLimit ? '10 requests/second per account' : 'off'}${args.latency ? `; latency: ${args.latency} ms` : ''}`)
  if (loaded?.keyCount !== undefined) {
    // The user's own keys are not printed: a key never appears in a log line.
    console.log(`dataset: ${args.data}; ${loaded.keyCount} keys from that file (header X-API-Key)`)
  } else {
    if (loaded) console.log(`dataset: ${args.data}`)
    console.log('demo keys (header X-API-Key):')
    for (const k of demoKeys) console.log(`  ${k.key.padEnd(24)} ${k.revoked ? 'revoked' : `account ${k.account}`}`)
  }
  console.log('')
  console.log('try:')
  console.log(`  curl '${server.url}/v1/exchanges'`)
  if (!loaded) console.log(`  curl -H 'X-API-Key: demo-pro-key' '${server.url}/v1/exchange_ohlcv?exchange=bitstamp&interval=1h&base=BTC&quote=USD&limit=3'`)
  console.log('')
  console.log(`  curl '${server.url}/openapi.json'`)
  console.log('')
  console.log('control plane for test suites: GET /_mock/usage, POST /_mock/reset, GET|POST|DELETE /_mock/faults,')
  console.log('GET|POST /_mock/clock. Ctrl-C stops.')
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
