import TurndownService from "turndown";

/** Block elements whose end separates words inside a table cell or a list item. */
const SEPARATING = new Set([
  "TD",
  "TH",
  "P",
  "BR",
  "LI",
  "DIV",
  "TR",
  "UL",
  "OL",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
]);

/** A cell's text: its words in order, nested tables and paragraphs flattened with spaces. */
function flatText(node: Node): string {
  if (node.nodeType === 3) return node.nodeValue ?? "";
  let out = "";
  for (const child of Array.from(node.childNodes)) {
    const separate = SEPARATING.has((child as Element).nodeName);
    out += `${separate ? " " : ""}${flatText(child)}${separate ? " " : ""}`;
  }
  return out;
}

function hasAncestor(node: Node, names: string[]): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) if (names.includes(p.nodeName)) return true;
  return false;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

/** Rows of this table only (a nested table's rows belong to its cell). */
function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  const visit = (el: Element) => {
    for (const child of Array.from(el.children)) {
      if (child.nodeName === "TR") rows.push(child);
      else if (child.nodeName !== "TABLE") visit(child);
    }
  };
  visit(table);
  return rows;
}

function createService(): TurndownService {
  const service = new TurndownService({ headingStyle: "atx", bulletListMarker: "-", br: "" });
  // The chunker and the retriever read this text, not a Markdown renderer: escaping "1." or "*"
  // would put backslashes into the passages teachers see and cite.
  service.escape = (s: string) => s;
  service.remove(["img", "script", "style"]);
  // Inline formatting is dropped: its words stay, the markers would only add noise to passages.
  service.addRule("inline", {
    filter: ["strong", "b", "em", "i", "u", "code", "a", "span", "sup", "sub", "s", "del", "ins", "mark"],
    replacement: (content) => content,
  });
  // A paragraph inside a list item or a cell is part of that item's line.
  service.addRule("innerParagraph", {
    filter: (node) => node.nodeName === "P" && hasAncestor(node, ["LI", "TD", "TH"]),
    replacement: (content) => ` ${content} `,
  });
  // A line break inside an item, a cell or a heading is a space: those stay one line.
  service.addRule("innerBreak", {
    filter: (node) =>
      node.nodeName === "BR" && hasAncestor(node, ["LI", "TD", "TH", "H1", "H2", "H3", "H4", "H5", "H6"]),
    replacement: () => " ",
  });
  service.addRule("heading", {
    filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
    replacement: (content, node) => {
      const inside = node.parentNode && ["LI", "TD", "TH"].includes(node.parentNode.nodeName);
      const text = collapse(content);
      if (inside || !text) return ` ${text} `;
      return `\n\n${"#".repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });
  service.addRule("listItem", {
    filter: "li",
    replacement: (content, node) => {
      const [first = "", ...nested] = content.replace(/^\n+|\n+$/g, "").split("\n");
      const rest = nested.filter((l) => l.trim()).map((l) => `  ${l}`);
      // An item with no words of its own keeps only its nested list.
      const lines = collapse(first) ? [`- ${collapse(first)}`, ...rest] : rest;
      return `${lines.join("\n")}${node.nextSibling ? "\n" : ""}`;
    },
  });
  service.addRule("list", {
    filter: ["ul", "ol"],
    replacement: (content, node) => {
      const body = content.replace(/^\n+|\n+$/g, "");
      return node.parentNode?.nodeName === "LI" ? `\n${body}\n` : `\n\n${body}\n\n`;
    },
  });
  service.addRule("table", {
    filter: (node) => node.nodeName === "TABLE",
    replacement: (_content, node) => {
      const rows = ownRows(node as Element)
        .map((tr) =>
          Array.from(tr.children)
            .filter((c) => c.nodeName === "TD" || c.nodeName === "TH")
            .map((c) => collapse(flatText(c)).replace(/\|/g, "\\|")),
        )
        .filter((cells) => cells.some(Boolean))
        .map((cells) => `| ${cells.join(" | ")} |`);
      return rows.length > 0 ? `\n\n${rows.join("\n")}\n\n` : "";
    },
  });
  return service;
}

let service: TurndownService | null = null;

/**
 * Mammoth's HTML → Markdown-shaped text (turndown), so the chunker sees headings: h1–h6 → `#`
 * lines, paragraphs → blank-line-separated text, list items → `- ` lines (nested ones indented),
 * table rows → `| a | b |` (nested tables flattened into their cell). Inline formatting and images
 * are dropped; text is not escaped.
 */
export function htmlToMarkdown(html: string): string {
  service ??= createService();
  return service
    .turndown(html)
    .split("\n\n")
    .map((block) =>
      block
        .split("\n")
        // List lines keep their indent and table rows their cells; other lines collapse spaces.
        .map((l) => (/^\s*- |^\|/.test(l) ? l.replace(/\s+$/, "") : l.replace(/[ \t]+/g, " ").trim()))
        .filter(Boolean)
        .join("\n"),
    )
    .filter(Boolean)
    .join("\n\n");
}
