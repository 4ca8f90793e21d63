/**
 * The fast lane of the most common dispatch: `registry.dispatch(message)`, without options, of a Chat Completions
 * message. Its calls are answered as they stand in `tool_calls`, without first reading each into a NormalizedCall:
 * per call, that reading was about as costly as the rest of the work the lane adds to the floor (bench/dispatch.ts).
 *
 * A call in the plain shape (`{ id, function: { name, arguments } }`, all three strings) goes straight to the fast
 * lane (dispatch/plain.ts `answerCall`), which reads it as `readToolCall` (read.ts) would; a call of another shape
 * (a LangChain ToolCall's parsed `args`, a gateway's parsed `arguments`) is read by `readToolCall` first. The first call the lane
 * cannot finish (another shape, invalid arguments, a tool that throws, returns a promise or more than text) hands
 * the rest of the batch on to the full pipeline, with the calls read as `readChatCalls` reads them: the answers
 * are the same as the general path's, which test/dispatch/fast-lane.test.ts checks.
 */
import { continuePlain, plainLimit } from "../../dispatch/dispatch";
import type { DispatchEnvironment } from "../../dispatch/environment";
import { ToolMessage } from "../../dispatch/messages";
import { FULL, type Ran, answerCall, answerPlain } from "../../dispatch/plain";
import { type AIMessage, type DispatchInput, readChatCalls, readToolCall } from "./read";

/**
 * The answers to a chat message's `tool_calls` (the list as read from it, the catalogue's `chatCallsOf`), or
 * undefined (nothing read or run) when the lane does not take the message: `invalid_tool_calls` to answer too, a
 * registry with hooks, middleware or tools that may need approval, or more calls than its limits run at once.
 */
export function answerChatPlain(env: DispatchEnvironment, message: DispatchInput | object, toolCalls: readonly unknown[]): Promise<ToolMessage[]> | undefined {
  if (env.approvals !== false) return undefined;
  // LangChain's AIMessage always has the list, most often empty.
  const invalid: unknown = "invalid_tool_calls" in message ? (message as AIMessage).invalid_tool_calls : undefined;
  if (Array.isArray(invalid) && invalid.length > 0) return undefined;
  const count = toolCalls.length;
  const idLimit = plainLimit(env, count);
  if (idLimit === 0) return undefined;
  try {
    if (count === 1) {
      // The most common message, one call, answered in an array literal: the loop below with its array made by
      // length cost a one-call dispatch about a fourteenth of its time (bench/dispatch.ts).
      const one = answerChatCall(env, toolCalls[0], idLimit);
      if (one instanceof ToolMessage) return Promise.resolve([one]);
      return continuePlain(env, readChatCalls(message as DispatchInput), 0, new Array<ToolMessage>(1), one);
    }
    const answers: ToolMessage[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const one = answerChatCall(env, toolCalls[i], idLimit);
      if (!(one instanceof ToolMessage)) return continuePlain(env, readChatCalls(message as DispatchInput), i, answers, one);
      answers[i] = one;
    }
    return Promise.resolve(answers);
  } catch (error) {
    // A message whose properties throw when read (a proxy, a getter): rejected, as the general path's reading
    // rejects; unlike it, the calls before the one that threw have run by then.
    return Promise.reject(error);
  }
}

/**
 * One call of `tool_calls` in the fast lane. The plain shape (`{ id, function: { name, arguments } }`, all three
 * strings) is asked for first, in the fewest reads; any other (a LangChain ToolCall's parsed `args`, a gateway's
 * parsed `arguments`) is read by `readToolCall`, as the general path reads it.
 */
function answerChatCall(env: DispatchEnvironment, value: unknown, idLimit: number): ToolMessage | Ran | typeof FULL {
  const call = value as { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;
  const fn = typeof call === "object" && call !== null ? call.function : undefined;
  return typeof fn === "object" && fn !== null && typeof call!.id === "string" && typeof fn.name === "string" && typeof fn.arguments === "string"
    ? answerCall(env, call!.id, fn.name, fn.arguments, undefined, idLimit)
    : answerPlain(env, readToolCall(value), idLimit);
}
