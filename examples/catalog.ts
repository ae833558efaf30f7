// Catalog discovery: exchanges, assets and pairs (public endpoints, no key needed). Run: npx tsx examples/catalog.ts
import { createClient } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
try {
  // The catalog endpoints are public: a client without a key may call them.
  const client = createClient({ baseUrl: server.url })

  const exchanges = await client.exchanges()
  console.log('exchanges:')
  for (const e of exchanges) console.log(`  ${e.name}: ${e.creation_date} .. ${e.closing_date ?? 'open'}`)

  const assets = await client.assets()
  console.log(`assets (${assets.length}):`)
  for (const a of assets) console.log(`  ${a.ticker.padEnd(5)} ${a.asset_type.padEnd(10)} ${a.name}`)

  // Pairs per exchange at one interval, with their coverage (first/last close_ts; gaps are possible).
  for (const e of exchanges) {
    const pairs = await client.exchangePairs({ exchange: e.name, interval: '1d' })
    console.log(`${e.name} pairs at 1d (${pairs.length}):`)
    for (const p of pairs) console.log(`  ${`${p.base}/${p.quote}`.padEnd(9)} ${p.first_close_ts} .. ${p.last_close_ts}`)
  }

  // Pairs of the cross-exchange aggregated series.
  const aggregated = await client.aggregatedPairs({ interval: '1h' })
  console.log(`aggregated pairs at 1h (${aggregated.length}): ${aggregated.map((p) => `${p.base}/${p.quote}`).join(', ')}`)
} finally {
  await server.close()
}
