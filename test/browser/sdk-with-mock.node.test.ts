// @vitest-environment node
import { sdkWithMockSuite } from './sdk-with-mock.suite.js'

sdkWithMockSuite('node')
