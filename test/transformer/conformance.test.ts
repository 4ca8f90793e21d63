/**
 * The conformance corpus (conformance.case.ts), compiled once with the TypeScript the package is built with: the
 * unit tier's check of every fixture. conformance.integration.test.ts compiles it under every version and mode.
 */
import { test } from "uvu";
import { COMPILES, conformance } from "./conformance.case";

conformance([COMPILES[0]!]);

test.run();
