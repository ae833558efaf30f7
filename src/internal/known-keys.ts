/**
 * Rejects a key that `known` does not list, with a suggestion: JavaScript callers have no type
 * checker, and a misspelt option (`apikey`, `maxRetry`) would otherwise be silently ignored.
 */
export function checkKnownKeys(what: string, given: object, known: readonly string[]): void {
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue
    const guess = closest(key, known)
    throw new TypeError(`Unknown option '${key}' of ${what}${guess ? `; did you mean '${guess}'?` : ''} Known options: ${known.join(', ')}.`)
  }
}

/** The known name nearest to `key` (Levenshtein, case-insensitive), if near enough to be a misspelling. */
export function closest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase()
  let best: string | undefined
  let bestDistance = Infinity
  for (const name of known) {
    const d = name.toLowerCase() === lower ? 0 : distance(lower, name.toLowerCase())
    if (d < bestDistance) [best, bestDistance] = [name, d]
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined
}

// Levenshtein distance, small strings only.
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
