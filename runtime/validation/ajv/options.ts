/**
 * The one ajv configuration tooltype validates hand-written and run-time schemas with (compiled tools use the
 * validators the transformer generated), with the same cost bounds as those:
 * - `uniqueItems` in linear time (unique.ts) instead of ajv's pairwise comparison;
 * - every `pattern` tested within a step budget (pattern-guard.ts), which the caller resets per validation;
 * - the formats of ajv-formats, with the length limits the generated validators apply, and dates and times checked
 *   by the generated validators' own functions (formats.ts).
 */
import type Ajv2020 from "ajv/dist/2020";
import type { Options } from "ajv/dist/2020";
import { GuardedPattern } from "../patterns/pattern-guard";
import { firstDuplicate } from "../unique";
import { FORMAT_LENGTH_LIMITS, dateTime, isoDateTime, isoTime, time } from "../formats";
import { ajvBudget } from "../patterns/step-budget";

function guardedRegExp(pattern: string): { test(text: string): boolean; toString(): string } {
  const guarded = new GuardedPattern(pattern, ajvBudget);
  return { test: (text) => guarded.test(text) === true, toString: () => `/${pattern}/u` };
}
guardedRegExp.code = "new RegExp";

export const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  // Errors carry the failing value and schema, which the messages for the model quote.
  verbose: true,
  // An unknown `format` is skipped quietly (the transformer warns about it at build time, TT1014).
  logger: false,
  code: { regExp: guardedRegExp as unknown as NonNullable<Options["code"]>["regExp"] },
} as const;

export function addTooltypeFormats(ajv: Ajv2020): Ajv2020 {
  // Required here, not at the top: only code that creates an ajv instance needs the formats plugin.
  const { default: addFormats } = require("ajv-formats") as typeof import("ajv-formats");
  addFormats(ajv);
  for (const [name, limit] of Object.entries(FORMAT_LENGTH_LIMITS)) {
    const format = ajv.formats[name];
    const check =
      format instanceof RegExp
        ? format
        : typeof format === "object" && format !== null && "validate" in format
          ? format.validate
          : format;
    const test =
      check instanceof RegExp
        ? (text: string) => check.test(text)
        : typeof check === "function"
          ? (check as (text: string) => boolean)
          : undefined;
    if (test) ajv.addFormat(name, { type: "string", validate: (text: string) => text.length <= limit && test(text) });
  }
  // Dates and times by tooltype's own rules, as generated validators check them: a leap second only where one was.
  for (const [name, check] of [
    ["date-time", dateTime],
    ["iso-date-time", isoDateTime],
    ["time", time],
    ["iso-time", isoTime],
  ] as const) {
    ajv.addFormat(name, { type: "string", validate: (text: string) => check(text) });
  }
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    errors: true,
    validate: function unique(this: unknown, schema: boolean, data: unknown[]): boolean {
      const pair = schema ? firstDuplicate(data) : undefined;
      (unique as { errors?: unknown[] }).errors = pair
        ? [
            {
              keyword: "uniqueItems",
              params: { i: pair[1], j: pair[0] },
              message: `must NOT have duplicate items (items ## ${pair[0]} and ${pair[1]} are identical)`,
            },
          ]
        : [];
      return pair === undefined;
    },
  });
  return ajv;
}
