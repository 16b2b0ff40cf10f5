/** A plain load loop: `total` POSTs of one single-turn Responses body at fixed concurrency; prints requests/s and its CPU ms per request. */
const [url, total, concurrency] = [process.argv[2]!, Number(process.argv[3] ?? 20000), Number(process.argv[4] ?? 256)];
const body = JSON.stringify({ model: "mock", input: [{ role: "user", content: "Question 1: which option is right?\nA: one\nB: two\nC: three\nD: four" }] });
let sent = 0;
const cpu = process.cpuUsage();
const started = performance.now();
async function worker() {
  while (sent < total) {
    sent++;
    const response = await fetch(`${url}/v1/responses`, { method: "POST", body, headers: { "content-type": "application/json" } });
    await response.text();
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const used = process.cpuUsage(cpu);
console.log((total / ((performance.now() - started) / 1000)).toFixed(1), ((used.user + used.system) / 1000 / total).toFixed(4));
export {};
