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

const LAZY = new WeakMap<object, Map<string, LazyCookieValue>>();

/** The accessor pair for one cookie name, shared by every jar: no closures or descriptors made per cookie. */
interface Accessors {
  readonly get: () => string;
  readonly descriptor: PropertyDescriptor;
}
const ACCESSORS = new Map<string, Accessors>();

/** The jar (the receiver or one of its prototypes) that holds a lazy `name`, with its value. */
function holder(receiver: object, name: string): [object, LazyCookieValue] | undefined {
  for (let o: object | null = receiver; o; o = Object.getPrototypeOf(o)) {
    const cookie = LAZY.get(o)?.get(name);
    if (cookie) return [o, cookie];
  }
  return undefined;
}

function accessors(name: string): Accessors {
  let pair = ACCESSORS.get(name);
  if (!pair) {
    const get = function (this: object): string {
      return holder(this, name)![1].value;
    };
    const set = function (this: object, value: string): void {
      const jar = holder(this, name)?.[0] ?? this;
      LAZY.get(jar)?.delete(name);
      Object.defineProperty(jar, name, { value, writable: true, enumerable: true, configurable: true });
    };
    pair = { get, descriptor: { get, set, enumerable: true, configurable: true } };
    ACCESSORS.set(name, pair);
  }
  return pair;
}

/** Sets `jar[name]` to a lazily computed value (an accessor that computes on first read). */
export function setLazyCookie(jar: Cookies, name: string, cookie: LazyCookieValue): void {
  let lazy = LAZY.get(jar);
  if (!lazy) LAZY.set(jar, (lazy = new Map()));
  lazy.set(name, cookie);
  Object.defineProperty(jar, name, accessors(name).descriptor);
}

/** The lazy value behind `jar[name]`, if that property is still one this module set. */
export function lazyCookie(jar: Cookies | undefined, name: string): LazyCookieValue | undefined {
  const cookie = jar && LAZY.get(jar)?.get(name);
  return cookie && stillLazy(jar!, name) ? cookie : undefined;
}

/** The lazy values a jar may hold (check each with `lazyIn`), for loops over a whole jar. */
export function lazyValues(jar: Cookies): Map<string, LazyCookieValue> | undefined {
  return LAZY.get(jar);
}

/** `lazyCookie(jar, name)` given `lazyValues(jar)`. */
export function lazyIn(jar: Cookies, lazy: Map<string, LazyCookieValue> | undefined, name: string): LazyCookieValue | undefined {
  const cookie = lazy?.get(name);
  return cookie && stillLazy(jar, name) ? cookie : undefined;
}

/** A property deleted or redefined since is not lazy any more. */
function stillLazy(jar: Cookies, name: string): boolean {
  return Object.getOwnPropertyDescriptor(jar, name)?.get === ACCESSORS.get(name)!.get;
}

/** A copy of a jar in which values not read yet stay unread. */
export function copyJar(jar: Cookies | undefined): Cookies {
  const out: Cookies = {};
  if (!jar) return out;
  const lazy = LAZY.get(jar);
  let copied: Map<string, LazyCookieValue> | undefined;
  for (const name in jar) {
    const cookie = lazy && lazyIn(jar, lazy, name);
    if (cookie) {
      (copied ??= new Map()).set(name, cookie);
      Object.defineProperty(out, name, accessors(name).descriptor);
    } else if (name === "__proto__") Object.defineProperty(out, name, { value: jar[name], writable: true, enumerable: true, configurable: true });
    else out[name] = jar[name]!;
  }
  if (copied) LAZY.set(out, copied);
  return out;
}
