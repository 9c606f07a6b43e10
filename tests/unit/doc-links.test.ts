import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";

/**
 * Every relative link in the README and the documents (docs/*.md, eval's READMEs) points at a file
 * that exists, and every `#anchor` at a heading in it (GitHub's slug rule: lower case, punctuation
 * dropped, spaces to hyphens). Links to the web are not fetched.
 */
const ROOT = path.resolve(__dirname, "../..");
const md = new MarkdownIt({ html: false, linkify: false });
type Token = ReturnType<typeof md.parse>[number];

function markdownFiles(): string[] {
  const files = ["README.md"];
  for (const dir of ["docs", "eval"]) {
    for (const name of readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
      if (name.endsWith(".md")) files.push(path.join(dir, name));
    }
  }
  return files;
}

function plainText(inline: Token | undefined): string {
  return (inline?.children ?? [])
    .filter((child) => child.type === "text" || child.type === "code_inline")
    .map((child) => child.content)
    .join("");
}

/** GitHub's heading anchor: lower case, anything but letters, digits, spaces, `-` and `_` dropped. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const tokens = md.parse(readFileSync(file, "utf8"), {});
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type !== "heading_open") return;
    const base = slug(plainText(tokens[i + 1]));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  });
  return anchors;
}

function linksOf(file: string): string[] {
  const hrefs: string[] = [];
  for (const token of md.parse(readFileSync(file, "utf8"), {})) {
    for (const child of token.children ?? []) {
      const href = child.type === "link_open" ? String(child.attrGet("href") ?? "") : "";
      if (href && !/^[a-z]+:/i.test(href)) hrefs.push(href);
    }
  }
  return hrefs;
}

function broken(file: string): string[] {
  const problems: string[] = [];
  for (const href of linksOf(path.join(ROOT, file))) {
    const [target, anchor] = href.split("#");
    const resolved = target
      ? path.resolve(ROOT, path.dirname(file), decodeURI(target))
      : path.join(ROOT, file);
    if (!existsSync(resolved)) {
      problems.push(`${file}: ${href} (no such file)`);
      continue;
    }
    if (
      anchor &&
      statSync(resolved).isFile() &&
      resolved.endsWith(".md") &&
      !anchorsOf(resolved).has(anchor)
    ) {
      problems.push(`${file}: ${href} (no such heading)`);
    }
  }
  return problems;
}

describe("documentation links", () => {
  it("slugs headings the way GitHub does", () => {
    expect(slug("Retrieval quality — `npm run eval -- --ablation all`")).toBe(
      "retrieval-quality--npm-run-eval------ablation-all",
    );
    expect(slug("Self-hosting in brief")).toBe("self-hosting-in-brief");
  });

  it("reads the links and the headings of a document", () => {
    expect(linksOf(path.join(ROOT, "README.md"))).toContain("docs/architecture.md");
    expect(anchorsOf(path.join(ROOT, "README.md")).has("license-and-attribution")).toBe(true);
    expect(anchorsOf(path.join(ROOT, "README.md")).has("no-such-heading")).toBe(false);
  });

  it.each(markdownFiles())("%s links only to files and headings that exist", (file) => {
    expect(broken(file)).toEqual([]);
  });
});
