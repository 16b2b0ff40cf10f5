/** LiveCodeBench v6 (Aug 2024 – May 2025): release_v6, contest dates in [2024-08-01, 2025-06-01). */
import type { PrepareContext } from "../../_prepare.ts";
import { prepareWindow } from "../prepare-release.ts";

export const prepare = (context: PrepareContext) => prepareWindow(context, "release_v6", "2024-08-01", "2025-06-01");
