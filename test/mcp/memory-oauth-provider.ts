/**
 * An MCP SDK `OAuthClientProvider` that keeps everything in memory, for the tests of `fromMCP`'s `authorization`
 * (client-authorization.test.ts, the conformance client): what an app's provider stores in a file or a database.
 */
import { randomUUID } from "node:crypto";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";

export interface MemoryOAuthProviderOptions {
  /** Where the authorization server sends the user back. */
  redirectUrl?: string;
  /** A pre-registered client (no dynamic registration). */
  client?: { client_id: string; client_secret?: string };
  /** The URL of the client's ID metadata document (used where the authorization server supports those). */
  clientMetadataUrl?: string;
  /** Tokens the app already holds. */
  tokens?: { access_token: string; token_type: string };
  /** The scope the client asks for (`clientMetadata.scope`). */
  scope?: string;
}

export class MemoryOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl: string;
  readonly clientMetadataUrl: string | undefined;
  private client: StoredOAuthClientInformation | undefined;
  private stored: StoredOAuthTokens | undefined;
  private verifier = "";
  private discovery: OAuthDiscoveryState | undefined;
  /** How many times tokens were saved (a test's witness that an exchange happened). */
  savedTokens = 0;

  constructor(private readonly options: MemoryOAuthProviderOptions = {}) {
    this.redirectUrl = options.redirectUrl ?? "http://localhost:3000/callback";
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.client = options.client;
    this.stored = options.tokens;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "tooltype test client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.options.client?.client_secret === undefined ? "none" : "client_secret_basic",
      ...(this.options.scope === undefined ? {} : { scope: this.options.scope }),
    };
  }

  /** A fresh `state` for each authorization request, which `fromMCP` checks on the way back. */
  state() {
    return randomUUID();
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(information: StoredOAuthClientInformation) {
    this.client = information;
  }

  tokens() {
    return this.stored;
  }

  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
    this.savedTokens += 1;
  }

  redirectToAuthorization(): void {
    throw new Error("fromMCP's authorization hands the URL to authorize; the provider's redirect is not called");
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "client") this.client = this.options.client;
    if (scope === "all" || scope === "tokens") this.stored = undefined;
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }
}

/**
 * An `authorize` that does what a browser would without a user: follows the authorization URL, which a test's
 * authorization server answers with a redirect to the client's redirect URL, and resolves with that redirect.
 */
export async function followAuthorization(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  await response.body?.cancel();
  if (location === null) throw new Error(`the authorization server answered ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
}
