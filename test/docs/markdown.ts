/**
 * Reads the documentation as the docs tests see it: which pages there are (README.md and docs/*.md, not the
 * generated API reference), the fenced code blocks of a page with the check marker written before each, and the
 * anchors a page's headings get (GitHub's rule).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const repo = path.resolve(__dirname, "../../..");

/** Repository-relative paths of every documentation page. */
export function pages(): string[] {
  const docs = path.join(repo, "docs");
  const found = ["README.md"];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== path.join(docs, "api")) walk(full);
      } else if (entry.name.endsWith(".md")) found.push(path.relative(repo, full).split(path.sep).join("/"));
    }
  };
  if (fs.existsSync(docs)) walk(docs);
  return found;
}

export function read(page: string): string {
  return fs.readFileSync(path.join(repo, page), "utf8");
}

export interface CodeBlock {
  page: string;
  /** 1-based line of the first line of code (after the opening fence). */
  line: number;
  lang: string;
  code: string;
  /** The words of the `<!-- check: … -->` comments right above the fence (blank lines between allowed). */
  check: string[];
  /** The name of a `<!-- readme-compile: name -->` comment right above the fence: a test reads the block by it. */
  named?: string;
}

export function codeBlocks(page: string): CodeBlock[] {
  const lines = read(page).split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})([\w-]*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    let end = i + 1;
    while (end < lines.length && lines[end] !== fence) end++;
    const check: string[] = [];
    let named: string | undefined;
    for (let before = i - 1; before >= 0; before--) {
      const text = lines[before]!.trim();
      if (text === "") continue;
      const comment = /^<!-- (check|readme-compile): ([^>]*?) -->$/.exec(text);
      if (!comment) break;
      if (comment[1] === "check") check.push(...comment[2]!.split(/\s+/));
      else named = comment[2];
    }
    blocks.push({ page, line: i + 2, lang: open[2]!, code: `${lines.slice(i + 1, end).join("\n")}\n`, check, named });
    i = end;
  }
  return blocks;
}

/** The anchor GitHub gives a heading's text; repeated headings get -1, -2, … (the caller counts). */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The lines of a page outside fenced code blocks, with their 1-based numbers. */
export function proseLines(page: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let fence: string | undefined;
  read(page)
    .split("\n")
    .forEach((text, index) => {
      const f = /^(`{3,})/.exec(text);
      if (f) {
        if (fence === undefined) fence = f[1];
        else if (text.trim() === fence) fence = undefined;
      } else if (fence === undefined) lines.push({ line: index + 1, text });
    });
  return lines;
}

/** Every anchor of a page: its headings (outside code blocks) and explicit `<a id>`/`<a name>` tags. */
export function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const { text } of proseLines(page)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) {
      const base = slug(heading[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      result.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) result.add(a[1]!);
  }
  return result;
}
