/** The first grid point at or after `t`. */
export const ceilTo = (t: number, step: number): number => Math.ceil(t / step) * step

/** The last grid point at or before `t`. */
export const floorTo = (t: number, step: number): number => Math.floor(t / step) * step

/** Index of the first element of sorted `xs` that is `>= x`. */
export function lowerBound(xs: ArrayLike<number>, x: number): number {
  let lo = 0
  let hi = xs.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (xs[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Index of the first element of sorted `xs` that is `> x`. */
export function upperBound(xs: ArrayLike<number>, x: number): number {
  let lo = 0
  let hi = xs.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (xs[mid]! <= x) lo = mid + 1
    else hi = mid
  }
  return lo
}
