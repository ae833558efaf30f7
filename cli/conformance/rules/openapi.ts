import { createOpenApiCheck } from '../openapi-check.js'
import { about, type Rule } from '../rule.js'

/** Every answer of the run validated against the OpenAPI document. */
export const openapi: Rule = {
  id: 'openapi',
  title: 'every answer is a documented status of its path with a JSON body valid against the OpenAPI document',
  anchor: 'openapi',
  afterOthers: true,
  async run(ctx) {
    const check = createOpenApiCheck()
    let seen = 0
    let shown = 0
    for (const answer of ctx.prober.answers) {
      const problems = check(answer)
      if (problems === undefined) continue
      seen++
      if (problems.length > 0 && shown++ < 5) ctx.check(false, about(answer, 'the answer does not follow the OpenAPI document', 'a documented status, application/json, a body valid against its schema', `${problems.join('; ')} — ${answer.text.slice(0, 200)}`))
    }
    if (seen === 0) ctx.skip('no answer to check')
  },
}
