/**
 * Python's `csv.reader` (excel dialect, strict off) over text read through a universal-newline TextIOWrapper, as
 * NeMo Gym's MMLU prepare reads the CSVs: rows as lists of fields, a blank line an empty row. With
 * `keepQuotedCarriageReturns` (pandas' C parser, which reads bytes) a `\r` or `\r\n` ends a row only outside quotes.
 */
export function csvRows(source: string, options: { keepQuotedCarriageReturns?: boolean } = {}): string[][] {
  const text = options.keepQuotedCarriageReturns ? source : source.replace(/\r\n?/g, "\n");
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let state: "start" | "plain" | "quoted" | "quote-in-quoted" = "start";
  for (let i = 0; i < text.length; i++) {
    let c = text[i]!;
    if (c === "\r" && state !== "quoted") {
      if (text[i + 1] === "\n") i++;
      c = "\n";
    }
    if (state === "quoted") {
      if (c === '"') state = "quote-in-quoted";
      else field += c;
      continue;
    }
    if (state === "quote-in-quoted") {
      if (c === '"') {
        field += '"';
        state = "quoted";
        continue;
      }
      state = "plain"; // after a closing quote the rest of the field is kept as it is (strict off)
    }
    if (c === ",") {
      row.push(field), (field = ""), (state = "start");
    } else if (c === "\n") {
      if (state !== "start" || row.length > 0) row.push(field);
      rows.push(row), (row = []), (field = ""), (state = "start");
    } else if (c === '"' && state === "start") state = "quoted";
    else (field += c), (state = "plain");
  }
  if (state !== "start" || row.length > 0) row.push(field), rows.push(row);
  return rows;
}
