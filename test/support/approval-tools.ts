/**
 * The registries the approval tests pause and resume, written once: each pairs a tool that needs approval with one
 * that does not, and records what ran, so that a test can tell that nothing ran before a decision.
 */
import { ToolRegistry, tool } from "tooltype";

/** `remove` (needs approval) and `list` (does not), for the runTools approval tests; `ran` gets each run. */
export function fileTools(ran: string[]): ToolRegistry {
  /**
   * Delete a file.
   * @param path File path
   */
  const remove = tool(
    function remove(path: string) {
      ran.push(`remove ${path}`);
      return `removed ${path}`;
    },
    { needsApproval: true },
  );
  /**
   * List files.
   * @param dir Directory
   */
  const list = tool(function list(dir: string) {
    ran.push(`list ${dir}`);
    return ["a.txt", "b.txt"];
  });
  return new ToolRegistry([remove, list]);
}

/** `transfer` (needs approval) and `note` (does not), for the registry's approval tests, with what ran. */
export function transferTools(options: ConstructorParameters<typeof ToolRegistry>[1] = {}): {
  registry: ToolRegistry;
  ran: string[];
} {
  const ran: string[] = [];
  /**
   * Transfer money.
   * @param amount Amount in euros
   * @param to Recipient
   */
  const transfer = tool(
    function transfer(amount: number, to: string) {
      ran.push(`transfer ${amount} to ${to}`);
      return `sent ${amount} to ${to}`;
    },
    { needsApproval: true },
  );
  /**
   * Write a note.
   * @param text The note
   */
  const note = tool(function note(text: string) {
    ran.push(`note ${text}`);
    return "noted";
  });
  return { registry: new ToolRegistry([transfer, note], options), ran };
}
