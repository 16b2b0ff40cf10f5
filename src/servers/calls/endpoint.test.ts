import { expect, test } from "bun:test";
import { splitEndpoint } from "./endpoint.ts";

test("splitEndpoint: the base without its operation, query or trailing slash; the operation when the path names one", () => {
  expect(splitEndpoint("http://h:8000/v1/chat/completions?api-version=2024")).toEqual({ base: "http://h:8000/v1", operation: "chat/completions" });
  expect(splitEndpoint("https://x/openai/v1/responses/")).toEqual({ base: "https://x/openai/v1", operation: "responses" });
  expect(splitEndpoint("http://h:1/v1/messages")).toEqual({ base: "http://h:1/v1", operation: "messages" });
  expect(splitEndpoint("http://h:1/tokenize")).toEqual({ base: "http://h:1", operation: "tokenize" });
  // "completions" alone is an operation; "chat/completions" is not read as base ".../chat" + "completions".
  expect(splitEndpoint("http://h/v1/completions").base).toBe("http://h/v1");
  expect(splitEndpoint("http://h/v1/generate")).toEqual({ base: "http://h/v1/generate", operation: undefined });
});
