import type { Finding } from '../rule.js'
import { describeSource } from '../sources.js'
import { summaryOf, type Report } from './report.js'

// Control characters other than tab and newlines are not allowed in XML 1.0 at all.
const xml = (text: string) =>
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const caseText = (f: Finding, kind: string) =>
  [`${kind}${f.message}`, f.request && `request:  ${f.request}`, f.expected && `expected: ${f.expected}`, f.actual && `got:      ${f.actual}`, f.source && `source:   ${describeSource(f.source)}`].filter(Boolean).join('\n')

/**
 * The run as JUnit XML: one testcase per rule with its sources as properties; a failure with each
 * case (interface.md's, and the differences too under `--reference`), a skipped with why; the
 * differences of a rule that did not fail go to its system-out.
 */
export function junitOf(report: Report): string {
  const s = summaryOf(report)
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const cases = report.results.map((r) => {
    const inner: string[] = [`    <properties>${r.sources.map((src) => `<property name="source" value="${xml(src.ref)}"/>`).join('')}</properties>`]
    const differences = r.differences.map((f) => caseText(f, 'difference from the reference: '))
    if (r.verdict === 'skip') inner.push(`    <skipped message="${xml(r.reason ?? '')}"/>`)
    if (r.verdict === 'fail') {
      const first = r.failures[0] ?? r.differences[0]
      const type = r.failures.length > 0 ? 'interface' : 'reference'
      const body = [...r.failures.map((f) => caseText(f, '')), ...differences, `rule: ${r.link}`].join('\n\n')
      inner.push(`    <failure message="${xml(first?.message ?? 'failed')}" type="${type}">${xml(body)}</failure>`)
    } else if (differences.length > 0) {
      inner.push(`    <system-out>${xml([...differences, `rule: ${r.link}`].join('\n\n'))}</system-out>`)
    }
    return [`  <testcase classname="market-candles.conformance" name="${xml(`${r.id}: ${r.title}`)}" time="${seconds(r.ms)}">`, ...inner, '  </testcase>'].join('\n')
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="market-candles conformance" tests="${report.results.length}" failures="${s.fail}" skipped="${s.skip}" time="${seconds(report.ms)}">`,
    `<testsuite name="${xml(`conformance of ${report.baseUrl}`)}" tests="${report.results.length}" failures="${s.fail}" errors="0" skipped="${s.skip}" time="${seconds(report.ms)}" timestamp="${report.startedAt}">`,
    ...cases,
    '</testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
