import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tokenWithRole } from './helpers/admin.ts';
import { RedisServer } from '../scripts/lib/redis-server.ts';
import { freePort } from '../scripts/bench/ports.ts';
import { newUser, post, type Answer } from './helpers/accounts-app.ts';
import { caller } from './helpers/curator-calls.ts';
import { dataFile, tempDir } from './helpers/http.ts';
import { readOverlayFile } from './helpers/overlay-file.ts';
import { startInProcess } from './helpers/in-process.ts';
import { smallDisk } from './helpers/small-disk.ts';

const run = promisify(execFile);
const REGISTER = '/api/v1/auth/register';

/** Fills what is left of a small file system (at most 4 MB, so a mistake cannot fill a real disk) with one file. */
async function fill(dir: string): Promise<string> {
  const filler = join(dir, 'filler');
  await run('sh', ['-c', `dd if=/dev/zero of=${filler} bs=4k count=1024 2>/dev/null || true`]);
  return filler;
}

async function stored(file: string): Promise<string[]> {
  return (JSON.parse(await readFile(file, 'utf8')) as { accounts: { username: string }[] }).accounts.map(
    (a) => a.username,
  );
}

test('a full disk: 503 with Retry-After, never a 201 that is not on disk, the file always whole; writes resume when space returns', async () => {
  const { dir, unmount } = await smallDisk('256k');
  try {
    // Room held back, given back once the disk has filled.
    const ballast = join(dir, 'ballast');
    await writeFile(ballast, Buffer.alloc(96 * 1024));
    let app = await startInProcess({}, dir);
    const created: string[] = [];
    const refused: Answer[] = [];
    // Registrations in waves of 20 until the disk has refused a whole wave.
    for (let wave = 0; wave < 100; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) => post(app.url, REGISTER, newUser(`w${wave}_${n}`))),
      );
      answers.forEach((answer, n) =>
        answer.status === 201 ? created.push(`user_w${wave}_${n}`) : refused.push(answer),
      );
      assert.equal(
        answers.filter((a) => a.status !== 201 && a.status !== 503).map((a) => a.status),
        [],
        'only 201 or 503',
      );
      // The file on disk parses at every moment and holds every account acknowledged so far.
      const onDisk = new Set(await stored(app.file));
      for (const username of created) assert.ok(onDisk.has(username), `${username} got a 201 but is not on disk`);
      if (answers.every((a) => a.status === 503)) break;
    }
    assert.ok(created.length > 20, `${created.length} accounts fit`);
    assert.ok(refused.length >= 20, 'the disk filled up');
    const [first] = refused;
    assert.is(first!.headers.get('retry-after'), '30');
    assert.match(
      String(first!.body.message),
      /^The accounts could not be saved \(.*accounts\.json: ENOSPC\); nothing was changed, retry in 30 s$/,
    );
    assert.ok(
      app.warnings.some((line) =>
        /^accounts not saved: writing .*accounts\.json failed \(ENOSPC\); the file is unchanged$/.test(line),
      ),
      app.warnings.join('\n'),
    );
    // A refused account does not exist: it can neither sign in nor is its username taken in memory.
    const signIn = await post(app.url, '/api/v1/auth/authenticate', {
      username: 'user_late',
      password: 'password of late',
    });
    assert.is(signIn.status, 401);

    // Space comes back: the same server writes again, without a restart.
    await rm(ballast);
    const late = await post(app.url, REGISTER, newUser('late'));
    assert.is(late.status, 201, JSON.stringify(late.body));
    await app.close();

    // A restart on the file finds every acknowledged account.
    app = await startInProcess({}, dir);
    try {
      const onDisk = new Set(await stored(app.file));
      for (const username of [...created, 'user_late']) assert.ok(onDisk.has(username), username);
      assert.is(
        (await post(app.url, '/api/v1/auth/authenticate', { username: 'user_late', password: 'password of late' }))
          .status,
        200,
      );
    } finally {
      await app.close();
    }
  } finally {
    await unmount();
  }
});

