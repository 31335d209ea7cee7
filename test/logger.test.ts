import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { accessLine } from '../src/config/logger.ts';
import { ROOT } from './helpers/spawn.ts';

/**
 * Runs `body` in a child process with `log = createLogger(options)` in scope, and resolves with
 * its stdout once `wanted` matches it (or the child exits), failing after `ms`.
 */
function childLog(format: 'text' | 'json', body: string, wanted: RegExp, ms = 5_000): Promise<string> {
  const script = `import { createLogger } from './src/config/logger.ts'; const log = createLogger({ level: 'info', format: '${format}' }); ${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${format}: no ${wanted} within ${ms} ms; got ${JSON.stringify(output.slice(-300))}`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(output);
    };
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (wanted.test(output)) done();
    });
    child.on('exit', done);
  });
}

for (const format of ['text', 'json'] as const) {
  test(`${format}: a lone access line reaches stdout while the process idles (batched lines are flushed on a timer)`, async () => {
    // The process stays up for 4 s after the line: only the periodic flush can write it out.
    const output = await childLog(
      format,
      `log.access('GET', '/api/v1/actors', 200, 1.23); setTimeout(() => {}, 4000);`,
      /\/api\/v1\/actors/,
      3_000,
    );
    assert.match(output, /\/api\/v1\/actors/);
  });

  test(`${format}: every access line of a burst is written by close(), whole and in order`, async () => {
    // Lines of every length: some not ASCII, one longer than a whole batch of bytes.
    const pathOf = `(i) => '/api/v1/episodes/' + i + (i % 7 === 0 ? '/é✓' : '') + (i === 2500 ? '/' + 'x'.repeat(70_000) : '')`;
    const output = await childLog(
      format,
      `const pathOf = ${pathOf}; for (let i = 0; i < 5000; i++) log.access('GET', pathOf(i), 200, 0.5); await log.close(); console.log('closed');`,
      /closed/,
    );
    const lines = output.split('\n').filter((line) => line.includes('/api/v1/episodes/'));
    const paths = lines.map((line) =>
      format === 'json' ? (JSON.parse(line) as { path: string }).path : line.split(' ')[1],
    );
    const expectedPath = eval(pathOf) as (i: number) => string;
    const expected = Array.from({ length: 5000 }, (_, i) => expectedPath(i));
    assert.is(paths.length, 5000);
    const wrong = paths.findIndex((path, i) => path !== expected[i]);
    assert.is(wrong, -1, `line ${wrong}: ${paths[wrong]?.slice(0, 80)}`);
  });
}

test('text: a boot line is written at once, not held for the batch', async () => {
  // The event loop is then kept busy for 4 s, so no timer can flush: only the immediate write shows it.
  const output = await childLog(
    'text',
    `log.info('listening on http://127.0.0.1:1'); const end = Date.now() + 4000; while (Date.now() < end);`,
    /listening on/,
    3_000,
  );
  assert.match(output, /listening on/);
});

test('an access line shows the time in tenths of a millisecond, rounded as toFixed(1) rounds', () => {
  const shown = [0, 0.04, 0.05, 0.96, 1.43, 9.99, 12.349, 99.94, 99.95, 1234.56].map((ms) =>
    accessLine('GET', '/api/v1/actors', 200, ms),
  );
  assert.ok(
    shown.every((line) => line.startsWith('GET /api/v1/actors 200 ') && line.endsWith('\n')),
    shown[0],
  );
  assert.equal(
    shown.map((line) => line.trimEnd().split(' ').at(-1)),
    ['0.0ms', '0.0ms', '0.1ms', '1.0ms', '1.4ms', '10.0ms', '12.3ms', '99.9ms', '100.0ms', '1234.6ms'],
  );
});

test.run();
