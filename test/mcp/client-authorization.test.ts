/**
 * `fromMCP`'s `authorization` (issue 46 item 4) against an OAuth-protected MCP server on 127.0.0.1: tooltype's own
 * HTTP handler as the resource server (its Protected Resource Metadata and 401/403 challenges), beside a scripted
 * authorization server (metadata, dynamic registration, an authorize endpoint that redirects straight back with a
 * code, a token endpoint), the SDK v2 client doing discovery, registration, PKCE and the exchange. Both ways in: the
 * server's URL (fromMCP makes the transport) and the app's own SDK transport made with `authorizingProvider`.
 */
import * as http from "node:http";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ToolRegistry } from "tooltype";
import {
  authorizingProvider,
  fromMCP,
  type MCPClientAuthorization,
  type MCPImport,
  mcpHttpHandler,
} from "tooltype/mcp";
import { listenOnLoopback } from "../support/listen";
import { createAuthRegistry } from "./auth-tools";
import { followAuthorization, MemoryOAuthProvider } from "./memory-oauth-provider";

interface Scripted {
  /** The MCP endpoint. */
  url: URL;
  /** Tokens the resource server accepts, with their scope. */
  tokens: Map<string, string>;
  /** The scope of every authorization request, in order. */
  authorizations: string[];
  /** Make the token endpoint issue tokens the resource server does not accept. */
  issueRefusedTokens: boolean;
  /** The authorization endpoint the metadata names instead of its own, if set. */
  authorizationEndpoint?: string;
  /** Moves the resource server to a second authorization server (`/as2`), refusing every token issued so far. */
  migrate(): void;
  close(): Promise<void>;
}

