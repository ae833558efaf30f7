import type { ResolvedVariant } from './service-variant.js'

// The reference writes `YYYY-MM-DDTHH:MM:SS[.fff]Z` (D5); the seconds and the fraction are kept apart.
const REFERENCE_FORM = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/

/**
 * A timestamp the reference wrote, in the variant's form. A fraction the reference wrote is kept
 * (padded to the form's digits, never cut below them); a string of another form passes unchanged.
 *
 * @example
 * writeTimestamp('2025-12-30T00:01:00Z', '.000000+00:00') // '2025-12-30T00:01:00.000000+00:00'
 */
export function writeTimestamp(text: string, form: ResolvedVariant['timestamps']): string {
  if (form === 'Z') return text
  const m = REFERENCE_FORM.exec(text)
  if (!m) return text
  const seconds = m[1]!
  const fraction = m[2] ?? ''
  switch (form) {
    case '+00:00':
      return `${seconds}${fraction ? `.${fraction}` : ''}+00:00`
    case '.000Z':
      return `${seconds}.${fraction.padEnd(3, '0')}Z`
    case '.000000+00:00':
      return `${seconds}.${fraction.padEnd(6, '0')}+00:00`
  }
}
