/**
 * How the provider list (index.ts) reaches each provider under Node (the CommonJS build; package.json `imports`,
 * `#providers`, default condition): required the first time the main entry uses it (an export method, a message of
 * its format, the loop on its client; Chat Completions' and MCP's tool lists likewise), so that `require("tooltype")`
 * loads no provider it does not use. Bundlers take list-static.ts instead (static imports: a bundle of the main entry
 * has every provider in its main chunk).
 */
import type { ToolProvider } from "./provider";
import type { MessageFormat } from "./sniff";

/** The provider of `format`, loaded now if it was not yet. */
export function providerNow(format: MessageFormat): ToolProvider {
  // One literal require per provider, each resolved and cached by Node.
  switch (format) {
    case "openai":
      return (require("./openai-chat") as typeof import("./openai-chat")).openAIChat as ToolProvider;
    case "openai-functions":
      return (require("./openai-chat/functions") as typeof import("./openai-chat/functions")).openAIFunctions as ToolProvider;
    case "responses":
      return (require("./openai-responses") as typeof import("./openai-responses")).openAIResponses as ToolProvider;
    case "anthropic":
      return (require("./anthropic") as typeof import("./anthropic")).anthropic as ToolProvider;
    case "gemini":
      return (require("./gemini") as typeof import("./gemini")).gemini as ToolProvider;
  }
}

/** What the provider list takes of openai-chat/tools.ts. */
export type ChatToolLists = Pick<typeof import("./openai-chat/tools"), "toOpenAITools" | "toOpenAIFunctions">;
/** What the provider list takes of mcp.ts. */
export type MCPToolList = Pick<typeof import("./mcp"), "toMCPTools">;

/** Chat Completions' tool lists (openai-chat/tools.ts), without the chat provider's loop and stream accumulator. */
export function chatToolsNow(): ChatToolLists {
  return require("./openai-chat/tools") as typeof import("./openai-chat/tools");
}

/** MCP's tool descriptors (mcp.ts, a tool format rather than a provider), loaded the first time one is asked for. */
export function mcpNow(): MCPToolList {
  return require("./mcp") as typeof import("./mcp");
}
