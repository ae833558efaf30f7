// A deployment's configuration from the environment: the client reads MARKET_CANDLES_API_KEY,
// MARKET_CANDLES_BASE_URL and MARKET_CANDLES_LOG (off, error, warn, info, debug) itself, so the code
// names neither the key nor the host, and logging is switched on without a code change.
//   Run against your deployment: MARKET_CANDLES_API_KEY=... MARKET_CANDLES_BASE_URL=https://... MARKET_CANDLES_LOG=info npx tsx examples/config-from-env.ts
//   Run as is: without MARKET_CANDLES_BASE_URL it starts the embedded reference service and points the variables at it.
import { APIError, createClient } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

// Stand-in for a deployment: only when no base URL is configured (the key then defaults to a demo key,
// and logging to one line per call).
const embedded = process.env.MARKET_CANDLES_BASE_URL ? undefined : await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
if (embedded) {
  process.env.MARKET_CANDLES_BASE_URL = embedded.url
  process.env.MARKET_CANDLES_API_KEY ||= 'demo-pro-key'
  process.env.MARKET_CANDLES_LOG ||= 'info'
}

try {
  // Everything the deployment decides comes from the environment; the code keeps what it decides itself.
  const client = createClient({ timeout: 10_000, retry: 3 })
  const keySet = Boolean(process.env.MARKET_CANDLES_API_KEY)
  // Print where requests go, never the key itself (not even a part of it).
  console.log(
    `service: ${process.env.MARKET_CANDLES_BASE_URL}${embedded ? ' (embedded reference service)' : ''}; ` +
      `API key: ${keySet ? 'set' : 'not set (catalog only)'}; log level: ${process.env.MARKET_CANDLES_LOG || 'off'}`,
  )

  const exchanges = await client.exchanges()
  console.log(`exchanges: ${exchanges.map((e) => e.name).join(', ')}`)
  if (keySet) {
    const candles = await client.exchangeOhlcv({ exchange: 'bitstamp', interval: '1d', base: 'BTC', quote: 'USD', limit: 7 })
    console.log(`latest ${candles.length} daily BTC/USD closes on bitstamp: ${candles.map((c) => c.close.toFixed(0)).join(', ')}`)
  }
} catch (error) {
  // A misconfigured deployment fails with a typed error that names the status, never the key.
  if (error instanceof APIError) console.error(`${error.name} (status ${error.status}): ${error.message}`)
  else console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await embedded?.close()
}
