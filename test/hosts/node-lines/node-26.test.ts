/**
 * The module-loading suites (test/support/other-node.ts) pass under Node 26, the newest line: tooltype/register, where
 * Node 26 deprecates `module.register` at run time, and the package entries. The MCP and end-to-end suites run under
 * Node 20 and 24 (node-24).
 */
import { test } from "uvu";
import { passReleaseDependentSuites } from "../../support/other-node";

test("the tooltype/register and package entry tests pass under Node 26", async () => {
  await passReleaseDependentSuites(26, { register: true });
});

test.run();
