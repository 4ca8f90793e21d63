/**
 * Library types: the ones with no JSON form (Map, Set, Promise, functions, the wrapper objects, classes of the
 * standard library with methods, and the user's classes extending them), each refused with what to write instead;
 * `Date` and `URL`, strings on the wire revived before the call; and the other types no JSON value has (never,
 * undefined, symbol, bigint, type parameters).
 */
import type * as ts from "typescript";
import { Code } from "../../diagnostics";
import type { Site } from "../model";
import type { Reader } from "./context";

/** Why a type has no JSON form, and what to write instead. */
interface NoJson {
  what: string;
  advice: string;
}

/** Library types that have no JSON form, with the advice for each. */
const UNSUPPORTED_LIBRARY_TYPES: Record<string, string> = {
  Map: "use a Record<string, T> or an array of [key, value] pairs",
  ReadonlyMap: "use a Record<string, T> or an array of [key, value] pairs",
  WeakMap: "use a Record<string, T>",
  Set: "use an array (T[])",
  ReadonlySet: "use an array (T[])",
  WeakSet: "use an array (T[])",
  Promise: "take the resolved value as the parameter and await inside the tool",
  PromiseLike: "take the resolved value as the parameter",
  Function: "pass data, not functions: a model can only send JSON",
  RegExp: "use a string with a Pattern<...> tag",
  Error: "use a plain object type with the fields you need",
  String: "write string (lowercase): String is the wrapper object type",
  Number: "write number (lowercase): Number is the wrapper object type",
  Boolean: "write boolean (lowercase): Boolean is the wrapper object type",
  Object: "write an interface or type literal with the properties you expect (Object is any non-null value)",
  ArrayBuffer: 'use a string (base64) with Format<"byte">',
  Uint8Array: 'use a string (base64) with Format<"byte">',
  Buffer: 'use a string (base64) with Format<"byte"> and decode it with Buffer.from(value, "base64") in the tool',
  Blob: 'use a string (base64) with Format<"byte">, or a URL the tool fetches',
  File: 'use a string (base64) with Format<"byte"> and a file name, or a URL the tool fetches',
  URLSearchParams: "use a Record<string, string> (or a query string) and build new URLSearchParams(...) in the tool",
  WeakRef: "pass the data itself; a reference to an object cannot travel in JSON",
};

/**
 * A class or interface of the standard library (TypeScript's lib files or @types/node) whose instances have
 * methods is behaviour, not data: read as its public fields it would be a silently wrong schema (`Blob` as
 * `{ size, type }`). Only the ones with a JSON form are mapped (`Date`, `URL`, arrays); the rest are refused.
 */
const LIBRARY_CLASS_ADVICE =
  "take the data it is built from (a string, number or plain object type) and construct it in the tool";

/** Answers that depend on an object type alone (a type belongs to one checker), asked again by every tool. */
const objectAnswers = new WeakMap<ts.Type, NoJson | null>();
/** isLibrarySymbol's answers. */
const librarySymbols = new WeakMap<ts.Symbol, boolean>();

/** Types that have no JSON form at all, whatever surrounds them. */
export function noJson(reader: Reader, type: ts.Type): NoJson | undefined {
  const f = reader.tsi.TypeFlags;
  const flags = type.flags;
  if (flags & f.Never)
    return { what: "never", advice: "a value of type never can never be passed; remove it or give it a real type" };
  if (flags & (f.Void | f.Undefined))
    return { what: "void or undefined", advice: "JSON has no undefined; make it optional (x?: T) instead" };
  if (flags & f.ESSymbolLike) return { what: "symbol", advice: "use a string" };
  if (flags & f.BigIntLike)
    return { what: "bigint", advice: "use number (Int for whole numbers) or a string of digits" };
  if (flags & f.TypeParameter) {
    return {
      what: `the type parameter ${reader.checker.typeToString(type)}`,
      advice: "tools need concrete types; replace the type parameter with the type the model should send",
    };
  }
  if (!(flags & f.Object) || reader.checker.isArrayType(type) || reader.checker.isTupleType(type)) return undefined;
  let answer = objectAnswers.get(type);
  if (answer === undefined) objectAnswers.set(type, (answer = objectNoJson(reader, type) ?? null));
  return answer ?? undefined;
}

