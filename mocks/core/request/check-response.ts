import type * as z from 'zod/mini'
import { describeIssue, responseSchemas, type EndpointName } from '../../../src/contract/index.js'
import { compiled } from '../../../src/schemas/wire/compiled.js'
import { errorBodySchema, validationErrorBodySchema } from '../../../src/schemas/index.js'
import type { MockResponse } from '../message/types.js'

/** Throws when an answer of `endpoint` breaks the shared schemas (the `validateResponses` option). */
export function checkResponse(endpoint: EndpointName, res: MockResponse): void {
  if (res.networkError) return
  const schema = res.status === 200 ? responseSchemas[endpoint] : res.status === 422 ? validationErrorBodySchema : errorBodySchema
  const result = compiled(schema as z.ZodMiniType).safeParse(res.body)
  if (!result.success) {
    throw new Error(`Reference service answered ${endpoint} ${res.status} with a body its own schema rejects: ${describeIssue(result.error.issues[0]!, 'body')}`)
  }
}
