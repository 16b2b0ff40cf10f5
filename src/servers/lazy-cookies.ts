/**
 * Cookie jars whose session values are sealed only when read. In-process, most session cookies travel from
 * answer to jar to the next call without anyone reading them (an agent's own session, a model's): their
 * HMAC is never computed. A jar stays a plain name → value object: reading a value seals it, and the value
 * is exactly what the eager seal would have been; assigning a value makes it an ordinary one.
 */
import type { Cookies } from "./cookies.ts";

/** A cookie value computed on first read (and then kept). */
export interface LazyCookieValue {
  readonly value: string;
}

const LAZY = new WeakMap<object, Map<string, { cookie: LazyCookieValue; get: () => string }>>();

/** Sets `jar[name]` to a lazily computed value (an accessor that computes on first read). */
export function setLazyCookie(jar: Cookies, name: string, cookie: LazyCookieValue): void {
  let lazy = LAZY.get(jar);
  if (!lazy) LAZY.set(jar, (lazy = new Map()));
  const get = () => cookie.value;
  lazy.set(name, { cookie, get });
  Object.defineProperty(jar, name, {
    get,
    set(value: string) {
      lazy.delete(name);
      Object.defineProperty(jar, name, { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: true,
    configurable: true,
  });
}

/** The lazy value behind `jar[name]`, if that property is still one this module set. */
export function lazyCookie(jar: Cookies | undefined, name: string): LazyCookieValue | undefined {
  const entry = jar && LAZY.get(jar)?.get(name);
  // A property deleted or redefined since is not lazy any more.
  return entry && Object.getOwnPropertyDescriptor(jar, name)?.get === entry.get ? entry.cookie : undefined;
}

/** A copy of a jar in which values not read yet stay unread. */
export function copyJar(jar: Cookies | undefined): Cookies {
  const out: Cookies = {};
  if (!jar) return out;
  const lazy = LAZY.get(jar);
  for (const name in jar) {
    const cookie = lazy && lazyCookie(jar, name);
    if (cookie) setLazyCookie(out, name, cookie);
    else if (name === "__proto__") Object.defineProperty(out, name, { value: jar[name], writable: true, enumerable: true, configurable: true });
    else out[name] = jar[name]!;
  }
  return out;
}
