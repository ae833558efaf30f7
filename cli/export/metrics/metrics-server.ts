import { createServer, type Server } from 'node:http'
import { listenUrl } from '../../../mocks/server/listen-url.js'
import type { ExportState } from './export-state.js'
import { judgeHealth } from './health.js'

const FOLLOW_STATUSES = ['catching-up', 'live', 'retrying', 'ended'] as const

/** A running metrics endpoint; `close` stops it. */
export interface MetricsServer {
  /** `http://HOST:PORT/metrics` */
  readonly url: string
  close(): Promise<void>
}

/**
 * Serves the export's figures for Prometheus at `/metrics` and its health at `/healthz` (200 or
 * 503 with the reasons, text). prom-client is imported here only, on the first call: an export
 * without --metrics-port never loads it. The figures are read from `state` at each scrape; no
 * label or value holds a key, a URL or a password (series are named `exchange/BASE/QUOTE/interval`).
 */
export async function startMetricsServer(state: ExportState, host: string, port: number): Promise<MetricsServer> {
  const prom = await import('prom-client')
  const registry = new prom.Registry()
  prom.collectDefaultMetrics({ register: registry })
  const series = () => [...state.series.values()]
  new prom.Counter({
    name: 'market_candles_candles_written_total',
    help: 'Candles written to the output by this run, per series (exchange/base/quote/interval).',
    labelNames: ['series'],
    registers: [registry],
    collect() {
      this.reset()
      for (const s of series()) this.inc({ series: s.key }, s.written)
    },
  })
  new prom.Gauge({
    name: 'market_candles_follow_lag_seconds',
    help: "Service time since the close of the newest stored candle, per series; absent before the follow starts.",
    labelNames: ['series'],
    registers: [registry],
    collect() {
      this.reset()
      for (const s of series()) {
        const lag = state.lagMs(s)
        if (lag !== undefined && s.ended === undefined) this.set({ series: s.key }, lag / 1000)
      }
    },
  })
  new prom.Gauge({
    name: 'market_candles_series_ended',
    help: 'Series whose follow has ended (exchange closed, or --end reached): 1, else 0.',
    labelNames: ['series'],
    registers: [registry],
    collect() {
      this.reset()
      for (const s of series()) this.set({ series: s.key }, s.ended === undefined ? 0 : 1)
    },
  })
  new prom.Gauge({
    name: 'market_candles_follow_status',
    help: "The follow's status per series: 1 for the one it is in (catching-up, live, retrying, ended), 0 for the others.",
    labelNames: ['series', 'status'],
    registers: [registry],
    collect() {
      this.reset()
      for (const { key, status } of state.followStatuses?.() ?? []) {
        for (const each of FOLLOW_STATUSES) this.set({ series: key, status: each }, each === status ? 1 : 0)
      }
    },
  })
  new prom.Counter({
    name: 'market_candles_requests_total',
    help: "Attempts of candle and catalog requests by the service's answer: the HTTP status, or error when none came (connection error, timeout).",
    labelNames: ['status'],
    registers: [registry],
    collect() {
      this.reset()
      for (const [status, count] of state.requests) this.inc({ status }, count)
    },
  })
  new prom.Counter({
    name: 'market_candles_retries_total',
    help: "Attempts retried by the client after a failure (5xx, connection error, timeout, 429).",
    registers: [registry],
    collect() {
      this.reset()
      this.inc(state.retries)
    },
  })
  new prom.Counter({
    name: 'market_candles_outages_total',
    help: 'Outages of the service seen (failures for 5 s or more, or a request failed for good).',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(state.outages?.count ?? 0)
    },
  })
  new prom.Counter({
    name: 'market_candles_outage_seconds_total',
    help: 'Seconds the service failed, over every outage, the current one included.',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(state.outages?.totalSeconds() ?? 0)
    },
  })
  new prom.Counter({
    name: 'market_candles_rate_limit_wait_seconds_total',
    help: 'Seconds requests waited for a slot of the rate limiter (in-process or Redis), summed over requests.',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(state.limiterWaitMs / 1000)
    },
  })
  new prom.Counter({
    name: 'market_candles_rate_limit_waits_total',
    help: 'Requests that waited for the rate limiter at all.',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(state.limiterWaits)
    },
  })
  new prom.Counter({
    name: 'market_candles_redis_down_seconds_total',
    help: 'Seconds the shared rate limit could not reach Redis (--redis), requests paused meanwhile.',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(state.redisDownSeconds())
    },
  })
  new prom.Gauge({
    name: 'market_candles_healthy',
    help: '1 while /healthz answers 200, else 0.',
    registers: [registry],
    collect() {
      this.set(judgeHealth(state).ok ? 1 : 0)
    },
  })

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n')
      return
    }
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${error.message}\n`),
      )
      return
    }
    if (path === '/healthz') {
      const health = judgeHealth(state)
      res.writeHead(health.ok ? 200 : 503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`${health.summary}\n`)
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: /metrics and /healthz\n')
  })
  // Scrapers keep connections open: close must not wait for them.
  server.keepAliveTimeout = 5000
  const url = await listenUrl(server, port, host)
  server.unref()
  return {
    url: `${url}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
