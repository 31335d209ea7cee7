// Preloaded into a server under test (node --expose-gc --allow-natives-syntax --import …):
// on SIGUSR2 it collects garbage four times, 20 ms apart, while the server idles (no tick
// object alive), then writes "tick-probe: collected" on stderr; on SIGWINCH it prints the
// feedback of process.nextTick (V8's %DebugPrint, on stdout), then writes
// "tick-probe: printed". tickFeedback() in tick-object-anchor.test.ts reads what it printed.
const debugPrint = new Function('value', '%DebugPrint(value)');

process.on('SIGUSR2', async () => {
  for (let round = 0; round < 4; round++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    globalThis.gc();
  }
  process.stderr.write('tick-probe: collected\n');
});

process.on('SIGWINCH', () => {
  debugPrint(process.nextTick);
  process.stderr.write('tick-probe: printed\n');
});
