/** A small RFC 4180 CSV reader (quoted fields, doubled quotes, newlines inside quotes): enough for GPQA's CSV. */

/** Parses CSV text with a header row into records keyed by column name. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field), rows.push(row), (row = []), (field = "");
    } else field += c;
  }
  if (field !== "" || row.length > 0) row.push(field), rows.push(row);
  const [header, ...body] = rows.filter((r) => r.length > 1 || r[0] !== "");
  if (!header) return [];
  const names = header.map((h, i) => (i === 0 ? h.replace(/^\ufeff/, "") : h));
  return body.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i] ?? ""])));
}
