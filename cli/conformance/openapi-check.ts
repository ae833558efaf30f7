import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { buildOpenApiDocument } from '../../src/openapi/index.js'
import { instantOf } from './instant.js'
import type { Answer } from './prober.js'

// ajv-formats is CommonJS: its function is the default export under some loaders, the module itself under others.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void

type Json = any

/**
 * A UTC designator interface.md's "ISO 8601 UTC datetime" admits (D13): Z, z, +00:00, +0000, -00:00, +00.
 * A non-zero offset denotes an instant too (the SDK reads it), but is not written in UTC: a failure here.
 */
const UTC_FORM = /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:[Zz]|[+-]00(?::?00)?)$/
/** The reference's own form (D5). */
const REFERENCE_FORM = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/

/** What is wrong with one answer, split by where the rule broken comes from. */
export interface AnswerProblems {
  /** interface.md: a 200 that is not a bare JSON array (application/json). */
  shape: string[]
  /** interface.md: a 200 whose rows are not the resource, its fields of the listed types. */
  interface: string[]
  /** D5: timestamps not written `YYYY-MM-DDTHH:MM:SSZ`. */
  timestamps: string[]
  /** D13: null fields left out, fields interface.md does not list. */
  fields: string[]
  /** D1: an error answer that is not the reference's (documented status, JSON, its body schema). */
  errors: string[]
}

const TIMESTAMP_FIELDS = ['close_ts', 'first_close_ts', 'last_close_ts']

/**
 * Checks answers against the OpenAPI document of the contract (the one the package exports as
 * `market-candles/openapi.json`), reading a 200 as interface.md permits (D13): any ISO 8601 form
 * of a UTC instant, a null field left out, fields it does not list. What the reference does beyond
 * that (the `Z` form, every field written, no other) is reported apart, as are error answers.
 */
export function createOpenApiCheck(): (answer: Answer) => AnswerProblems | undefined {
  // Compiling the two validators costs a few hundred ms: once per process, whatever the runs.
  shared ??= buildCheck()
  return shared
}

let shared: ((answer: Answer) => AnswerProblems | undefined) | undefined

function buildCheck(): (answer: Answer) => AnswerProblems | undefined {
  const doc = buildOpenApiDocument() as Json
  const deref = (node: Json): Json => (node?.$ref ? deref(node.$ref.slice(2).split('/').reduce((n: Json, k: string) => n[k], doc)) : node)
  const reference = new Ajv2020({ strict: false, allErrors: true })
  addFormats(reference)
  reference.addSchema(doc, 'openapi.json')
  // The same document read as interface.md permits.
  const lenientDoc = structuredClone(doc)
  const allowsNull = (schema: Json): boolean => {
    const s = schema?.$ref ? lenientDoc.components.schemas[schema.$ref.split('/').at(-1)] : schema
    return s?.type === 'null' || (Array.isArray(s?.anyOf) && s.anyOf.some(allowsNull))
  }
  lenientDoc.components.schemas.Timestamp = { type: 'string', format: 'utc-instant' }
  for (const schema of Object.values<Json>(lenientDoc.components.schemas)) {
    if (schema.type !== 'object' || !schema.properties) continue
    delete schema.additionalProperties
    schema.required = (schema.required ?? []).filter((name: string) => !allowsNull(schema.properties[name]))
  }
  const lenient = new Ajv2020({ strict: false, allErrors: true })
  addFormats(lenient)
  lenient.addFormat('utc-instant', (text: string) => UTC_FORM.test(text) && !Number.isNaN(instantOf(text)))
  lenient.addSchema(lenientDoc, 'openapi.json')
  const validators = new Map<string, ReturnType<Ajv2020['compile']>>()
  const validatorOf = (ajv: Ajv2020, name: string, schema: Json) => {
    const id = `${name} ${JSON.stringify(schema)}`
    let v = validators.get(id)
    if (!v) {
      v = schema.$ref ? ajv.getSchema(`openapi.json${schema.$ref}`)! : ajv.compile(schema)
      validators.set(id, v)
    }
    return v
  }
  /** The fields interface.md lists for the rows of a 200 of `path`. */
  const fieldsOf = (path: string): string[] => {
    const body = deref(doc.paths[path].get.responses['200'].content['application/json'].schema)
    return Object.keys(deref(body.items)?.properties ?? {})
  }

  /** The problems of one answer; `undefined` when the document does not describe its request. */
  return (answer) => {
    const item = doc.paths[answer.path]
    if (!item || answer.method !== 'GET') return undefined
    const problems: AnswerProblems = { shape: [], interface: [], timestamps: [], fields: [], errors: [] }
    const type = answer.headers['content-type'] ?? ''
    const spec = deref(item.get.responses[String(answer.status)])
    if (answer.status !== 200) {
      if (!spec) return { ...problems, errors: [`status ${answer.status} is not one the reference uses for GET ${answer.path} (it uses ${Object.keys(item.get.responses).join(', ')})`] }
      if (!type.startsWith('application/json')) problems.errors.push(`content-type ${type || '(absent)'}, not application/json`)
      if (!answer.json) return { ...problems, errors: [...problems.errors, 'the body is not JSON'] }
      const validate = validatorOf(reference, 'reference', spec.content['application/json'].schema)
      if (!validate(answer.body)) problems.errors.push(`body: ${reference.errorsText(validate.errors, { dataVar: 'body' })}`)
      return problems
    }
    if (!type.startsWith('application/json')) problems.shape.push(`content-type ${type || '(absent)'}, not application/json`)
    if (!answer.json) return { ...problems, shape: [...problems.shape, 'the body is not JSON'] }
    if (!Array.isArray(answer.body)) return { ...problems, shape: [...problems.shape, 'the body is not an array'] }
    const validate = validatorOf(lenient, 'lenient', spec.content['application/json'].schema)
    if (!validate(answer.body)) {
      problems.interface.push(`body: ${lenient.errorsText(validate.errors, { dataVar: 'body' })}`)
      return problems
    }
    const listed = fieldsOf(answer.path)
    for (const [i, row] of (answer.body as Array<Record<string, unknown>>).entries()) {
      for (const name of TIMESTAMP_FIELDS) {
        const value = row[name]
        if (typeof value === 'string' && !REFERENCE_FORM.test(value)) problems.timestamps.push(`body[${i}].${name} ${JSON.stringify(value)}, not YYYY-MM-DDTHH:MM:SSZ`)
      }
      const missing = listed.filter((name) => !(name in row))
      const extra = Object.keys(row).filter((name) => !listed.includes(name))
      if (missing.length > 0) problems.fields.push(`body[${i}] leaves out ${missing.join(', ')} (null)`)
      if (extra.length > 0) problems.fields.push(`body[${i}] has fields interface.md does not list: ${extra.join(', ')}`)
      // One row shows the pattern: every row of a deployment is written alike.
      if (problems.timestamps.length > 0 || problems.fields.length > 0) break
    }
    return problems
  }
}
