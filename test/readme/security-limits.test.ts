/**
 * The "Security and limits" example of docs/security.md (marked `<!-- readme-compile: security-limits -->`) compiles as
 * a
 * user's module with the real compiler and the transformer, and runs: its registry answers a failing lookup with the
 * secrets redacted by the built-in patterns and by its own, and refuses the 17th call of a reply.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolRegistry } from "tooltype";
import { compileProgram } from "../support/compile";
import { readmeBlock as block } from "../support/readme";

/** The "your code" module the example imports: an order service that fails with what real clients put in errors. */
const orders = `
export async function fetchOrder(id: string): Promise<{ id: string; total: number }> {
  throw new Error("GET https://svc:p4ssw0rd@orders.internal/v1/orders/" + id + " for cust_4711 failed: 503");
}
`;

test("docs/security.md: the security and limits example compiles; it redacts and limits as it says; the tool's own timeoutMs is kept", async () => {
  const fixture = compileProgram({ "main.ts": block("security-limits"), "orders.ts": orders });
  assert.equal(
    fixture.diagnostics.filter((d) => d.category === "error").map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`),
    [],
  );
  const { registry } = fixture.load<{ registry: ToolRegistry }>();
  const call = (id: string, i: number) => ({
    id: `call_${i}`,
    type: "function" as const,
    function: { name: "get_order", arguments: JSON.stringify({ id }) },
  });
  const answers = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: Array.from({ length: 17 }, (_, i) => call("A-1", i)),
  });
  assert.is(
    answers[0]!.content,
    "Error: GET https://svc:[redacted]@orders.internal/v1/orders/A-1 for cust_[redacted] failed: 503",
  );
  assert.is(answers[0]!.errorKind, "exception");
  assert.match(answers[16]!.content, /at most 16 are run per reply \(maxCallsPerMessage\)/);
  assert.is(registry.get("get_order")?.options.timeoutMs, 10_000);
});

test.run();
