/** Type tags: constraints written as types (`age: Int & Min<0>`), read by the transformer, erased at run time. */

/**
 * The phantom property the transformer reads. Its value type maps JSON Schema keywords to literal values. It is
 * optional, so plain values stay assignable, and its `~` prefix sorts it last in editor completions.
 */
export interface TypeTag<Keywords extends object> {
  readonly "~tooltype"?: Keywords;
}

/** An integer: `{ type: "integer" }`. */
export type Int = number & TypeTag<{ type: "integer" }>;
/** `minimum`: the value is at least N. */
export type Min<N extends number> = TypeTag<{ minimum: N }>;
/** `maximum`: the value is at most N. */
export type Max<N extends number> = TypeTag<{ maximum: N }>;
/** `exclusiveMinimum`: the value is greater than N. */
export type ExclusiveMin<N extends number> = TypeTag<{ exclusiveMinimum: N }>;
/** `exclusiveMaximum`: the value is less than N. */
export type ExclusiveMax<N extends number> = TypeTag<{ exclusiveMaximum: N }>;
/** `multipleOf`: the value is a multiple of N. */
export type MultipleOf<N extends number> = TypeTag<{ multipleOf: N }>;
/** `minLength`: the string has at least N characters. */
export type MinLength<N extends number> = TypeTag<{ minLength: N }>;
/** `maxLength`: the string has at most N characters. */
export type MaxLength<N extends number> = TypeTag<{ maxLength: N }>;
/** `pattern`: the string matches the regular expression S (ECMA-262 syntax, unanchored unless you anchor it). */
export type Pattern<S extends string> = TypeTag<{ pattern: S }>;
/** `format`: the string has the named format, e.g. `"email"`, `"uri"`, `"date"`. */
export type Format<S extends string> = TypeTag<{ format: S }>;
/** `minItems`: the array has at least N items. */
export type MinItems<N extends number> = TypeTag<{ minItems: N }>;
/** `maxItems`: the array has at most N items. */
export type MaxItems<N extends number> = TypeTag<{ maxItems: N }>;
/** `uniqueItems`: no two items of the array are equal. */
export type UniqueItems = TypeTag<{ uniqueItems: true }>;
