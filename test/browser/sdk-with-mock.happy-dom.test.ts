// @vitest-environment happy-dom
import { sdkWithMockSuite } from './sdk-with-mock.suite.js'

sdkWithMockSuite('happy-dom')
