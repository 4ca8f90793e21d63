/**
 * The conformance corpus (conformance.case.ts) under every TypeScript version and mode the tests use (5.9, 5.5, 6.0,
 * experimentalDecorators, the files in reverse order), each compile checked on its own and all of them compared:
 * the metadata and tooltype's diagnostics must not depend on the compile. Five compiles of the corpus: the
 * integration tier's kind of work (conformance.test.ts runs the first in the unit tier).
 */
import { test } from "uvu";
import { COMPILES, conformance } from "./conformance.case";

conformance(COMPILES);

test.run();
