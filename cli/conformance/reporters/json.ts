import { summaryOf, type Report } from './report.js'

/** The run as JSON: the summary, the request count and every rule with its sources, failures and differences. */
export function jsonOf(report: Report): string {
  return `${JSON.stringify({ baseUrl: report.baseUrl, startedAt: report.startedAt, ms: Math.round(report.ms), reference: report.reference, requests: report.requests, summary: summaryOf(report), rules: report.results.map((r) => ({ ...r, ms: Math.round(r.ms) })) }, null, 2)}\n`
}
