/**
 * Python's `list(csv.reader(io.StringIO(text), delimiter=…))` with the default dialect (excel), state for state;
 * and pandas.read_csv's C tokenizer (`pandasCsvRows`), which quotes as the csv module does but ends a row at a lone
 * `\r` too and skips blank lines.
 */

/** Raised where Python raises csv.Error. */
export class CsvError extends Error {}

type State = "startRecord" | "startField" | "inField" | "inQuoted" | "quoteInQuoted" | "eatCrnl";

/** Rows as Python's csv module reads them: lines split after "\n" (StringIO), quotes doubled, blank lines → []. */
export function pyCsvRows(text: string, delimiter = ","): string[][] {
  return csvRows(text, delimiter, false);
}

/**
 * Rows as pandas.read_csv's C parser splits them, for what the CSVs read here hold: the csv module's quoting
 * (strict off: after a closing quote the rest of the field is kept; a quote inside an unquoted field is a
 * character), a `\n`, `\r\n` or lone `\r` outside quotes ending a row (inside quotes each is kept), blank lines
 * skipped, a leading byte-order mark dropped.
 */
export function pandasCsvRows(text: string): string[][] {
  return pyCsvRowsAnyNewline(text.replace(/^\ufeff/, "")).filter((row) => row.length > 0);
}

/** `list(csv.reader(io.StringIO(text, newline="")))` (or a file opened with newline=""): a row ends at `\n`, `\r\n` or a lone `\r`. */
export function pyCsvRowsAnyNewline(text: string): string[][] {
  return csvRows(text, ",", true);
}

/**
 * The records of a CSV with a header row, as the benchmarks' prepares read them (csv.DictReader; a byte-order mark
 * dropped, blank lines skipped, a row ending at any newline): each keyed by the header's names, a missing field "".
 */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...body] = pyCsvRowsAnyNewline(text.replace(/^\ufeff/, "")).filter((row) => row.length > 0);
  if (!header) return [];
  return body.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ""])));
}

/**
 * pandas.read_csv's default NA strings (a cell spelled so is NaN). pandas 2.0 added "None"; a server keeps the
 * set of the pandas NeMo Gym runs it with.
 */
export const PANDAS_1_5_NA = new Set(["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "n/a", "nan", "null"]);
export const PANDAS_2_NA = new Set([...PANDAS_1_5_NA, "None"]);

/** The csv module's state machine; `loneCrEndsRow`: a `\r` outside quotes not followed by `\n` ends the row (pandas) instead of raising. */
function csvRows(text: string, delimiter: string, loneCrEndsRow: boolean): string[][] {
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
        if (newline && !(loneCrEndsRow && c === "\r")) return;
        if (eol) state = "startRecord";
        else if (loneCrEndsRow) {
          // The row ended at a `\r`: the next one starts with this character.
          rows.push(fields);
          fields = [];
          state = "startRecord";
          step(c);
        } else throw new CsvError("new-line character seen in unquoted field - do you need to open the file with newline=''?");
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
