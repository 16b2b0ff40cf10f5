/** LiveCodeBench v5 (Aug 2024 – Feb 2025): release_v5, contest dates in [2024-08-01, 2025-03-01). */
import type { PrepareContext } from "../../_prepare.ts";
import { prepareWindow } from "../prepare-release.ts";

export const prepare = (context: PrepareContext) => prepareWindow(context, "release_v5", "2024-08-01", "2025-03-01");
