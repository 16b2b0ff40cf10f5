/** Python's `list(csv.reader(io.StringIO(text), delimiter=…))` with the default dialect (excel), state for state. */

/** Raised where Python raises csv.Error. */
export class CsvError extends Error {}

type State = "startRecord" | "startField" | "inField" | "inQuoted" | "quoteInQuoted" | "eatCrnl";

/** Rows as Python's csv module reads them: lines split after "\n" (StringIO), quotes doubled, blank lines → []. */
export function pyCsvRows(text: string, delimiter = ","): string[][] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const rows: string[][] = [];
  let fields: string[] = [];
  let field = "";
  let fieldStarted = false;
  let state: State = "startRecord";
  const save = () => {
    fields.push(field);
    field = "";
    fieldStarted = false;
  };
  const step = (c: string | null): void => {
    const eol = c === null;
    const newline = c === "\n" || c === "\r";
    switch (state) {
      case "startRecord":
        if (eol) return;
        if (newline) {
          state = "eatCrnl";
          return;
        }
        state = "startField";
        return step(c); // the same character now starts a field
      case "startField":
        if (eol || newline) {
          save();
          state = eol ? "startRecord" : "eatCrnl";
        } else if (c === '"') state = "inQuoted";
        else if (c === delimiter) save();
        else {
          field += c;
          fieldStarted = true;
          state = "inField";
        }
        return;
      case "inField":
        if (eol || newline) {
          save();
          state = eol ? "startRecord" : "eatCrnl";
        } else if (c === delimiter) {
          save();
          state = "startField";
        } else field += c;
        return;
      case "inQuoted":
        fieldStarted = true;
        if (eol) return;
        if (c === '"') state = "quoteInQuoted";
        else field += c;
        return;
      case "quoteInQuoted":
        if (c === '"') {
          field += '"';
          state = "inQuoted";
        } else if (c === delimiter) {
          save();
          state = "startField";
        } else if (eol || newline) {
          save();
          state = eol ? "startRecord" : "eatCrnl";
        } else {
          field += c;
          state = "inField";
        }
        return;
      case "eatCrnl":
        if (newline) return;
        if (eol) state = "startRecord";
        else throw new CsvError("new-line character seen in unquoted field - do you need to open the file with newline=''?");
        return;
    }
  };
  for (const line of lines) {
    for (const c of line) step(c);
    step(null);
    if (state === "startRecord") {
      rows.push(fields);
      fields = [];
    }
  }
  if (state !== "startRecord") {
    if (field.length > 0 || fieldStarted || state === "inQuoted") save();
    rows.push(fields);
  }
  return rows;
}

/**
 * Python's `list(csv.DictReader(io.StringIO(text)))`: the first row names the fields; blank rows are skipped;
 * a short row's missing fields are None (null); a long row's extra values go under the key `null` (restkey None).
 */
export function pyCsvDictRows(text: string, delimiter = ","): Record<string, string | string[] | null>[] {
  const [names, ...rows] = pyCsvRows(text, delimiter);
  if (!names) return [];
  return rows
    .filter((row) => row.length > 0)
    .map((row) => {
      const record: Record<string, string | string[] | null> = {};
      names.forEach((name, i) => (record[name] = i < row.length ? row[i]! : null));
      if (row.length > names.length) record["null"] = row.slice(names.length);
      return record;
    });
}
