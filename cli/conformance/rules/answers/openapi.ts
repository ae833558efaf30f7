import type { AnswerProblems } from '../../openapi-check.js'
import type { Answer } from '../../prober.js'
import { about, type Rule } from '../../rule.js'
import { DECISION, IFACE, type Source } from '../../sources.js'
import { candlePages } from '../shared/candle-pages.js'

/** Each kind of problem, its source and how a finding about it reads. */
const KINDS: Array<[keyof AnswerProblems, Source, string, string]> = [
  ['shape', IFACE.bareArray, 'a 200 is not a bare JSON array', 'application/json, a bare array (no wrapper object)'],
  ['interface', IFACE.fields, 'a 200 is not a JSON array of the resource with the fields and types interface.md lists', 'application/json, a bare array, each listed field of its type (null fields may be left out, other fields may be added, timestamps in any ISO 8601 UTC form)'],
  ['timestamps', DECISION.D5, 'timestamps are not written as the reference writes them', 'YYYY-MM-DDTHH:MM:SSZ'],
  ['fields', DECISION.D13, 'the fields are not the ones the reference writes', 'every field interface.md lists, null ones written as null, and no other'],
  ['errors', DECISION.D1, 'an error answer is not the reference\'s', 'a status the reference uses, application/json, {"detail": ...} as D1 describes'],
]

/** Every answer of the run validated against the OpenAPI document, as interface.md permits and as the reference writes it. */
export const openapi: Rule = {
  id: 'openapi',
  title: 'every 200 is a JSON array of the resource, its fields of the listed types; the reference: the OpenAPI document exactly (Z timestamps, every field, error bodies)',
  anchor: 'openapi',
  sources: [IFACE.bareArray, IFACE.fields, DECISION.D5, DECISION.D13, DECISION.D1],
  afterOthers: true,
  async run(ctx) {
    // Run alone (`--only openapi`), the run has no candle page yet: fetch the newest of each, as the data rules do.
    if (!ctx.prober.answers.some((a) => a.status === 200 && /^\/v1\/(exchange|aggregated)_ohlcv$/.test(a.path))) await candlePages(ctx).catch(() => undefined)
    // ajv and the OpenAPI document load with this rule only: a run of other rules (--only, --help) skips them.
    const check = (await import('../../openapi-check.js')).createOpenApiCheck()
    let seen = 0
    // Each kind of problem once, with how many answers had it: five kinds fit in the report.
    const first = new Map<keyof AnswerProblems, { answer: Answer; problems: string[]; count: number }>()
    for (const answer of ctx.prober.answers) {
      const problems = check(answer)
      if (problems === undefined) continue
      seen++
      for (const [kind] of KINDS) {
        if (problems[kind].length === 0) continue
        const known = first.get(kind)
        if (known) known.count++
        else first.set(kind, { answer, problems: problems[kind], count: 1 })
      }
    }
    for (const [kind, source, message, expected] of KINDS) {
      const found = first.get(kind)
      if (found) ctx.check(source, false, about(found.answer, `${message} (${found.count} of ${seen} answers)`, expected, `${found.problems.join('; ')} — ${found.answer.text.slice(0, 200)}`))
    }
    if (seen === 0) ctx.skip('no answer to check')
  },
}
