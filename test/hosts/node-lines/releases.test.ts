/**
 * Which Node releases get tooltype/register's synchronous hooks, and from which one Node asks the require hook for a
 * file the load hook compiled. The suites that depend on the release run under Node 22, 24 and 26 in the files
 * beside this one (node-22.test.ts, ...), one file per release so that they can run at the same time as the rest.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { requireFollowsSyncLoad, syncHooksWork } from "../../../transformer/hosts/node/sync-hooks";

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

test.run();
