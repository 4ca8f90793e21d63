/**
 * The answer to a Chat Completions (or LangChain) message's calls: the ToolMessages themselves, one per call. In the
 * agent loop, the images and files of results follow in one user message (chatAttachments), since a tool message
 * carries text only.
 */
import type { ToolMessage } from "../../dispatch/messages";
import { type ChatAttachmentsMessage, chatAttachments } from "./attachments";

/** The ToolMessages, in call order: a chat answer is the tool messages themselves. */
export function answerChat(results: readonly ToolMessage[]): ToolMessage[] {
  return [...results];
}

/** The loop's answer: the tool messages, then the images and files of results, which a tool message cannot carry. */
export function answerChatInLoop(results: readonly ToolMessage[]): (ToolMessage | ChatAttachmentsMessage)[] {
  const attachments = chatAttachments(results);
  return attachments ? [...results, attachments] : [...results];
}