test('a full disk under the catalog overlay: a write is a 503 with Retry-After, never a 2xx that is not in the file, every line whole; writes resume when space returns', async () => {
  const { dir, unmount } = await smallDisk('256k');
  try {
    const ballast = join(dir, 'ballast');
    await writeFile(ballast, Buffer.alloc(96 * 1024));
    let app = await startInProcess({}, dir);
    const call = caller(app, await tokenWithRole(app, 'MAINTAINER', 'curator'));
    const overlayFile = join(dir, 'catalog-overlay.json');
    const actors = (await dataFile('actors.json')).map((actor) => `/api/v1/actors/${String(actor.uuid)}`);
    const acknowledged: { path: string; nationality: string }[] = [];
    let refused: Answer | undefined;
    for (let n = 0; n < 1000 && !refused; n++) {
      const write = { path: actors[n % actors.length]!, nationality: `Nation ${n} `.padEnd(200, 'x') };
      const answer = await call('PATCH', write.path, { nationality: write.nationality });
      assert.ok(answer.status === 200 || answer.status === 503, `${answer.status}: ${JSON.stringify(answer.body)}`);
      if (answer.status === 200) acknowledged.push(write);
      else refused = answer;
      // Every line of the file is whole at every moment, and it holds exactly the writes acknowledged.
      const kept = await readOverlayFile<{ changes: { after: { nationality?: string } }[]; mark?: unknown }>(
        overlayFile,
      );
      // The data the server booted with is marked first, for the change feed.
      assert.equal(
        kept.writes.filter((w) => !w.mark).map((w) => w.changes[0]!.after.nationality),
        acknowledged.map((w) => w.nationality),
      );
    }
    assert.ok(acknowledged.length > 20, `${acknowledged.length} writes fit`);
    assert.ok(refused, 'the disk filled up');
    assert.is(refused.headers.get('retry-after'), '30');
    assert.match(
      String(refused.body.message),
      /^The catalog change could not be saved \(.*catalog-overlay\.json: ENOSPC\); nothing was changed, retry in 30 s$/,
    );
    assert.ok(
      app.warnings.some((line) =>
        /^catalog change not saved: writing .*catalog-overlay\.json failed \(ENOSPC\); the file is unchanged$/.test(
          line,
        ),
      ),
      app.warnings.join('\n'),
    );
    const last = acknowledged.at(-1)!;
    const served = async (path: string) =>
      ((await (await fetch(app.url + path)).json()) as { nationality: string }).nationality;
    const refusedPath = actors[acknowledged.length % actors.length]!;
    const lastOf = (path: string) => acknowledged.findLast((w) => w.path === path)?.nationality;
    assert.is(
      await served(refusedPath),
      lastOf(refusedPath) ?? (await dataFile('actors.json'))[acknowledged.length % actors.length]!.nationality,
      'the refused write is not served',
    );

    // Space comes back: the same server writes again, without a restart.
    await rm(ballast);
    const late = await call('PATCH', last.path, { nationality: 'Written Once There Is Room' });
    assert.is(late.status, 200, JSON.stringify(late.body));
    await app.close();

    // A restart on the file serves every acknowledged write.
    app = await startInProcess({}, dir);
    try {
      const writes = (await readOverlayFile<{ mark?: unknown }>(overlayFile)).writes.filter((write) => !write.mark);
      assert.is(writes.length, acknowledged.length + 1);
      assert.is(await served(last.path), 'Written Once There Is Room');
      const other = acknowledged.findLast((w) => w.path !== last.path)!;
      assert.is(await served(other.path), lastOf(other.path));
    } finally {
      await app.close();
    }
  } finally {
    await unmount();
  }
});

test('a corrupt accounts file refuses the boot, naming the kept previous version and the command that restores it', async () => {
  const dir = await tempDir();
  const app = await startInProcess({}, dir);
  await post(app.url, REGISTER, newUser('one'));
  await post(app.url, REGISTER, newUser('two'));
  await app.close();
  const text = await readFile(join(dir, 'accounts.json'), 'utf8');
  await writeFile(join(dir, 'accounts.json'), text.slice(0, text.length / 2));
  const error = await startInProcess({}, dir).then(
    () => undefined,
    (e: Error) => e,
  );
  const file = join(dir, 'accounts.json');
  assert.match(String(error?.message), `restore it with  cp ${file}.previous ${file}`);
  await run('cp', [`${file}.previous`, file]);
  const restored = await startInProcess({}, dir);
  try {
    assert.equal(await stored(restored.file), ['user_one']);
  } finally {
    await restored.close();
  }
});

test('a Redis that cannot persist (its disk full: MISCONF) makes a registration or a catalog write a 503, never a 2xx', async () => {
  const { dir, unmount } = await smallDisk('1m');
  // Snapshots on the small disk, and writes stopped when one fails (Redis's default rule).
  const redis = new RedisServer(await freePort(), dir, [
    '--appendonly',
    'no',
    '--save',
    '3600 1',
    '--stop-writes-on-bgsave-error',
    'yes',
  ]);
  await redis.start();
  const client = new Redis(redis.url);
  try {
    const app = await startInProcess({
      ACCOUNTS_STORE: 'redis',
      REDIS_URL: redis.url,
      JWT_SECRET: 'a shared secret of at least thirty-two bytes',
    });
    try {
      const before = await post(app.url, REGISTER, newUser('before'));
      assert.is(before.status, 201, JSON.stringify(before.body));
      const maintainer = await tokenWithRole(app, 'MAINTAINER', 'curator');
      assert.is(String(((await client.config('GET', 'dir')) as string[])[1]), dir);
      const filler = await fill(dir);
      await client.bgsave();
      for (let i = 0; i < 200 && !/rdb_last_bgsave_status:err/.test(await client.info('persistence')); i++)
        await new Promise((r) => setTimeout(r, 25));
      const refused = await post(app.url, REGISTER, newUser('during'));
      assert.is(refused.status, 503, JSON.stringify(refused.body));
      assert.match(String(refused.body.message), /^The accounts could not be saved \(Redis: MISCONF/);
      assert.is(
        (await post(app.url, '/api/v1/auth/authenticate', { username: 'user_during', password: 'password of during' }))
          .status,
        401,
      );
      const version = app.served.shared.catalog.version;
      const write = await post(
        app.url,
        '/api/v1/locations',
        { name: 'Written Onto A Full Disk' },
        { Authorization: `Bearer ${maintainer}` },
      );
      assert.is(write.status, 503, JSON.stringify(write.body));
      assert.match(String(write.body.message), /^The catalog change could not be saved \(Redis: MISCONF/);
      assert.is(app.served.shared.catalog.version, version, 'nothing was applied');
      await rm(filler);
      await client.bgsave();
      for (let i = 0; i < 200 && !/rdb_last_bgsave_status:ok/.test(await client.info('persistence')); i++)
        await new Promise((r) => setTimeout(r, 25));
      const after = await post(app.url, REGISTER, newUser('after'));
      assert.is(after.status, 201, JSON.stringify(after.body));
      assert.is(
        (
          await post(
            app.url,
            '/api/v1/locations',
            { name: 'Written Once There Is Room' },
            { Authorization: `Bearer ${maintainer}` },
          )
        ).status,
        201,
      );
    } finally {
      await app.close();
    }
  } finally {
    client.disconnect();
    await redis.stop();
    await unmount();
  }
});

test.run();
