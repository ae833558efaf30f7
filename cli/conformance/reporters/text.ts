import type { Finding, RuleResult } from '../rule.js'
import { describeSource } from '../sources.js'
import { summaryOf, type Report } from './report.js'
import { plural } from '../../../src/internal/plural.js'

const MARK = { pass: 'PASS', fail: 'FAIL', differ: 'DIFF', skip: 'SKIP' } as const

function findingLines(f: Finding, kind: string): string {
  return [
    `      - ${kind}${f.message}`,
    f.request && `        request:  ${f.request}`,
    f.expected && `        expected: ${f.expected}`,
    f.actual && `        got:      ${f.actual}`,
    f.source && `        source:   ${describeSource(f.source)}`,
  ]
    .filter(Boolean)
    .join('\n')
}

/**
 * One rule as text: a line, the short references of its sources, what it saw (the rules that record
 * it), then each failure and difference with its source, and the rule's link.
 */
export function textOfResult(r: RuleResult): string {
  const head = `${MARK[r.verdict]}  ${r.id.padEnd(22)} ${r.title}`
  const lines = [head, `      sources: ${r.sources.map((s) => s.ref).join(', ')}`]
  if (r.verdict === 'skip') lines.push(`      skipped: ${r.reason}`)
  for (const e of r.evidence) lines.push(`      seen: ${e}`)
  for (const f of r.failures) lines.push(findingLines(f, ''))
  for (const f of r.differences) lines.push(findingLines(f, 'difference from the reference: '))
  if (r.failures.length > 0 || r.differences.length > 0) lines.push(`      rule: ${r.link}`)
  return lines.join('\n')
}

/** The closing lines: counts, the differences by decision, requests used of the budget, time. */
export function textSummary(report: Report): string {
  const s = summaryOf(report)
  const decisions = [...new Set(report.results.flatMap((r) => r.differences.map((d) => d.source?.ref).filter((ref) => ref !== undefined)))].sort()
  return [
    `${plural(report.results.length, 'rule')}: ${s.pass} passed, ${s.fail} failed, ${s.differ} differ from the reference, ${s.skip} skipped`,
    ...(decisions.length > 0
      ? [`differences from the reference (${decisions.join(', ')}): ${report.reference ? 'failed, as --reference asks' : 'listed, not failed: the deployment fills these gaps of interface.md another way (--reference fails them)'}`]
      : []),
    `${plural(report.requests.used, 'request')} of a budget of ${report.requests.budget} (${report.requests.counted} counted as candle ${report.requests.counted === 1 ? 'call' : 'calls'}); ${(report.ms / 1000).toFixed(1)} s against ${report.baseUrl}`,
  ].join('\n')
}
