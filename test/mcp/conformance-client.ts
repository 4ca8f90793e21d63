/**
 * The MCP client the conformance suite's client scenarios drive (conformance.integration.test.ts runs
 * `conformance client --command "node <this file>"`): `fromMCP` imports the scenario server's tools into a registry,
 * and the registry calls them as a model's calls would be dispatched. The suite passes the server's URL as the last
 * argument and the scenario's name in MCP_CONFORMANCE_SCENARIO. The authorization scenarios (`auth/…`) connect by
 * URL with `fromMCP`'s `authorization`: an in-memory provider (pre-registered when the scenario gives a client, with
 * a client ID metadata document URL otherwise), and an `authorize` that follows the authorization URL as a browser
 * would and takes the code from the redirect back.
 */
import { ToolRegistry } from "tooltype";
import { fromMCP, type MCPElicitationAnswer, type MCPElicitationRequest, type MCPImportOptions } from "tooltype/mcp";
import { followAuthorization, MemoryOAuthProvider } from "./memory-oauth-provider";

/** Arguments for the scenario tools that take some; every other tool is called with none. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  add_numbers: { a: 2, b: 3 },
  valid_tool: { region: "us-west1" },
};

/**
 * The user's answer to what a server asks: a form accepted with a value for each required field that has no default
 * (the fields with one left out, so that the client fills in the defaults), a page to open accepted.
 */
function answer(request: MCPElicitationRequest): MCPElicitationAnswer {
  if (request.mode === "url") return { action: "accept" };
  const content: Record<string, string | number | boolean> = {};
  const { properties, required = [] } = request.requestedSchema;
  for (const name of required) {
    const field = properties[name] as { type?: string; default?: unknown; enum?: string[] } | undefined;
    if (field === undefined || field.default !== undefined) continue;
    content[name] =
      field.enum?.[0] ??
      (field.type === "boolean" ? true : field.type === "number" || field.type === "integer" ? 1 : "yes");
  }
  return { action: "accept", content };
}

async function main(): Promise<void> {
  const url = new URL(process.argv[process.argv.length - 1]!);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  // The calls some scenarios ask for, with their arguments.
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
    toolCalls?: { name: string; arguments: Record<string, unknown> }[];
    client_id?: string;
    client_secret?: string;
  };
  const options: MCPImportOptions = {
    clientInfo: { name: "tooltype-conformance-client", version: "1.0.0" },
    onElicitation: answer,
  };
  let imported: Awaited<ReturnType<typeof fromMCP>>;
  if (scenario.startsWith("auth/")) {
    const provider = new MemoryOAuthProvider({
      ...(context.client_id === undefined
        ? { clientMetadataUrl: "https://conformance-test.local/client-metadata.json" }
        : {
            client: {
              client_id: context.client_id,
              ...(context.client_secret === undefined ? {} : { client_secret: context.client_secret }),
            },
          }),
    });
    imported = await fromMCP(url, { ...options, authorization: { provider, authorize: followAuthorization } });
  } else {
    // An ES module only package: imported, not required.
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    imported = await fromMCP(new StreamableHTTPClientTransport(url), options);
  }
  const registry = new ToolRegistry(imported.tools);
  const call = async (name: string, args: Record<string, unknown>) => {
    const [answer] = await registry.dispatch({
      role: "assistant",
      content: null,
      tool_calls: [{ id: `call-${name}`, type: "function", function: { name, arguments: JSON.stringify(args) } }],
    });
    console.log(`${name}: ${answer!.status}: ${answer!.content}`);
  };
  try {
    if (scenario === "json-schema-2020-12-preservation") {
      // The suite compares what the client kept of a tool's schema with what its server sent: the registry's own
      // MCP export of the imported tool is what tooltype kept.
      const kept = registry.toMCPTools().find((tool) => tool.name === "json_schema_2020_12_tool");
      await call("json_schema_echo", { schema: kept?.inputSchema });
    } else if (context.toolCalls !== undefined) {
      for (const toolCall of context.toolCalls) await call(toolCall.name, toolCall.arguments);
    } else {
      for (const tool of registry.list()) await call(tool.name, ARGUMENTS[tool.name] ?? {});
    }
  } finally {
    await imported.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
