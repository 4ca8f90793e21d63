/**
 * `ai` 7, `@langchain/openai` and `@mastra/core` ask for Node 22 while the suite runs on Node 20: their adapter
 * tests, and the AI SDK half of the Standard Schema tests, run a second time under Node 22
 * (test/support/other-node.ts).
 */
import { test } from "uvu";
import { passUnderNode } from "../support/other-node";

test("the AI SDK, LangChain and Mastra adapter tests pass under Node 22 too", async () => {
  await passUnderNode(22, "(adapters/(ai|langchain|mastra)|validation/standard-schema-sdks)\\.test\\.js$", 13);
});

test.run();
