/**
 * The SDK's response validation on a 1000-candle page, in CPU time: the light checker the client runs
 * (checkShape over the body's plain shape), against zod's compiled fast path the SDK used before
 * and zod's plain parser, on the same freshly parsed pages, interleaved.
 */
import * as z from 'zod/mini'
import { createMockService } from '../../mocks/core/service/service.js'
import { canonicalTimestamp, parseTimestamp, responseSchemas } from '../../src/contract/index.js'
import { checkShape } from '../../src/schemas/wire/wire-shape.js'
import { RESPONSE_SHAPES } from '../../src/schemas/wire/wire-shapes.js'
import { HEADERS, NOW, nearUrl, NOW_MS, MINUTE, PAGE_LIMIT } from '../support/fixtures.js'
import { fmt, median, quantile, verdict } from '../support/stats.js'
import { verdictOf, type BenchRow } from '../support/table.js'

export const VALIDATION_TARGET_MS = 0.2

// CPU time of this process (ms), not wall time: the checks are synchronous, and on a machine other
// work shares, wall time counts the waits for a core too.
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
const PAGES = 40
const ROUNDS = 15

type Side = 'light' | 'lightOffset' | 'lightOmit' | 'lightPython' | 'zodCompiled' | 'zodPlain'
const SIDES: Side[] = ['light', 'lightOffset', 'lightOmit', 'lightPython', 'zodCompiled', 'zodPlain']
/** The pages each side checks: as the reference writes them, or as another deployment does (D13). */
const FORM: Record<Side, 'reference' | 'offset' | 'omit' | 'python'> = { light: 'reference', lightOffset: 'offset', lightOmit: 'omit', lightPython: 'python', zodCompiled: 'reference', zodPlain: 'reference' }
/** A page as a Python stack writes it: `.000000+00:00`, null fields left out, two fields interface.md does not list. */
function pythonPage(text: string, extra = true): string {
  const page = JSON.parse(text) as Record<string, unknown>[]
  return JSON.stringify(
    page.map((c, i) => {
      const { flag, ...rest } = c
      const row = { ...rest, close_ts: String(c.close_ts).replace('Z', '.000000+00:00'), ...(flag === null ? {} : { flag }) }
      return extra ? { id: i, ...row, ingested_at: '2026-11-28T00:00:00.123456+00:00' } : row
    }),
  )
}

/** The close-time module on a page's 1000 close times (src/contract/close-time.ts). */
type ClosePath = 'parseCanonical' | 'canonicalizeOffset'
const CLOSE_PATHS: Record<ClosePath, string> = {
  parseCanonical: 'parseTimestamp, 1000 close times written Z',
  canonicalizeOffset: 'canonicalTimestamp, 1000 close times written .000000+00:00',
}

export interface ValidationCost {
  msPerPage: Record<Side, number[]>
  closeTime: Record<ClosePath, number[]>
  rows: BenchRow[]
  pass: boolean
}

