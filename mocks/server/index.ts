// `market-candles/mocks/server`: the reference service over node:http, CORS on (pinned in test/public-api.test.ts).
export { startMockServer, createRequestListener, answerParserErrors } from './http-server.js'
export type { MockServerOptions, RunningMockServer } from './http-server.js'
