/**
 * fast-check values shaped by a JSON Schema: mostly valid or nearly so (a missing property, a bound crossed by one,
 * a wrong type in one place, an unknown key, a duplicate item), now and then any JSON at all. For tests that compare
 * two ways of judging or answering the same arguments (test/transformer/validator/differential.test.ts,
 * test/dispatch/corpus-answers.test.ts); the values are not meant to be valid, only to cover both sides.
 */
import fc from "fast-check";
import type { JsonSchema } from "tooltype";

/** Values shaped by `schema`: mostly valid, often wrong in one place. */
export function shaped(schema: unknown, root: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const any = fc.jsonValue({ maxDepth: 1 });
  if (schema === true || schema === undefined) return any;
  if (schema === false || typeof schema !== "object" || schema === null) return any;
  const s = schema as Record<string, unknown>;
  if (depth > 4) return any;
  if (typeof s.$ref === "string") {
    const name = s.$ref.replace("#/$defs/", "");
    return shaped((root.$defs as Record<string, unknown> | undefined)?.[name], root, depth + 1);
  }
  if ("const" in s) return fc.oneof(fc.constant(s.const), any);
  if (Array.isArray(s.enum))
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(s.enum as unknown[])) }, { weight: 1, arbitrary: any });
  if (Array.isArray(s.anyOf)) return fc.oneof(...s.anyOf.map((branch) => shaped(branch, root, depth + 1)));
  if ("not" in s) return any;
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return any;
  return fc.oneof(
    { weight: 8, arbitrary: fc.oneof(...types.map((type) => ofType(type, s, root, depth))) },
    { weight: 1, arbitrary: any },
  );
}

const FORMAT_SAMPLES: Record<string, string[]> = {
  "date-time": ["2025-01-31T09:30:00Z", "2025-02-30T09:30:00Z", "2025-01-31 09:30", "2016-12-31T23:59:60Z"],
  date: ["2025-01-31", "2025-13-01", "31/01/2025"],
  time: ["09:30:00Z", "25:00:00Z"],
  email: ["a@example.com", "not an email", "a@b"],
  uri: ["https://example.com/x", "example.com", "urn:isbn:0451450523"],
  uuid: ["123e4567-e89b-12d3-a456-426614174000", "123e4567"],
  ipv4: ["192.168.0.1", "256.1.1.1"],
  hostname: ["example.com", "-bad-.com"],
};

function ofType(type: string, s: Record<string, unknown>, root: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const num = (key: string): number | undefined => (typeof s[key] === "number" ? (s[key] as number) : undefined);
  switch (type) {
    case "string": {
      if (typeof s.format === "string")
        return fc.oneof(fc.constantFrom(...(FORMAT_SAMPLES[s.format] ?? ["x"])), fc.string());
      if (typeof s.pattern === "string")
        return fc.oneof(fc.stringMatching(new RegExp(s.pattern, "u"), { maxLength: 20 }), fc.string({ maxLength: 8 }));
      const min = num("minLength");
      const max = num("maxLength");
      return fc.string({
        minLength: Math.max(0, (min ?? 0) - 1),
        maxLength: (max ?? 6) + 1,
        unit: fc.oneof(fc.constantFrom("a", "é"), fc.constant("😀")),
      });
    }
    case "number":
    case "integer": {
      const low = num("minimum") ?? num("exclusiveMinimum") ?? -100;
      const high = num("maximum") ?? num("exclusiveMaximum") ?? 100;
      const edges = [low, high, low - 1, high + 1, low + 0.5, 0, -0].filter((n) => Number.isFinite(n));
      const step = num("multipleOf");
      const multiples = step ? [step, step * 3, step * 2.5] : [];
      return fc.oneof(
        fc.integer({ min: Math.ceil(low) - 2, max: Math.floor(high) + 2 }),
        fc.constantFrom(...edges, ...multiples),
        fc.double({ noNaN: true, noDefaultInfinity: true, min: low - 1, max: high + 1 }),
      );
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems.map((item) => shaped(item, root, depth + 1)) : [];
      const rest =
        s.items === undefined || s.items === false ? fc.jsonValue({ maxDepth: 1 }) : shaped(s.items, root, depth + 1);
      const min = Math.max(0, (num("minItems") ?? 0) - 1);
      const max = Math.min((num("maxItems") ?? 3) + 1, 6);
      const tail = fc.array(rest, {
        minLength: Math.max(0, min - prefix.length),
        maxLength: Math.max(0, max - prefix.length),
      });
      const items = fc.tuple(fc.tuple(...prefix), tail).map(([head, more]) => [...head, ...more]);
      // Duplicates, for uniqueItems: the same item twice.
      return fc.oneof(
        items,
        items.map((list) => (list.length > 0 ? [...list, structuredClone(list[0])] : list)),
      );
    }
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, shaped(value, root, depth + 1)])),
        { requiredKeys: [] },
      );
      const extra =
        s.additionalProperties === false || s.additionalProperties === undefined
          ? fc.jsonValue({ maxDepth: 0 })
          : shaped(s.additionalProperties, root, depth + 1);
      const extras = fc.dictionary(fc.constantFrom("extra", "1", "2024", "x-y", "__proto__"), extra, { maxKeys: 2 });
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      // Required properties are usually there; sometimes one is missing.
      return fc.tuple(record, fc.boolean(), extras, fc.nat({ max: 9 })).map(([value, withExtras, more, drop]) => {
        const out: Record<string, unknown> = { ...value };
        for (const key of required)
          if (!(key in out) && key in properties && drop !== 0)
            out[key] = fc.sample(shaped(properties[key], root, depth + 1), { numRuns: 1, seed: drop })[0];
        if (withExtras) for (const [key, v] of Object.entries(more)) if (key !== "__proto__") out[key] = v;
        return out;
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}
