/** PyException: a Python exception a verifier raises on purpose (NeMo Gym answers it with HTTP 500 and its repr). */

/** repr(str) for messages: single quotes unless the text contains one and no double quote. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
}

/** An exception with a Python type name; the resources server turns it into a 500 whose body is `Type('msg')`. */
export class PyException extends Error {
  readonly pyType: string;

  constructor(pyType: string, message: string) {
    super(message);
    this.name = pyType;
    this.pyType = pyType;
  }

  /** repr(e), e.g. `KeyError('x')`, `ValueError('invalid literal …')`. */
  get repr(): string {
    return `${this.pyType}(${pyStrRepr(this.message)})`;
  }
}

/** repr() of a JSON value as Python prints it (None, True, 'text', [1, 2], {'k': 'v'}). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return pyStrRepr(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
}
