import { summaryOf, type Report } from './report.js'

// Control characters other than tab and newlines are not allowed in XML 1.0 at all.
const xml = (text: string) =>
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The run as JUnit XML: one testcase per rule, a failure with each case, a skipped with why. */
export function junitOf(report: Report): string {
  const s = summaryOf(report)
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const cases = report.results.map((r) => {
    const open = `  <testcase classname="market-candles.conformance" name="${xml(`${r.id}: ${r.title}`)}" time="${seconds(r.ms)}">`
    if (r.verdict === 'pass') return `${open}</testcase>`
    if (r.verdict === 'skip') return `${open}\n    <skipped message="${xml(r.reason ?? '')}"/>\n  </testcase>`
    const body = [...r.failures.map((f) => [f.message, f.request && `request:  ${f.request}`, f.expected && `expected: ${f.expected}`, f.actual && `got:      ${f.actual}`].filter(Boolean).join('\n')), `rule: ${r.link}`].join('\n\n')
    return `${open}\n    <failure message="${xml(r.failures[0]?.message ?? 'failed')}" type="contract">${xml(body)}</failure>\n  </testcase>`
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
