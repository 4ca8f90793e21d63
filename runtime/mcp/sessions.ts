/**
 * Session ids of the stateless HTTP server, which exist only so that a client's `notifications/cancelled` can find
 * the call it names.
 */
import { type CallerId, callerName } from "./caller";

export interface Sessions {
  /** A new session id for `auth`'s caller; `undefined` for a caller that cannot be named. */
  issue(auth: unknown): Promise<string | undefined>;
  /** Whether `session` was issued by this handler to `auth`'s caller. */
  verify(session: string, auth: unknown): Promise<boolean>;
}

/**
 * Issues and checks ids signed (HMAC-SHA-256 through Web Crypto, so it runs on Workers too) with a key made by the
 * handler, over a random nonce and the caller that `authenticate` named: an id this handler never issued, or
 * one issued to another caller, verifies as nothing, so nobody can cancel or take over someone else's call.
 *
 * A caller is named as caller.ts names it; one that cannot be named gets no id (`issue` gives `undefined`) and
 * verifies none.
 */
export function signedSessions(callerId?: CallerId): Sessions {
  let key: ReturnType<typeof makeKey> | undefined;
  const keyOnce = (): ReturnType<typeof makeKey> => (key ??= makeKey());
  const encoder = new TextEncoder();
  return {
    async issue(auth) {
      const caller = callerName(auth, callerId);
      if (caller === undefined) return undefined;
      const nonce = crypto.randomUUID();
      const mac = new Uint8Array(
        await crypto.subtle.sign("HMAC", await keyOnce(), encoder.encode(`${nonce}\u0000${caller}`)),
      );
      return `${nonce}.${toHex(mac)}`;
    },
    async verify(session, auth) {
      const dot = session.indexOf(".");
      const mac = dot === -1 ? undefined : fromHex(session.slice(dot + 1));
      const caller = callerName(auth, callerId);
      if (mac === undefined || mac.length !== 32 || caller === undefined) return false;
      return crypto.subtle.verify(
        "HMAC",
        await keyOnce(),
        mac,
        encoder.encode(`${session.slice(0, dot)}\u0000${caller}`),
      );
    },
  };
}

/** A key that never leaves this handler (not extractable), made on first use. */
function makeKey() {
  return crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function toHex(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += byte.toString(16).padStart(2, "0");
  return text;
}

function fromHex(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) return undefined;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
