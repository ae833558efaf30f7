import type { SlotAnswer } from './slot-limiter.js'

/** A non-negative number from an answer's header (`RateLimit-*`, `Retry-After`), if it holds one. */
export function answerHeader(headers: SlotAnswer['headers'], name: string): number | undefined {
  const raw = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()])
  if (raw === null || raw === undefined || raw.trim() === '') return undefined
  const value = Number(raw)
  return Number.isFinite(value) && value >= 0 ? value : undefined
}
