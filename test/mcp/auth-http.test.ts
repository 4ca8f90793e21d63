/**
 * MCP authorization on the HTTP handlers, over real HTTP on 127.0.0.1, the Node handler (mcpHttpHandler on
 * node:http) and the fetch handler (mcpFetchHandler on @hono/node-server) alike: the Protected Resource Metadata
 * (RFC 9728) served from the handler; 401 challenges pointing at it with the scopes to ask for; bearer tokens
 * verified in `authenticate` with jose (keys made here; issuer, audience and expiry checked); a real MCP client
 * with a token; a tool's `scopes` refused before it runs with 403 `insufficient_scope` naming every scope the
 * request needs; the same check at the server's tool-call entry; stdio-like servers with no caller check none.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { webcrypto } from "node:crypto";
import * as path from "node:path";
import { serve } from "@hono/node-server";
import {
  Client as ClientV2,
  InsufficientScopeError,
  StreamableHTTPClientTransport as HttpV2,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  bearerToken,
  createMCPServer,
  type MCPHttpOptions,
  mcpFetchHandler,
  mcpHttpHandler,
  protectedResourceMetadata,
} from "tooltype/mcp";
import { listenOnLoopback } from "../support/listen";
import { INITIALIZE, rawPost, text, TIMEOUT, withClient } from "./support";
import { createAuthRegistry, runs } from "./auth-tools";

const ISSUER = "https://auth.example.test";
const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** jose is an ES module only: loaded with `import()` from this CommonJS test. */
type Jose = typeof import("jose", { with: { "resolution-mode": "import" }});

interface Keys {
  privateKey: webcrypto.CryptoKey;
  publicKey: webcrypto.CryptoKey;
}

let jose: Jose;
let keys: Keys;
let otherKeys: Keys;

/** A signed access token; `claims` override the defaults (from ISSUER for `audience` with `scope`, valid 5 minutes). */
async function token(
  audience: string,
  scope: string,
  claims: Record<string, unknown> = {},
  signWith: Keys = keys,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new jose.SignJWT({ iss: ISSUER, sub: "ada", aud: audience, iat: now, exp: now + 300, scope, ...claims })
    .setProtectedHeader({ alg: "ES256" })
    .sign(signWith.privateKey);
}

/**
 * The handler's options as docs/tools-as-a-service.md#authorization writes them: jose verifies, audience included;
 * every tool listed to every caller, so that a client can step up to the scopes a tool needs (403 challenges).
 */
function options(resource: string): MCPHttpOptions {
  return {
    listAllTools: true,
    allowedOrigins: ["https://app.example"],
    authorization: {
      resource,
      authorizationServers: [ISSUER],
      scopesSupported: ["files:read"],
      resourceName: "Workspace files",
    },
    authenticate: async (request) => {
      const presented = bearerToken(request);
      if (presented === undefined) return undefined;
      try {
        const { payload } = await jose.jwtVerify(presented, keys.publicKey, {
          issuer: ISSUER,
          audience: resource,
          algorithms: ["ES256"],
        });
        return payload;
      } catch {
        return undefined;
      }
    },
  };
}

type Host = "node" | "fetch";

