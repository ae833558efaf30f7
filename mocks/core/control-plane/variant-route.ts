import { bodyIssues } from './body-issues.js'
import type { ControlRoute } from './control-route.js'
import { parseJsonBody } from './json-body.js'
import { invalid, json } from '../message/respond.js'
import type { MockService } from '../service/service.js'
import type { MockResponse } from '../message/types.js'
import { SERVICE_VARIANTS, type ServiceVariantName } from '../variant/presets.js'
import { resolveVariant } from '../variant/resolve-variant.js'
import type { ResolvedVariant, ServiceVariant } from '../variant/service-variant.js'
import { variantPutSchema } from '../variant/variant-bodies.js'

/** The name of the preset `v` equals, or null. */
function presetOf(v: ResolvedVariant): string | null {
  for (const name of Object.keys(SERVICE_VARIANTS) as ServiceVariantName[]) {
    const preset = resolveVariant(name)
    if ((Object.keys(v) as (keyof ResolvedVariant)[]).every((k) => preset[k] === v[k])) return name
  }
  return null
}

const stateOf = (service: MockService): MockResponse => json(200, { variant: { ...service.variant }, preset: presetOf(service.variant) })

/** `/_mock/variant`: how the service (or the session) fills interface.md's gaps, read and changed at run time. */
export const VARIANT_ROUTE: ControlRoute = {
  GET: stateOf,
  PUT: (service, text) => {
    const parsed = parseJsonBody(text)
    if ('error' in parsed) return parsed.error
    const result = variantPutSchema.safeParse(parsed.value)
    if (!result.success) return invalid(bodyIssues(result.error.issues, parsed.value))
    const { preset, ...fields } = result.data
    const base = preset === undefined ? {} : SERVICE_VARIANTS[preset as ServiceVariantName]
    const merged: ServiceVariant = { ...base }
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) (merged as Record<string, unknown>)[key] = value
    service.setVariant(merged)
    return stateOf(service)
  },
}
