import type { MockResponse } from '../message/types.js'
import { invalid } from '../message/respond.js'

/** Parses a control request's JSON body; a 422 in the service's format when it is empty or not JSON. */
export function parseJsonBody(text: string): { value: unknown } | { error: MockResponse } {
  if (text.trim() === '') return { error: invalid([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]) }
  try {
    return { value: JSON.parse(text) }
  } catch (error) {
    return { error: invalid([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: text.slice(0, 200), ctx: { error: (error as Error).message } }]) }
  }
}

/** A 422 unless `value` is a JSON object (pydantic's `dict_type`). */
export function notAnObject(value: unknown): MockResponse | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return undefined
  return invalid([{ type: 'dict_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: value }])
}

/** A 422 unless `value` is a JSON array (pydantic's `list_type`). */
export function notAnArray(value: unknown): MockResponse | undefined {
  if (Array.isArray(value)) return undefined
  return invalid([{ type: 'list_type', loc: ['body'], msg: 'Input should be a valid list', input: value }])
}