/** A handler of `host`'s kind on 127.0.0.1, made once its URL (the resource) is known; `body` gets the MCP endpoint. */
async function withServer(
  host: Host,
  body: (url: URL) => Promise<void>,
  configure: (resource: string) => MCPHttpOptions = options,
): Promise<void> {
  let server: http.Server;
  let port: number;
  if (host === "node") {
    let handler: ReturnType<typeof mcpHttpHandler> | undefined;
    server = http.createServer((req, res) => void handler!(req, res));
    port = await listenOnLoopback(server);
    handler = mcpHttpHandler(createAuthRegistry(), configure(`http://127.0.0.1:${port}/mcp`));
  } else {
    let handler: ((request: Request) => Promise<Response>) | undefined;
    const listening = new Promise<AddressInfo>((resolve) => {
      server = serve(
        { fetch: (request: Request) => handler!(request), port: 0, hostname: "127.0.0.1" },
        resolve,
      ) as http.Server;
    });
    port = (await listening).port;
    handler = mcpFetchHandler(createAuthRegistry(), configure(`http://127.0.0.1:${port}/mcp`));
  }
  try {
    await body(new URL(`http://127.0.0.1:${port}/mcp`));
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/** The parameters of a `Bearer` challenge. */
function challenge(header: string | string[] | undefined): Record<string, string> {
  assert.type(header, "string", "a WWW-Authenticate header");
  assert.match(header as string, /^Bearer /);
  return Object.fromEntries([...(header as string).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

function get(url: URL, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT.timeout) });
}

test.before(async () => {
  jose = await import("jose");
  keys = await jose.generateKeyPair("ES256");
  otherKeys = await jose.generateKeyPair("ES256");
});

for (const host of ["node", "fetch"] as const) {
  test(`${host}: the Protected Resource Metadata at the resource's well-known path and at the root, readable from any origin`, async () => {
    await withServer(host, async (url) => {
      const expected = {
        resource: url.href,
        authorization_servers: [ISSUER],
        scopes_supported: ["files:read"],
        bearer_methods_supported: ["header"],
        resource_name: "Workspace files",
      };
      for (const path of [`${WELL_KNOWN}/mcp`, WELL_KNOWN]) {
        const answer = await get(new URL(path, url), { origin: "https://app.example" });
        assert.is(answer.status, 200, path);
        assert.is(answer.headers.get("access-control-allow-origin"), "*");
        assert.match(answer.headers.get("content-type") ?? "", /application\/json/);
        assert.equal(await answer.json(), expected);
      }
      assert.equal(protectedResourceMetadata(options(url.href).authorization!), expected);
      // Another resource's path is not this one's metadata: the handler answers it as any GET (405).
      assert.is((await get(new URL(`${WELL_KNOWN}/other`, url))).status, 405);
      // The browser's preflight for the header MCP clients send with it.
      const preflight = await fetch(new URL(`${WELL_KNOWN}/mcp`, url), {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "GET" },
      });
      assert.is(preflight.status, 204);
      assert.is(preflight.headers.get("access-control-allow-origin"), "*");
    });
    // No authorization configured: nothing is served there.
    await withServer(
      host,
      async (url) => assert.is((await get(new URL(`${WELL_KNOWN}/mcp`, url))).status, 405),
      () => ({}),
    );
  });

  test(`${host}: 401 challenges name the metadata and the scopes to ask for; a token of another audience, issuer or key, or expired, is invalid_token`, async () => {
    await withServer(host, async (url) => {
      const metadata = `${url.origin}${WELL_KNOWN}/mcp`;
      const none = await rawPost(url, INITIALIZE);
      assert.is(none.status, 401);
      assert.equal(challenge(none.headers["www-authenticate"]), {
        realm: "mcp",
        scope: "files:read",
        resource_metadata: metadata,
      });

      const wrong = [
        await token("https://elsewhere.example/mcp", "files:read"),
        await token(url.href, "files:read", { iss: "https://evil.example" }),
        await token(url.href, "files:read", {}, otherKeys),
        await token(url.href, "files:read", { exp: Math.floor(Date.now() / 1000) - 600 }),
        "not-a-jwt",
      ];
      for (const presented of wrong) {
        const refused = await rawPost(url, INITIALIZE, { authorization: `Bearer ${presented}` });
        assert.is(refused.status, 401, presented);
        assert.equal(challenge(refused.headers["www-authenticate"]), {
          realm: "mcp",
          error: "invalid_token",
          scope: "files:read",
          resource_metadata: metadata,
        });
      }
      // A page of an allowed origin can read the challenge.
      const fromPage = await rawPost(url, INITIALIZE, { origin: "https://app.example" });
      assert.is(fromPage.status, 401);
      assert.is(fromPage.headers["access-control-allow-origin"], "https://app.example");
      assert.match(String(fromPage.headers["access-control-expose-headers"]), /www-authenticate/);
      const accepted = await rawPost(url, INITIALIZE, {
        authorization: `Bearer ${await token(url.href, "files:read")}`,
      });
      assert.is(accepted.status, 200, accepted.body);
    });
  });

  test(`${host}: a real MCP client with a token calls what its scopes allow; a call without them is refused before the tool runs (403 insufficient_scope)`, async () => {
    await withServer(host, async (url) => {
      runs.clear();
      const reader = await token(url.href, "files:read");
      await withClient(url, { authorization: `Bearer ${reader}` }, async (client) => {
        assert.is(text(await client.callTool({ name: "whoami", arguments: {} }, undefined, TIMEOUT)), "you are ada");
        assert.is(
          text(await client.callTool({ name: "read_file", arguments: { path: "a.txt" } }, undefined, TIMEOUT)),
          "contents of a.txt",
        );
        const refused = await client
          .callTool({ name: "write_file", arguments: { path: "a.txt", text: "hi" } }, undefined, TIMEOUT)
          .then(
            () => "called",
            (error: unknown) => String(error),
          );
        // The SDK 1.x client shows the refusal's JSON-RPC body (its quotes escaped).
        assert.match(
          refused,
          /Forbidden \(insufficient_scope\): \\"write_file\\" needs the scopes \\"files:read files:write\\"/,
          refused,
        );
      });
      assert.is(runs.get("write_file"), undefined, "the refused tool never ran");

      // The challenge: every scope the request needs (a batch asking for both tools), the metadata, a description.
      const batch = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "write_file", arguments: { path: "a", text: "b" } },
        },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_file", arguments: { path: "a" } } },
      ];
      const forbidden = await rawPost(url, batch, {
        authorization: `Bearer ${await token(url.href, "")}`,
        origin: "https://app.example",
      });
      assert.is(forbidden.status, 403);
      assert.match(String(forbidden.headers["access-control-expose-headers"]), /www-authenticate/);
      const params = challenge(forbidden.headers["www-authenticate"]);
      assert.is(params.error, "insufficient_scope");
      assert.is(params.scope, "files:read files:write");
      assert.is(params.resource_metadata, `${url.origin}${WELL_KNOWN}/mcp`);
      assert.match(params.error_description!, /write_file, read_file need the scopes files:read files:write/);
      assert.match(
        JSON.parse(forbidden.body).error.message,
        /^Forbidden \(insufficient_scope\): "write_file", "read_file" need the scopes "files:read files:write"/,
      );
      assert.is(runs.get("read_file"), 1, "nothing of a refused request ran");

      // A token with the scopes: the same call runs. Scopes read from `scp` too.
      const writer = await token(url.href, "files:read files:write");
      await withClient(url, { authorization: `Bearer ${writer}` }, async (client) => {
        assert.is(
          text(
            await client.callTool({ name: "write_file", arguments: { path: "a.txt", text: "hi" } }, undefined, TIMEOUT),
          ),
          "wrote 2 characters to a.txt",
        );
      });
      const scp = await token(url.href, "", { scope: undefined, scp: ["files:read", "files:write"] });
      const answered = await rawPost(url, batch, { authorization: `Bearer ${scp}` });
      assert.is(answered.status, 200, answered.body);
      assert.is(runs.get("write_file"), 2);
    });
  });
}