export async function measureValidationCost(): Promise<ValidationCost> {
  const service = createMockService({ now: NOW, rateLimit: false })
  const texts: string[] = []
  for (let k = 0; k < PAGES; k++) {
    const res = await service.handle({ method: 'GET', url: nearUrl(NOW_MS - k * 7 * MINUTE), headers: HEADERS })
    if ((res.body as unknown[]).length !== PAGE_LIMIT) throw new Error(`page ${k}: ${res.status}`)
    texts.push(JSON.stringify(res.body))
  }
  const shape = RESPONSE_SHAPES.exchange_ohlcv
  const schema = responseSchemas.exchange_ohlcv
  const compiled = z.compile(schema)
  const pages = { reference: texts, offset: texts.map((t) => t.replaceAll('Z"', '+00:00"')), omit: texts.map((t) => pythonPage(t, false)), python: texts.map((t) => pythonPage(t)) }
  const check: Record<Side, (body: unknown) => boolean> = {
    // As the client calls it: the body is its own parse (owned).
    light: (body) => checkShape(shape, body, 'body', true).ok,
    lightOffset: (body) => checkShape(shape, body, 'body', true).ok,
    lightOmit: (body) => checkShape(shape, body, 'body', true).ok,
    lightPython: (body) => checkShape(shape, body, 'body', true).ok,
    zodCompiled: (body) => compiled.safeParse(body).success,
    zodPlain: (body) => schema.safeParse(body).success,
  }
  const time = (side: Side): number => {
    const bodies = pages[FORM[side]].map((t) => JSON.parse(t) as unknown) // parsing is not timed
    const t0 = cpuMs()
    for (const body of bodies) if (!check[side](body)) throw new Error(`${side} rejected a valid page`)
    return (cpuMs() - t0) / bodies.length
  }
  for (const side of SIDES) for (let i = 0; i < 3; i++) time(side) // warm-up
  const msPerPage: Record<Side, number[]> = { light: [], lightOffset: [], lightOmit: [], lightPython: [], zodCompiled: [], zodPlain: [] }
  for (let r = 0; r < ROUNDS; r++) for (const side of r % 2 === 0 ? SIDES : [...SIDES].reverse()) msPerPage[side].push(time(side))
  // The close times of the same pages, and of the same pages as a Python stack writes them.
  const closeTexts = texts.map((t) => (JSON.parse(t) as { close_ts: string }[]).map((c) => c.close_ts))
  const offsetTexts = closeTexts.map((page) => page.map((ts) => ts.replace('Z', '.000000+00:00')))
  const closeRun: Record<ClosePath, () => number> = {
    parseCanonical: () => {
      let sum = 0
      for (const page of closeTexts) for (const ts of page) sum += parseTimestamp(ts)
      return sum
    },
    canonicalizeOffset: () => {
      let n = 0
      for (const page of offsetTexts) for (const ts of page) n += canonicalTimestamp(ts)!.length
      return n
    },
  }
  const closeTime: Record<ClosePath, number[]> = { parseCanonical: [], canonicalizeOffset: [] }
  for (const path of Object.keys(closeRun) as ClosePath[]) {
    for (let i = 0; i < 3; i++) closeRun[path]() // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = cpuMs()
      if (Number.isNaN(closeRun[path]())) throw new Error(`${path}: a close time did not read`)
      closeTime[path].push((cpuMs() - t0) / closeTexts.length)
    }
  }
  // The median decides; the spread (10th-90th percentile) only says whether it is clear of the goal.
  const byMedian = (side: Side) => verdictOf(median(msPerPage[side]), quantile(msPerPage[side], 0.1), quantile(msPerPage[side], 0.9), VALIDATION_TARGET_MS, true)
  const v = byMedian('light')
  const spreadOf = (xs: number[]) => `${fmt(median(xs))} ms (${fmt(quantile(xs, 0.1))}–${fmt(quantile(xs, 0.9))})`
  const figure = (side: Side) => `${fmt(median(msPerPage[side]))} ms (${fmt(quantile(msPerPage[side], 0.1))}–${fmt(quantile(msPerPage[side], 0.9))})`
  const rows: BenchRow[] = [
    { figure: `SDK response validation, ${PAGE_LIMIT}-candle page, CPU: ${figure('light')}`, goal: `<= ${VALIDATION_TARGET_MS} ms`, verdict: v },
    { figure: `the same pages written +00:00 (made canonical): ${figure('lightOffset')}`, goal: `<= ${VALIDATION_TARGET_MS} ms`, verdict: byMedian('lightOffset') },
    { figure: `the same pages written .000000+00:00 with null flags left out: ${figure('lightOmit')}`, goal: `<= ${VALIDATION_TARGET_MS} ms`, verdict: byMedian('lightOmit') },
    { figure: `the same, with 2 fields interface.md does not list (id, ingested_at): ${figure('lightPython')}`, goal: `<= ${VALIDATION_TARGET_MS} ms`, verdict: byMedian('lightPython') },
    { figure: `zod compiled fast path (before), same pages: ${figure('zodCompiled')}; zod plain: ${figure('zodPlain')}`, goal: '', verdict: 'info' },
    ...(Object.keys(CLOSE_PATHS) as ClosePath[]).map((path) => ({ figure: `close-time module per page: ${CLOSE_PATHS[path]}: ${spreadOf(closeTime[path])}`, goal: '', verdict: 'info' as const })),
  ]
  return { msPerPage, closeTime, rows, pass: rows.every((row) => row.verdict !== 'not met') }
}

export function reportValidationCost(r: ValidationCost): string[] {
  const line = (name: string, xs: number[]) => `  ${name}: median ${fmt(median(xs))} ms/page  (p10 ${fmt(quantile(xs, 0.1))}, p90 ${fmt(quantile(xs, 0.9))}; ${ROUNDS} rounds of ${PAGES} pages)`
  return [
    `4. Response validation of a ${PAGE_LIMIT}-candle exchange_ohlcv page, CPU time (JSON.parse not timed)`,
    line('SDK light checker (checkShape)     ', r.msPerPage.light),
    line('  pages written +00:00             ', r.msPerPage.lightOffset),
    line('  .000000+00:00, null flags omitted', r.msPerPage.lightOmit),
    line('  the same with 2 extra fields     ', r.msPerPage.lightPython),
    line('zod compiled fast path (before)    ', r.msPerPage.zodCompiled),
    line('zod plain parser                   ', r.msPerPage.zodPlain),
    ...(Object.keys(CLOSE_PATHS) as ClosePath[]).map((path) => line(`close-time: ${CLOSE_PATHS[path]}`.padEnd(35), r.closeTime[path])),
    `  SDK (medians): ${fmt(median(r.msPerPage.light))} ms/page, +00:00 ${fmt(median(r.msPerPage.lightOffset))}, nulls omitted ${fmt(median(r.msPerPage.lightOmit))}, extra fields ${fmt(median(r.msPerPage.lightPython))} (target <= ${VALIDATION_TARGET_MS})  ${verdict(r.pass)}`,
  ]
}
