import type { HeaderSource } from './types.js'

/** Reads one header case-insensitively; a repeated header reads as its values joined by `, `. */
export function readHeader(headers: HeaderSource | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const lower = name.toLowerCase()
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() === lower && value !== undefined) return typeof value === 'string' ? value : value.join(', ')
  }
  return undefined
}
