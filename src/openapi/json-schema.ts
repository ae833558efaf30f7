import * as z from 'zod/mini'
import { ASSET_TYPES, FLAGS, INTERVALS, METHODS, assetTypeSchema, flagSchema, intervalSchema, methodSchema } from '../schemas/index.js'

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = Record<string, unknown>

/** Metadata the document's registry holds: a component name and the words that go with it. */
export interface SchemaMeta {
  id?: string
  description?: string
  format?: string
  examples?: unknown[]
}

/**
 * The open-enum schemas (strings whose known values may grow) and their known values. A schema with
 * no JSON Schema of its own that is not listed here makes the conversion throw, so a new open enum
 * cannot slip into the document as `{}`.
 */
const OPEN_ENUMS = new Map<z.core.$ZodType, readonly string[]>([
  [intervalSchema, INTERVALS],
  [methodSchema, METHODS],
  [assetTypeSchema, ASSET_TYPES],
  [flagSchema.def.innerType, FLAGS],
])

/**
 * An open enum (a string with known values that may grow) has no JSON Schema of its own: it is a
 * string, its known values listed as examples, so a newer value still validates.
 */
function override({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const known = OPEN_ENUMS.get(zodSchema)
  if (known === undefined) return
  jsonSchema.type = 'string'
  jsonSchema.examples = [...known]
  jsonSchema.description ??= `Known values: ${known.join(', ')}. Newer values may appear; treat them as unknown, not as an error.`
}

// Only the open enums may lack a JSON Schema (the override above gives them one); anything else throws.
const unrepresentable = ({ zodSchema }: { zodSchema: z.core.$ZodType }) => (OPEN_ENUMS.has(zodSchema) ? 'any' : 'throw') as 'any' | 'throw'

/** Drops what zod writes for a standalone document but OpenAPI's component schemas do without. */
function clean(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema
  return rest
}

/** Converts every schema of `registry` that has an `id` into OpenAPI component schemas that `$ref` each other. */
export function componentSchemas(registry: z.core.$ZodRegistry<SchemaMeta>): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { metadata: registry, uri: (id) => `#/components/schemas/${id}`, override, unrepresentable })
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, clean(schema as JsonSchema)]))
}

/** One schema inline (parameters, headers), with the metadata of `registry`. */
export function inlineSchema(schema: z.ZodMiniType, registry: z.core.$ZodRegistry<SchemaMeta>): JsonSchema {
  return clean(z.toJSONSchema(schema, { metadata: registry, override, unrepresentable, io: 'input' }) as JsonSchema)
}
