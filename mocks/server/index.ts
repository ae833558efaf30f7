// `market-candles/mocks/server`: the reference service over node:http, CORS on (pinned in test/public-api.test.ts).
export { startMockServer, createRequestListener, answerParserErrors } from './http-server.js'
export type { MockServerOptions, RunningMockServer } from './http-server.js'
// The control plane's body limits (413 past them) and the variable `serve` reads its control token from.
export { MAX_CONTROL_BODY, MAX_DATA_BODY } from '../core/control-plane/control-limits.js'
export { CONTROL_TOKEN_ENV } from './control-token.js'
