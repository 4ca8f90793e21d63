/**
 * `redactSecrets(text)`: the built-in redaction of error texts, on by default for what a tool throws unexpectedly
 * (pipeline.ts applies it through error-text.ts). It replaces, keeping enough for the model to understand the text:
 * - credentials after an HTTP auth scheme (`Bearer …`, `Basic …`) and JSON Web Tokens;
 * - API keys by their published prefixes (`sk-…`, `sk_live_…`, `ghp_…`, `github_pat_…`, `xox?-…`, `AKIA…`, `AIza…`);
 * - passwords in URLs (`postgres://user:…@host`) and values of secret-named keys (`password=…`, `api_key: …`);
 * - absolute file paths, down to their last segment (`/home/alice/app/q3.csv` → `…/q3.csv`, also `C:\…`).
 *
 * Every pattern runs in linear time (no quantified group can match the same text two ways), so a hostile message
 * cannot stall the process here; error-text.ts still cuts messages short before redacting them.
 */

const REDACTED = "[redacted]";

/** [pattern, replacement]: applied in order; each pattern's groups keep the part that is no secret. */
const RULES: readonly (readonly [RegExp, string])[] = [
  // Authorization header values.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // JSON Web Tokens (header.payload.signature, the header always starts with `{"` in base64url).
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // API keys by prefix: OpenAI / Anthropic (`sk-`, `sk-ant-`, `sk-proj-`), Stripe, GitHub, Slack, AWS, Google.
  [/\bsk-[A-Za-z0-9_-]{8,}/g, `sk-${REDACTED}`],
  [/\b([rs]k_(?:live|test)_)[A-Za-z0-9]{8,}/g, `$1${REDACTED}`],
  [/\b(gh[pousr]_)[A-Za-z0-9]{20,}/g, `$1${REDACTED}`],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, `github_pat_${REDACTED}`],
  [/\b(xox[abposr]-)[A-Za-z0-9-]{10,}/g, `$1${REDACTED}`],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED],
  // user:password@ in a URL (the scheme starts where no scheme character precedes it, so each run is read once).
  [/(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:@/]*):[^\s@/]+@/g, `$1:${REDACTED}@`],
  // password=…, api_key: …, Secret=…; (query strings, connection strings, config dumps).
  [/\b(password|passwd|pwd|secret|client[_-]?secret|token|access[_-]?token|api[_-]?key|access[_-]?key)(["']?\s*[=:]\s*["']?)[^\s;&,'"]+/gi, `$1$2${REDACTED}`],
  // Absolute POSIX paths of two or more segments, not inside a URL or a word; only the last segment is kept.
  [/(?<![\w:/.~-])\/(?:[\w.@+-]+\/)+([\w.@+-]*)/g, "…/$1"],
  // Windows drive paths.
  [/(?<![\w])[A-Za-z]:\\(?:[^\\\s'"]+\\)+([^\\\s'"]*)/g, "…\\$1"],
];

/** `text` with the secrets listed above replaced by `[redacted]` and absolute paths cut to their last segment. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}
