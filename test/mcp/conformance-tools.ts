/**
 * The tools the MCP conformance suite's server scenarios call, by the names and results its scenarios describe
 * (`@modelcontextprotocol/conformance`, src/scenarios/server/tools.ts and json-schema-2020-12.ts), written with
 * `tool.fromSchema` so that the conformance test needs no compiled fixture. Tools for what tooltype's server does not
 * offer (logging, sampling, elicitation from a tool) are left out: the expected-failures file says why.
 */
import { file, image, text, ToolRegistry, tool } from "tooltype";

/** A 1x1 red PNG and a minimal WAV file, as the suite's reference server sends them. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const NO_ARGUMENTS = { type: "object", properties: {} } as const;

function noArguments(name: string, description: string, run: () => unknown) {
  return tool.fromSchema({ name, description, parameters: NO_ARGUMENTS }, run);
}

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

export function createConformanceRegistry(): ToolRegistry {
  let added = 0;
  const registry: ToolRegistry = new ToolRegistry([
    noArguments(
      "test_simple_text",
      "Tests simple text content response",
      () => "This is a simple text response for testing.",
    ),
    noArguments("test_image_content", "Tests image content response", () =>
      image({ base64: PNG, mediaType: "image/png" }),
    ),
    noArguments("test_audio_content", "Tests audio content response", () =>
      file({ base64: WAV, mediaType: "audio/wav" }),
    ),
    noArguments("test_embedded_resource", "Tests embedded resource content response", () =>
      file({ base64: base64("This is an embedded resource content."), mediaType: "text/plain", filename: "embedded" }),
    ),
    noArguments("test_multiple_content_types", "Tests response with multiple content types", () => [
      text("Multiple content types test:"),
      image({ base64: PNG, mediaType: "image/png" }),
      file({ base64: base64(JSON.stringify({ test: "data", value: 123 })), mediaType: "application/json" }),
    ]),
    noArguments("test_error_handling", "Tests error response handling", () => {
      throw new Error("This tool intentionally returns an error for testing");
    }),
    tool.fromSchema(
      { name: "test_tool_with_progress", description: "Tests tool that reports progress", parameters: NO_ARGUMENTS },
      async (_args, context) => {
        for (const done of [0, 50, 100]) {
          context.progress(done, 100, `Completed step ${done} of 100`);
          // The server sends progress at most every few milliseconds, the last of a burst only: a pause between
          // steps lets each one out, as the suite counts them.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return String(context.toolCall.id);
      },
    ),
    tool.fromSchema(
      {
        name: "json_schema_2020_12_tool",
        description: "Tool with JSON Schema 2020-12 features",
        parameters: JSON_SCHEMA_2020_12,
      },
      (args) => JSON.stringify(args),
    ),
    // The suite's hook to change the tool list while it listens for `notifications/tools/list_changed`.
    noArguments("test_trigger_tool_change", "Adds a tool to the list", () => {
      added++;
      registry.register(noArguments(`test_added_tool_${added}`, "Added by test_trigger_tool_change", () => "added"));
      return "changed";
    }),
  ]);
  return registry;
}

/** The schema of the suite's 2020-12 scenario (SEP-1613, SEP-2106): every keyword must reach tools/list as written. */
const JSON_SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};
