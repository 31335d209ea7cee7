import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cp, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from './helpers/http.ts';
import { listeningUrl, ROOT, runScript, startServer } from './helpers/spawn.ts';

type Row = Record<string, unknown>;

// `npm run dev` on a copy of the embedded catalog, which the tests then edit.
const data = join(await tempDir(), 'data');
await cp(join(ROOT, 'data'), data, { recursive: true });
const accountsFile = join(await tempDir(), 'accounts.json');
const dev = startServer({ DATA_DIR: data, ACCOUNTS_FILE: accountsFile, RATE_LIMIT: 'off' }, 'scripts/dev.ts');
const url = await listeningUrl(dev);

const actors = JSON.parse(await readFile(join(data, 'actors.json'), 'utf8')) as Row[];
const actor = actors[0]!;
const actorPath = `/api/v1/actors/${actor.uuid}`;

async function served(path: string): Promise<{ body: Row; etag: string }> {
  const response = await fetch(url + path, { headers: { 'Accept-Encoding': 'identity' } });
  assert.is(response.status, 200, path);
  return { body: (await response.json()) as Row, etag: response.headers.get('etag')! };
}

/** Polls `check` every 50 ms for at most 15 s (a bound, not a speed requirement). */
async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}; server output:\n${dev.output()}`);
}

const writeJson = (file: string, value: unknown) => writeFile(join(data, file), `${JSON.stringify(value, null, 2)}\n`);

test('npm run dev says it watches the data directory', async () => {
  await until('the watching line', () => dev.output().includes(`watching ${data}`));
});

test('an edit to a family file is served without a restart, with a new ETag; the change feed names the new data', async () => {
  const before = await served(actorPath);
  const version = (await fetch(`${url}/api/v1/changes?since=now`)).headers.get('catalog-version')!;
  assert.is(before.body.last_name, actor.last_name);
  await writeJson(
    'actors.json',
    actors.map((a, i) => (i === 0 ? { ...a, last_name: 'Edited-in-dev' } : a)),
  );
  await until('the edited actor', async () => (await served(actorPath)).body.last_name === 'Edited-in-dev');
  const after = await served(actorPath);
  assert.is.not(after.etag, before.etag);
  const page = await served('/api/v1/actors?last_name=Edited-in-dev');
  assert.equal(
    (page.body as unknown as Row[]).map((a) => a.uuid),
    [actor.uuid],
  );
  assert.match(dev.output(), /reloaded catalog: 110 records/);
  // One change: the data files now served, by version; the data version moved past it.
  const feed = await fetch(`${url}/api/v1/changes?since=${version}`);
  const { changes } = (await feed.json()) as { changes: Row[] };
  assert.equal(
    changes.map((change) => change.action),
    ['reloaded'],
  );
  assert.match(dev.output(), `version ${String(changes[0]!.data)}`);
  assert.is(feed.headers.get('catalog-version'), changes[0]!.cursor);
  assert.is.not(changes[0]!.cursor, version);
});

test('an edit in the translations folder is served too', async () => {
  const file = 'translations/episodes_translations.json';
  const rows = JSON.parse(await readFile(join(data, file), 'utf8')) as Row[];
  const row = rows.find((r) => r.language === 'pt-BR')!;
  await writeJson(
    file,
    rows.map((r) => (r === row ? { ...r, title: 'Título editado' } : r)),
  );
  await until(
    'the edited translation',
    async () => (await served(`/api/v1/episodes/${row.episode_uuid}?language=pt-BR`)).body.title === 'Título editado',
  );
});

test('a write made through the API is applied again over each edit of data/', async () => {
  const made = await runScript(
    'scripts/accounts.ts',
    ['create', '--username', 'curator', '--email', 'curator@example.org', '--role', 'MAINTAINER'],
    { ACCOUNTS_FILE: accountsFile, ACCOUNT_PASSWORD: 'the curator password' },
  );
  assert.is(made.code, 0, made.stderr);
  const signIn = await fetch(`${url}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'curator', password: 'the curator password' }),
  });
  const { token } = (await signIn.json()) as { token: string };
  const created = await fetch(`${url}/api/v1/locations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Made Under Dev' }),
  });
  assert.is(created.status, 201);
  const location = created.headers.get('location')!;
  const edited = actors.map((a, i) =>
    i === 1 ? { ...a, last_name: 'Edited-after-a-write' } : i === 0 ? { ...a, last_name: 'Edited-in-dev' } : a,
  );
  await writeJson('actors.json', edited);
  await until(
    'the second edit',
    async () => (await served(`/api/v1/actors/${String(actors[1]!.uuid)}`)).body.last_name === 'Edited-after-a-write',
  );
  assert.is((await served(location)).body.name, 'Made Under Dev');
  // Back to the data the next tests start from.
  await writeJson(
    'actors.json',
    actors.map((a, i) => (i === 0 ? { ...a, last_name: 'Edited-in-dev' } : a)),
  );
  await until(
    'the data as before',
    async () => (await served(`/api/v1/actors/${String(actors[1]!.uuid)}`)).body.last_name === actors[1]!.last_name,
  );
  assert.is((await served(location)).body.name, 'Made Under Dev');
});

test('an invalid edit prints its problems and the last good catalog keeps serving', async () => {
  const good = await served(actorPath);
  const printed = dev.output().length;
  await writeJson(
    'actors.json',
    actors.map((a, i) => (i === 0 ? { ...a, last_name: 'Never served', gender: 5 } : a)),
  );
  await until('the problems to be printed', () =>
    dev.output().slice(printed).includes('still serving the last good catalog'),
  );
  const report = dev.output().slice(printed);
  assert.match(
    report,
    new RegExp(`actors\\.json:\\d+:\\d+: record 0 \\(uuid ${actor.uuid}\\) /gender: must be one of 0, 1, 2, 9, got 5`),
  );
  const now = await served(actorPath);
  assert.is(now.body.last_name, 'Edited-in-dev');
  assert.is(now.etag, good.etag);

  await writeFile(join(data, 'actors.json'), '[{"uuid": ');
  await until('the syntax error to be printed', () =>
    /actors\.json:1:\d+: invalid JSON/.test(dev.output().slice(printed)),
  );
  assert.is((await served(actorPath)).body.last_name, 'Edited-in-dev');
});

test('reverting to the last good state says, in one line, that the data is good again', async () => {
  const printed = dev.output().length;
  await writeJson(
    'actors.json',
    actors.map((a, i) => (i === 0 ? { ...a, last_name: 'Edited-in-dev' } : a)),
  );
  await until('the good-again line', () =>
    dev.output().slice(printed).includes('the data is good again: it is what was served before'),
  );
  assert.is((await served(actorPath)).body.last_name, 'Edited-in-dev');
});

test('fixing the file serves it again, also when an editor saves by renaming a new file over it', async () => {
  await writeJson('actors.json.new', actors);
  await rename(join(data, 'actors.json.new'), join(data, 'actors.json'));
  await until('the original actor', async () => (await served(actorPath)).body.last_name === actor.last_name);
  // The file was replaced: edits to the new one are seen too.
  await writeJson(
    'actors.json',
    actors.map((a, i) => (i === 0 ? { ...a, last_name: 'After-the-rename' } : a)),
  );
  await until('the edit after the rename', async () => (await served(actorPath)).body.last_name === 'After-the-rename');
});

test('an export under npm run dev is not reported by the reload it causes; a write data/ changed since is reported alike on reload, at boot and by export', async () => {
  const env = { DATA_DIR: data, ACCOUNTS_FILE: accountsFile, RATE_LIMIT: 'off' };
  const signIn = await fetch(`${url}/api/v1/auth/authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'curator', password: 'the curator password' }),
  });
  const { token } = (await signIn.json()) as { token: string };
  const patch = (uuid: unknown, nationality: string) =>
    fetch(`${url}/api/v1/actors/${String(uuid)}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ nationality }),
    });
  assert.is((await patch(actors[3]!.uuid, 'Exported Under Dev')).status, 200);
  let printed = dev.output().length;
  const exported = await runScript('scripts/catalog.ts', ['export'], env);
  assert.is(exported.code, 0, exported.stderr);
  await until('the reload of the exported data', () => dev.output().slice(printed).includes('reloaded catalog'));
  assert.not.match(dev.output().slice(printed), /no longer applies/);
  assert.is((await served(`/api/v1/actors/${String(actors[3]!.uuid)}`)).body.nationality, 'Exported Under Dev');

  assert.is((await patch(actors[4]!.uuid, 'Overlaid Under Dev')).status, 200);
  printed = dev.output().length;
  const rows = JSON.parse(await readFile(join(data, 'actors.json'), 'utf8')) as Row[];
  await writeJson(
    'actors.json',
    rows.map((a, i) => (i === 4 ? { ...a, nationality: 'Edited In data/' } : a)),
  );
  await until('the stale write to be reported', () => /\nsee it with /.test(dev.output().slice(printed)));
  const report =
    /catalog write \d+ \(PATCH [^\n]+ no longer applies and is left out: actor '[^']+' in actors\.json is not what it was[^\n]*\nsee it with [^\n]*/.exec(
      dev.output().slice(printed),
    )?.[0];
  assert.ok(report, dev.output().slice(printed));
  assert.is((await served(`/api/v1/actors/${String(actors[4]!.uuid)}`)).body.nationality, 'Edited In data/');

  const booted = startServer(env);
  try {
    await listeningUrl(booted);
    assert.ok(booted.output().includes(report), booted.output());
  } finally {
    booted.child.kill('SIGTERM');
    if (booted.child.exitCode === null) await once(booted.child, 'exit');
  }
  const refused = await runScript('scripts/catalog.ts', ['export'], env);
  assert.is(refused.code, 1);
  assert.is(refused.stderr, `export refused: 1 write(s) would be lost\n${report}\n`);
});

test('npm run dev starts on broken data: 503 in the error shape until the data is good, then a line says it is', async () => {
  const broken = join(await tempDir(), 'data');
  await cp(join(ROOT, 'data'), broken, { recursive: true });
  const good = await readFile(join(broken, 'actors.json'), 'utf8');
  await writeFile(join(broken, 'actors.json'), good.replace('"gender": 2', '"gender": "female"'));
  const waiting = startServer(
    { DATA_DIR: broken, ACCOUNTS_FILE: join(await tempDir(), 'accounts.json'), RATE_LIMIT: 'off' },
    'scripts/dev.ts',
  );
  try {
    const base = await listeningUrl(waiting);
    assert.match(waiting.output(), /\/gender: must be one of 0, 1, 2, 9, got "female"/);
    assert.match(waiting.output(), /starting without a catalog: requests get 503 until the data is good/);
    const refused = await fetch(`${base}/api/v1/actors`);
    assert.is(refused.status, 503);
    assert.is(refused.headers.get('content-type'), 'application/json');
    assert.ok(refused.headers.get('retry-after'));
    assert.match(String(((await refused.json()) as Row).message), /^No catalog is served yet/);
    assert.is((await fetch(`${base}/api/ping`)).status, 200, 'the health check answers');
    assert.is((await fetch(`${base}/api/openapi.json`)).status, 200, 'the reference page still has its document');
    await writeFile(join(broken, 'actors.json'), good);
    const deadline = Date.now() + 15_000;
    while (!waiting.output().includes('the data is good again: serving catalog') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.match(waiting.output(), /the data is good again: serving catalog: 110 records/);
    assert.is((await fetch(`${base}/api/v1/actors`)).status, 200);
  } finally {
    waiting.child.kill('SIGTERM');
    if (waiting.child.exitCode === null) await once(waiting.child, 'exit');
  }
});

test.after(async () => {
  const child: ChildProcess = dev.child;
  child.kill('SIGTERM');
  if (child.exitCode === null) await once(child, 'exit');
});
test.run();
