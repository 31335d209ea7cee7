// Preloaded into a server under soak (`node --expose-gc --import ./scripts/bench/heap-probe.mjs dist/main.js`):
// on SIGUSR2 it collects garbage and prints the memory figures as one JSON line on stderr.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.stderr.write(`heap-probe ${JSON.stringify({ rss, heapUsed, heapTotal, external, arrayBuffers })}\n`);
});
