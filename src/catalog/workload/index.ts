/** Manifest-backed workloads (environments and benchmarks with a manifest.yaml): find, validate, test, publish. */
export { findWorkload, type Workload, type WorkloadKind } from "./find.ts";
export { validateWorkload, type WorkloadReport } from "./validate.ts";
export { publishWorkload, testWorkload, type PublicationReport, type VerifierReport } from "./check.ts";
export { exerciseFixture, findFixture, parseFixture, FIXTURE_FILE } from "./fixture.ts";
