/** What a user's TypeScript server imports from gym (`gym/server-sdk`): the resources-server factory, field declarations, valibot. */
export { defineResourcesServer, py } from "./resources/index.ts";
export * as v from "valibot";
