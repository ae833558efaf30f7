// `market-candles/mocks/msw`: MSW handlers over a reference service (pinned in test/public-api.test.ts).
export { createHandlers } from './handlers.js'
export type { MockHandlersOptions } from './handlers.js'
