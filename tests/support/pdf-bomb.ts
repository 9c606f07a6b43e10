/**
 * A small PDF that is expensive to read: `pages` pages that all share one content stream of
 * `lines` text-showing operators (the outside probe's file: 3,000 pages, 468 KB). Every page is
 * parsed in full, so reading it costs pages × stream size of CPU for a file of a few hundred KB.
 */
export function makePdfBomb(pages: number, lines: number): Uint8Array {
  const words = ["membrane", "nucleus", "ribosome", "chloroplast", "vacuole", "cytoplasm"];
  const content = Array.from(
    { length: lines },
    (_, i) => `BT /F1 9 Tf 40 ${760 - (i % 70) * 10} Td (The ${words[i % words.length]} line ${i}) Tj ET`,
  ).join("\n");
  const objects: string[] = [];
  const pageIds = Array.from({ length: pages }, (_, i) => 5 + i);
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages} >>`);
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  for (let i = 0; i < pages; i++) {
    objects.push(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>",
    );
  }
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) out += `${String(at).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
