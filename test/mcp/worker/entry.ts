/**
 * A tool service as a user deploys it on Cloudflare Workers (bundled by test/mcp/workers.integration.test.ts with
 * esbuild from
 * this file's tspc output): the MCP endpoint at /mcp (defaults: loopback hosts, no foreign origins), the same
 * behind a bearer token at /secure/mcp, and plain dispatch as the user's own routes: GET /tools for the OpenAI tool
 * list, POST /dispatch with an assistant message answered by its ToolMessages. Also run under Bun (bun-serve.mjs).
 */
import type { ToolCallMessage, ToolRegistry } from "tooltype";
import { MCPAuthError, mcpFetchHandler } from "tooltype/mcp";
import { createMcpRegistry } from "../tools";

export interface Env {
  /** The bearer token /secure/mcp accepts. */
  TOKEN?: string;
}

const registry: ToolRegistry = createMcpRegistry();
const open = mcpFetchHandler(registry, { name: "worker-tools", version: "1.0.0" });
let secure: ((request: Request) => Promise<Response>) | undefined;

function secured(env: Env): (request: Request) => Promise<Response> {
  secure ??= mcpFetchHandler(registry, {
    name: "worker-tools",
    version: "1.0.0",
    authenticate: (request) => {
      const header = request.headers.get("authorization");
      if (header === "Bearer read-only") throw new MCPAuthError(403, "this token may only read");
      return env.TOKEN !== undefined && header === `Bearer ${env.TOKEN}` ? { user: "worker-user" } : undefined;
    },
  });
  return secure;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/mcp") return open(request);
    if (pathname === "/secure/mcp") return secured(env)(request);
    if (pathname === "/tools" && request.method === "GET") return Response.json(registry.toOpenAITools());
    if (pathname === "/dispatch" && request.method === "POST") {
      const messages = await registry.dispatch((await request.json()) as ToolCallMessage);
      return Response.json(messages);
    }
    if (pathname === "/eval") {
      // Proves the runtime forbids generating code, so the tools above ran without it.
      try {
        return new Response(String(new Function("return 1")()));
      } catch (error) {
        return new Response(`refused: ${(error as Error).message}`);
      }
    }
    return new Response("Not found", { status: 404 });
  },
};
