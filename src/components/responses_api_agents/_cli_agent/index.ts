/** The shared harness of the coding-agent CLIs: prepare a run (CLI + gateway + mounts), run it in a sandbox, record it. */
export type { CliAgentConfig, CliAgentDefinition } from "./agent.ts";
export type { CapturedCall } from "./capture.ts";
export { prepareCliRun, type CliEpisode, type CliRun, type CliStatus } from "./episode.ts";
export { atifDocument, rolloutResponse } from "./trajectory.ts";
