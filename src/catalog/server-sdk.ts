/** What a scaffolded resources server imports from gym: the server factory, field declarations, and valibot for its task-data schema. */
export { defineResourcesServer, py } from "../servers/resources-server.ts";
export * as v from "valibot";
