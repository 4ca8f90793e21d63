/**
 * `fromMCP`: the tools of any MCP server (stdio, Streamable HTTP, in-memory: any SDK client or transport) as
 * run-time schema tools (`tool.fromSchema`) to register in a `ToolRegistry`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadMCPClientSDK } from "#lazy/mcp-client";
import { clientCallSpan } from "./call-span";
import { installAjv } from "../validation/ajv/ajv";
import { createAjv } from "../validation/ajv/engine";
import { installPatternEngine } from "../validation/patterns/engine";
import { linearMatcher } from "../validation/patterns/linear-pattern";
import { toRustRegex } from "../validation/patterns/rust-regex";
import { installRustRegex } from "../validation/patterns/rust-translator";
import { STRICT_REWRITES } from "../strict/rewrites";
import { installStrictRewrites } from "../strict/schema-of";
import { ToolError } from "../tool/errors";
import type { JsonSchema } from "../tool/meta";
import type { ToolContext, ToolOptions } from "../tool/options";
import { type SchemaToolFunction, tool } from "../tool/tool";
import type {
  MCPCallOptions,
  MCPClient,
  MCPClientTransport,
  MCPElicitationAnswer,
  MCPElicitationRequest,
  MCPListedTool,
  MCPVersionNegotiation,
} from "./client-sdk";
import { importedSchemaProblem } from "./imported-schema";
import { authorizingProvider, ClientAuthorization, type MCPClientAuthorization } from "./client-authorization";

export { authorizingProvider, type MCPClientAuthorization } from "./client-authorization";

export type {
  MCPCallOptions,
  MCPClient,
  MCPClientTransport,
  MCPElicitationAnswer,
  MCPElicitationRequest,
  MCPListedTool,
  MCPOAuthClientProvider,
  MCPVersionNegotiation,
} from "./client-sdk";

// Imported tools have schemas written at run time: ajv validates them, in a bundle too (as `tooltype/ajv` would),
// and a strict export rewrites them then (a custom tool's pattern is translated then).
installAjv(createAjv);
installStrictRewrites(STRICT_REWRITES);
installRustRegex(toRustRegex);

/** `fromMCP` options. */
export interface MCPImportOptions {
  /** Put before every imported tool's name (e.g. `"files_"`), to keep apart servers that offer the same names. */
  prefix?: string;
  /** Give up on one call after this many milliseconds (default 60,000); the tool's `timeoutMs`. */
  timeoutMs?: number;
  /** Give up connecting (`initialize`) and reading `tools/list` after this many milliseconds (default 60,000). */
  connectTimeoutMs?: number;
  /** Import only the tools this returns `true` for (given the server's own descriptor). */
  filter?: (tool: MCPListedTool) => boolean;
  /** Refuse a server that lists more tools than this (its listing may be endless). Default 10,000. */
  maxTools?: number;
  /** Further options for every imported tool (error handlers, tags, metadata, …). */
  toolOptions?: Omit<ToolOptions, "name" | "description" | "responseFormat">;
  /** How the client introduces itself when `fromMCP` creates it from a transport. */
  clientInfo?: { name: string; version: string };
  /**
   * Which revision a client made from a transport speaks. Default `"auto"`: it asks `server/discover` first and
   * speaks the current revision to a server that answers it, else falls back to the `initialize` handshake of the
   * older ones (on stdio the probe runs in a short-lived second process of the same command, so a server that
   * exits on an unknown first request still connects). `"legacy"` skips the probe (one spawn, one round trip
   * less, for a server known to be old); `{ pin: "2026-07-28" }` accepts that revision only.
   */
  versionNegotiation?: MCPVersionNegotiation;
  /**
   * Answers what the server asks the user while a call runs: `elicitation/create` requests (older revisions) and
   * the `inputRequests` of a 2026-07-28 `input_required` result, which the client answers and then retries the call
   * with the server's `requestState`, for as many rounds as the server asks. Given the request's params (a form's
   * `message` and `requestedSchema`, or in `"url"` mode the page to open), it returns the user's answer; fields the
   * user left out take the form's defaults. Without it the client declares no elicitation capability, so a server
   * that follows the specification never asks. Only for a client `fromMCP` makes from a transport: an app that
   * passes its own client registers its handler on it (`client.setRequestHandler("elicitation/create", …)`).
   */
  onElicitation?: (request: MCPElicitationRequest) => MCPElicitationAnswer | Promise<MCPElicitationAnswer>;
  /**
   * OAuth for a server that asks for it (HTTP 401, or 403 `insufficient_scope` for a call that needs more scopes):
   * the SDK's `OAuthClientProvider`, and `authorize`, which sends the user to the authorization URL and resolves with
   * the redirect they came back with. The SDK finds the authorization server (the server's Protected Resource
   * Metadata, then the authorization server's metadata), registers the client (dynamically, by its client ID metadata
   * document, or not at all for a pre-registered one), picks the scopes and the token endpoint's authentication;
   * `fromMCP` hands the URL to `authorize`, redeems the code and retries the refused request once. A provider that
   * holds valid tokens never calls `authorize`. For the client `fromMCP` makes from the server's URL or a transport
   * made with `authorizingProvider(authorization)`.
   */
  authorization?: MCPClientAuthorization;
}

