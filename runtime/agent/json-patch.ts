/**
 * JSON Patch repair of a failed tool call (`runTools(..., { repair: "jsonpatch" })`): the `patch_tool_arguments`
 * tool, reading the model's patch calls, and applying them.
 */
import { type JsonPatchOperation, type PatchLimits, patchDocument } from "./json-patch-apply";
import { isPlainObject } from "../arguments/read/read-arguments";
import { shortJson, truncate } from "../arguments/explain/show";
import { describeArgumentsProblem, parseArguments } from "../arguments/read/parse-arguments";
import type { ToolFormatSource } from "../providers/provider";
import type { JsonValue } from "../tool/meta";

/** The name of the tool offered in `repair: "jsonpatch"` mode for the model to patch a failed call's arguments. */
export const PATCH_TOOL_NAME = "patch_tool_arguments";

/** At most this many operations in one patch. */
const MAX_OPERATIONS = 200;

export type { JsonPatchOperation, PatchLimits } from "./json-patch-apply";

const OPS = new Set(["add", "remove", "replace", "move", "copy", "test"]);
const FORBIDDEN_TOKENS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The `patch_tool_arguments` tool, offering the calls in `patchable` (id → tool name): the failed call's id (an enum
 * of the calls that can be patched) and RFC 6902 operations. Its schema is written here by hand: the tool exists only
 * at run time, with no TypeScript function behind it; each provider writes it in its own format like the registry's
 * tools (never rewritten for strict mode).
 */
export function patchToolDefinition(patchable: ReadonlyMap<string, string>): ToolFormatSource {
  const ids = [...patchable.keys()];
  const listed = [...patchable].map(([id, name]) => `${id} (${name})`).join(", ");
  return {
    name: PATCH_TOOL_NAME,
    options: {},
    description:
      `Repair the arguments of a tool call that failed validation, instead of sending all its arguments again: give the failed call's id and RFC 6902 JSON Patch operations that fix only what the error named. ` +
      `The patched arguments are validated again and the tool is run with them; its result answers this call. Calls you can repair: ${listed}.`,
    parameters: {
      type: "object",
      properties: {
        tool_call_id: {
          type: "string",
          enum: ids,
          description: "The id of the failed tool call whose arguments to repair.",
        },
        patch: {
          type: "array",
          minItems: 1,
          maxItems: MAX_OPERATIONS,
          description:
            'RFC 6902 operations on that call\'s arguments object, applied in order, e.g. [{"op":"replace","path":"/people/0/age","value":34}]. Paths are JSON Pointers from the arguments object ("/a/0/b"; "~1" for "/" and "~0" for "~" in a key); "/-" appends to an array.',
          items: {
            type: "object",
            properties: {
              op: { type: "string", enum: ["add", "remove", "replace", "move", "copy", "test"] },
              path: { type: "string", description: "JSON Pointer of the value to change." },
              from: { type: "string", description: "JSON Pointer of the source, for move and copy." },
              value: { description: "The new value, for add, replace and test." },
            },
            required: ["op", "path"],
            additionalProperties: false,
          },
        },
      },
      required: ["tool_call_id", "patch"],
      additionalProperties: false,
    },
  };
}

export type PatchCall =
  | { ok: true; toolCallId: string; patch: JsonPatchOperation[] }
  | { ok: false; toolCallId?: string; issues: string[] };

/**
 * The arguments of a `patch_tool_arguments` call, or every problem with them. They are untrusted: at most
 * `MAX_OPERATIONS` operations, paths must be JSON Pointers, and no path may go through `__proto__`, `constructor` or
 * `prototype` (refused here, before any operation applies).
 */
export function readPatchCall(text: string): PatchCall {
  const read = parseArguments(text);
  if (!read.ok) return { ok: false, issues: [describeArgumentsProblem(PATCH_TOOL_NAME, read)] };
  const { tool_call_id: id, patch } = read.args;
  const issues: string[] = [];
  const toolCallId = typeof id === "string" ? id : undefined;
  if (toolCallId === undefined)
    issues.push(`/tool_call_id: must be the id of the failed call, a string; got ${shortJson(id)}`);
  for (const key of Object.keys(read.args)) {
    if (key !== "tool_call_id" && key !== "patch")
      issues.push(`(root): unexpected property "${key}"; allowed properties: tool_call_id, patch`);
  }
  const operations: JsonPatchOperation[] = [];
  if (!Array.isArray(patch)) {
    issues.push(`/patch: must be an array of JSON Patch operations; got ${shortJson(patch)}`);
  } else if (patch.length === 0) {
    issues.push("/patch: must hold at least one operation");
  } else if (patch.length > MAX_OPERATIONS) {
    issues.push(`/patch: at most ${MAX_OPERATIONS} operations; got ${patch.length}`);
  } else {
    patch.forEach((item: unknown, i) => {
      const checked = checkOperation(item, `/patch/${i}`);
      if (typeof checked === "string") issues.push(checked);
      else operations.push(checked);
    });
  }
  if (issues.length > 0) return toolCallId === undefined ? { ok: false, issues } : { ok: false, toolCallId, issues };
  return { ok: true, toolCallId: toolCallId!, patch: operations };
}