for (const host of ["node", "fetch"] as const) {
  test(`${host}: by default a caller sees only the tools it holds the scopes for; the others are unknown to it, and no error names them`, async () => {
    const hidden = (resource: string): MCPHttpOptions => ({ ...options(resource), listAllTools: false });
    await withServer(
      host,
      async (url) => {
        runs.clear();
        const reader = await token(url.href, "files:read");
        await withClient(url, { authorization: `Bearer ${reader}` }, async (client) => {
          const listed = await client.listTools(undefined, TIMEOUT);
          assert.equal(listed.tools.map((t) => t.name).sort(), ["read_file", "whoami"]);
          const refused = await client
            .callTool({ name: "write_file", arguments: { path: "a.txt", text: "hi" } }, undefined, TIMEOUT)
            .then(
              () => "called",
              (error: unknown) => String(error),
            );
          assert.match(refused, /Unknown tool: "write_file"\. Valid tools: read_file, whoami\./, refused);
          const typo = await client.callTool({ name: "write_fil", arguments: {} }, undefined, TIMEOUT).then(
            () => "called",
            (error: unknown) => String(error),
          );
          assert.not.match(typo, /write_file/, "an error never names a tool the caller cannot see");
        });
        // Not a 403 with the scopes either: that would name what the tool needs.
        const raw = await rawPost(
          url,
          {
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "write_file", arguments: { path: "a", text: "b" } },
          },
          { authorization: `Bearer ${reader}` },
        );
        assert.is(raw.status, 200);
        assert.is(raw.headers["www-authenticate"], undefined);
        assert.not.match(raw.body, /files:write/);
        assert.is(runs.get("write_file"), undefined, "the hidden tool never ran");
        const writer = await token(url.href, "files:read files:write");
        await withClient(url, { authorization: `Bearer ${writer}` }, async (client) => {
          assert.equal((await client.listTools(undefined, TIMEOUT)).tools.map((t) => t.name).sort(), [
            "read_file",
            "whoami",
            "write_file",
          ]);
        });
      },
      hidden,
    );
  });
}

