/*
 * Deterministic pseudo-randomness with random access: any value is a pure function of its
 * coordinates, so a candle ten years back costs the same as today's.
 */

/** FNV-1a of a string, as a seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A well-mixed 32-bit hash of (seed, i); `i` may be any integer below 2^53. */
export function hash(seed: number, i: number): number {
  const lo = i >>> 0
  const hi = Math.floor(i / 4294967296) >>> 0
  let h = Math.imul(seed ^ lo, 0x9e3779b1) ^ Math.imul(hi + 0x632be5ab, 0x85ebca77)
  h ^= h >>> 16
  h = Math.imul(h, 0x7feb352d)
  h ^= h >>> 15
  h = Math.imul(h, 0x846ca68b)
  h ^= h >>> 16
  return h >>> 0
}

/** Uniform in [0, 1). */
export const unit = (seed: number, i: number): number => hash(seed, i) / 4294967296

/**
 * Smooth noise in [-1, 1] along x for one seed: hashed lattice values, smoothstep-interpolated.
 * It remembers the last lattice cell: along a walk, slow noise stays in one cell for many
 * candles, so the cell's two hashes are computed once. (A class, not a closure per seed, so the
 * call sites stay monomorphic and inline.)
 */
export class ValueNoise {
  readonly #seed: number
  #cell = Number.NaN
  #a = 0
  #b = 0

  constructor(seed: number) {
    this.#seed = seed
  }

  at(x: number): number {
    const i = Math.floor(x)
    if (i !== this.#cell) {
      this.#a = unit(this.#seed, i) * 2 - 1
      this.#b = unit(this.#seed, i + 1) * 2 - 1
      this.#cell = i
    }
    const f = x - i
    const s = f * f * (3 - 2 * f)
    return this.#a + (this.#b - this.#a) * s
  }
}
