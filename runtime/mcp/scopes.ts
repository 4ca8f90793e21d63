/**
 * The scopes a tool declares (`scopes: ["files:read"]`) against those its caller holds: a call without every one
 * is refused before the tool runs.
 */
import type { RegisteredTool } from "../dispatch/options";
import { MCPProtocolError } from "./protocol-error";

/**
 * The scopes a caller holds, read from what `authenticate` returned: `scopes` (an array), else the OAuth claim
 * `scope` (space-separated, RFC 8693 / RFC 9068), else `scp` (an array or a string, as some providers write it).
 */
export function grantedScopes(auth: unknown): ReadonlySet<string> {
  if (typeof auth !== "object" || auth === null) return new Set();
  const { scopes, scope, scp } = auth as { scopes?: unknown; scope?: unknown; scp?: unknown };
  const listed = scopes ?? scope ?? scp;
  if (typeof listed === "string") return new Set(listed.split(" ").filter((s) => s !== ""));
  if (Array.isArray(listed)) return new Set(listed.filter((s): s is string => typeof s === "string"));
  return new Set();
}

/** The scopes `tool` needs that `auth`'s caller lacks (empty when it may call it): the one check of both entries. */
export function missingScopes(tool: RegisteredTool, auth: unknown): string[] {
  const needed = tool.options.scopes;
  if (needed === undefined || needed.length === 0) return [];
  const granted = grantedScopes(auth);
  return needed.filter((s) => !granted.has(s));
}

/**
/**
 * Whether the caller of an exchange may see `tool` (in `tools/list`, in errors): always without a caller or with
 * `listAllTools`; otherwise only when it holds the tool's scopes.
 */
export function visibleTo(tool: RegisteredTool, scope: { auth?: unknown }, listAllTools: boolean | undefined): boolean {
  return listAllTools === true || !("auth" in scope) || missingScopes(tool, scope.auth).length === 0;
}

/**
 * The server's tool-call entry: throws the JSON-RPC error of a call its caller may not make. Over HTTP with
 * `listAllTools` the handler has already refused such a request (scope-challenge.ts: all the scopes it needs, MCP
 * 2026-07-28 "Scope Challenge Handling", so a client can step up in one authorization); this is for a server given a
 * caller by other means. A server with no caller at all (stdio: the local user who started it) checks none.
 */
export function enforceScopes(tool: RegisteredTool, scope: { auth?: unknown }): void {
  if (!("auth" in scope)) return;
  const missing = missingScopes(tool, scope.auth);
  if (missing.length > 0) {
    throw new MCPProtocolError(
      -32000,
      `Forbidden (insufficient_scope): ${JSON.stringify(tool.name)} needs the scopes "${(tool.options.scopes ?? []).join(" ")}"; the caller lacks "${missing.join(" ")}".`,
    );
  }
}
