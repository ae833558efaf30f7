/** A key the run may send: its label in reports (`main`, `plan free`), never its value. */
export interface KeyRef {
  readonly label: string
  readonly value: string
}

/** What a request sends as `X-API-Key`: one of the user's keys, a made-up value, or nothing. */
export type KeyChoice = KeyRef | { readonly literal: string } | undefined

/** How a report shows the key of a request: the label of a user's key, or the made-up value. */
export function describeKey(key: KeyChoice): string {
  if (key === undefined) return 'no X-API-Key'
  if ('literal' in key) return `X-API-Key: ${JSON.stringify(key.literal)}`
  return `X-API-Key: <${key.label} key, redacted>`
}

/**
 * Replaces every user key in `text` by `<redacted>`: a service may echo a key in a body, and the
 * report quotes bodies. Every reporter passes its output through this.
 */
export function redactor(keys: readonly KeyRef[]): (text: string) => string {
  const secrets = [...new Set(keys.map((k) => k.value))].filter((v) => v !== '').sort((a, b) => b.length - a.length)
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('<redacted>'), text)
}

/** `value` with `redact` applied to every string in it: reports are redacted before they are formatted. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)])) as T
  return value
}
