import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { buildOpenApiDocument } from '../../src/openapi/index.js'
import type { Answer } from './prober.js'

// ajv-formats is CommonJS: its function is the default export under some loaders, the module itself under others.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void

type Json = any

/**
 * Checks answers against the OpenAPI document of the contract (the one the package exports as
 * `market-candles/openapi.json`): a documented status of the path, JSON content, the body schema.
 * Headers have their own rules.
 */
export function createOpenApiCheck(): (answer: Answer) => string[] | undefined {
  const doc = buildOpenApiDocument() as Json
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(doc, 'openapi.json')
  const deref = (node: Json): Json => (node?.$ref ? deref(node.$ref.slice(2).split('/').reduce((n: Json, k: string) => n[k], doc)) : node)
  const validators = new Map<string, ReturnType<Ajv2020['compile']>>()
  const validatorOf = (schema: Json) => {
    const id = JSON.stringify(schema)
    let v = validators.get(id)
    if (!v) {
      v = schema.$ref ? ajv.getSchema(`openapi.json${schema.$ref}`)! : ajv.compile(schema)
      validators.set(id, v)
    }
    return v
  }
  /** The problems of one answer; `undefined` when the document does not describe its request. */
  return (answer) => {
    const item = doc.paths[answer.path]
    if (!item || answer.method !== 'GET') return undefined
    const spec = deref(item.get.responses[String(answer.status)])
    if (!spec) return [`status ${answer.status} is not documented for GET ${answer.path} (documented: ${Object.keys(item.get.responses).join(', ')})`]
    const problems: string[] = []
    const type = answer.headers['content-type'] ?? ''
    if (!type.startsWith('application/json')) problems.push(`content-type ${type || '(absent)'}, not application/json`)
    if (!answer.json) return [...problems, 'the body is not JSON']
    const validate = validatorOf(spec.content['application/json'].schema)
    if (!validate(answer.body)) problems.push(`body: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`)
    return problems
  }
}
