/**
 * The AI SDK's MCP client against the server (ai-sdk-client.case.ts), under Node 22: `@ai-sdk/mcp` asks for Node 22
 * or later, and the suite runs on Node 20.
 */
import { test } from "uvu";
import { passUnderNode } from "../support/other-node";

test("the AI SDK's MCP client lists and runs the served tools (Node 22)", async () => {
  await passUnderNode(22, "mcp/ai-sdk-client\\.case\\.js$", 1);
});

test.run();
