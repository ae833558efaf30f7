import type { Writable } from 'node:stream'
// From src/'s leaf modules, never its barrels (types aside): a barrel brings zod into a short export's start (DEVELOPERS.md, traps).
import type { MarketCandles, PairCoverage, SlotLimiter } from '../../src/index.js'
import { createClient } from '../../src/client/index.js'
import { APIError, APIUserAbortError, NotFoundError, RateLimitError } from '../../src/errors/index.js'
import { RateLimiter } from '../../src/rate-limit/rate-limiter.js'
import { DEFAULT_METHOD } from '../../src/schemas/values/known-values.js'
import { readApiKey } from '../api-key.js'
import { EXPORT_USAGE, argsOrExit, type ExportArgs } from './flags/args.js'
import { ExportError } from './plan/export-error.js'
import { describeFailure, keptNote } from './history/describe-failure.js'
import { MOCK_KEY, startEmbeddedService } from './client/embedded-service.js'
import { useOutputThread } from './plan/thread-choice.js'
import { followAll, trackLastWritten } from './follow/follow.js'
import { RequestMeter, followReporter, plainReporter, silentReporter, type ProgressReporter, type ReporterContext } from './progress/index.js'
import { SeriesFailure, exportAll, type RunTotals } from './history/runner.js'
import { writeCoverageReport, type SeriesCoverage } from './history/coverage.js'
import { selectSeries, type Series } from './plan/series.js'
import { shellQuote } from './flags/shell-quote.js'
import { withoutPassword } from './flags/without-password.js'
import { openSink, type Sink } from './sinks/index.js'
import { openThreadedSink } from './sink-thread/index.js'
import { checkRedisUrl, openSharedLimit, redactRedisArgs, redisAccount, REDIS_URL_ENV, type SharedLimit } from './limits/redis-limit.js'
import { pickShard } from './limits/shard.js'
import { ExportState } from './metrics/export-state.js'
import { countedSink } from './metrics/counted-sink.js'
import { startMetricsServer, type MetricsServer } from './metrics/metrics-server.js'
import { OutageWatch } from './outage/outage-watch.js'
import { isTransient, outageReason } from './outage/transient-error.js'
import { pauseWhileRedisFails } from './limits/redis-pause.js'
import { timedLimiter } from './limits/timed-limiter.js'
import { formatLag } from './progress/index.js'
import { UsageError } from '../usage-error.js'
import { EXIT } from '../exit-codes.js'
import { plural } from '../../src/internal/plural.js'
import { unofferedInterval } from './flags/unoffered-interval.js'

/** Where a run reads and writes; the real process by default (tests and the bench pass their own). */
export interface ExportIO {
  env: NodeJS.ProcessEnv
  stdout: Writable
  stderr: Writable
  /** Whether stderr is a terminal: progress bars there, plain lines otherwise. */
  stderrIsTTY: boolean
  /** Replaces the progress display (the bench measures through it). */
  reporter?: (context: ReporterContext) => ProgressReporter
  /** Receives the stop that SIGINT or SIGTERM would send; the default listens to both. Returns how to stop listening. */
  onInterrupt?: (interrupt: (signal: StopSignal) => void) => () => void
  /** Writes a file or database output on a thread of its own. @default true */
  sinkThread?: boolean
}

const processIO = (): ExportIO => ({
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: Boolean(process.stderr.isTTY),
})

/** What stops an export before it is done: Ctrl-C, or a service manager's SIGTERM. */
export type StopSignal = 'SIGINT' | 'SIGTERM'

// First signal: stop after the page in hand; a second one: leave at once (every written page is whole).
const listenToSignals = (interrupt: (signal: StopSignal) => void) => {
  let count = 0
  const handler = (signal: StopSignal) => {
    if (++count === 1) interrupt(signal)
    else process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted)
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  return () => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
  }
}

/**
 * The exit code of a stopped export: SIGTERM ends a follower as a service manager expects (0, the
 * same command resumes); SIGTERM before a one-off export was done is 143; Ctrl-C is 130.
 */
export function stoppedExitCode(signal: StopSignal | undefined, follow: boolean): number {
  if (signal === 'SIGTERM') return follow ? EXIT.ok : EXIT.terminated
  return EXIT.interrupted
}

