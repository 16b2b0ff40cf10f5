/** Cookies between Gym servers: a plain name → value map per rollout, passed explicitly (protocol.md §2.6). */

/** Cookie name → value. Callers replace a jar with what each response set; there is no implicit jar. */
export type Cookies = Record<string, string>;

/** The `Cookie` request header for a jar (undefined when empty). */
export function cookieHeader(cookies: Cookies | undefined): string | undefined {
  if (!cookies) return undefined;
  const parts = Object.entries(cookies).map(([name, value]) => `${name}=${value}`);
  return parts.length ? parts.join("; ") : undefined;
}

/** The cookies a response set (`Set-Cookie` headers), name → value; attributes are ignored. */
export function responseCookies(headers: Headers): Cookies {
  const out: Cookies = {};
  const lines = typeof headers.getSetCookie === "function" ? headers.getSetCookie() : splitSetCookie(headers.get("set-cookie"));
  for (const line of lines) {
    const pair = line.split(";", 1)[0]!;
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    out[pair.slice(0, eq).trim()] = unquote(pair.slice(eq + 1).trim());
  }
  return out;
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
