/**
 * The message of a tool's result, beyond a text within its size (answer.ts): content parts, a value as JSON
 * (result-json.ts), `[content, artifact]` pairs.
 */
import { ToolResultError } from "../tool/errors";
import { contentParts, partsText } from "../tool/content";
import type { DispatchTool } from "./environment";
import { ToolMessage } from "./messages";
import { resultJson } from "./result-json";

export function successMessage(tool: DispatchTool, id: string, result: unknown): ToolMessage {
  if (tool.options.responseFormat === "content_and_artifact") {
    if (!Array.isArray(result) || result.length !== 2) {
      throw new ToolResultError(
        tool.name,
        `${tool.name} has responseFormat "content_and_artifact", so it must return a two-element array [content, artifact]; it returned ${describeValue(result)}.`,
      );
    }
    const message = new ToolMessage({
      tool_call_id: id,
      name: tool.name,
      content: "",
      artifact: result[1],
      status: "success",
    });
    return withContent(message, result[0]);
  }
  // Text, the most common result, is its own content.
  if (typeof result === "string")
    return new ToolMessage({ tool_call_id: id, name: tool.name, content: result, status: "success" });
  return withContent(new ToolMessage({ tool_call_id: id, name: tool.name, content: "", status: "success" }), result);
}

/** The content of `message`: the parts (and their text) when the value is content parts, else the value's text. */
function withContent(message: ToolMessage, value: unknown): ToolMessage {
  const parts = contentParts(value);
  if (parts) {
    message.parts = parts;
    message.content = partsText(parts);
  } else {
    message.content = toContent(message.name, value);
  }
  return message;
}

/** The text the model reads for a result: strings as they are, nothing as "", anything else as JSON (result-json.ts). */
function toContent(toolName: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return resultJson(toolName, value);
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
