/**
 * The structured answer of the example: a type and its JSDoc, nothing else; `structuredOutput<Joke>()` gets its JSON
 * Schema from the transformer, the same way tools get theirs.
 */
import type { Int, Max, Min } from "tooltype";
import { structuredOutput } from "tooltype/loop";

/** A joke to tell the user. */
export interface Joke {
  /** The setup of the joke */
  setup: string;
  /** The punchline to the joke */
  punchline: string;
  /** How funny the joke is, from 1 to 10 */
  rating?: Int & Min<1> & Max<10>;
}

export const joke = structuredOutput<Joke>();