test("the SDK v2 client reads the 403 as its typed insufficient-scope error, with the scopes to ask for", async () => {
  await withServer("node", async (url) => {
    runs.clear();
    const client = new ClientV2({ name: "v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(
      new HttpV2(url, { requestInit: { headers: { authorization: `Bearer ${await token(url.href, "files:read")}` } } }),
      TIMEOUT,
    );
    try {
      const error = await client.callTool({ name: "write_file", arguments: { path: "a", text: "b" } }, TIMEOUT).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.instance(error, InsufficientScopeError);
      assert.match(String(error), /files:write/);
      assert.is(runs.get("write_file"), undefined);
    } finally {
      await client.close();
    }
  });
});

test("the server's tool-call entry: a caller without the scopes gets a JSON-RPC error and the tool does not run; a server with no caller (stdio) checks none", async () => {
  runs.clear();
  // The HTTP handlers refuse such a call before it reaches the entry (above); the entry refuses it again for any
  // other way in. Reached beside the tooltype/mcp this process loads, the copy the registry belongs to: the test
  // build in the unit tier, dist/ where test/support/other-node.ts reruns this file under another Node release.
  const { mcpEndpoint } = require(
    path.join(path.dirname(require.resolve("tooltype/mcp")), "..", "mcp", "endpoint.js"),
  ) as typeof import("../../runtime/mcp/endpoint");
  const endpoint = mcpEndpoint(createAuthRegistry() as never, { listAllTools: true });
  const call = async (exchange: { auth?: unknown }): Promise<string> => {
    const answer = (await endpoint.answer(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "write_file", arguments: { path: "a", text: "b" } },
      },
      { ...exchange, signal: new AbortController().signal },
    )) as { result?: CallToolResult; error?: { message: string } };
    return answer.error ? answer.error.message : text(answer.result!);
  };
  assert.match(
    await call({ auth: { scope: "files:read" } }),
    /Forbidden \(insufficient_scope\): "write_file" needs the scopes "files:read files:write"; the caller lacks "files:write"/,
  );
  assert.match(await call({ auth: undefined }), /insufficient_scope/);
  assert.is(runs.get("write_file"), undefined);
  assert.is(await call({ auth: { scopes: ["files:read", "files:write"] } }), "wrote 1 characters to a");
  // A connection with no caller at all (stdio: the local user who started the server) checks no scopes.
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMCPServer(createAuthRegistry());
  await server.connect(serverSide);
  const client = new Client({ name: "in-memory", version: "1.0.0" });
  await client.connect(clientSide, TIMEOUT);
  try {
    const result = (await client.callTool(
      { name: "write_file", arguments: { path: "a", text: "b" } },
      undefined,
      TIMEOUT,
    )) as CallToolResult;
    assert.is(text(result), "wrote 1 characters to a");
  } finally {
    await client.close();
    await server.close();
  }
  assert.is(runs.get("write_file"), 2);
});

test("bearerToken: the token of an Authorization: Bearer header, nothing else", async () => {
  const request = (headers: Record<string, string>, url = "http://127.0.0.1/mcp"): Request =>
    new Request(url, { method: "POST", headers });
  assert.is(bearerToken(request({ authorization: "Bearer abc.def-ghi_~+/=" })), "abc.def-ghi_~+/=");
  assert.is(bearerToken(request({ authorization: "bearer abc" })), "abc");
  assert.is(bearerToken(request({ authorization: "Basic YWRhOnNlY3JldA==" })), undefined);
  assert.is(bearerToken(request({ authorization: "Bearer a b" })), undefined);
  assert.is(bearerToken(request({}, "http://127.0.0.1/mcp?access_token=abc")), undefined);
  assert.is(
    JSON.stringify(await jose.exportJWK(keys.publicKey)).includes('"d"'),
    false,
    "only the public key verifies",
  );
});

test.run();
