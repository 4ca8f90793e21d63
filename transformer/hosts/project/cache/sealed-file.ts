/**
 * The cache's files on disk: each written whole to a temporary file in the same folder and renamed over the old one
 * (a reader sees the old file or the new one, never half of one, even with two builds writing at once), and each
 * sealed with a SHA-256 of its own content, checked when read, so a truncated, corrupted or hand-made entry is taken
 * for absent (and written over by the next miss), never used and never thrown. Read with the runtime's bounded JSON
 * reader: the folder may be shared in odd setups, and its text is not ours until the seal says so.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { readJson } from "../../../../runtime/arguments/read/bounded-json";

/** An entry holds one module's output (its text and source map) and the names of the files it depends on. */
const BOUNDS = { maxBytes: 64 * 1024 * 1024, maxDepth: 64 };

export function sha256(data: string | Buffer): string {
  return crypto.createHash("sha256").update(data).digest("base64url");
}

/**
 * The value sealed in `file`, or undefined when it is missing, unreadable, not JSON or its seal does not match. A
 * sealed file is the seal (the SHA-256 of the rest) on the first line, then the value as JSON.
 */
export function readSealed(file: string): Record<string, unknown> | undefined {
  const body = readSealedBytes(file);
  return body === undefined ? undefined : jsonRecordOf(body.toString("utf8"));
}

/**
 * The bytes sealed in `file` (what follows the seal), or undefined when it is missing, unreadable or not sealed;
 * undecoded: a module's entry is handed to esbuild as the bytes it holds, without decoding them into a string that
 * esbuild's protocol would encode again.
 */
export function readSealedBytes(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const end = bytes.indexOf(NEWLINE);
  if (end < 0) return undefined;
  const body = bytes.subarray(end + 1);
  return sha256(body) === bytes.toString("latin1", 0, end) ? body : undefined;
}

const NEWLINE = 0x0a;

/** `text` read as a JSON object with the cache's bounds, or undefined. */
export function jsonRecordOf(text: string): Record<string, unknown> | undefined {
  const read = readJson(text, BOUNDS);
  return read.ok && isRecord(read.value) ? read.value : undefined;
}

/** Writes `value` sealed to `file`, atomically; a failure to write leaves the old file and is not an error. */
export function writeSealed(file: string, value: Record<string, unknown>): void {
  writeSealedText(file, JSON.stringify(value));
}

/** Writes `body` sealed to `file`, atomically, as writeSealed does. */
export function writeSealedText(file: string, body: string): void {
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temporary, `${sha256(body)}\n${body}`);
    fs.renameSync(temporary, file);
  } catch {
    // A full disk or a folder gone: the next build misses again and reads the types itself.
    fs.rmSync(temporary, { force: true });
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
