import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { blockCommands, docCommands, docFiles, showsOutput } from './helpers/doc-commands.ts';
import { DocSession, sandboxCopy } from './helpers/doc-session.ts';
import { freePort } from '../scripts/bench/ports.ts';
import { ensureBuilt } from './helpers/start-command.ts';

// Every shell command of the README, CONTRIBUTING.md and docs/ runs as written, page by page, in
// a copy of the repository, with the server the page starts (or `npm start`); where the page
// shows what a command prints, the output is compared. A command a test cannot run is marked so
// in its page (see helpers/doc-commands.ts), with why, and listed here.

test('the reading of a block: continuations joined, prose dropped, the output shown under a command kept', () => {
  const commands = blockCommands(
    [
      '# a prose comment',
      'curl localhost:3000/a \\',
      "  -d '{}'",
      '# {"x":1,',
      '#  "y":…}',
      '',
      'npm run x   # trailing',
    ].join('\n'),
    'f.md',
    10,
  );
  assert.equal(commands, [
    { file: 'f.md', line: 11, text: "curl localhost:3000/a -d '{}'", shows: '{"x":1,"y":…}' },
    { file: 'f.md', line: 16, text: 'npm run x   # trailing' },
  ]);
  assert.ok(showsOutput('{"x":1,"y":…}', '{"x":1,"y":[2,3]}\n'));
  assert.not.ok(showsOutput('{"x":1,"y":…}', '{"x":2,"y":3}'));
});

ensureBuilt();
const skipped: string[] = [];
for (const file of docFiles()) {
  const commands = docCommands(file);
  if (commands.length === 0) continue;
  test(`${file}: every command runs as written`, async () => {
    const session = new DocSession(sandboxCopy(), await freePort());
    try {
      for (const command of commands) {
        const where = `${command.file}:${command.line}: ${command.text}`;
        if (command.skipped !== undefined) {
          skipped.push(`${where}  (${command.skipped})`);
          continue;
        }
        const { code, output, errors } = await session.run(command.text, command.env);
        assert.is(code, 0, `${where}\nexited ${code}:\n${output.slice(-2000)}\n${errors.slice(-2000)}`);
        if (command.shows !== undefined)
          assert.ok(
            showsOutput(command.shows, output),
            `${where}\nshows  ${command.shows}\nprints ${output.slice(0, 3000)}`,
          );
      }
    } finally {
      await session.close();
    }
    for (const output of session.serverOutputs)
      assert.not.match(
        output,
        /^500 on |\n\s+at \S.*:\d+:\d+\)?$/m,
        `${file}: the server logged a 500 or a stack trace:\n${output.slice(-3000)}`,
      );
  });
}

test('the commands not run are few, each with its reason', () => {
  console.log(`\n  docs commands not run (${skipped.length}):\n${skipped.map((line) => `    ${line}`).join('\n')}`);
  assert.ok(skipped.length <= 25, `${skipped.length} commands skipped`);
  for (const line of skipped) assert.match(line, /\(\(.+\)\)$|\(.+\)$/, line);
});

test.run();