/** The imported tools of one server, and its connection. */
export interface MCPImport {
  /** `tool.fromSchema` values: `registry.register(imported.tools)`. */
  readonly tools: SchemaToolFunction[];
  /** The server's name from its `server/discover` or `initialize` answer (or `"MCP server"` when it gave none). */
  readonly serverName: string;
  /**
   * The revision the connection speaks (`"2026-07-28"`, `"2025-11-25"`, `"2025-06-18"`, …), when the client says
   * (an SDK v2 client, which `fromMCP` makes from a transport); `undefined` for an SDK 1.x client.
   */
  readonly protocolVersion: string | undefined;
  /**
   * Tools left out because their `inputSchema` is beyond what tooltype takes from a server (nested too deep, too
   * large, too many properties, references that do not resolve, loop or expand too far): each with why. The other
   * tools are imported as usual.
   */
  readonly refused: readonly { readonly name: string; readonly reason: string }[];
  readonly client: MCPClient;
  /** Close the connection (the client, and with it the transport). Later calls answer with an error. */
  close(): Promise<void>;
}

/** What the model is told when the artifact holds something it cannot read as text. */
type ContentBlock = CallToolResult["content"][number];

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_TOOLS = 10_000;
const INVALID_NAME_CHARACTERS = /[^a-zA-Z0-9_-]/g;

/**
 * Connect to an MCP server (given an SDK `Client`, connected or not, a `Transport` to connect one on, or the URL of a
 * Streamable HTTP server, for which it makes the SDK v2 transport) and import its tools. Register them with
 * `registry.register(imported.tools)`.
 * - Revisions: given a transport, `fromMCP` connects with the MCP SDK v2 client (`@modelcontextprotocol/client`;
 *   in a bundle the app passes its client) in its `auto` negotiation: `server/discover` first, the current revision
 *   (2026-07-28: no handshake, `_meta` on every request) when the server speaks it, else the `initialize` handshake of
 *   2025-11-25 / 2025-06-18. The SDK 1.x client speaks only the older revisions, so it is taken when the app
 *   passes one, never made here.
 * - Import: `tools/list` (every page), each tool's `inputSchema` becomes the parameter schema as sent (its `$schema`
 *   marker kept, so a re-export over MCP lists what the server listed; ajv validates it as 2020-12 whatever the
 *   marker, which reads what MCP servers send), so dispatch reads, repairs, coerces and validates the model's
 *   arguments before the server sees them, and every provider export works.
 * - Call: `tools/call` with the original name, the call's abort signal and time limit. The model reads the text of
 *   the result's content (non-text blocks named in a short line, `structuredContent` as JSON when there is no
 *   text); the whole `CallToolResult` is the ToolMessage's artifact. `isError: true` becomes a `status: "error"`
 *   answer with the server's text.
 * - Failure: a server that is gone, closes, or does not answer in time makes the call an error answer naming the
 *   server (each tool has a `timeoutMs`, default 60 s), never a hang.
 * - Authorization: with `authorization`, a server's 401 (or a call's 403 `insufficient_scope`) sends the user to the
 *   authorization URL through `authorize`, the code is redeemed on the transport and the request retried once
 *   (client-authorization.ts).
 * - Names: `prefix` + the server's name, with characters providers refuse replaced by `_`. Registration errors for
 *   a clash name both tools' servers, so two servers offering the same tool ask for a `prefix`.
 */