/** One operation, or the line saying what is wrong with it. */
function checkOperation(item: unknown, at: string): JsonPatchOperation | string {
  if (!isPlainObject(item))
    return `${at}: must be an operation object such as {"op":"replace","path":"/a","value":1}; got ${shortJson(item)}`;
  const { op, path, from } = item;
  if (typeof op !== "string" || !OPS.has(op))
    return `${at}/op: must be one of "add", "remove", "replace", "move", "copy", "test"; got ${shortJson(op)}`;
  const pathProblem = pointerProblem(path);
  if (pathProblem) return `${at}/path: ${pathProblem}`;
  const allowed =
    op === "move" || op === "copy"
      ? ["op", "path", "from"]
      : op === "remove"
        ? ["op", "path"]
        : ["op", "path", "value"];
  for (const key of Object.keys(item)) {
    if (!allowed.includes(key))
      return `${at}: unexpected property "${key}" for "${op}"; it takes ${allowed.join(", ")}`;
  }
  switch (op) {
    case "add":
    case "replace":
    case "test":
      if (!Object.hasOwn(item, "value")) return `${at}: "${op}" needs a "value"`;
      return { op, path: path as string, value: item.value as JsonValue };
    case "remove":
      return { op, path: path as string };
    default: {
      const fromProblem = pointerProblem(from);
      if (fromProblem) return `${at}/from: ${fromProblem}`;
      return { op: op as "move" | "copy", from: from as string, path: path as string };
    }
  }
}

/** Why `value` is not a usable JSON Pointer into the arguments, or `undefined` when it is one. */
function pointerProblem(value: unknown): string | undefined {
  if (typeof value !== "string")
    return `must be a JSON Pointer string such as "/people/0/age"; got ${shortJson(value)}`;
  if (value === "")
    return 'must point inside the arguments object ("" is the whole object: call the tool again instead)';
  if (!value.startsWith("/"))
    return `must start with "/" (a JSON Pointer such as "/people/0/age"); got ${shortJson(value)}`;
  for (const token of value.split("/").slice(1)) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (FORBIDDEN_TOKENS.has(key)) return `must not go through "${key}"; got ${shortJson(value)}`;
  }
  return undefined;
}

/**
 * The patched copy of `document`, or why the patch could not be applied (then nothing is changed), in words for the
 * model; json-patch-apply.ts bounds its size, depth and work by the tool's argument limits.
 */
export function applyJsonPatch(
  document: Record<string, unknown>,
  patch: readonly JsonPatchOperation[],
  limits: PatchLimits,
): { ok: true; value: Record<string, unknown> } | { ok: false; issues: string[] } {
  const patched = patchDocument(document, patch, limits);
  if (patched.ok) return patched;
  const { stop } = patched;
  if (stop.operation === undefined)
    return { ok: false, issues: [`the arguments to patch cannot be patched: ${stop.message}`] };
  const operation = patch[stop.operation]!;
  const shown = `operation ${stop.operation} (${operation.op} ${operation.path})`;
  if (stop.test)
    return {
      ok: false,
      issues: [
        `${shown}: the test failed: the value there is ${shortJson(stop.test.actual)}, not ${shortJson(stop.test.expected)}`,
      ],
    };
  return { ok: false, issues: [`${shown}: ${stop.message}`] };
}

/** The line appended to a failed call's error in JSON Patch mode: how to repair it, and (if given) the arguments to patch. */
export function patchHint(toolCallId: string, args?: Record<string, unknown>): string {
  const hint = `To repair only what is wrong, call ${PATCH_TOOL_NAME} with tool_call_id ${JSON.stringify(toolCallId)} and JSON Patch operations`;
  if (!args) return `${hint} on the arguments you sent.`;
  return `${hint} on these arguments: ${truncate(JSON.stringify(args), 4000)}`;
}
