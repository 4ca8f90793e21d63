/**
 * What `fromMCP` uses of an MCP SDK client and transport, written out rather than taken from either SDK, so that a
 * client of the SDK v2 or of the 1.x line, from either of its builds (whose declarations are distinct types), fits.
 * What a client hands back may leave out an optional field or set it to `undefined`: both fit, under
 * `exactOptionalPropertyTypes` too.
 */

/** A tool as a server lists it (`tools/list`). */
export interface MCPListedTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: { type: "object"; [key: string]: unknown };
}

/** What `fromMCP` uses of an SDK `Client`, v2 or 1.x. */
export interface MCPClient {
  /**
   * `tools/call`: run one tool on the server. Typed as the SDK 1.x method (a result schema second, options third);
   * the v2 client's takes its options second, and `fromMCP` calls each its own way.
   */
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: MCPCallOptions,
  ): Promise<unknown>;
  /** `tools/list`: one page of the server's tools. */
  listTools(
    params?: { cursor?: string },
    options?: { timeout?: number },
  ): Promise<{ tools: MCPListedTool[]; nextCursor?: string | undefined }>;
  /** The server's name, as it introduced itself. */
  getServerVersion(): { name: string } | undefined;
  /** SDK v2 only: the revision the connection speaks (`"2026-07-28"`, `"2025-11-25"`, …). */
  getNegotiatedProtocolVersion?(): string | undefined;
  /** SDK v2 only: `"modern"` (2026-07-28 and later, no handshake) or `"legacy"` (the `initialize` handshake). */
  getProtocolEra?(): string | undefined;
  /** Close the connection. */
  close(): Promise<void>;
  readonly transport?: unknown;
}

/** What a `tools/call` is sent with. */
export interface MCPCallOptions {
  /** Aborts the call (the SDK sends the server `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Gives up on the call after this many milliseconds. */
  timeout?: number;
}

/**
 * An MCP client transport of either SDK (`StdioClientTransport`, `StreamableHTTPClientTransport`, an in-memory
 * pair, …), not yet started: `fromMCP` connects a client on it.
 */
export interface MCPClientTransport {
  /** Opens the connection (the client calls it). */
  start(): Promise<void>;
  /** Sends one JSON-RPC message. */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK transport's own send types
  send(message: any, options?: any): Promise<void>;
  /** Closes the connection. */
  close(): Promise<void>;
}

/** How `fromMCP` picks the revision when it makes the client (the SDK v2 client's `versionNegotiation.mode`). */
export type MCPVersionNegotiation = "auto" | "legacy" | { pin: string };

/**
 * What a server asks the user for (`elicitation/create`, or one of the `inputRequests` of a 2026-07-28
 * `input_required` result): a form (`requestedSchema`, a flat object schema of strings, numbers, booleans and enums,
 * with `default`s and `required`), or in `"url"` mode a page to open (2025-11-25 and later).
 */
export type MCPElicitationRequest =
  | {
      mode?: "form";
      message: string;
      requestedSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
      [key: string]: unknown;
    }
  | { mode: "url"; message: string; url: string; elicitationId: string; [key: string]: unknown };

/**
 * The user's answer: `accept` with the form's `content` (fields left out take the form's defaults), `decline`, or
 * `cancel` (dismissed without a choice). A `url` request is answered `accept` (without content) once the page opened.
 */
export interface MCPElicitationAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}

/** The capabilities `fromMCP`'s client declares: elicitation (form, with defaults applied, and URL) with a handler. */
export interface MCPClientCapabilities {
  elicitation?: { form?: { applyDefaults?: boolean }; url?: Record<string, never> };
}

/**
 * The MCP SDK's `OAuthClientProvider` (of either SDK: `@modelcontextprotocol/client` or `@modelcontextprotocol/sdk`'s
 * `client/auth`), as `fromMCP`'s `authorization` takes it: the members every provider has, the rest passed to the SDK
 * as they are. Its argument and result types are the SDK's own, left open here so that either SDK's provider fits.
 */
export interface MCPOAuthClientProvider {
  /** Where the authorization server sends the user back (the URL `authorize` resolves with starts with it). */
  readonly redirectUrl: string | URL | undefined;
  /** The client's OAuth metadata (name, redirect URIs, token endpoint authentication), for registration. */
  readonly clientMetadata: object;
  /** The client as registered with the authorization server (or pre-registered), or `undefined` before that. */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's own stored-client types, which differ between the SDKs
  clientInformation(...args: any[]): unknown;
  /** The tokens of this session, or `undefined` before the first authorization. */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's own token types, which differ between the SDKs
  tokens(...args: any[]): unknown;
  /** Keeps the tokens of an authorization. */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's own token types, which differ between the SDKs
  saveTokens(...args: any[]): unknown;
  /** The SDK's way to send the user to the authorization URL; with `fromMCP`'s `authorization`, `authorize` does. */
  redirectToAuthorization(authorizationUrl: URL): void | Promise<void>;
  /** Keeps the PKCE verifier of the authorization under way. */
  saveCodeVerifier(codeVerifier: string): void | Promise<void>;
  /** The PKCE verifier kept last, sent with the code. */
  codeVerifier(): string | Promise<string>;
}

/** What `fromMCP` uses of the SDK v2 client package when it makes a client (`#lazy/mcp-client` loads it). */
export interface MCPClientSDK {
  /** The Streamable HTTP transport `fromMCP` makes when given the server's URL. */
  StreamableHTTPClientTransport: new (
    url: URL,
    options?: { authProvider?: MCPOAuthClientProvider },
  ) => MCPClientTransport;
  Client: new (
    info: { name: string; version: string },
    options: { versionNegotiation: { mode: MCPVersionNegotiation }; capabilities?: MCPClientCapabilities },
  ) => MCPClient & {
    connect(transport: MCPClientTransport, options?: { timeout?: number }): Promise<void>;
    setRequestHandler(
      method: "elicitation/create",
      handler: (request: { params: MCPElicitationRequest }) => Promise<MCPElicitationAnswer>,
    ): void;
  };
}
