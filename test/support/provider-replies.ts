/**
 * Replies in each model API's documented wire form, for the scripted servers of the loop tests: a Responses API
 * `Response`, an Anthropic `Message`, a Gemini `GenerateContentResponse`. Only the fields the SDKs read are filled.
 */

/** A completed Responses API response with these output items. */
export function responsesReply(id: string, output: unknown[]): Record<string, unknown> {
  return {
    id,
    object: "response",
    created_at: 1_700_000_000,
    status: "completed",
    model: "gpt-scripted",
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    temperature: 1,
    top_p: 1,
  };
}

/** A `function_call` output item. */
export function responsesCall(callId: string, name: string, args: unknown): Record<string, unknown> {
  return {
    type: "function_call",
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
    status: "completed",
  };
}

/** An assistant `message` output item with one text part. */
export function responsesText(text: string): Record<string, unknown> {
  return {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

/** An Anthropic assistant message; `stop_reason` is `tool_use` when it holds a `tool_use` block. */
export function anthropicReply(id: string, content: Record<string, unknown>[]): Record<string, unknown> {
  const stop_reason = content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
  return {
    id,
    type: "message",
    role: "assistant",
    model: "claude-scripted",
    content,
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

/** A Gemini response whose first candidate holds these parts. */
export function geminiReply(parts: unknown[], finishReason?: string): Record<string, unknown> {
  return {
    candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    modelVersion: "gemini-scripted",
  };
}
