import type { RuleResult } from '../rule.js'
import { summaryOf, type Report } from './report.js'
import { plural } from '../../plural.js'

const MARK = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const

/** One rule as text: a line, then for a failure each case and the rule's link. */
export function textOfResult(r: RuleResult): string {
  const head = `${MARK[r.verdict]}  ${r.id.padEnd(22)} ${r.title}`
  if (r.verdict === 'skip') return `${head}\n      skipped: ${r.reason}`
  if (r.verdict === 'pass') return head
  const cases = r.failures.map((f) =>
    [`      - ${f.message}`, f.request && `        request:  ${f.request}`, f.expected && `        expected: ${f.expected}`, f.actual && `        got:      ${f.actual}`].filter(Boolean).join('\n'),
  )
  return [head, ...cases, `      rule: ${r.link}`].join('\n')
}

/** The closing lines: counts, requests used of the budget, time. */
export function textSummary(report: Report): string {
  const s = summaryOf(report)
  return [
    `${plural(report.results.length, 'rule')}: ${s.pass} passed, ${s.fail} failed, ${s.skip} skipped`,
    `${plural(report.requests.used, 'request')} of a budget of ${report.requests.budget} (${report.requests.counted} counted as candle ${report.requests.counted === 1 ? 'call' : 'calls'}); ${(report.ms / 1000).toFixed(1)} s against ${report.baseUrl}`,
  ].join('\n')
}
