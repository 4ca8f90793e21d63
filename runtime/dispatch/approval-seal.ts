/**
 * What makes a paused batch's state safe to hand out: a seal (HMAC-SHA-256 through Web Crypto, so it runs on
 * Workers too) over the whole state in canonical JSON, made with the registry's `approvalSecret`, with an expiry;
 * and, with or without a seal, a record of the states resumed by this registry, so that one state runs once.
 *
 * Canonical JSON sorts object keys: a state stored in a database that reorders keys (PostgreSQL's jsonb) still
 * verifies, while any change of a value does not.
 */

/** The default `approvalTtlMs`: a day. */
export const APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;
/** States remembered as resumed, per registry; the oldest are forgotten past this (their seals expire anyway). */
const MAX_REMEMBERED = 10_000;

/** JSON with object keys sorted, so that equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}

/** The hex HMAC-SHA-256 of `text` under `secret`. */
export async function seal(secret: string | Uint8Array, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const raw = typeof secret === "string" ? encoder.encode(secret) : secret;
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
  let hex = "";
  for (const byte of mac) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Equal strings, compared in time that does not depend on where they differ. */
export function sameSeal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A secret long enough to seal with, or a TypeError that says what to give. */
export function checkSecret(secret: string | Uint8Array): void {
  const length = typeof secret === "string" ? new TextEncoder().encode(secret).length : secret.length;
  if (length < 32) {
    throw new TypeError(
      `approvalSecret must hold at least 32 bytes (it has ${length}): use a random value, e.g. crypto.randomBytes(32).toString("hex"), kept out of source control.`,
    );
  }
}

/** The states a registry has resumed, by nonce: a state runs once. */
export class ResumedStates {
  readonly #seen = new Set<string>();

  /** Whether `nonce` was resumed before (a look: nothing is recorded). */
  has(nonce: string): boolean {
    return this.#seen.has(nonce);
  }

  /** Records `nonce`; false when it was resumed before. */
  claim(nonce: string): boolean {
    if (this.#seen.has(nonce)) return false;
    if (this.#seen.size >= MAX_REMEMBERED) this.#seen.delete(this.#seen.values().next().value!);
    this.#seen.add(nonce);
    return true;
  }
}
