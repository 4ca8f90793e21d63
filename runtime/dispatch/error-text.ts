/**
 * The default text of a failed call (what the model reads when no handler chooses another), by kind of error
 * (`toolErrorKind`, tool/errors.ts):
 * - a `ToolError`: its message, verbatim (written for the model on purpose);
 * - tooltype's own errors (validation, timeout, result): `Error: ` and their message, verbatim;
 * - any other Error: `Error: `, its class name unless plain `Error`, and its message cut to 2,000 characters and
 *   redacted (`redact` option: built-in patterns by default, a function of your own, or `false`);
 * - anything else thrown (a plain object, a string, a Proxy): only what type it was. Such values are often an HTTP
 *   client's request with its headers or a driver's settings, so nothing of them is serialised.
 * Never throws: a value that cannot be inspected gets a generic text.
 */
import { toolErrorKind } from "../tool/errors";
import type { Redact } from "../tool/options";
import { redactSecrets } from "./redact";

/** Longest message of an unexpected error that is sent (and redacted); the rest is cut. */
const MAX_MESSAGE_CHARS = 2_000;
/** How far past the cut a message is read for redaction. */
const REDACT_MARGIN_CHARS = 4_096;

export function failureText(error: unknown, redact: Redact | undefined): string {
  try {
    const kind = toolErrorKind(error);
    if (kind === "tool_error") return String((error as Error).message);
    if (kind !== "exception") return `Error: ${String((error as Error).message)}`;
    if (!(error instanceof Error))
      return `Error: the tool failed: it threw ${kindOfThrown(error)}, not an Error, so nothing of it is sent.`;
    const name = error.name;
    // Redacted before it is cut, so that a secret across the cut is not sent in part: the margin holds any secret
    // the patterns know whole, and a PEM block cut inside is redacted to its end.
    const whole = String(error.message);
    const message = whole.slice(0, MAX_MESSAGE_CHARS + REDACT_MARGIN_CHARS);
    const text =
      typeof name === "string" && name !== "Error" && /^[A-Za-z_$][\w$]{0,63}$/.test(name)
        ? `${name}: ${message}`
        : message;
    const redacted = applyRedact(text, redact);
    const left = redacted.length - MAX_MESSAGE_CHARS + (whole.length - message.length);
    return `Error: ${left > 0 ? `${redacted.slice(0, MAX_MESSAGE_CHARS)}… (${left} more characters)` : redacted}`;
  } catch {
    // A thrown value whose getters throw (or a revoked Proxy), or a redact function that throws, still gets an answer.
    return "Error: the tool failed with an error that could not be read.";
  }
}

/** The text of a validation failure: tooltype's own words about what the model sent, verbatim. */
export function validationText(error: unknown): string {
  try {
    return `Error: ${String((error as Error).message)}`;
  } catch {
    return "Error: the call could not be used.";
  }
}

function applyRedact(text: string, redact: Redact | undefined): string {
  if (redact === false) return text;
  if (typeof redact === "function") return String(redact(text));
  return redactSecrets(text);
}

function kindOfThrown(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
