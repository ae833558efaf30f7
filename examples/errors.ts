// Typed errors: 403 PermissionDeniedError, InvalidParamsError (caught before sending), 404 NotFoundError, 401 AuthenticationError. Run: npx tsx examples/errors.ts
import { APIError, AuthenticationError, InvalidParamsError, NotFoundError, PermissionDeniedError, createClient } from 'market-candles'
import { startMockServer } from 'market-candles/mocks/server'

const server = await startMockServer({ port: 0, now: '2026-06-01T00:00:00Z' })
try {
  const free = createClient({ apiKey: 'demo-free-key', baseUrl: server.url })
  const pro = createClient({ apiKey: 'demo-pro-key', baseUrl: server.url })

  const show = (err: unknown) => {
    if (err instanceof APIError) {
      console.log(`  ${err.name} status ${err.status}: ${JSON.stringify(err.detail)}`)
    } else if (err instanceof InvalidParamsError) {
      // Checked with the service's own 422 rules before anything is sent: no status, no request.
      console.log(`  ${err.name} (nothing sent) on ${err.endpoint}: ${err.issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')}`)
    } else {
      throw err
    }
  }

  console.log('the free plan does not include aggregated_ohlcv:')
  try {
    await free.aggregatedOhlcv({ interval: '1h', base: 'BTC', quote: 'USD', limit: 10 })
  } catch (err) {
    if (!(err instanceof PermissionDeniedError)) throw err
    show(err)
  }

  console.log('limit 0 is invalid:')
  try {
    await pro.exchangeOhlcv({ exchange: 'bitstamp', interval: '1h', base: 'BTC', quote: 'USD', limit: 0 })
  } catch (err) {
    if (!(err instanceof InvalidParamsError)) throw err
    show(err)
  }

  console.log('an unknown pair:')
  try {
    await pro.exchangeOhlcv({ exchange: 'bitstamp', interval: '1h', base: 'NOPE', quote: 'USD' })
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err
    show(err)
  }

  console.log('a revoked key:')
  try {
    await createClient({ apiKey: 'demo-revoked-key', baseUrl: server.url }).exchangeOhlcv({ exchange: 'bitstamp', interval: '1d', base: 'BTC', quote: 'USD' })
  } catch (err) {
    if (!(err instanceof AuthenticationError)) throw err
    show(err)
  }
} finally {
  await server.close()
}
