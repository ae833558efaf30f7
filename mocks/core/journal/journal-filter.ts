import { parseDateTime } from '../../../src/contract/index.js'
import type { JournalEntry, JournalFilter } from './journal-entry.js'

const FILTER_KEYS = ['path', 'status', 'account', 'since', 'method']

/** A predicate over journal entries; throws a `TypeError` naming the field for a bad filter. */
export function matcherOf(filter: JournalFilter = {}): (entry: JournalEntry) => boolean {
  if (filter === null || typeof filter !== 'object') throw new TypeError(`A journal filter must be an object, got ${String(filter)}`)
  for (const key of Object.keys(filter)) {
    if (!FILTER_KEYS.includes(key)) throw new TypeError(`Unknown journal filter '${key}'. Known filters: ${FILTER_KEYS.join(', ')}.`)
  }
  const { path, status, account, method, since } = filter
  let afterSeq = 0
  let fromWall = -Infinity
  if (typeof since === 'number') {
    if (!Number.isInteger(since) || since < 0) throw new TypeError(`since must be a seq number (an integer >= 0), a datetime or a Date, got ${since}`)
    afterSeq = since
  } else if (since instanceof Date) fromWall = since.getTime()
  else if (typeof since === 'string') {
    const parsed = parseDateTime(since)
    if (!parsed.ok) throw new TypeError(`since must be a seq number or a datetime, got ${JSON.stringify(since)}: ${parsed.reason}`)
    fromWall = parsed.ms
  }
  return (entry) =>
    (path === undefined || entry.path === path) &&
    (status === undefined || entry.status === status) &&
    (account === undefined || entry.account === account) &&
    (method === undefined || entry.method === method) &&
    entry.seq > afterSeq &&
    (fromWall === -Infinity || Date.parse(entry.time.wall) >= fromWall)
}
