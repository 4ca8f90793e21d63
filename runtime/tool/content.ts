/** Rich tool results: the content parts a tool may return besides plain values, and their constructors. */

/** A piece of text. */
export interface TextPart {
  type: "text";
  text: string;
}

/** Where the bytes of an image or file are: inline as base64 (with its media type), or at a URL. */
export type MediaSource =
  | { data: string; mediaType: string; url?: undefined }
  | { url: string; mediaType?: string; data?: undefined };

/** An image (`image/png`, `image/jpeg`, …), inline or by URL. */
export type ImagePart = { type: "image" } & MediaSource;

/** A file (a PDF, plain text, …), inline or by URL, with an optional file name. */
export type FilePart = { type: "file"; filename?: string } & MediaSource;

/**
 * One part of a tool's result. A tool returns one part or an array of parts (also as the content of
 * `[content, artifact]`); only parts made by `text()`, `image()` and `file()` count, so a tool that returns its own
 * data shaped like `{ type: "image", ... }` is still sent as JSON, never reinterpreted.
 */
export type ToolContentPart = TextPart | ImagePart | FilePart;

/** What `image()` and `file()` take: base64 text, raw bytes, or a URL. */
export type MediaInput =
  | { base64: string; mediaType: string }
  | { bytes: Uint8Array; mediaType: string }
  | { url: string; mediaType?: string };

/** The hidden mark of a part made by the constructors. */
const BRAND = Symbol.for("tooltype.contentPart");

function branded<P extends ToolContentPart>(part: P): P {
  Object.defineProperty(part, BRAND, { value: true, enumerable: false });
  return Object.freeze(part);
}

/** A text part. */
export function text(value: string): TextPart {
  if (typeof value !== "string")
    throw new TypeError(`text() takes a string; got ${value === null ? "null" : typeof value}.`);
  return branded({ type: "text", text: value });
}

/** An image part: `image({ base64, mediaType })`, `image({ bytes, mediaType })` or `image({ url })`. */
export function image(input: MediaInput): ImagePart {
  return branded({ type: "image", ...source("image", input) });
}

/** A file part: `file({ base64, mediaType, filename? })`, `file({ bytes, … })` or `file({ url, … })`. */
export function file(input: MediaInput & { filename?: string }): FilePart {
  const part: FilePart = { type: "file", ...source("file", input) };
  if (input.filename !== undefined) part.filename = String(input.filename);
  return branded(part);
}

function source(kind: string, input: MediaInput): MediaSource {
  if (typeof input !== "object" || input === null)
    throw new TypeError(`${kind}() takes { base64, mediaType }, { bytes, mediaType } or { url }.`);
  if ("url" in input && typeof input.url === "string") {
    if (input.url === "") throw new TypeError(`${kind}({ url }): the URL is empty.`);
    return input.mediaType === undefined
      ? { url: input.url }
      : { url: input.url, mediaType: checkedType(kind, input.mediaType) };
  }
  const mediaType = checkedType(kind, (input as { mediaType?: unknown }).mediaType);
  if ("bytes" in input && input.bytes instanceof Uint8Array) return { data: toBase64(input.bytes), mediaType };
  if ("base64" in input && typeof input.base64 === "string") {
    // A data URL is accepted as base64 text would be: its payload is the data.
    const match = /^data:[^;,]*;base64,/.exec(input.base64);
    return { data: match ? input.base64.slice(match[0].length) : input.base64, mediaType };
  }
  throw new TypeError(
    `${kind}() takes { base64, mediaType }, { bytes, mediaType } or { url }; got an object with ${Object.keys(input).join(", ") || "no keys"}.`,
  );
}

function checkedType(kind: string, mediaType: unknown): string {
  if (typeof mediaType !== "string" || !/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) {
    throw new TypeError(
      `${kind}(): mediaType must be a media type such as "${kind === "image" ? "image/png" : "application/pdf"}"; got ${JSON.stringify(mediaType) ?? "nothing"}.`,
    );
  }
  return mediaType;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Whether `value` is a part made by `text()`, `image()` or `file()`. */
export function isContentPart(value: unknown): value is ToolContentPart {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** The parts of a tool's result when it is one part or a non-empty array of parts, else `undefined`. */
export function contentParts(value: unknown): ToolContentPart[] | undefined {
  if (isContentPart(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isContentPart)) return value as ToolContentPart[];
  return undefined;
}

/** The label a text-only answer uses for a media part, e.g. `[image 1: image/png]`, `[file 2: report.pdf]`. */
export function partLabel(part: ImagePart | FilePart, index: number): string {
  const what = part.type === "file" && part.filename ? part.filename : (part.mediaType ?? part.url);
  return `[${part.type} ${index}: ${what}]`;
}

/** A `data:` URL of an inline part; a part by URL gives its URL. */
export function dataUrl(part: ImagePart | FilePart): string {
  return part.url ?? `data:${part.mediaType};base64,${part.data}`;
}

/**
 * The text of the parts for a model that reads text only: text parts as they are, each image and file as its label
 * (numbered from 1 within the result), one per line.
 */
export function partsText(parts: readonly ToolContentPart[]): string {
  let media = 0;
  return parts.map((part) => (part.type === "text" ? part.text : partLabel(part, ++media))).join("\n");
}
