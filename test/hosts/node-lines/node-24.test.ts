/** The suites that depend on the Node release (test/support/other-node.ts) pass under Node 24. */
import { test } from "uvu";
import { passReleaseDependentSuites } from "../../support/other-node";

test("the tooltype/register, package entry, MCP and end-to-end tests pass under Node 24", async () => {
  await passReleaseDependentSuites(24, { all: false });
});

test.run();
