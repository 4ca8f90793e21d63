/**
 * What depends on the Node release, under the lines users run and not only the suite's Node 20: the tooltype/register
 * tests, each bundler with its plugin (tsup 9 asks for Node 22.18 or later, and tsdown does from 0.22), the package
 * entry tests (what `require` and `import` of each entry load, and when), and the MCP server,
 * MCP client and end-to-end tests (Node's HTTP server, fetch and streams, driven by the real SDKs) run again under
 * Node 22, 24 and 26 (test/support/other-node.ts). Node 20 takes `module.register` and the require
 * hook; the latest 22, 24 and 26 take `module.registerHooks`, where tsx's synchronous hooks load CommonJS files too
 * and `module.register` is deprecated (Node 26 warns at run time). Also: which releases get the synchronous hooks.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { requireFollowsSyncLoad, syncHooksWork } from "../../transformer/hosts/sync-hooks";
import { passUnderNode } from "../support/other-node";

test("the synchronous hooks from the releases whose load hook serves require(): 22.22.3, 24.11.1, 25.1, 26", () => {
  const yes = ["22.22.3", "22.23.0", "24.11.1", "24.21.0", "25.1.0", "25.9.0", "26.0.0", "27.2.1"];
  const no = ["20.20.2", "22.15.0", "22.22.2", "23.11.0", "24.0.0", "24.11.0", "25.0.0", "18.20.0"];
  for (const version of yes) assert.ok(syncHooksWork(version), version);
  for (const version of no) assert.not.ok(syncHooksWork(version), version);
});

test("the compiled source is kept for the require hook from Node 23 on (Node 22 never asks for it)", () => {
  for (const version of ["23.0.0", "24.11.1", "25.1.0", "26.0.0"]) assert.ok(requireFollowsSyncLoad(version), version);
  for (const version of ["22.22.3", "22.23.0", "20.20.2"]) assert.not.ok(requireFollowsSyncLoad(version), version);
});

for (const major of [22, 24, 26]) {
  test(`the tooltype/register, bundler, package entry, MCP and end-to-end tests pass under Node ${major}`, async () => {
    await passUnderNode(major, "((hosts/(register|bundlers)|package/node-entry|package/provider-entry)\\.test|(mcp|mcp-client|e2e)/.*\\.test)\\.js$", 68);
  });
}

test.run();
