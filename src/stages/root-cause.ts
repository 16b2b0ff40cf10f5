/**
 * The readable core of a NeMo Gym error body. Servers wrap an inner server's failure as
 * `Hit an exception in X calling an inner server: b'…'`, escaping it again at every hop, so the cause of a
 * failed model call arrives buried under layers of backslashes. For log lines only: sidecars keep the body.
 */
export function rootCause(body: string, max = 200): string {
  const wrapped = body.lastIndexOf("calling an inner server:");
  let text = wrapped === -1 ? body : body.slice(wrapped + "calling an inner server:".length);
  text = text.replace(/\\+(["'])/g, "$1").replace(/\\+n/g, " ").replace(/\\{2,}/g, "\\");
  const exception = /\b(\w*(?:Exception|Error))\((['"])(.*?)\2\)/s.exec(text);
  if (exception) text = `${exception[1]}: ${exception[3]}`;
  text = text.replace(/^(?:\s+|b?["'])+|[\s"']+$/g, ""); // a leading b only as Python's bytes prefix (b'…'), not a word's first letter
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
