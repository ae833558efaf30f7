import { MultiBar, Presets, type SingleBar } from 'cli-progress'
import type { ProgressReporter, ReporterContext } from './reporter.js'
import { SeriesProgress, formatDuration } from './series-progress.js'

/** On a terminal: one cli-progress bar per series. */
export function ttyReporter({ meter, stream }: ReporterContext): ProgressReporter {
  const bars = new MultiBar(
    {
      stream,
      format: '{label} {bar} {value}/{total} candles | {pages} pages | {rps} req/s | {r429} × 429 | ETA {etaText}',
      hideCursor: true,
      clearOnComplete: false,
      fps: 5,
      barsize: 24,
      autopadding: true,
    },
    Presets.shades_classic,
  )
  let current: { s: SeriesProgress; bar: SingleBar } | undefined
  const payload = (s: SeriesProgress) => ({
    label: s.label,
    pages: s.pages,
    rps: meter.perSecond().toFixed(1),
    r429: meter.rateLimited,
    etaText: s.done ? 'done' : formatDuration(s.etaSeconds()),
  })
  // Refreshes the rate and ETA between pages too (a rate-limit wait, a slow page).
  const timer = setInterval(() => current && current.bar.update(current.s.candles, payload(current.s)), 1000)
  timer.unref()
  return {
    seriesStarted(label, expected) {
      const s = new SeriesProgress(label, expected)
      current = { s, bar: bars.create(expected ?? 0, 0, payload(s)) }
    },
    pageWritten(candles) {
      const { s, bar } = current!
      s.candles += candles
      s.pages++
      // Candles that closed after the catalog was read can take a series past its expected count.
      if (s.expected !== undefined && s.candles > s.expected) bar.setTotal(s.candles)
      bar.update(s.candles, payload(s))
    },
    seriesDone() {
      const { s, bar } = current!
      s.done = true
      bar.setTotal(s.candles)
      bar.update(s.candles, payload(s))
      current = undefined
    },
    note(text) {
      bars.log(`${text}\n`)
    },
    stop() {
      clearInterval(timer)
      bars.stop()
    },
  }
}
