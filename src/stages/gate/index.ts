/** `gym eval gate`'s stage: the checks (checks.ts), the run it reads (inputs.ts), and the report's three forms (render.ts). */
export { gateRun, parseThreshold, type GateCheck, type GateOptions, type GateReport, type Threshold } from "./checks.ts";
export { gateJunit, gateMarkdown, gateText } from "./render.ts";
export { gateInputs, type GateInputs } from "./inputs.ts";
