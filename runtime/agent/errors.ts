/**
 * How an agent loop (`runTools`) ends without an answer: errors that carry the transcript so far, so a caller can
 * log it, show it or resume from it.
 */
import type { ToolMessage } from "../dispatch/messages";
import type { ChatMessageParam } from "../providers/catalog";
import type { SchemaError, ToolValidationReason } from "../tool/errors";
import type { JsonPatchOperation } from "./json-patch";
import type { ChatLoopTypes } from "../providers/catalog";
import type { LoopTypes } from "../providers/provider";

/** One model request of the loop and what came of it (`L`: the model API's types, Chat Completions by default). */
export interface RunStep<L extends LoopTypes = ChatLoopTypes> {
  /** 1 for the first request. */
  readonly index: number;
  /** The model's reply. */
  readonly message: L["reply"];
  /** The tool calls of the reply, as the model sent them (empty for a final answer). */
  readonly calls: readonly L["call"][];
  /** One answer per call, in call order (for a `patch_tool_arguments` call: the repaired call's answer). */
  readonly results: readonly ToolMessage[];
  /** The calls of this step that the model got wrong (and a structured answer that did not match its schema). */
  readonly failures: readonly ToolAttempt[];
}

/** Why an attempt failed: dispatch's reasons, a JSON Patch that could not be applied, or a structured answer that does not match. */
export type AttemptFailure = ToolValidationReason | "invalid_patch" | "invalid_answer";

/** One failed try at calling a tool (or at giving a structured answer). */
export interface ToolAttempt {
  /** The step it happened in. */
  readonly step: number;
  /** The tool the model tried to call (for a structured answer, the response format's name). */
  readonly toolName: string;
  /** The id of the call that was answered with the error (for a JSON Patch repair, the patch call's id); `""` for an answer. */
  readonly toolCallId: string;
  /** The arguments as they were sent (for a JSON Patch repair, the patched arguments as JSON; for an answer, its text). */
  readonly arguments: string;
  /** The operations, when the attempt was a JSON Patch repair. */
  readonly patch?: readonly JsonPatchOperation[];
  readonly reason: AttemptFailure;
  /** One line per problem, as the model read them. */
  readonly issues: readonly string[];
  /** The schema violations (empty when the arguments could not even be read). */
  readonly errors: readonly SchemaError[];
  /** The error text the model received. */
  readonly message: string;
}

/** The transcript an agent error carries: messages valid to send again (every tool call answered) and the steps. */
export interface AgentTranscript<L extends LoopTypes = ChatLoopTypes, M = ChatMessageParam> {
  /** Every message so far, the caller's first: valid to send again (every tool call has its answer). */
  readonly messages: readonly (M | L["item"])[];
  readonly steps: readonly RunStep<L>[];
}

/** Base class of the ways `runTools` gives up; `messages` and `steps` are the transcript up to that point. */
export class AgentError<L extends LoopTypes = ChatLoopTypes, M = ChatMessageParam> extends Error {
  readonly messages: readonly (M | L["item"])[];
  readonly steps: readonly RunStep<L>[];

  constructor(message: string, transcript: AgentTranscript<L, M>) {
    super(message);
    this.name = "AgentError";
    this.messages = transcript.messages;
    this.steps = transcript.steps;
  }
}

/** The model still called tools after `maxSteps` requests; the calls of the last step were run and answered. */
export class MaxStepsError<L extends LoopTypes = ChatLoopTypes, M = ChatMessageParam> extends AgentError<L, M> {
  readonly maxSteps: number;

  constructor(maxSteps: number, transcript: AgentTranscript<L, M>) {
    super(
      `runTools: no final answer after ${maxSteps} step${maxSteps === 1 ? "" : "s"}: the model was still calling tools. Raise maxSteps, or look at error.steps to see what it kept calling.`,
      transcript,
    );
    this.name = "MaxStepsError";
    this.maxSteps = maxSteps;
  }
}

/** `maxAttempts` failed tries in a row at one tool (or at a structured answer); `attempts` holds every one of them. */
export class ToolRetryError<L extends LoopTypes = ChatLoopTypes, M = ChatMessageParam> extends AgentError<L, M> {
  /** The tool (or, when `subject` is `"answer"`, the response format's name). */
  readonly toolName: string;
  /** `"tool"`: a tool's arguments kept failing; `"answer"`: the final answer kept failing its schema. */
  readonly subject: "tool" | "answer";
  /** The failed tries, oldest first, each with its arguments and validation errors. */
  readonly attempts: readonly ToolAttempt[];

  constructor(
    subject: "tool" | "answer",
    toolName: string,
    attempts: readonly ToolAttempt[],
    transcript: AgentTranscript<L, M>,
  ) {
    const last = attempts[attempts.length - 1];
    const what =
      subject === "tool"
        ? `call ${toolName} with valid arguments`
        : `give a ${toolName} answer that matches its schema`;
    const issues =
      last && last.issues.length > 0
        ? `\nThe last attempt's problems:\n${last.issues.map((line) => `- ${line}`).join("\n")}`
        : "";
    super(
      `runTools: the model failed ${attempts.length} time${attempts.length === 1 ? "" : "s"} in a row to ${what}.${issues}`,
      transcript,
    );
    this.name = "ToolRetryError";
    this.subject = subject;
    this.toolName = toolName;
    this.attempts = attempts;
  }
}

/** The model refused to give the structured answer the response format asks for. */
export class ModelRefusalError<L extends LoopTypes = ChatLoopTypes, M = ChatMessageParam> extends AgentError<L, M> {
  /** The model's refusal text. */
  readonly refusal: string;

  constructor(refusal: string, transcript: AgentTranscript<L, M>) {
    super(`runTools: the model refused to answer: ${refusal}`, transcript);
    this.name = "ModelRefusalError";
    this.refusal = refusal;
  }
}
