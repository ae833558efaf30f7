export { pageCursorSchema, type PageCursor, type CandlePage } from './page-cursor.js'
export { PageWalk, CandleWalk, type WalkOptions } from './walks.js'
