/**
 * The suites that depend on the Node release (test/support/other-node.ts) pass under Node 22, the oldest line users
 * run: tooltype/register on `module.registerHooks`, each bundler with its plugin (tsup 9 and tsdown need 22), the
 * package entries.
 */
import { test } from "uvu";
import { passReleaseDependentSuites } from "../../support/other-node";

test("the tooltype/register, bundler and package entry tests pass under Node 22", async () => {
  await passReleaseDependentSuites(22, { register: true, bundlers: true });
});

test.run();