/** Runs `market-candles export ARGS`; resolves with the exit code (0, 1, 2, 130 or 143). */
export async function runExport(argv: readonly string[], io: ExportIO = processIO()): Promise<number> {
  const say = (text: string) => io.stderr.write(`${text}\n`)
  const parsed = argsOrExit(argv, io)
  if (typeof parsed === 'number') return parsed
  const args: ExportArgs = parsed
  let apiKey: string | undefined
  let keySource: string
  try {
    apiKey = readApiKey(args.apiKeyFile, args.mock ? {} : io.env)
    keySource = args.apiKeyFile !== undefined ? `--api-key-file ${args.apiKeyFile}` : 'MARKET_CANDLES_API_KEY'
    if (args.mock && apiKey === undefined) {
      apiKey = MOCK_KEY
      keySource = `the demo key ${MOCK_KEY}`
    }
    if (apiKey === undefined) throw new UsageError('no API key: set MARKET_CANDLES_API_KEY, or give --api-key-file FILE (or try --mock)')
    if (!args.mock && args.baseUrl === undefined && !io.env.MARKET_CANDLES_BASE_URL) {
      throw new UsageError('no service URL: give --base-url URL or set MARKET_CANDLES_BASE_URL (or try --mock)')
    }
    if (args.redis === undefined && io.env[REDIS_URL_ENV]) {
      checkRedisUrl(io.env[REDIS_URL_ENV], REDIS_URL_ENV)
      if (args.rateLimit === false || !Number.isInteger(args.rateLimit)) throw new UsageError(`${REDIS_URL_ENV} shares a rate limit: give --rate-limit a whole number (or leave it out)`)
      args.redis = io.env[REDIS_URL_ENV]
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    say(`market-candles export: ${error.message}\n\n${EXPORT_USAGE}`)
    return 2
  }

  const embedded = args.mock ? await startEmbeddedService({ clockRate: args.clockRate }) : undefined
  const baseUrl = embedded?.url ?? args.baseUrl ?? io.env.MARKET_CANDLES_BASE_URL!
  // --follow: the service's time. The embedded service's clock is read directly; a remote one is
  // learnt from its Date headers by the SDK (its speed too: --clock-rate is where it starts).
  const serviceNow = embedded && args.follow ? embedded.now : undefined
  const meter = new RequestMeter()
  let shared: SharedLimit | undefined
  if (args.redis !== undefined) {
    try {
      shared = await openSharedLimit(args.redis, redisAccount(io.env, baseUrl, apiKey), args.rateLimit as number)
    } catch (error) {
      await embedded?.close()
      say(`market-candles export: ${(error as Error).message}`)
      return 1
    }
  }
  const state = new ExportState()
  // --follow: outages of the service are waited out with one line as each starts and ends.
  const outages = args.follow ? new OutageWatch({ say }) : undefined
  state.outages = outages
  const limiter = exportLimiter(args, shared, state, say)
  let client: MarketCandles
  try {
    client = createClient({
      apiKey,
      baseUrl,
      rateLimit: limiter ?? false,
      hooks: {
        onResponse: (event) => {
          if (event.endpoint === 'exchange_ohlcv' || event.endpoint === 'aggregated_ohlcv') meter.response(event.status)
          state.request(event.status)
          if (event.status < 500) outages?.answered()
        },
        onRetry: ({ error }) => {
          state.retries++
          if (!(error instanceof APIError)) state.request('error')
          if (isTransient(error) && !(error instanceof RateLimitError)) outages?.failure(outageReason(error))
        },
        onError: ({ error }) => {
          if (!(error instanceof APIError)) state.request('error')
          if (isTransient(error)) outages?.failure(outageReason(error), true)
        },
      },
    })
  } catch (error) {
    await embedded?.close()
    await shared?.limiter.close()
    say(`market-candles export: --base-url: ${(error as Error).message}\n\n${EXPORT_USAGE}`)
    return 2
  }
  let metrics: MetricsServer | undefined
  if (args.metricsPort !== undefined) {
    try {
      metrics = await startMetricsServer(state, args.metricsHost, args.metricsPort)
    } catch (error) {
      await embedded?.close()
      await shared?.limiter.close()
      say(`market-candles export: --metrics-port ${args.metricsPort}: cannot listen on ${args.metricsHost}: ${(error as Error).message}`)
      return 1
    }
    say(`metrics on ${metrics.url}`)
  }
  if (embedded && !args.quiet) say(`export: --mock: the embedded reference service at ${embedded.url}, key from ${keySource}`)
  if (shared && !args.quiet) say(`export: rate limit of ${args.rateLimit}/s shared through Redis at ${shared.label}`)

  const controller = new AbortController()
  let stopSignal: StopSignal | undefined
  const stopListening = (io.onInterrupt ?? listenToSignals)((signal) => {
    stopSignal ??= signal
    controller.abort()
  })
  const context: ReporterContext = { meter, stream: io.stderr, intervalSeconds: args.progressInterval }
  const reporter: ProgressReporter =
    io.reporter?.(context) ??
    (args.quiet ? silentReporter
    // cli-progress is loaded for a terminal only.
    : io.stderrIsTTY ? (await import('./progress/tty-progress.js')).ttyReporter(context)
    : plainReporter(context))
  const totals: RunTotals = { series: 0, candles: 0, pages: 0 }
  const coverage: SeriesCoverage[] = []
  // A postgres:// --out may hold a password: no message repeats it.
  const shownOut = withoutPassword(args.out)
  let catalog: PairCoverage[] | undefined
  let sink: Sink | undefined
  const started = performance.now()
  try {
    // The method is named even when it is the service's default, so resume can find the series.
    if (args.kind === 'aggregated') args.method ??= DEFAULT_METHOD
    catalog = await readCatalog(client, args, controller.signal)
    const all: Series[] = selectSeries(args, catalog)
    const planned: Series[] = pickShard(all, args.shard)
    if (args.shard && !args.quiet) say(`export: shard ${args.shard.index}/${args.shard.count}: ${planned.length} of ${all.length} series`)
    // With --resample the output holds the series at the target interval.
    const stored = args.resample === undefined ? planned : planned.map((s) => ({ ...s, interval: args.resample! }))
    const sinkOptions = { pgSchema: args.pgSchema, partRows: args.partRows, env: io.env, note: (text: string) => reporter.note(text) }
    // A file or a database is written on a thread of its own (stdout stays here, with its back-pressure),
    // unless the history is short (thread-choice.ts).
    sink =
      io.sinkThread !== false && useOutputThread(args, planned)
        ? await openThreadedSink(args.out, args.format, args.kind, stored, sinkOptions)
        : await openSink(args.out, args.format, args.kind, stored, io.stdout, sinkOptions)
    const opened = sink
    state.plan(stored, (s) => opened.lastStored(s))
    sink = countedSink(sink, (series, candles, newestClose) => state.written(series, candles, newestClose))
    if (args.follow) sink = trackLastWritten(sink)
    let historyCut = false
    try {
      await exportAll(client, planned, args, sink, reporter, controller.signal, totals, coverage)
    } catch (error) {
      // --follow: an outage during the history is waited out too; the follow catches the rest up.
      if (!args.follow || controller.signal.aborted || !isTransient(error)) throw error
      outages!.failure(outageReason(error), true)
      historyCut = true
    }
    if (args.follow) {
      reporter.stop()
      const history = historyCut ? `history cut short by the outage (${plural(totals.candles, 'candle')} written); the follow catches up the rest and` : `history written (${plural(totals.candles, 'candle')});`
      if (!args.quiet) say(`export: ${history} following ${planned.length} series as new candles close. Ctrl-C or SIGTERM stops; the same command resumes.`)
      const follow = followReporter({ meter, stream: io.stderr, intervalSeconds: args.progressInterval, tty: io.stderrIsTTY, quiet: args.quiet, series: planned.length, outage: () => outages?.failing })
      try {
        await followAll({ client, planned, args, sink, reporter: follow, signal: controller.signal, totals, serviceNow, clockRate: embedded ? undefined : args.clockRate, state, outages: outages! })
      } finally {
        follow.stop()
      }
    }
    await sink.close()
    sink = undefined
    reporter.stop()
    if (args.report !== undefined) writeCoverageReport(args.report, coverage)
    if (!args.quiet) say(summary(totals, meter, started, shownOut))
    return 0
  } catch (error) {
    reporter.stop()
    try {
      await sink?.close()
    } catch (closeError) {
      say(`market-candles export: closing ${shownOut} failed: ${(closeError as Error).message}`)
    }
    // The report of an interrupted or failed run says how far each series got (complete: false).
    if (args.report !== undefined && coverage.length > 0) {
      try {
        writeCoverageReport(args.report, coverage)
      } catch (reportError) {
        say(`market-candles export: ${(reportError as Error).message}`)
      }
    }
    const aborted = (error instanceof SeriesFailure ? error.cause : error) instanceof APIUserAbortError
    if (aborted || controller.signal.aborted) {
      say(`\n${stopSignal === 'SIGTERM' ? 'Stopped (SIGTERM)' : 'Interrupted'} after ${plural(totals.candles, 'candle')} in ${plural(totals.pages, 'page')}; every page written is complete.`)
      if (args.out === '-') say('Output went to stdout: to resume later, export to a file (--out FILE).')
      else say(`Run the same command again to continue where it stopped:\n  market-candles export ${shellQuote(redactRedisArgs(argv).map(withoutPassword))}`)
      return stoppedExitCode(stopSignal, args.follow)
    }
    // A value the service does not offer (--interval 5m): a usage mistake, with what to do instead.
    if (error instanceof UsageError) {
      say(`market-candles export: ${error.message}`)
      return EXIT.usage
    }
    say(`market-candles export: ${error instanceof ExportError ? error.message : describeFailure(error, { baseUrl, catalog, keySource })}`)
    if (totals.candles > 0) say(keptNote(shownOut, totals.candles))
    return 1
  } finally {
    stopListening()
    await metrics?.close()
    await shared?.limiter.close()
    await embedded?.close()
  }
}

/**
 * The export's rate limiter: the shared one (--redis) or an in-process one, timed for the metrics.
 * With --follow, a Redis that fails pauses requests until it answers again (redis-pause.ts), with
 * one line as it fails and one as it is back; without --follow it ends the export (exit 1).
 */
function exportLimiter(args: ExportArgs, shared: SharedLimit | undefined, state: ExportState, say: (text: string) => void): SlotLimiter | undefined {
  let limiter: SlotLimiter | undefined = shared?.limiter ?? (args.rateLimit === false ? undefined : new RateLimiter({ perSecond: args.rateLimit }))
  if (limiter === undefined) return undefined
  if (shared && args.follow) {
    limiter = pauseWhileRedisFails(limiter, {
      down(message) {
        state.redisDownSince = performance.now()
        say(`export: Redis fails (${message}); requests pause until it answers again (the shared limit cannot be kept without it).`)
      },
      up() {
        const since = state.redisDownSince ?? performance.now()
        state.redisDownMs += performance.now() - since
        state.redisDownSince = undefined
        say(`export: Redis answers again after ${formatLag(performance.now() - since)}; requests resume under the shared limit.`)
      },
    })
  }
  return timedLimiter(limiter, (ms) => {
    state.limiterWaitMs += ms
    if (ms >= 1) state.limiterWaits++
  })
}

/** The pairs catalog of the export's exchange (or aggregate) and interval: public, never counted. */
async function readCatalog(client: MarketCandles, args: ExportArgs, signal: AbortSignal): Promise<PairCoverage[]> {
  try {
    return args.kind === 'exchange'
      ? await client.exchangePairs({ exchange: args.exchange!, interval: args.interval }, { signal })
      : await client.aggregatedPairs({ interval: args.interval, method: args.method }, { signal })
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error
    // An unknown exchange: say which ones exist.
    if (args.kind === 'exchange' && /exchange/i.test(String(error.detail))) {
      const names = await client.exchanges({ signal }).then(
        (list) => list.map((e) => e.name).join(', '),
        () => undefined,
      )
      throw new ExportError(`${String(error.detail)} (404)${names ? `. Exchanges: ${names}` : ''}`)
    }
    if (/interval/i.test(String(error.detail))) throw unofferedInterval(args.interval, String(error.detail))
    throw new ExportError(`${String(error.detail)} (404)`)
  }
}

function summary(totals: RunTotals, meter: RequestMeter, started: number, out: string): string {
  const seconds = (performance.now() - started) / 1000
  const rate = seconds > 0 ? meter.requests / seconds : 0
  return `export: done: ${totals.series} series, ${plural(totals.candles, 'candle')} in ${plural(totals.pages, 'page')}, ${plural(meter.requests, 'request')} (${rate.toFixed(1)}/s), ${meter.rateLimited} × 429, ${seconds.toFixed(1)} s → ${out === '-' ? 'stdout' : out}`
}
