import { SERVICE_VARIANTS, type ServiceVariantName } from './presets.js'
import { resolveVariant } from './resolve-variant.js'
import type { ResolvedVariant, ServiceVariant } from './service-variant.js'

// The text's kebab-case names of the fields.
const FIELDS: Record<string, keyof ServiceVariant> = {
  timestamps: 'timestamps',
  'missing-key': 'missingKey',
  'error-bodies': 'errorBodies',
  'rate-limit-headers': 'rateLimitHeaders',
  'null-fields': 'nullFields',
  'extra-fields': 'extraFields',
}

/**
 * A variant written as text, as `serve --variant` takes it: a preset's name (`python-stack`), or
 * `field=value` pairs separated by commas (`timestamps=+00:00,missing-key=403,extra-fields`), or a
 * preset then pairs over it. `extra-fields` alone means `extra-fields=true`. Throws a TypeError
 * naming the bad part.
 *
 * @example
 * parseVariantText('python-stack,missing-key=401').missingKey // 401
 */
export function parseVariantText(text: string): ResolvedVariant {
  const parts = text.split(',').map((part) => part.trim())
  if (parts.some((part) => part === '')) throw new TypeError(`empty part in ${JSON.stringify(text)}: give a preset (${Object.keys(SERVICE_VARIANTS).join(', ')}) or field=value pairs separated by commas`)
  let variant: ServiceVariant = {}
  parts.forEach((part, i) => {
    const eq = part.indexOf('=')
    const name = eq < 0 ? part : part.slice(0, eq)
    if (eq < 0 && i === 0 && Object.hasOwn(SERVICE_VARIANTS, name)) {
      variant = { ...SERVICE_VARIANTS[name as ServiceVariantName] }
      return
    }
    const field = Object.hasOwn(FIELDS, name) ? FIELDS[name]! : undefined
    if (!field) {
      throw new TypeError(`unknown ${eq < 0 && i === 0 ? 'preset or field' : 'field'} '${name}' (presets: ${Object.keys(SERVICE_VARIANTS).join(', ')}; fields: ${Object.keys(FIELDS).join(', ')})`)
    }
    const value = eq < 0 ? undefined : part.slice(eq + 1)
    ;(variant as Record<string, unknown>)[field] = valueOf(field, name, value)
  })
  try {
    return resolveVariant(variant)
  } catch (error) {
    throw new TypeError((error as Error).message.replace(/^Invalid variant: /, ''))
  }
}

function valueOf(field: keyof ServiceVariant, name: string, value: string | undefined): unknown {
  if (field === 'extraFields') {
    if (value === undefined || value === 'true') return true
    if (value === 'false') return false
    throw new TypeError(`${name} takes true or false, got '${value}'`)
  }
  if (value === undefined || value === '') throw new TypeError(`${name} needs a value (${name}=...)`)
  if (field === 'missingKey') {
    if (value === '401' || value === '403') return Number(value)
    throw new TypeError(`${name} must be 401 or 403, got '${value}'`)
  }
  return value
}
