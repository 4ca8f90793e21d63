/**
 * The suites that depend on the Node release (test/support/other-node.ts) pass under Node 24, the active LTS line:
 * the package entries, and the MCP and end-to-end suites on its HTTP server, fetch and streams.
 */
import { test } from "uvu";
import { passReleaseDependentSuites } from "../../support/other-node";

test("the package entry, MCP and end-to-end tests pass under Node 24", async () => {
  await passReleaseDependentSuites(24, { served: true });
});

test.run();
