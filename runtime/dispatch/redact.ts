/**
 * `redactSecrets(text)`: the built-in redaction of error texts, on by default for what a tool throws unexpectedly
 * (applied with the text of the failure). It replaces, keeping enough for the model to understand the text:
 * - whole header values of `Authorization`, `Proxy-Authorization` and `Cookie` / `Set-Cookie`, credentials after
 *   an auth scheme (`Bearer …`, `Basic …`, `Token …`) and JSON Web Tokens;
 * - API keys by their published prefixes (`sk-…`, `sk_live_…`, `ghp_…`, `github_pat_…`, `xox?-…`, `AKIA…`,
 *   `AIza…`, SendGrid's `SG.…`, Google's `ya29.…`) and PEM private key blocks;
 * - passwords in URLs (`postgres://user:…@host`, up to the last `@` before the host) and values of secret-named
 *   keys, whatever their prefix (`DB_PASSWORD=…`, `GITHUB_TOKEN=…`, `"api_key": "…"`, quoted values whole);
 * - absolute file paths, down to their last segment (`/home/alice/app/q3.csv` → `…/q3.csv`, also `C:\…`).
 *
 * Every pattern runs in linear time (no quantified group can match the same text two ways, and a pattern's starts
 * cannot each scan the same long run), so a hostile message cannot stall the process here.
 */

const REDACTED = "[redacted]";

/** Words that mark a key's value as a secret, anywhere in the key (`DB_PASSWORD`, `githubToken`, `private_key`). */
const SECRET_WORD =
  /password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth[_-]?key|session[_-]?key/i;

/**
 * A key and what separates it from its value (`DB_PASSWORD=`, `"api_key": `, `x-api-key: `): one run of word
 * characters, optionally dashed, that starts only where no such character precedes it, so each run is read once.
 */
const KEY = /(?<![A-Za-z0-9_-])([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)(["']?[ \t]*[=:][ \t]*)/g;

/**
 * Applied in order: [pattern, replacement], whose groups keep the part that is no secret, or a step of its own.
 */
const STEPS: readonly (readonly [RegExp, string] | ((text: string) => string))[] = [
  // PEM private keys: the whole block (base64 holds no `-`), or up to the end when the text was cut inside it.
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[^-]*(?:-----END [A-Z0-9 ]*PRIVATE KEY-----)?/g, REDACTED],
  // Header lines whose whole value is a credential, whatever its scheme (which is kept, as a hint).
  (text) =>
    text.replace(
      /\b((?:Proxy-)?Authorization[ \t]*[:=][ \t]*)(?:([A-Za-z][A-Za-z0-9-]*)[ \t]+)?[^\r\n]+/gi,
      (_, head: string, scheme?: string) => `${head}${scheme ? `${scheme} ` : ""}${REDACTED}`,
    ),
  [/\b((?:Set-)?Cookie[ \t]*[:=][ \t]*)[^\r\n]+/gi, `$1${REDACTED}`],
  // Credentials after an HTTP auth scheme.
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`],
  // JSON Web Tokens (header.payload.signature, the header always starts with `{"` in base64url).
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // API keys by prefix: OpenAI / Anthropic (`sk-`, `sk-ant-`, `sk-proj-`), Stripe, GitHub, Slack, AWS, Google,
  // SendGrid.
  [/\bsk-[A-Za-z0-9_-]{8,}/g, `sk-${REDACTED}`],
  [/\b([rs]k_(?:live|test)_)[A-Za-z0-9]{8,}/g, `$1${REDACTED}`],
  [/\b(gh[pousr]_)[A-Za-z0-9]{20,}/g, `$1${REDACTED}`],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, `github_pat_${REDACTED}`],
  [/\b(xox[abposr]-)[A-Za-z0-9-]{10,}/g, `$1${REDACTED}`],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED],
  [/\bya29\.[0-9A-Za-z_-]{10,}/g, `ya29.${REDACTED}`],
  [/\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, `SG.${REDACTED}`],
  // user:password@ in a URL, the password up to the last `@` before the host (a password may hold `@`); the
  // scheme starts where no scheme character precedes it, so each run is read once.
  [/(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:@/]*):[^\s/]*@/g, `$1:${REDACTED}@`],
  // KEY=value, "key": "value", key: value, for keys that name a secret.
  redactKeyValues,
  // Absolute POSIX paths of two or more segments, not inside a URL or a word; only the last segment is kept.
  [/(?<![\w:/.~-])\/(?:[\w.@+-]+\/)+([\w.@+-]*)/g, "…/$1"],
  // Windows drive paths.
  [/(?<![\w])[A-Za-z]:\\(?:[^\\\s'"]+\\)+([^\\\s'"]*)/g, "…\\$1"],
];

/** `text` with the secrets listed above replaced by `[redacted]` and absolute paths cut to their last segment. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const step of STEPS) out = typeof step === "function" ? step(out) : out.replace(step[0], step[1]);
  return out;
}

/**
 * The values of secret-named keys replaced: a quoted value whole (to its closing quote, or the line's end when it
 * has none), an unquoted one up to the next white space or separator. A scan rather than one expression, so that
 * a key that names no secret does not swallow a value that holds one (`a=password=x`).
 */
function redactKeyValues(text: string): string {
  let out = "";
  let copied = 0;
  KEY.lastIndex = 0;
  for (let match = KEY.exec(text); match !== null; match = KEY.exec(text)) {
    if (!SECRET_WORD.test(match[1]!)) {
      // Only the key is passed over: its value is read again, in case it is itself a secret key.
      KEY.lastIndex = match.index + match[1]!.length;
      continue;
    }
    const from = match.index + match[0].length;
    const to = valueEnd(text, from);
    if (to === from) continue;
    out += text.slice(copied, from) + REDACTED;
    copied = to;
    KEY.lastIndex = to;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Where the value starting at `from` ends. */
function valueEnd(text: string, from: number): number {
  const quote = text[from];
  let i = from;
  if (quote === '"' || quote === "'") {
    for (i++; i < text.length; i++) {
      const c = text[i];
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) return i + 1;
      else if (c === "\n" || c === "\r") return i;
    }
    return text.length;
  }
  while (i < text.length && !VALUE_END.has(text[i]!)) i++;
  return i;
}

const VALUE_END = new Set([" ", "\t", "\n", "\r", "\f", "\v", ";", "&", ",", "'", '"']);
