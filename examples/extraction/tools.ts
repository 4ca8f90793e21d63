/**
 * The extraction example's tool: `record_people` takes a list of nested `Person` objects; its JSON Schema, constraints
 * written as type tags included, comes from these types, and dispatch validates every call against it.
 */
import { ToolRegistry, tool, type Format, type Int, type Max, type Min, type Pattern } from "tooltype";

/** A person mentioned in the text. */
export interface Person {
  /** Full name, as written in the text */
  name: string;
  /** Age in years, as a number */
  age: Int & Min<0> & Max<150>;
  /** Email address, if the text gives one */
  email?: string & Format<"email">;
  /** Where the person lives */
  address: {
    city: string;
    /** ISO 3166-1 alpha-2 country code, e.g. "GB" or "FR" */
    country: string & Pattern<"^[A-Z]{2}$">;
  };
}

/** Everyone recorded so far: what the tool received, validated. */
export const recorded: Person[] = [];

/**
 * Record every person the text mentions, with their details.
 * @param people The people, in the order the text mentions them
 */
export const recordPeople = tool(function record_people(people: Person[]): string {
  recorded.push(...people);
  return `Recorded ${people.length} ${people.length === 1 ? "person" : "people"}: ${people.map((p) => p.name).join(", ")}.`;
});

export function createRegistry(): ToolRegistry {
  return new ToolRegistry([recordPeople]);
}
