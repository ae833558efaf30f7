// `market-candles/mocks/node`: the reference service behind MSW for vitest or jest (pinned in test/public-api.test.ts).
export { setupMockService } from './setup-mock-service.js'
export type { MockServiceHandle, SetupMockServiceOptions } from './setup-mock-service.js'
