import { sessionSuite } from './session-suite.js'

sessionSuite('worker-1', 3, '2021-01-01T01:00:00.000Z')