export async function fromMCP(
  source: MCPClient | MCPClientTransport | URL | string,
  options: MCPImportOptions = {},
): Promise<MCPImport> {
  // Their patterns may be any: RE2's automata match those tooltype's cannot hold. Installed here, not as the module
  // loads, so that a bundle of `tooltype/mcp` that never imports tools holds no re2js.
  installPatternEngine(linearMatcher);
  if (isClient(source) && options.onElicitation !== undefined)
    throw new TypeError(
      'fromMCP: onElicitation applies to the client fromMCP makes from a transport; register your handler on your own client (client.setRequestHandler("elicitation/create", …)) before connecting it.',
    );
  if (isClient(source) && options.authorization !== undefined)
    throw new TypeError(
      "fromMCP: authorization applies to the client fromMCP makes from the server's URL or a transport; a client you connected yourself authorizes through its own transport's authProvider.",
    );
  let authorization: ClientAuthorization | undefined;
  let client: MCPClient;
  if (isClient(source)) client = source;
  else {
    const transport =
      typeof source === "string" || source instanceof URL ? await httpTransport(source, options) : source;
    if (options.authorization !== undefined) {
      const server =
        typeof source === "string" || source instanceof URL
          ? `MCP server at ${new URL(source).origin}`
          : "the MCP server";
      authorization = new ClientAuthorization(options.authorization, transport, server);
    }
    const session = authorization;
    client =
      session === undefined
        ? await connectClient(transport, options)
        : await session.connect(() => connectClient(session.transport, options));
  }
  if (!client.transport)
    throw new TypeError(
      "fromMCP: the MCP client is not connected; call client.connect(transport) first, or pass the transport.",
    );
  const serverName = client.getServerVersion()?.name ?? "MCP server";
  const listed = await (authorization?.attempt("listing its tools", () => listAll(client, serverName, options)) ??
    listAll(client, serverName, options));
  const tools: SchemaToolFunction[] = [];
  const refused: { name: string; reason: string }[] = [];
  for (const descriptor of listed) {
    if (!(options.filter?.(descriptor) ?? true)) continue;
    const problem = descriptorProblem(descriptor);
    if (problem !== undefined)
      refused.push({
        name: String(descriptor?.name),
        reason: `tool ${JSON.stringify(String(descriptor?.name).slice(0, 100))} of MCP server ${JSON.stringify(serverName)} was not imported: ${problem}.`,
      });
    else tools.push(importTool(client, serverName, descriptor, options, authorization));
  }
  const protocolVersion = client.getNegotiatedProtocolVersion?.();
  return { tools, serverName, protocolVersion, refused, client, close: () => client.close() };
}

/** The SDK v2 Streamable HTTP transport to `url`, made with the authorizing provider when `authorization` is given. */
async function httpTransport(url: URL | string, options: MCPImportOptions): Promise<MCPClientTransport> {
  const sdk = await loadMCPClientSDK();
  const authorization = options.authorization;
  return new sdk.StreamableHTTPClientTransport(
    new URL(url),
    authorization === undefined ? undefined : { authProvider: authorizingProvider(authorization) },
  );
}

/** An SDK v2 client connected on `transport`, in the revision `versionNegotiation` settles on. */
async function connectClient(transport: MCPClientTransport, options: MCPImportOptions): Promise<MCPClient> {
  const sdk = await loadMCPClientSDK();
  const answer = options.onElicitation;
  const client = new sdk.Client(options.clientInfo ?? { name: "tooltype", version: "0.0.0" }, {
    versionNegotiation: { mode: options.versionNegotiation ?? "auto" },
    // Declared only with a handler: a server must not ask a client that cannot answer.
    ...(answer === undefined ? {} : { capabilities: { elicitation: { form: { applyDefaults: true }, url: {} } } }),
  });
  // The SDK calls this handler for `elicitation/create` and for each elicitation of an `input_required` result.
  if (answer !== undefined) client.setRequestHandler("elicitation/create", async (request) => answer(request.params));
  // Either SDK's transport fits: the v2 client uses only the members both have.
  await client.connect(transport, { timeout: options.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS });
  return client;
}

/**
 * Every page of `tools/list`, within `connectTimeoutMs` for the whole listing and `maxTools` in all: a server that
 * pages forever, or repeats a cursor, is refused rather than followed until memory runs out.
 */
async function listAll(client: MCPClient, serverName: string, options: MCPImportOptions): Promise<MCPListedTool[]> {
  const limitMs = options.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxTools = options.maxTools ?? DEFAULT_MAX_TOOLS;
  const server = JSON.stringify(serverName);
  const deadline = Date.now() + limitMs;
  const listed: MCPListedTool[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  do {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(
        `fromMCP: MCP server ${server} did not finish listing its tools within ${limitMs} ms (connectTimeoutMs), after ${listed.length} tools.`,
      );
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: left });
    const tools = Array.isArray(page?.tools) ? page.tools : [];
    if (listed.length + tools.length > maxTools) {
      throw new Error(
        `fromMCP: MCP server ${server} lists more than ${maxTools} tools (maxTools); import a server with fewer, or raise maxTools.`,
      );
    }
    listed.push(...tools);
    cursor = typeof page?.nextCursor === "string" ? page.nextCursor : undefined;
    if (cursor !== undefined) {
      if (cursors.has(cursor))
        throw new Error(
          `fromMCP: MCP server ${server} sent the same tools/list cursor twice; its listing would never end.`,
        );
      cursors.add(cursor);
    }
  } while (cursor !== undefined);
  return listed;
}