/** The resource server and its authorization server on one loopback port. */
async function scripted(): Promise<Scripted> {
  const registry = createAuthRegistry();
  const codes = new Map<string, string>();
  let counter = 0;
  let base = "";
  let mcp: ReturnType<typeof mcpHttpHandler> | undefined;
  const state: Omit<Scripted, "url" | "close" | "migrate"> = {
    tokens: new Map(),
    authorizations: [],
    issueRefusedTokens: false,
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    // Two authorization servers: the first at the origin, the second under /as2 (its metadata at the well-known
    // path with /as2 after it, RFC 8414).
    const as2 = url.pathname.startsWith("/as2/") || url.pathname.endsWith("/oauth-authorization-server/as2");
    const issuer = as2 ? `${base}/as2` : base;
    if (url.pathname.startsWith("/as2/")) url.pathname = url.pathname.slice(4);
    if (url.pathname.startsWith("/.well-known/oauth-authorization-server")) {
      return json(res, 200, {
        issuer,
        authorization_endpoint: state.authorizationEndpoint ?? `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (url.pathname === "/authorize") {
      const scope = url.searchParams.get("scope") ?? "";
      state.authorizations.push(scope);
      const code = `code-${++counter}${as2 ? "-as2" : ""}`;
      codes.set(code, scope);
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/register" || url.pathname === "/token") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk));
      req.on("end", () => {
        if (url.pathname === "/register") {
          return json(res, 201, { ...JSON.parse(body), client_id: `client-${++counter}` });
        }
        const form = new URLSearchParams(body);
        const scope = codes.get(form.get("code") ?? "");
        if (scope === undefined) return json(res, 400, { error: "invalid_grant" });
        codes.delete(form.get("code")!);
        const token = `token-${++counter}`;
        if (!state.issueRefusedTokens) state.tokens.set(token, scope);
        return json(res, 200, { access_token: token, token_type: "Bearer", scope });
      });
      return;
    }
    void mcp!(req, res);
  });
  const port = await listenOnLoopback(server);
  base = `http://127.0.0.1:${port}`;
  const resourceServer = (authorizationServer: string) =>
    mcpHttpHandler(registry, {
      listAllTools: true,
      authorization: {
        resource: `${base}/mcp`,
        authorizationServers: [authorizationServer],
        scopesSupported: ["files:read"],
      },
      authenticate: (request) => {
        const header = request.headers.get("authorization") ?? "";
        const scope = state.tokens.get(header.replace(/^Bearer /, ""));
        return scope === undefined ? undefined : { sub: "ada", scope };
      },
    });
  mcp = resourceServer(base);
  return Object.assign(state, {
    url: new URL(`${base}/mcp`),
    migrate: () => {
      state.tokens.clear();
      mcp = resourceServer(`${base}/as2`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

/** `authorize` as a browser without a user would, counting its calls. */
function authorizeCounting(): { authorize: MCPClientAuthorization["authorize"]; urls: URL[] } {
  const urls: URL[] = [];
  return {
    urls,
    authorize: (url) => {
      urls.push(url);
      return followAuthorization(url);
    },
  };
}

async function callTool(tools: MCPImport["tools"], name: string, args: object) {
  const registry = new ToolRegistry(tools);
  const [answer] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name, arguments: JSON.stringify(args) } }],
  });
  return answer!;
}

const ways = {
  "the server's URL": (server: Scripted, authorization: MCPClientAuthorization<MemoryOAuthProvider>) =>
    fromMCP(server.url, { authorization }),
  "an SDK transport made with authorizingProvider": (
    server: Scripted,
    authorization: MCPClientAuthorization<MemoryOAuthProvider>,
  ) =>
    fromMCP(new StreamableHTTPClientTransport(server.url, { authProvider: authorizingProvider(authorization) }), {
      authorization,
    }),
};

for (const [way, connect] of Object.entries(ways)) {
  test(`${way}: one authorization, then the tools are imported and called; a call needing more scopes steps up`, async () => {
    const server = await scripted();
    const provider = new MemoryOAuthProvider();
    const { authorize, urls } = authorizeCounting();
    try {
      const imported = await connect(server, { provider, authorize });
      try {
        assert.is(urls.length, 1, "authorize called once");
        assert.is(urls[0]!.origin, server.url.origin);
        assert.is(server.authorizations[0], "files:read", "the scope of the server's challenge");
        assert.is(provider.savedTokens, 1);
        const names = new ToolRegistry(imported.tools).list().map((listed) => listed.name);
        assert.equal(names.sort(), ["read_file", "whoami", "write_file"]);
        const read = await callTool(imported.tools, "read_file", { path: "a.txt" });
        assert.is(read.status, "success", read.content as string);
        assert.is(read.content, "contents of a.txt");
        // write_file needs files:write too: 403 insufficient_scope, the SDK asks for the union, authorize again.
        const written = await callTool(imported.tools, "write_file", { path: "a.txt", text: "hi" });
        assert.is(written.status, "success", written.content as string);
        assert.is(urls.length, 2, "a second authorization, for the step-up");
        assert.match(server.authorizations[1]!, /files:write/);
      } finally {
        await imported.close();
      }
    } finally {
      await server.close();
    }
  });
}

test("a provider that already holds a valid token connects without authorize", async () => {
  const server = await scripted();
  server.tokens.set("held", "files:read");
  const provider = new MemoryOAuthProvider({ tokens: { access_token: "held", token_type: "Bearer" } });
  const { authorize, urls } = authorizeCounting();
  try {
    const imported = await fromMCP(server.url, { authorization: { provider, authorize } });
    const answer = await callTool(imported.tools, "whoami", {});
    await imported.close();
    assert.is(answer.content, "you are ada");
    assert.is(urls.length, 0);
    assert.equal(server.authorizations, []);
  } finally {
    await server.close();
  }
});

test("a server that moves to another authorization server and refuses the token: fromMCP follows it there", async () => {
  const server = await scripted();
  const provider = new MemoryOAuthProvider();
  const { authorize, urls } = authorizeCounting();
  try {
    const imported = await fromMCP(server.url, { authorization: { provider, authorize } });
    try {
      assert.is((await callTool(imported.tools, "whoami", {})).content, "you are ada");
      server.migrate();
      const answer = await callTool(imported.tools, "whoami", {});
      assert.is(answer.content, "you are ada", answer.content as string);
      assert.is(urls.length, 2);
      assert.is(urls[1]!.pathname, "/as2/authorize", "the second authorization at the new authorization server");
    } finally {
      await imported.close();
    }
  } finally {
    await server.close();
  }
});

test("the code never arriving: authorize that never resolves, rejects, or brings back no code is a clear error", async () => {
  const server = await scripted();
  try {
    const cases: [MCPClientAuthorization["authorize"], RegExp][] = [
      [() => new Promise<URL>(() => {}), /brought no code back within 100 ms \(authorization\.timeoutMs\)/],
      [
        () => Promise.reject(new Error("the browser was closed")),
        /authorization\.authorize failed: the browser was closed/,
      ],
      [
        (url) => new URL(`http://localhost:3000/callback?state=${url.searchParams.get("state")}`),
        /no authorization code/,
      ],
      [
        (url) =>
          new URL(
            `http://localhost:3000/callback?error=access_denied&error_description=Click+here&state=${url.searchParams.get("state")}`,
          ),
        /answered access_denied instead of a code/,
      ],
      [() => new URL("http://localhost:3000/callback?code=stolen&state=other"), /state is not the one of this/],
      [() => undefined as unknown as string, /resolved with undefined/],
    ];
    for (const [authorize, expected] of cases) {
      const provider = new MemoryOAuthProvider();
      const error = await fromMCP(server.url, { authorization: { provider, authorize, timeoutMs: 100 } }).then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
      assert.instance(error, Error);
      assert.match(
        error!.message,
        /^fromMCP: the authorization with MCP server at http:\/\/127\.0\.0\.1:\d+ did not complete/,
      );
      assert.match(error!.message, expected);
      assert.not.match(error!.message, /Click here/, "the authorization server's own text is not repeated");
    }
  } finally {
    await server.close();
  }
});

test("a token the server refuses after the authorization is a clear error, with one authorization only", async () => {
  const server = await scripted();
  server.issueRefusedTokens = true;
  const { authorize, urls } = authorizeCounting();
  try {
    const error = await fromMCP(server.url, { authorization: { provider: new MemoryOAuthProvider(), authorize } }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    assert.instance(error, Error);
    assert.match(error!.message, /MCP server at http:\/\/127\.0\.0\.1:\d+ refused the token it was authorized for/);
    assert.is(urls.length, 1, "authorize called once, not again for the refused token");
  } finally {
    await server.close();
  }
});

test("an authorization endpoint that is not https (nor http on this machine) is never handed to authorize", async () => {
  const server = await scripted();
  server.authorizationEndpoint = "http://auth.example.test/authorize";
  const { authorize, urls } = authorizeCounting();
  try {
    const error = await fromMCP(server.url, { authorization: { provider: new MemoryOAuthProvider(), authorize } }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    assert.instance(error, Error);
    assert.match(error!.message, /authorization endpoint is not an https URL \(http:\)/);
    assert.is(urls.length, 0);
  } finally {
    await server.close();
  }
});

test("authorization with a client the app connected itself is refused: its transport authorizes", async () => {
  const provider = new MemoryOAuthProvider();
  const client = { callTool: async () => ({}) } as unknown as Parameters<typeof fromMCP>[0];
  const error = await fromMCP(client, { authorization: { provider, authorize: () => "code" } }).then(
    () => undefined,
    (caught: unknown) => caught as Error,
  );
  assert.instance(error, TypeError);
  assert.match(error!.message, /authorization applies to the client fromMCP makes/);
});

test.run();
