/**
 * `ToolMessage`: the answer to one tool call, whatever provider asked. Dispatch writes exactly one per call; each
 * provider (runtime/providers/) turns them into its own answer format. Its JSON form is exactly what the OpenAI Chat
 * Completions API accepts (`{ role, tool_call_id, content }`), so artifacts never reach the model.
 */
import type { ToolContentPart } from "../tool/content";
import type { ToolErrorKind } from "../tool/errors";

/** Whether the call succeeded; an `"error"` answer carries text written for the model to correct itself. */
export type ToolMessageStatus = "success" | "error";

/** The fields a `ToolMessage` is made from. */
export interface ToolMessageFields<Artifact = unknown> {
  tool_call_id: string;
  name: string;
  content: string;
  artifact?: Artifact;
  status?: ToolMessageStatus;
  /** For an error answer: what kind of failure it is (see `ToolMessage.errorKind`). */
  errorKind?: ToolErrorKind;
  parts?: ToolContentPart[];
}

/**
 * The answer to one tool call. `toJSON()` gives exactly `{ role, tool_call_id, content }`, so a message list holding
 * ToolMessages can be sent to the OpenAI SDK as is and the artifact stays in this process.
 */
export class ToolMessage<Artifact = unknown> {
  readonly role = "tool" as const;
  readonly type = "tool" as const;
  tool_call_id: string;
  name: string;
  content: string;
  artifact?: Artifact;
  status: ToolMessageStatus;
  /**
   * For an error answer, the kind of failure (`toolErrorKind`): `"tool_error"` and `"validation"` texts were written
   * for the model; `"exception"` texts come from an unexpected error (redacted, yet from inside the tool). A server
   * facing a network uses it to decide what to show a remote client. Kept in process and not enumerable, so it is
   * in no JSON and no comparison of messages.
   */
  declare readonly errorKind?: ToolErrorKind;
  /**
   * The result as content parts, when the tool returned parts (`text()`, `image()`, `file()`): providers that take
   * images and files write these; `content` is their text for the others (each image or file as a label).
   */
  parts?: ToolContentPart[];

  constructor(fields: ToolMessageFields<Artifact>) {
    this.tool_call_id = fields.tool_call_id;
    this.name = fields.name;
    this.content = fields.content;
    if (fields.artifact !== undefined) this.artifact = fields.artifact;
    this.status = fields.status ?? "success";
    if (fields.errorKind !== undefined)
      Object.defineProperty(this, "errorKind", { value: fields.errorKind, enumerable: false });
    if (fields.parts !== undefined) this.parts = fields.parts;
  }

  /** Exactly what the OpenAI SDK sends: `{ role, tool_call_id, content }`, so the artifact never reaches the model. */
  toJSON(): { role: "tool"; tool_call_id: string; content: string } {
    return { role: this.role, tool_call_id: this.tool_call_id, content: this.content };
  }
}
