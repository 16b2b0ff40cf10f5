/** The SDK scaffolded servers import by relative path from a gym checkout (the binary serves it as `gym/server-sdk`). */
export * from "../servers/sdk.ts";
