import { expect, test } from "bun:test";
import { cookieHeader, isSimpleJar, type Cookies } from "./cookies.ts";
import { copyJar, lazyCookie, setLazyCookie } from "./lazy-cookies.ts";

function counting(value: string) {
  let reads = 0;
  return {
    cookie: {
      get value() {
        reads++;
        return value;
      },
    },
    reads: () => reads,
  };
}

test("a lazy value is computed only when read, and reads like any value", () => {
  const { cookie, reads } = counting("abc.def");
  const jar: Cookies = { first: "1" };
  setLazyCookie(jar, "session", cookie);
  expect(Object.keys(jar)).toEqual(["first", "session"]);
  expect(isSimpleJar(jar)).toBe(true);
  expect(lazyCookie(jar, "session")).toBe(cookie);
  const copy = copyJar(jar);
  expect(lazyCookie(copy, "session")).toBe(cookie);
  expect(reads()).toBe(0);
  expect(jar.session).toBe("abc.def");
  expect({ ...copy }).toEqual({ first: "1", session: "abc.def" });
  expect(cookieHeader(jar)).toBe("first=1; session=abc.def");
  expect(JSON.stringify(jar)).toBe('{"first":"1","session":"abc.def"}');
});

test("assigning or deleting makes it an ordinary cookie again, in place", () => {
  const jar: Cookies = {};
  setLazyCookie(jar, "a", counting("x").cookie);
  setLazyCookie(jar, "b", counting("y").cookie);
  jar.a = "plain";
  expect(lazyCookie(jar, "a")).toBeUndefined();
  expect(Object.keys(jar)).toEqual(["a", "b"]);
  expect(jar).toEqual({ a: "plain", b: "y" });
  delete jar.b;
  expect(lazyCookie(jar, "b")).toBeUndefined();
  jar.b = "again";
  expect(lazyCookie(jar, "b")).toBeUndefined();
  expect(copyJar(jar)).toEqual({ a: "plain", b: "again" });
  expect(copyJar(undefined)).toEqual({});
});
