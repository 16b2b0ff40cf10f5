/** Anthropic's error shape, `{"type": "error", "error": {"type", "message"}}`, and the error type of each HTTP status. */
import type { JsonObject } from "../responses-types.ts";

/** A request the Messages conversion cannot serve: answered with `status` in Anthropic's error shape. */
export class AnthropicError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  422: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

/** The error type Anthropic's API gives a status (`api_error` for any other 5xx, `invalid_request_error` for 4xx). */
export function anthropicErrorType(status: number): string {
  return TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

/** The error body for a status and message. */
export function anthropicErrorBody(status: number, message: string): JsonObject {
  return { type: "error", error: { type: anthropicErrorType(status), message } };
}
