import type { RequestMeter } from './request-meter.js'

/** Receives a run's progress: per series, pages written and candles. */
export interface ProgressReporter {
  seriesStarted(label: string, expected: number | undefined): void
  pageWritten(candles: number): void
  /** The series in hand is complete. */
  seriesDone(): void
  /** A line for the user (e.g. a series skipped), printed without breaking the display. */
  note(text: string): void
  /** Stops the display; the run is over. */
  stop(): void
}

/** What every reporter is built from. */
export interface ReporterContext {
  meter: RequestMeter
  stream: NodeJS.WritableStream
  /** Seconds between lines of the plain reporter. */
  intervalSeconds: number
}

/** A reporter that shows nothing (--quiet). */
export const silentReporter: ProgressReporter = {
  seriesStarted() {},
  pageWritten() {},
  seriesDone() {},
  note() {},
  stop() {},
}
