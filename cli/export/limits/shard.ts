import { UsageError } from '../../usage-error.js'

/** `--shard I/N`: this process exports the I-th of N fixed shares of the series (I from 1). */
export interface Shard {
  index: number
  count: number
}

/** Parses `I/N` (1 <= I <= N <= 1000); throws {@link UsageError} otherwise. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text)
  const index = m ? Number(m[1]) : NaN
  const count = m ? Number(m[2]) : NaN
  if (!(count >= 1 && count <= 1000 && index >= 1 && index <= count)) {
    throw new UsageError(`--shard must be I/N with 1 <= I <= N <= 1000 (this process's share of N), e.g. --shard 2/4, got '${text}'`)
  }
  return { index, count }
}

// FNV-1a: a stable hash of the pair, the same in every process, every version and on every machine.
function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash
}

/** The shard (1..count) a pair belongs to: from the pair alone, so a catalog that grows moves no pair to another shard. */
export function shardOfPair(pair: { base: string; quote: string }, count: number): number {
  return (fnv1a(`${pair.base}/${pair.quote}`) % count) + 1
}

/** The series of this shard; all of them without `--shard`. */
export function pickShard<S extends { base: string; quote: string }>(series: readonly S[], shard: Shard | undefined): S[] {
  return shard === undefined ? [...series] : series.filter((s) => shardOfPair(s, shard.count) === shard.index)
}
