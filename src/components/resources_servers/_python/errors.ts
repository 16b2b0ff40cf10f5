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
