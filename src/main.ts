/** Entry point of `gym` (and `ng`, the same program under another name). */
import { runCli } from "./cli/_run.ts";
import { raiseFetchConcurrency } from "./runtime/fetch-limit.ts";

const argv = process.argv.slice(2);
raiseFetchConcurrency(argv);
const code = await runCli(argv);
process.exitCode = code;
// Exit as soon as stdout has drained; a timer that does not hold the process open ends anything left
// lingering (a keep-alive socket, a stray timer) without ever cutting output short.
setTimeout(() => process.exit(code), 1000).unref();