/** noJson for object types (other than arrays and tuples), which asks the checker about signatures and bases. */
function objectNoJson(reader: Reader, type: ts.Type): NoJson | undefined {
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  const libName = symbol && isLibrarySymbol(reader, symbol) ? symbol.getName() : undefined;
  if (libName && libName in UNSUPPORTED_LIBRARY_TYPES)
    return { what: libName, advice: UNSUPPORTED_LIBRARY_TYPES[libName]! };
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
    return {
      what: "a function",
      advice: "a model can only send JSON data, not functions; take the data the function would need instead",
    };
  }
  if (
    symbol &&
    libName &&
    !revivedClass(reader, type) &&
    symbol.flags & (reader.tsi.SymbolFlags.Class | reader.tsi.SymbolFlags.Interface) &&
    hasMethods(reader, type)
  ) {
    return { what: `${libName} (a class of the standard library)`, advice: LIBRARY_CLASS_ADVICE };
  }
  const base = symbol && !libName ? libraryBase(reader, type) : undefined;
  if (base) {
    return {
      what: `${symbol!.getName()}, which extends ${base} (a class of the standard library)`,
      advice: "take the data it is built from and construct it in the tool",
    };
  }
  return undefined;
}

/** The standard-library class with methods (not Array) that a class or interface of the user's extends, if any. */
function libraryBase(reader: Reader, type: ts.Type, depth = 0): string | undefined {
  const objectFlags = (type as ts.ObjectType).objectFlags ?? 0;
  const target = objectFlags & reader.tsi.ObjectFlags.Reference ? (type as ts.TypeReference).target : type;
  if (depth > 8 || !(((target as ts.ObjectType).objectFlags ?? 0) & reader.tsi.ObjectFlags.ClassOrInterface))
    return undefined;
  for (const base of reader.checker.getBaseTypes(target as ts.InterfaceType)) {
    if (reader.checker.isArrayType(base) || reader.checker.isTupleType(base)) continue;
    const symbol = base.getSymbol();
    if (symbol && isLibrarySymbol(reader, symbol)) {
      if (hasMethods(reader, base)) return symbol.getName();
      continue;
    }
    const further = libraryBase(reader, base, depth + 1);
    if (further) return further;
  }
  return undefined;
}

function hasMethods(reader: Reader, type: ts.Type): boolean {
  const t = reader.tsi;
  return reader.checker
    .getPropertiesOfType(type)
    .some((p) => (p.declarations ?? []).some((d) => t.isMethodSignature(d) || t.isMethodDeclaration(d)));
}

/** `Date` and `URL` of the standard library: strings on the wire, revived to instances before the call. */
export function revivedClass(reader: Pick<Reader, "checker">, type: ts.Type): "Date" | "URL" | undefined {
  const symbol = type.getSymbol();
  if (!symbol || !isLibrarySymbol(reader, symbol)) return undefined;
  const name = symbol.getName();
  return name === "Date" || name === "URL" ? name : undefined;
}

/**
 * Declared by TypeScript's lib files or by @types/node: the standard library of the program, as the type reader
 * finds it (each backend knows its cheapest way). Remembered per symbol (the answer depends only on its
 * declarations' files), as most types are asked about many times.
 */
export function isLibrarySymbol(reader: Pick<Reader, "checker">, symbol: ts.Symbol): boolean {
  let answer = librarySymbols.get(symbol);
  if (answer === undefined) librarySymbols.set(symbol, (answer = reader.checker.isStandardLibrary(symbol)));
  return answer;
}

/**
 * A Date or URL arrives as a string, so next to another string type (or each other) dispatch could not tell
 * which strings to revive.
 */
export function checkDateOrString(reader: Reader, members: readonly ts.Type[], site: Site): void {
  const f = reader.tsi.TypeFlags;
  const revived = members.find((m) => revivedClass(reader, m));
  if (!revived) return;
  const name = revivedClass(reader, revived)!;
  const stringy = members.find(
    (m) =>
      m !== revived &&
      (m.flags & (f.String | f.TemplateLiteral | f.StringMapping) ||
        (m.isIntersection() && m.types.some((t) => t.flags & f.String)) ||
        revivedClass(reader, m)),
  );
  if (!stringy) return;
  const format = name === "Date" ? "date-time" : "uri";
  const convert = name === "Date" ? "new Date(...)" : "new URL(...)";
  reader.problem(
    Code.UnsupportedUnion,
    site,
    `${reader.describe(site)} is a union of ${name} and ${reader.checker.typeToString(stringy)}, but a ${name} arrives as a string too, so dispatch cannot tell which strings to turn into ${name}s. Use ${name} alone, or string alone (string & Format<"${format}">) and convert it with ${convert} in the tool.`,
  );
}
