/**
 * MCP authorization for the HTTP handlers, the resource server's side (MCP 2026-07-28 "Authorization", RFC 9728).
 * Checking a token is the app's `authenticate` (docs/tools-as-a-service.md#authorization): tooltype handles no keys.
 */

/**
 * `MCPHttpOptions.authorization`: this server as an OAuth protected resource. When the app names its authorization
 * server, the handler serves the Protected Resource Metadata that MCP clients read to find where to get a token, and
 * its 401/403 challenges point at it.
 */
export interface MCPAuthorization {
  /**
   * This server's canonical URI (RFC 8707): the MCP endpoint's own URL, e.g. `https://mcp.example.com/mcp`, with
   * no fragment. Tokens must name it as their audience; `authenticate` checks that.
   */
  resource: string;
  /** The issuers of the authorization servers that issue tokens for it (`authorization_servers`), at least one. */
  authorizationServers: readonly string[];
  /**
   * The scopes a client asks for to start with (`scopes_supported`, and the `scope` of a 401 challenge): the
   * fewest that basic use needs. Tools' own `scopes` are asked for when a call needs them (403).
   */
  scopesSupported?: readonly string[];
  /** A name for people (`resource_name`). */
  resourceName?: string;
  /** A page about using this server (`resource_documentation`). */
  resourceDocumentation?: string;
}

/** Where RFC 9728 puts the metadata of a resource: the well-known prefix, then the resource's path. */
const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** The resource's URL, checked: absolute http(s), no fragment. */
function resourceUrl(authorization: MCPAuthorization): URL {
  let url: URL;
  try {
    url = new URL(authorization.resource);
  } catch {
    throw new TypeError(
      `tooltype/mcp: authorization.resource must be this server's absolute URL (https://mcp.example.com/mcp); got ${JSON.stringify(authorization.resource)}.`,
    );
  }
  if (!/^https?:$/.test(url.protocol) || url.hash !== "" || authorization.resource.includes("#")) {
    throw new TypeError(
      `tooltype/mcp: authorization.resource must be an http(s) URL without a fragment; got ${JSON.stringify(authorization.resource)}.`,
    );
  }
  if (!Array.isArray(authorization.authorizationServers) || authorization.authorizationServers.length === 0) {
    throw new TypeError(
      "tooltype/mcp: authorization.authorizationServers must name at least one authorization server (its issuer URL).",
    );
  }
  return url;
}

/** The resource's path as RFC 9728 appends it ("" for the root). */
function resourcePath(url: URL): string {
  return url.pathname === "/" ? "" : url.pathname.replace(/\/+$/, "");
}

/** The URL of the resource's metadata, for `resource_metadata` in challenges; `undefined` without `authorization`. */
export function protectedResourceMetadataUrl(authorization: MCPAuthorization | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const url = resourceUrl(authorization);
  return `${url.origin}${WELL_KNOWN}${resourcePath(url)}`;
}

/** The Protected Resource Metadata document (RFC 9728 section 2). */
export function protectedResourceMetadata(authorization: MCPAuthorization): Record<string, unknown> {
  resourceUrl(authorization);
  return {
    resource: authorization.resource,
    authorization_servers: [...authorization.authorizationServers],
    ...(authorization.scopesSupported === undefined ? {} : { scopes_supported: [...authorization.scopesSupported] }),
    bearer_methods_supported: ["header"],
    ...(authorization.resourceName === undefined ? {} : { resource_name: authorization.resourceName }),
    ...(authorization.resourceDocumentation === undefined
      ? {}
      : { resource_documentation: authorization.resourceDocumentation }),
  };
}

/**
 * The answer to a request for the resource's metadata, at the path RFC 9728 derives from `resource` or at the
 * well-known root (the clients of older revisions look there); `undefined` for any other request. Public by nature:
 * any origin may read it, and it carries nothing a caller could not learn from a 401.
 */
export function protectedResourceAnswer(
  request: Request,
  authorization: MCPAuthorization | undefined,
): Response | undefined {
  if (
    authorization === undefined ||
    (request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS")
  )
    return undefined;
  const path = new URL(request.url).pathname;
  if (!path.startsWith(WELL_KNOWN)) return undefined;
  const url = resourceUrl(authorization);
  if (path !== WELL_KNOWN && path !== `${WELL_KNOWN}${resourcePath(url)}`) return undefined;
  const cors = { "access-control-allow-origin": "*" };
  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: {
        ...cors,
        "access-control-allow-methods": "GET",
        "access-control-allow-headers": "mcp-protocol-version",
        "access-control-max-age": "600",
      },
    });
  }
  const body = JSON.stringify(protectedResourceMetadata(authorization));
  return new Response(request.method === "HEAD" ? null : body, {
    status: 200,
    headers: { ...cors, "content-type": "application/json", "cache-control": "public, max-age=3600" },
  });
}

/**
 * The access token of a request's `Authorization: Bearer …` header (RFC 6750), or `undefined` when it has none.
 * A token in the query string is never read: MCP forbids it.
 */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header === null ? null : /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i.exec(header);
  return match?.[1];
}
