export { pageCursorSchema, type PageCursor, type CandlePage } from './page-cursor.js'
export { PageWalk, CandleWalk, DEFAULT_CONCURRENCY, type WalkOptions, type WalkSource, type ToArrayOptions } from './walks.js'
export type { Coverage } from './concurrent-pages.js'
export type { FetchPage } from './sequential-pages.js'