/** Why a listed tool cannot be imported, or `undefined`. */
function descriptorProblem(descriptor: MCPListedTool): string | undefined {
  if (
    typeof descriptor !== "object" ||
    descriptor === null ||
    typeof descriptor.name !== "string" ||
    descriptor.name === ""
  )
    return "it has no name";
  // A registry takes names of at most 64 characters: a longer one is refused here, not when the tools are registered.
  if (descriptor.name.length > 64) return "its name is longer than the 64 characters a tool name may hold";
  const schema = descriptor.inputSchema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "its inputSchema is not an object";
  const problem = importedSchemaProblem(schema);
  return problem === undefined ? undefined : `its inputSchema is beyond what tooltype takes from a server: ${problem}`;
}

function importTool(
  client: MCPClient,
  serverName: string,
  descriptor: MCPListedTool,
  options: MCPImportOptions,
  authorization: ClientAuthorization | undefined,
): SchemaToolFunction {
  const name = `${options.prefix ?? ""}${descriptor.name}`.replace(INVALID_NAME_CHARACTERS, "_");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const server = JSON.stringify(serverName);
  const call = async (args: Record<string, unknown>, context: ToolContext): Promise<[string, CallToolResult]> => {
    let result: CallToolResult;
    const callOptions: MCPCallOptions = { signal: context.signal, timeout: timeoutMs };
    // Traced: the request's span, named to the server in `_meta.traceparent` so that its spans continue the trace.
    const span = clientCallSpan(descriptor.name);
    try {
      const params = {
        name: descriptor.name,
        arguments: args,
        ...(span === undefined ? {} : { _meta: { traceparent: span.traceparent } }),
      };
      const send = () =>
        isV2(client)
          ? (client.callTool as unknown as V2CallTool).call(client, params, callOptions)
          : client.callTool(params, undefined, callOptions);
      // A call that needs more scopes than the token has (403 insufficient_scope) is authorized for them and sent again.
      const sent = authorization === undefined ? send() : authorization.attempt(`calling ${descriptor.name}`, send);
      result = (await sent) as CallToolResult;
      if (result?.isError === true) span?.fail(undefined, `${descriptor.name} answered with an error`);
    } catch (error) {
      span?.fail(error);
      // The pipeline's own timeout or the caller's abort already says what happened: keep its error.
      if (context.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`MCP server ${server} did not answer the call of ${descriptor.name}: ${reason}`, {
        cause: error,
      });
    } finally {
      span?.end();
    }
    const text = contentText(result);
    if (result.isError === true)
      throw new ToolError(text === "" ? `${descriptor.name} failed (MCP server ${server} sent no message).` : text);
    return [text, result];
  };
  return tool.fromSchema(
    {
      ...options.toolOptions,
      name,
      description: descriptor.description ?? descriptor.title ?? "",
      parameters: parameterSchema(descriptor.inputSchema),
      responseFormat: "content_and_artifact",
      timeoutMs,
      origin: `tool ${JSON.stringify(descriptor.name)} of MCP server ${server}`,
    },
    call,
  );
}

/**
 * The input schema as the server sent it, its `$schema` marker kept, so that serving the imported tools again over MCP
 * lists what the server listed (dispatch validates it as 2020-12 whatever its marker says, as MCP reads it).
 */
function parameterSchema(input: MCPListedTool["inputSchema"]): JsonSchema {
  return { ...(input as JsonSchema), type: "object" };
}

/** The text the model reads: text blocks as they are, one line for each other block, else the structured content. */
function contentText(result: CallToolResult): string {
  const lines = (result.content ?? []).map(describeBlock);
  if (lines.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return lines.join("\n");
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}]`;
    case "resource_link":
      return `[resource link ${block.uri}]`;
    case "resource":
      return "text" in block.resource && typeof block.resource.text === "string"
        ? block.resource.text
        : `[resource ${block.resource.uri}]`;
    default:
      return `[${String((block as { type?: unknown }).type)} content]`;
  }
}

function isClient(source: MCPClient | MCPClientTransport | URL | string): source is MCPClient {
  return typeof source === "object" && typeof (source as MCPClient).callTool === "function";
}

/** The SDK v2 client's `callTool`: options second. */
type V2CallTool = (
  params: { name: string; arguments?: Record<string, unknown> },
  options?: MCPCallOptions,
) => Promise<unknown>;

/** Whether the client is the SDK v2's (options second in `callTool`), which alone knows protocol eras. */
function isV2(client: MCPClient): boolean {
  return typeof client.getProtocolEra === "function";
}
