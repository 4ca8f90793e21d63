/**
 * Keywords a user attaches to a type, read and checked where they are written:
 * - type tags (`Int & Min<0> & Max<150>`): the keywords recorded in the phantom `~tooltype` property of each tag
 *   (the runtime's type tags), whose values must be single literals;
 * - JSDoc keyword tags on properties (`@minimum 0`, `@default 3`), read from the declaration with their spans so
 *   that a problem points at the tag itself.
 *
 * - JSDoc keyword tags on type aliases (`/** @pattern ^[a-z]+$ *\/ type Slug = string`), applied where the alias is
 * used.
 *
 * Each keyword must parse (TT1009), fit the type it is put on (TT1011), and for `@default` / `@examples` be a
 * value of that type (TT1009); a `format` the validator does not know is a warning (TT1014). A keyword given twice
 * follows one rule (`mergeKeyword`): the stricter bound wins, values that cannot both hold are TT1009.
 */
import type * as ts from "typescript";
import type { TypeReader } from "../readers/reader";
import type { JsonValue } from "../../runtime/tool/meta";
import type { TS } from "../compat";
import { Code, type Location, tagSpan } from "../diagnostics";
import { keywordOfTag, keywordValueProblem, parseKeywordTag, TAG_KEYWORDS } from "../jsdoc";
import { accepts, impossibleBounds, KNOWN_FORMATS, mergeKeyword, misfit, type Resolve, targetOf } from "./keywords";
import type { Keywords, Problem, SchemaNode, Site } from "./model";

/** The phantom property every type tag of the runtime declares. */
export const TAG_PROPERTY = "~tooltype";

/** What the tag reader needs from the type reader. */
export interface TagContext {
  tsi: TS;
  checker: TypeReader;
  /** Follows `$ref`s to what has been read so far. */
  resolve: Resolve;
  describe(site: Pick<Site, "path">): string;
  problems: Problem[];
}

/** isTag's answers (a type belongs to one checker): every member of every intersection read is asked. */
const tagTypes = new WeakMap<ts.Type, boolean>();
/** The keyword values each type tag records (a type belongs to one checker), kept for tags read without a problem. */
const tagValues = new WeakMap<ts.Type, { name: string; value: JsonValue }[]>();

export class KeywordTags {
  constructor(private readonly ctx: TagContext) {}

  /** A type tag is an object type whose only member is the phantom `~tooltype` property. */
  isTag(type: ts.Type): boolean {
    let answer = tagTypes.get(type);
    if (answer === undefined)
      tagTypes.set(
        type,
        (answer = !!type.getProperty(TAG_PROPERTY) && this.ctx.checker.getPropertiesOfType(type).length === 1),
      );
    return answer;
  }

  /**
   * Whether a type carries the phantom `~tooltype` property, alone (a type tag) or beside other members (a brand
   * that extends a tag: `interface Ids extends UniqueItems { __brand?: "ids" }`).
   */
  carriesTag(type: ts.Type): boolean {
    return !!type.getProperty(TAG_PROPERTY);
  }

  /**
   * `node` (the intersection's non-tag part) with the keywords of `tags`: the intersection's type tags, or for a
   * branded primitive or array every member that carries one.
   */
  applyTypeTags(
    type: ts.IntersectionType,
    node: SchemaNode,
    site: Site,
    tags: readonly ts.Type[] = type.types.filter((t) => this.isTag(t)),
  ): SchemaNode {
    const keywords = this.typeTagKeywords(tags, site);
    if (keywords.type === "integer") {
      delete keywords.type;
      if (node.kind === "primitive" && (node.type === "number" || node.type === "integer"))
        node = { ...node, type: "integer" };
      else {
        this.ctx.problems.push({
          code: Code.MisplacedConstraint,
          node: site.node,
          message: `${this.ctx.describe(site)} is tagged Int, but Int can only tag number, and this is ${this.ctx.checker.typeToString(type)}. Use Int alone (it is number & the tag) or remove it.`,
        });
      }
    }
    const merged: Keywords = { ...node.keywords };
    for (const [keyword, value] of Object.entries(keywords)) {
      if (this.misfits(keyword, node, site, site.node, `the type tag for "${keyword}"`)) continue;
      if (keyword === "format") this.checkFormat(value, site, site.node);
      this.merge(merged, keyword, value, false, site, site.node, `the type tag for "${keyword}"`);
    }
    this.checkBounds(merged, site, site.node);
    return Object.keys(merged).length === 0 ? node : { ...node, keywords: merged };
  }

