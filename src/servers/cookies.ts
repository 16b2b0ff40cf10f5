/** Cookies between Gym servers: a plain name → value map per rollout, passed explicitly (protocol.md §2.6). */

import { lazyIn, lazyValues } from "./lazy-cookies.ts";

/** Cookie name → value. Callers replace a jar with what each response set; there is no implicit jar. */
export type Cookies = Record<string, string>;

/** The `Cookie` request header for a jar (undefined when empty). */
export function cookieHeader(cookies: Cookies | undefined): string | undefined {
  if (!cookies) return undefined;
  let header: string | undefined;
  for (const name in cookies) header = header === undefined ? `${name}=${cookies[name]}` : `${header}; ${name}=${cookies[name]}`;
  return header;
}

/** The cookies a response set (`Set-Cookie` headers), name → value; attributes are ignored. */
export function responseCookies(headers: Headers): Cookies {
  const out: Cookies = {};
  const lines = typeof headers.getSetCookie === "function" ? headers.getSetCookie() : splitSetCookie(headers.get("set-cookie"));
  for (const line of lines) addSetCookie(out, line);
  return out;
}

/** Adds the `name=value` a `Set-Cookie` line sets to a jar (attributes ignored; a line without a name is skipped). */
export function addSetCookie(jar: Cookies, line: string): void {
  const pair = line.split(";", 1)[0]!;
  const eq = pair.indexOf("=");
  if (eq <= 0) return;
  jar[pair.slice(0, eq).trim()] = unquote(pair.slice(eq + 1).trim());
}

// Printable ASCII without spaces, quotes or `;` (and no `=` in a name).
const SIMPLE_NAME = /^[!#-:<>-~]+$/;
const SIMPLE_VALUE = /^[!#-:<-~]*$/;

/**
 * Whether a name and value come back unchanged through a `Cookie` or `Set-Cookie` header (printable ASCII,
 * no spaces, quotes or separators): then a jar can be handed over in-process as is.
 */
export function isSimpleCookie(name: string, value: string): boolean {
  return SIMPLE_NAME.test(name) && SIMPLE_VALUE.test(value) && name !== "__proto__";
}

/** Whether every cookie of a jar is simple (an absent jar is). A value not sealed yet is (base64url "." base64url). */
export function isSimpleJar(cookies: Cookies | undefined): boolean {
  if (!cookies) return true;
  const lazy = lazyValues(cookies);
  for (const name in cookies) {
    if (lazy && lazyIn(cookies, lazy, name)) {
      if (!isSimpleCookie(name, "")) return false;
    } else if (typeof cookies[name] !== "string" || !isSimpleCookie(name, cookies[name])) return false;
  }
  return true;
}

/** The cookies a request carries (`Cookie` header), name → value. */
export function requestCookies(header: string | null | undefined): Cookies {
  const out: Cookies = {};
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    out[part.slice(0, eq).trim()] = unquote(part.slice(eq + 1).trim());
  }
  return out;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

function splitSetCookie(value: string | null): string[] {
  // Fallback for runtimes without getSetCookie: split on commas that start a new `name=` pair.
  return value ? value.split(/,(?=\s*[^;,\s]+=)/) : [];
}
