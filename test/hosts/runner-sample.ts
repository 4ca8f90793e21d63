/**
 * The sample the tests of test runners and runtimes share (Vitest, Jest, Bun): a tool whose parameter type comes
 * from another file (imported as a type only), the same tools with a TT error at a known line, and the body of a
 * test that checks the schema and dispatches a valid and an invalid call, under each runner's own header.
 */

export const TYPES = `/** Which days. */
export interface Span {
  /** First day */
  from: number;
  /** Last day */
  to?: number;
}
`;

export const TOOLS = `import { tool } from "tooltype";
import type { Span } from "./types";

/**
 * Get the weather.
 * @param city City name
 * @param span Which days
 */
export const weather = tool(function get_weather(city: string, span?: Span): string {
  return \`Sunny in \${city} from day \${span?.from ?? 1}\`;
});
`;

/** TOOLS with a tool whose parameter is a function: TT1001 at line 17. */
export const TOOLS_WITH_ERROR = `${TOOLS}
/**
 * Run later.
 * @param cb What to run
 */
export const later = tool(function run_later(cb: () => void): string { return ""; });
`;

/** The line of TOOLS_WITH_ERROR's TT1001. */
export const ERROR_LINE = 17;

/** The source files of the sample: types, tools and, given a runner's header (its imports), the test file. */
export function sampleFiles(testHeader: string): Record<string, string> {
  return { "src/types.ts": TYPES, "src/tools.ts": TOOLS, "src/tools.test.ts": `${testHeader}\n${TEST_BODY}` };
}

/** The call's arguments as JSON text: the calls the test and the Bun program make. */
export const CALL = `const call = (args: string) => ({ role: "assistant" as const, content: null, tool_calls: [{ id: "c1", type: "function" as const, function: { name: "get_weather", arguments: args } }] });`;

const TEST_BODY = `import { ToolRegistry } from "tooltype";
import { weather } from "./tools";

${CALL}

test("the tool's schema, a valid call and an invalid one", async () => {
  const registry = new ToolRegistry([weather]);
  const [exported] = registry.toOpenAITools();
  const parameters = exported!.function.parameters as { required: string[]; properties: { span: { properties: Record<string, { description?: string }> } } };
  expect(parameters.required).toEqual(["city"]);
  expect(Object.keys(parameters.properties.span.properties).sort()).toEqual(["from", "to"]);
  expect(parameters.properties.span.properties.from!.description).toBe("First day");
  const [ok] = await registry.dispatch(call('{"city":"Oslo","span":{"from":3}}'));
  expect(ok!.content).toBe("Sunny in Oslo from day 3");
  const [bad] = await registry.dispatch(call('{"city":"Oslo","span":{"from":"three"}}'));
  expect(bad!.status).toBe("error");
});
`;