  /**
   * Keywords recorded in the phantom `~tooltype` property of each type tag, read tag by tag: TypeScript folds
   * `Min<0> & Min<3>` into a property of type `{ minimum: 0 & 3 }`, which is never, so the merged property says
   * nothing. Repeated keywords follow `mergeKeyword` (the stricter bound wins).
   */
  private typeTagKeywords(tags: readonly ts.Type[], site: Site): Keywords {
    const { checker } = this.ctx;
    const keywords: Keywords = {};
    for (const tag of tags) {
      // A tag read before without a problem (`Min<0>` is one type wherever it is written) gives the same values.
      const known = tagValues.get(tag);
      if (known) {
        for (const { name, value } of known)
          this.merge(keywords, name, value, false, site, site.node, `the type tag for "${name}"`);
        continue;
      }
      const values: { name: string; value: JsonValue }[] = [];
      const problemsBefore = this.ctx.problems.length;
      const prop = tag.getProperty(TAG_PROPERTY)!;
      const tagType = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(prop, site.param));
      for (const keyword of checker.getPropertiesOfType(tagType)) {
        const valueType = checker.getTypeOfSymbolAtLocation(keyword, site.param);
        const value = literalValue(this.ctx.tsi, valueType);
        if (value === undefined) {
          this.ctx.problems.push({
            code: Code.InvalidTagValue,
            node: site.node,
            message: `${this.ctx.describe(site)} has the type tag for "${keyword.name}" with a value that is not a single literal (${checker.typeToString(valueType)}). Write a literal such as Min<0> or Pattern<"^[a-z]+$">.`,
          });
          continue;
        }
        if (keyword.name !== "type" && !TAG_KEYWORDS.includes(keyword.name)) {
          this.ctx.problems.push({
            code: Code.InvalidTagValue,
            node: site.node,
            message: `${this.ctx.describe(site)} has a type tag for "${keyword.name}", which is not a keyword tooltype knows (${TAG_KEYWORDS.join(", ")}), so no validator would check it. Use tooltype's tags (Min<0>, Pattern<"^[a-z]+$">, ...).`,
          });
          continue;
        }
        const wrong =
          keyword.name === "type"
            ? value === "integer"
              ? undefined
              : '"integer"'
            : keywordValueProblem(keyword.name, value);
        if (wrong) {
          this.ctx.problems.push({
            code: Code.InvalidTagValue,
            node: site.node,
            message: `${this.ctx.describe(site)} has the type tag for "${keyword.name}" with the value ${JSON.stringify(value)}, but it takes ${wrong}. Use tooltype's tags (Min<0>, Pattern<"^[a-z]+$">, ...) or fix the value.`,
          });
          continue;
        }
        values.push({ name: keyword.name, value });
        this.merge(keywords, keyword.name, value, false, site, site.node, `the type tag for "${keyword.name}"`);
      }
      if (this.ctx.problems.length === problemsBefore) tagValues.set(tag, values);
    }
    return keywords;
  }

  /**
   * Keyword tags on a property's JSDoc (`@minimum 0`, `@default 3`, ...), each checked where it is written: its
   * value must parse, a constraint must fit the type, a default or example must be a value of the type. Returns
   * `schema`'s keywords combined with the tags' (see `mergeKeyword`: the property's annotations override its
   * type's, constraints combine to the stricter).
   */
  propertyKeywords(prop: ts.Symbol, declaration: ts.Declaration | undefined, schema: SchemaNode, site: Site): Keywords {
    return this.tagKeywords(this.propertyTags(prop, declaration, site), schema, site, () => this.typeText(prop, site));
  }

  /** The keyword tags in the JSDoc of type aliases (`/** @pattern ^[a-z]+$ *\/ type Slug = string`), outermost last. */
  aliasKeywords(aliases: readonly ts.TypeAliasDeclaration[], schema: SchemaNode, site: Site): Keywords {
    let keywords: Keywords = { ...schema.keywords };
    for (const alias of aliases) {
      const own = isOwnFile(alias);
      this.ctx.checker.parseJsDoc(alias);
      const tags = this.ctx.tsi.getJSDocTags(alias).map((tag) => ({
        name: tag.tagName.text,
        text: (this.ctx.tsi.getTextOfJSDocComment(tag.comment) ?? "").trim(),
        at: own ? tagSpan(tag) : site.node,
      }));
      if (tags.length > 0) keywords = this.tagKeywords(tags, { ...schema, keywords }, site, () => alias.type.getText());
    }
    return keywords;
  }

  private tagKeywords(
    tags: { name: string; text: string; at: Location }[],
    schema: SchemaNode,
    site: Site,
    typeText: () => string,
  ): Keywords {
    const keywords: Keywords = { ...schema.keywords };
    const setHere = new Set<string>();
    for (const tag of tags) {
      const parsed = parseKeywordTag(tag.name, tag.text);
      if (!parsed) continue;
      const spelled = `@${tag.name}${tag.text ? ` ${tag.text}` : ""}`;
      const where = this.ctx.describe(site);
      let value: JsonValue;
      // Unquoted text on a string (`@default Very long text, really`) is that string, whatever JSON makes of it.
      const asText =
        (tag.name === "default" || (tag.name === "examples" && !tag.text.startsWith("["))) &&
        tag.text !== "" &&
        accepts(schema, tag.text, this.ctx.resolve);
      if ("error" in parsed) {
        if (!asText) {
          this.ctx.problems.push({
            code: Code.InvalidTagValue,
            node: tag.at,
            message: `The JSDoc tag "${spelled}" on ${where} does not parse: expected ${parsed.error}.`,
          });
          continue;
        }
        value = tag.name === "examples" ? [tag.text] : tag.text;
      } else {
        value = parsed.value;
      }
      const keyword = keywordOfTag(tag.name)!;
      if (this.misfits(keyword, schema, site, tag.at, `The JSDoc tag @${tag.name}`)) continue;
      if (keyword === "format") this.checkFormat(value, site, tag.at);
      if (keyword === "default" || keyword === "examples") {
        const values = keyword === "examples" ? (value as JsonValue[]) : [value];
        if (asText && values.some((v) => !accepts(schema, v, this.ctx.resolve))) {
          value = keyword === "examples" ? [tag.text] : tag.text;
        } else {
          const wrong = values.find((v) => !accepts(schema, v, this.ctx.resolve));
          if (wrong !== undefined) {
            this.ctx.problems.push({
              code: Code.InvalidTagValue,
              node: tag.at,
              message: `The @${tag.name} value ${JSON.stringify(wrong)} on ${where} is not accepted by its type (${typeText()}). Write a value of that type, or remove the tag.`,
            });
            continue;
          }
        }
      }
      // Several @examples tags add up; other repeated keywords follow mergeKeyword.
      this.merge(keywords, keyword, value, !setHere.has(keyword), site, tag.at, `The JSDoc tag ${spelled}`);
      setHere.add(keyword);
    }
    this.checkBounds(keywords, site, tags[tags.length - 1]?.at ?? site.node);
    return keywords;
  }

  /** Adds one keyword by the rule for repeated keywords; reports (TT1009) two values that cannot both hold. */
  private merge(
    keywords: Keywords,
    keyword: string,
    value: JsonValue,
    override: boolean,
    site: Site,
    at: Location,
    spelled: string,
  ): void {
    const clash = mergeKeyword(keywords, keyword, value, override);
    if (!clash) return;
    this.ctx.problems.push({
      code: Code.InvalidTagValue,
      node: at,
      message: `${spelled} on ${this.ctx.describe(site)} sets "${keyword}" to ${JSON.stringify(value)}, but it is ${JSON.stringify(clash.conflict)} already (another tag, or its type), and both cannot hold. Keep one "${keyword}": write the single value you mean${keyword === "pattern" ? " (one regular expression may combine both, e.g. with a lookahead)" : ""}.`,
    });
  }

  /** Reports (TT1009) combined bounds no value can meet (`Min<5> & Max<3>`). */
  private checkBounds(keywords: Keywords, site: Site, at: Location): void {
    const bounds = impossibleBounds(keywords);
    if (!bounds) return;
    const [low, high] = bounds;
    this.ctx.problems.push({
      code: Code.InvalidTagValue,
      node: at,
      message: `${this.ctx.describe(site)} has "${low}" ${JSON.stringify(keywords[low])} above "${high}" ${JSON.stringify(keywords[high])} (from its tags and its type together), so no value is valid. Fix one of the bounds.`,
    });
  }

  /** Reports (TT1011) a constraint keyword that cannot apply to `node`; true when it was reported. */
  private misfits(keyword: string, node: SchemaNode, site: Site, at: Location, spelled: string): boolean {
    const actual = misfit(keyword, node, this.ctx.resolve);
    if (actual === undefined) return false;
    this.ctx.problems.push({
      code: Code.MisplacedConstraint,
      node: at,
      message: `${spelled} on ${this.ctx.describe(site)} cannot apply: "${keyword}" constrains ${targetOf(keyword)}, and this value is ${actual}. Remove it, or change the type to one it constrains.`,
    });
    return true;
  }

  /** Warns (TT1014) about a `format` the runtime does not check. */
  private checkFormat(format: JsonValue | undefined, site: Site, at: Location): void {
    if (typeof format !== "string" || KNOWN_FORMATS.has(format)) return;
    this.ctx.problems.push({
      code: Code.UnknownFormat,
      node: at,
      warning: true,
      message: `The format "${format}" on ${this.ctx.describe(site)} is not one tooltype's validator knows, so it is sent to the model but never checked. Use a known format (email, uri, uuid, date, date-time, ...) or a Pattern<...> / @pattern.`,
    });
  }

  /** The tags on the declaration's JSDoc, with their spans; for declarations without JSDoc, inherited ones. */
  private propertyTags(
    prop: ts.Symbol,
    declaration: ts.Declaration | undefined,
    site: Site,
  ): { name: string; text: string; at: Location }[] {
    const { tsi, checker } = this.ctx;
    if (declaration) checker.parseJsDoc(declaration);
    const own = declaration ? tsi.getJSDocTags(declaration) : [];
    if (own.length > 0) {
      return own.map((tag) => ({
        name: tag.tagName.text,
        text: (tsi.getTextOfJSDocComment(tag.comment) ?? "").trim(),
        at: tagSpan(tag),
      }));
    }
    return checker
      .jsDocTagsOf(prop)
      .map((tag) => ({ name: tag.name, text: tsi.displayPartsToString(tag.text ?? []).trim(), at: site.node }));
  }

  /** A property's type as the user wrote it (else as the checker prints it, without the `undefined` of `?`). */
  private typeText(prop: ts.Symbol, site: Site): string {
    if (site.typeNode) return site.typeNode.getText();
    const type = this.ctx.checker.getTypeOfSymbolAtLocation(prop, site.param);
    if (!type.isUnion()) return this.ctx.checker.typeToString(type);
    return type.types
      .filter((m) => !(m.flags & this.ctx.tsi.TypeFlags.Undefined))
      .map((m) => this.ctx.checker.typeToString(m))
      .join(" | ");
  }
}

/** In the user's own source (not a .d.ts or a dependency): a problem there can point at the tag itself. */
function isOwnFile(node: ts.Node): boolean {
  const file = node.getSourceFile();
  return !file.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(file.fileName);
}

function literalValue(tsi: TS, type: ts.Type): JsonValue | undefined {
  const f = tsi.TypeFlags;
  if (type.flags & f.StringLiteral) return (type as ts.StringLiteralType).value;
  if (type.flags & f.NumberLiteral) return (type as ts.NumberLiteralType).value;
  if (type.flags & f.BooleanLiteral) return (type as { intrinsicName?: string }).intrinsicName === "true";
  return undefined;
}
