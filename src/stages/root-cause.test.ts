import { expect, test } from "bun:test";
import { rootCause } from "./root-cause.ts";

test("the innermost exception of a thrice-wrapped NeMo Gym error body", () => {
  const inner = `Exception('POST /v1/responses on server \\'upstream http://127.0.0.1:1/v1/responses\\' could not connect: ECONNREFUSED: Unable to connect.')`;
  let body = JSON.stringify(inner);
  for (let i = 0; i < 2; i++) body = JSON.stringify(`Hit an exception in SimpleAgent___a calling an inner server: b'${body}'`);
  expect(rootCause(body)).toBe("Exception: POST /v1/responses on server 'upstream http://127.0.0.1:1/v1/responses' could not connect: ECONNREFUSED: Unable to connect.");
});

test("plain bodies pass through, cut to the limit", () => {
  expect(rootCause('{"detail":"Not Found"}')).toBe('{"detail":"Not Found"}');
  expect(rootCause("x".repeat(300), 10)).toBe(`${"x".repeat(10)}…`);
});

test("a wrapped message that starts with the letter b keeps it (only b' is a bytes prefix)", () => {
  const body = `"Hit an exception in SimpleAgent___a calling an inner server: b'\\"Hit an exception in M calling an inner server: b\\\\\\"batch_expired: batch b1 ended\\\\\\"\\"'"`;
  expect(rootCause(body)).toBe("batch_expired: batch b1 ended");
});
