/** The suites that depend on the Node release (test/support/other-node.ts) pass under Node 22, all of them. */
import { test } from "uvu";
import { passReleaseDependentSuites } from "../../support/other-node";

test("the tooltype/register, bundler, package entry, MCP and end-to-end tests pass under Node 22", async () => {
  await passReleaseDependentSuites(22, { all: true });
});

test.run();
