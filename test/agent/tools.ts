/**
 * Tools for the agent loop tests, compiled by the transformer like a user's: arithmetic (parallel calls), a nested
 * extraction (validation retries), a `returnDirect` tool, a tool that throws, and a tool that records its calls.
 */
import {
  ToolError,
  ToolRegistry,
  tool,
  type Format,
  type Int,
  type Max,
  type Min,
  type Pattern,
  type ToolContext,
} from "tooltype";

/**
 * Multiply two numbers.
 * @param a The first factor
 * @param b The second factor
 */
export const multiply = tool(function multiply(a: number, b: number): number {
  return a * b;
});

/**
 * Add two numbers.
 * @param a The first addend
 * @param b The second addend
 */
export const add = tool(function add(a: number, b: number): number {
  return a + b;
});

/** A person mentioned in the text. */
export interface Person {
  /** Full name */
  name: string;
  /** Age in years */
  age: Int & Min<0> & Max<150>;
  /** Email address, if given */
  email?: string & Format<"email">;
  address: {
    city: string;
    /** ISO 3166-1 alpha-2 code, e.g. "FR" */
    country: string & Pattern<"^[A-Z]{2}$">;
  };
}

/** What the extraction tool received, in order. */
export const recorded: Person[][] = [];

/**
 * Record the people mentioned in the text.
 * @param people Everyone the text mentions
 */
export const recordPeople = tool(function record_people(people: Person[]): string {
  recorded.push(people);
  return `Recorded ${people.length} ${people.length === 1 ? "person" : "people"}: ${people.map((p) => p.name).join(", ")}.`;
});

/**
 * Look up the final answer in the knowledge base; its text is the answer.
 * @param topic What to look up
 */
export const lookupAnswer = tool(
  function lookup_answer(topic: string): string {
    return `The answer about ${topic} is 42.`;
  },
  { returnDirect: true },
);

/**
 * Fetch a page that is never there.
 * @param url The page
 */
export const fetchPage = tool(function fetch_page(url: string): string {
  throw new ToolError(`No page at ${url}.`);
});

/** Calls seen by `slow_echo`, with whether their signal was aborted when they ended. */
export const slowCalls: { text: string; aborted: boolean }[] = [];

/**
 * Echo a text after a while.
 * @param text What to echo
 * @param ms How long to wait
 */
export const slowEcho = tool(async function slow_echo(text: string, ms: Int, context: ToolContext): Promise<string> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    context.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  slowCalls.push({ text, aborted: context.signal.aborted });
  return text;
});

export function mathRegistry(): ToolRegistry {
  return new ToolRegistry([multiply, add]);
}

export function allTools(): ToolRegistry {
  return new ToolRegistry([multiply, add, recordPeople, lookupAnswer, fetchPage, slowEcho]);
}
