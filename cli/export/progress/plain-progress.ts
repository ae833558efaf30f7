import type { ProgressReporter, ReporterContext } from './reporter.js'
import { SeriesProgress, formatDuration } from './series-progress.js'
import { plural } from '../../../src/internal/plural.js'

/** One line of a series' progress, as the plain reporter prints it. */
export function progressLine(s: SeriesProgress, requestsPerSecond: number, rateLimited: number): string {
  const total = s.expected === undefined ? '' : `/${Math.max(s.expected, s.candles)}`
  const percent = s.expected ? ` (${Math.min(100, (100 * s.candles) / s.expected).toFixed(1)} %)` : ''
  return `export: ${s.label}: ${s.candles}${total} candles${percent}, ${plural(s.pages, 'page')}, ${requestsPerSecond.toFixed(1)} requests/s, ${rateLimited} × 429, ETA ${s.done ? '0s' : formatDuration(s.etaSeconds())}`
}

/** Off a terminal (logs, CI): one plain line every few seconds for the series in hand. */
export function plainReporter({ meter, stream, intervalSeconds }: ReporterContext): ProgressReporter {
  let current: SeriesProgress | undefined
  const print = () => {
    if (current !== undefined) stream.write(progressLine(current, meter.perSecond(), meter.rateLimited) + '\n')
  }
  const timer = setInterval(print, intervalSeconds * 1000)
  timer.unref()
  return {
    seriesStarted(label, expected) {
      current = new SeriesProgress(label, expected)
    },
    pageWritten(candles) {
      current!.candles += candles
      current!.pages++
    },
    seriesDone() {
      current!.done = true
      current = undefined
    },
    note(text) {
      stream.write(`export: ${text}\n`)
    },
    stop() {
      clearInterval(timer)
    },
  }
}
