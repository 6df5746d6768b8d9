/** The contract test (suite.ts) of the translation example. */
import { contractSuite } from './suite.ts'

contractSuite('translation')
