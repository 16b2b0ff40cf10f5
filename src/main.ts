/** Entry point of `gym` (and `ng`, the same program under another name). */
import { runCli } from "./cli/_run.ts";

const code = await runCli(process.argv.slice(2));
// Exit once stdout has drained, so a lingering keep-alive socket or timer never holds the process open.
process.exitCode = code;
process.stdout.write("", () => process.exit(code));
