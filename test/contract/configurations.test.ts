/** The contract test (suite.ts) of the configurations example. */
import { contractSuite } from './suite.ts'

contractSuite('configurations')
