/**
 * The HTTP handlers' refusal of a request that calls a tool its caller lacks scopes for (scopes.ts decides): 403
 * with a `Bearer error="insufficient_scope"` challenge naming every scope the request's calls need, before any runs.
 */
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import { challenge, challengeHeaders, type HttpPolicy, refusal } from "./http-policy";
import { missingScopes } from "./scopes";

/**
 * The HTTP handler's refusal of a request whose `tools/call` messages name a tool the caller may not call: 403
 * with a challenge naming every scope those tools need (the caller keeps what it has by asking for the union).
 * `undefined` when every call may go on.
 */
export function scopeRefusal(
  registry: ToolRegistry,
  request: Request,
  messages: readonly unknown[],
  auth: unknown,
  policy: HttpPolicy,
): Response | undefined {
  const refused: string[] = [];
  const needed = new Set<string>();
  for (const message of messages) {
    const name = calledTool(message);
    const tool = name === undefined ? undefined : registry.get(name);
    if (tool === undefined || missingScopes(tool, auth).length === 0) continue;
    refused.push(tool.name);
    for (const s of tool.options.scopes ?? []) needed.add(s);
  }
  if (refused.length === 0) return undefined;
  const scope = [...needed].join(" ");
  const text = `${refused.map((n) => JSON.stringify(n)).join(", ")} ${refused.length === 1 ? "needs" : "need"} the scopes "${scope}"; the token does not grant them all. Authorize again with these scopes.`;
  return refusal(
    403,
    -32000,
    `Forbidden (insufficient_scope): ${text}`,
    challengeHeaders(request.headers.get("origin"), challenge(policy, "insufficient_scope", scope, text)),
  );
}

/** The tool a `tools/call` message names, if it is one. */
function calledTool(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
}
