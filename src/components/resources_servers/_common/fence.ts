/** NeMo Skills' last-fence code extraction in strict mode, the part code_fim and evalplus share. */

/** The body of the last ```<language> (else ```) block exactly as written; "" when there is none or it never closes. */
export function lastFenceBody(text: string, language = "python"): string {
  const specific = "```" + language;
  let start = text.lastIndexOf(specific);
  let fenceLength = specific.length;
  if (start === -1) {
    start = text.lastIndexOf("```");
    fenceLength = 3;
  }
  if (start === -1) return "";
  const rest = text.slice(start + fenceLength);
  const end = rest.indexOf("```");
  return end === -1 ? "" : rest.slice(0, end);
}
