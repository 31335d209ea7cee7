import { createHash } from 'node:crypto';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Caller } from '../src/accounts/account.ts';
import { LogFileOverlayStore } from '../src/catalog-writes/file-store.ts';
import type { OverlayWrite } from '../src/catalog-writes/store.ts';
import { Catalog } from '../src/catalog/catalog.ts';
import type { Draft, RowChange } from '../src/catalog/edit/draft.ts';
import { planExport } from '../src/catalog/edit/export.ts';
import { createRecord, deleteRecord, patchRecord, type WriteOutcome } from '../src/catalog/edit/operations.ts';
import { replayWrites } from '../src/catalog/edit/replay.ts';
import { loadCatalog } from '../src/catalog/load.ts';
import { decodeCursor, encodeCursor, writeTag, type Cursor } from '../src/changes/cursor.ts';
import { readFeed } from '../src/changes/feed-answer.ts';
import { ChangeFeed } from '../src/changes/feed.ts';
import type { FeedPage } from '../src/changes/page.ts';
import type { FeedWrite } from '../src/changes/types.ts';
import { createLogger } from '../src/config/logger.ts';
import { HttpError } from '../src/lib/http-error.ts';
import { writeWholeFile } from '../src/lib/whole-file.ts';
import { Curator } from '../src/served/curator.ts';
import { readerChanges } from '../src/served/sandbox-views.ts';
import { Sandboxes } from '../src/served/sandboxes.ts';
import { ServedCatalog } from '../src/served/served-catalog.ts';
import { tempDir } from './helpers/http.ts';
import { ROOT } from './helpers/spawn.ts';

// A model-based test of the change feed, in process: random sequences of curators' writes,
// three students' sandbox writes, resets, reloads of data/ (the same, rebuilt under another
// version, or edited), plain restarts and one export (the overlay folded into a copy of data/)
// followed by a restart, while five readers (a curator, an anonymous reader, each student) read
// pages from cursors they saw before (mid-write ones too) and follow the feed page by page.
// The model keeps every write the stores were given (numbered as the stores number them, with
// the changes each write's rows make) and what each reader may see; each page is compared with
// the page the model expects, cursor by cursor:
//  (a) from any cursor, each later change comes once and in order (the exact page, `last`, `more`);
//  (b) a student sees the shared changes and its own sandbox's (sandbox: true), never another's;
//      the curator and the anonymous reader see no sandbox change;
//  (c) a cursor from before the export is a 410 after the restart (never a silent gap), naming
//      the reader's current cursor; malformed cursors are 400s; foreign ones 410s;
//  (d) the data version moves exactly at each shared change, never back, and a version is never
//      served for two different contents.
// Curators and students write disjoint records (and the reload edits a third one), so that no
// write stops applying: every write keeps the changes it made, and the model stays exact.

const log = createLogger({ level: 'silent', format: 'text' });
const LANGUAGE = 'en-US';
const BOUNDS = { writes: 1000, bytes: 256 * 2 ** 20, idleMs: 24 * 3_600_000 };
const RUNS = Number(process.env.CHANGES_MODEL_RUNS ?? 60);
const SEED = Number(process.env.CHANGES_MODEL_SEED ?? 20260611);

const pristine = await loadCatalog(join(ROOT, 'data'), { defaultLanguage: LANGUAGE });
if (!pristine.ok) throw new Error(`catalog refused: ${pristine.problems[0]?.message}`);

type Family = 'soundtracks' | 'locations';
const FAMILIES: readonly Family[] = ['soundtracks', 'locations'];
const uuidsOf = (family: Family) => pristine.catalog.store(family).records.map((record) => record.uuid as string);
/** The records curators write, and those students write: never the same ones. */
const CURATED: Record<Family, string[]> = {
  soundtracks: uuidsOf('soundtracks').slice(0, 6),
  locations: uuidsOf('locations').slice(0, 4),
};
const STUDIED: Record<Family, string[]> = {
  soundtracks: uuidsOf('soundtracks').slice(8, 14),
  locations: uuidsOf('locations').slice(6, 10),
};

const CURATOR: Caller = { uuid: 'uuid-cora', username: 'cora', role: 'MAINTAINER' };
const STUDENTS: Caller[] = ['ana', 'bia', 'caio'].map((username) => ({
  uuid: `uuid-${username}`,
  username,
  role: 'BASIC',
}));
/** Readers 0 and 1: the curator and an anonymous reader (no sandbox); 2, 3, 4: the students. */
const READERS = ['curator', 'anonymous', ...STUDENTS.map((student) => student.username)];
const studentOf = (reader: number): number | undefined => (reader >= 2 ? reader - 2 : undefined);

// ---------------------------------------------------------------------------------------------
// Operations

type What = 'patch' | 'create' | 'delete';
type Op =
  | { k: 'curate'; what: What; family: Family; pick: number }
  | { k: 'study'; student: number; what: What; family: Family; pick: number }
  | { k: 'reset'; student: number | 'all' }
  | { k: 'reload'; variant: 'same' | 'rebuilt' | 'edited' }
  | { k: 'restart' }
  | { k: 'export' }
  | { k: 'read'; reader: number; from: number | 'start' | 'now'; limit: number }
  | { k: 'follow'; reader: number; limit: number; start: 'start' | 'now' }
  | { k: 'bad'; reader: number; kind: number };

const what = fc.constantFrom<What>('patch', 'patch', 'create', 'delete');
const family = fc.constantFrom(...FAMILIES);
const reader = fc.integer({ min: 0, max: READERS.length - 1 });
const limit = fc.integer({ min: 1, max: 5 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('curate' as const), what, family, pick: fc.nat(60) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('study' as const),
      student: fc.integer({ min: 0, max: 2 }),
      what,
      family,
      pick: fc.nat(60),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('reset' as const),
      student: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 2 }) }, fc.constant('all' as const)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('reload' as const),
      variant: fc.constantFrom('same' as const, 'rebuilt' as const, 'edited' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ k: 'restart' as const }) },
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('read' as const),
      reader,
      from: fc.oneof({ weight: 6, arbitrary: fc.nat(200) }, fc.constantFrom('start' as const, 'now' as const)),
      limit,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('follow' as const),
      reader,
      limit,
      start: fc.constantFrom('start' as const, 'now' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('bad' as const), reader, kind: fc.nat(200) }) },
);

/** The operations, with the one export placed among them and the restart that follows it `after` operations later. */
const scenario = fc
  .record({ ops: fc.array(op, { minLength: 1, maxLength: 40, size: 'max' }), at: fc.nat(40), after: fc.nat(2) })
  .map(({ ops, at, after }) => {
    const place = Math.min(at, ops.length);
    const all: Op[] = [...ops.slice(0, place), { k: 'export' }, ...ops.slice(place)];
    all.splice(Math.min(all.length, place + 1 + after), 0, { k: 'restart' });
    return all;
  });

// ---------------------------------------------------------------------------------------------
// The model

/** A change as the model expects the feed to list it (without its cursor). */
interface Want {
  at: string;
  action: string;
  family?: string;
  uuid?: string;
  href?: string;
  language?: string;
  deleted?: true;
  data?: string;
  sandbox?: true;
}

/** A write of a store as the model knows it: its number, when (the operation's tick), and what it changed. */
interface ModelWrite {
  seq: number;
  tick: number;
  /** Learnt from the store once appended. */
  at?: string;
  kind: 'write' | 'mark';
  account: string;
  changes: Omit<Want, 'at'>[];
}

/** A place in the feed: what `Cursor` should hold. */
type Place = Cursor;

interface Student {
  caller: Caller;
  /** Its sandbox's writes now (emptied by a reset). */
  writes: ModelWrite[];
  /** Its last reset. */
  reset?: ModelWrite;
  /** Records it created, still in its sandbox. */
  created: Record<Family, string[]>;
}

/** The one change a write row makes, as the feed lists it. */
function wantOf(change: RowChange): Omit<Want, 'at'> {
  const action = change.before === null ? 'created' : change.after === null ? 'deleted' : 'changed';
  const path = `/api/v1/${change.family}/${change.uuid}`;
  return {
    action,
    family: change.family,
    uuid: change.uuid,
    href: change.language === undefined ? path : `${path}/translations/${change.language}`,
    ...(change.language === undefined ? {} : { language: change.language }),
    ...(action === 'deleted' ? { deleted: true as const } : {}),
  };
}

class Model {
  tick = 0;
  /** Every shared write ever made (folded ones too), in order. */
  readonly shared: ModelWrite[] = [];
  sharedSeq = 0;
  /** The shared writes at and before it are no longer kept in the feed. */
  floor = 0;
  /** The tag of the write at the floor, when the process saw it (undefined: any tag is taken there). */
  floorTag: string | undefined = '';
  /** The writes an export folded into data/ (0: none yet). */
  folded = 0;
  /** The data version of the last data mark the overlay keeps (none after an export). */
  lastMark?: string;
  sandboxSeq = 0;
  readonly sandbox: ModelWrite[] = [];
  readonly students: Student[] = STUDENTS.map((caller) => ({
    caller,
    writes: [],
    created: { soundtracks: [], locations: [] },
  }));
  /** Records curators created and did not delete. */
  readonly curated: Record<Family, string[]> = { soundtracks: [], locations: [] };
  readonly deleted = new Set<string>();

  kept(): ModelWrite[] {
    return this.shared.filter((write) => write.seq > this.floor);
  }

  tagOf(seq: number): string {
    if (seq === 0) return '';
    const write = this.shared.find((w) => w.seq === seq);
    assert.ok(write?.at, `the model knows when shared write ${seq} was made`);
    return writeTag(seq, write!.at!);
  }

  addShared(kind: ModelWrite['kind'], account: string, changes: Omit<Want, 'at'>[]): void {
    this.shared.push({ seq: ++this.sharedSeq, tick: this.tick, kind, account, changes });
  }

  /** The data mark that serving `version` appends when the overlay's last one names another. */
  served(version: string): void {
    if (this.lastMark === version) return;
    this.addShared('mark', '', [{ action: 'reloaded', data: version }]);
    this.lastMark = version;
  }

  /** The reader's own sandbox changes, in order: its last reset and its writes since. */
  own(reader: number): ModelWrite[] {
    const at = studentOf(reader);
    if (at === undefined) return [];
    const student = this.students[at]!;
    return [...(student.reset ? [student.reset] : []), ...student.writes].sort((a, b) => a.seq - b.seq);
  }

  ownEnd(reader: number): number {
    return this.own(reader).at(-1)?.seq ?? 0;
  }

  start(): Place {
    return { shared: this.floor, part: 0, sandbox: 0, tag: this.floorTag ?? '' };
  }

  now(reader: number): Place {
    const end = this.sharedSeq;
    const tag = end === this.floor ? (this.floorTag ?? '') : this.tagOf(end);
    return { shared: end, part: 0, sandbox: this.ownEnd(reader), tag };
  }

  /** Why the feed must answer 410 for `place` (undefined: it must not). */
  gone(reader: number, place: Place): string | undefined {
    if (place.shared < this.floor) return 'before the floor';
    if (place.shared === this.floor && place.part > 0) return 'inside a folded write';
    if (place.shared > this.sharedSeq) return 'ahead';
    if (place.shared > this.floor && this.tagOf(place.shared) !== place.tag) return 'another tag';
    if (place.shared === this.floor && this.floorTag !== undefined && place.tag !== this.floorTag) return 'another tag';
    const write = this.kept().find((w) => w.seq === place.shared);
    if (place.part > 0 && (!write || place.part >= write.changes.length)) return 'no such part';
    const own = this.own(reader);
    if (own.length && place.sandbox > own.at(-1)!.seq) return 'ahead of the sandbox';
    return undefined;
  }

  /**
   * Everything `reader` is shown after `place`, in order: each change with the place after it,
   * grouped by write for sandbox writes (a page never splits one).
   */
  suffix(reader: number, from: Place): { groups: { want: Want; after: Place }[][] } {
    const items: { write: ModelWrite; index: number }[] = [];
    for (const write of this.kept()) {
      if (write.seq < from.shared) continue;
      if (write.seq === from.shared && from.part === 0) continue;
      const first = write.seq === from.shared ? from.part : 0;
      for (let index = first; index < write.changes.length; index++) items.push({ write, index });
    }
    const own = this.own(reader).filter((write) => write.seq > from.sandbox);
    const place = { ...from };
    const groups: { want: Want; after: Place }[][] = [];
    let i = 0;
    let j = 0;
    while (i < items.length || j < own.length) {
      const mine = own[j];
      if (mine && (i >= items.length || mine.tick < items[i]!.write.tick)) {
        place.sandbox = mine.seq;
        groups.push(
          mine.changes.map((change) => ({ want: { ...change, at: mine.at!, sandbox: true }, after: { ...place } })),
        );
        j++;
        continue;
      }
      const { write, index } = items[i++]!;
      Object.assign(place, {
        shared: write.seq,
        part: index + 1 === write.changes.length ? 0 : index + 1,
        tag: this.tagOf(write.seq),
      });
      groups.push([{ want: { ...write.changes[index]!, at: write.at! }, after: { ...place } }]);
    }
    return { groups };
  }

  /** The page the feed must give `reader` from `place` with `limit`. */
  page(
    reader: number,
    from: Place,
    limit: number,
  ): { changes: { want: Want; after: Place }[]; last: Place; more: boolean } {
    const { groups } = this.suffix(reader, from);
    const changes: { want: Want; after: Place }[] = [];
    let taken = 0;
    for (; taken < groups.length && changes.length < limit; taken++) changes.push(...groups[taken]!);
    return { changes, last: changes.at(-1)?.after ?? from, more: taken < groups.length };
  }
}

// ---------------------------------------------------------------------------------------------
// One run: a data/ copy, the stores, the server's parts, and the readers

/** A stable text of everything `catalog` serves (records and translations, by uuid): its content. */
const contents = new WeakMap<Catalog, string>();
function contentOf(catalog: Catalog): string {
  let known = contents.get(catalog);
  if (known) return known;
  const hash = createHash('sha256');
  hash.update(catalog.languages.join());
  for (const name of [...catalog.stores.keys()].sort()) {
    const store = catalog.store(name);
    const rows = store.records.map((record, at) => stable({ record, translations: store.translationsOf(at) }));
    hash.update(`${name}\n${rows.sort().join('\n')}\n`);
  }
  known = hash.digest('base64url');
  contents.set(catalog, known);
  return known;
}
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${entries
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, v]) => `${JSON.stringify(key)}:${stable(v)}`)
    .join(',')}}`;
}

/** What the runs exercised, printed with CHANGES_MODEL_STATS=1. */
const stats = new Map<string, number>();
const count = (what: string, n = 1) => stats.set(what, (stats.get(what) ?? 0) + n);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const statusOf = (error: unknown) => (error instanceof HttpError ? error.status : undefined);
const described = (place: Place) => `${place.shared}.${place.part}.${place.sandbox}/${place.tag}`;

interface Options {
  /** Also check that a student's Catalog-Version is the version its feed answers (the API documents them as one). */
  studentVersions: boolean;
}

class Run {
  readonly model = new Model();
  dir = '';
  dataDir = '';
  overlayFile = '';
  sandboxFile = '';
  served!: ServedCatalog;
  feed!: ChangeFeed;
  curator!: Curator;
  sandboxes!: Sandboxes;
  /** The stores as another process reads them: what was appended, and when. */
  inspect!: { overlay: LogFileOverlayStore; sandbox: LogFileOverlayStore };
  /** data/ as last loaded from disk (undefined once it changed). */
  disk?: Catalog;
  edits = 0;
  /** The last millisecond a write may have been stamped with. */
  lastStamp = 0;
  /** Every cursor each reader was given, with the place the model says it names. */
  readonly seen: { text: string; place: Place }[][] = READERS.map(() => []);
  /** Each reader following the feed: where it stands. */
  readonly followers: ({ text: string | undefined; place: Place } | undefined)[] = READERS.map(() => undefined);
  /** Every version served (shared, and each student's), with the content it was served with. */
  readonly versions = new Map<string, string>();
  lastShared?: { version: string; seq: number };
  readonly lastStudent: (Cursor | undefined)[] = STUDENTS.map(() => undefined);
  readonly trail: string[] = [];

  constructor(readonly options: Options) {}

  async open(): Promise<void> {
    this.dir = await tempDir();
    this.dataDir = join(this.dir, 'data');
    await cp(join(ROOT, 'data'), this.dataDir, { recursive: true });
    this.overlayFile = join(this.dir, 'catalog-overlay.json');
    this.sandboxFile = join(this.dir, 'sandboxes.json');
    this.inspect = {
      overlay: await LogFileOverlayStore.open(this.overlayFile),
      sandbox: await LogFileOverlayStore.open(this.sandboxFile),
    };
    await this.boot();
  }

  async loadDisk(): Promise<Catalog> {
    if (this.disk) return this.disk;
    const loaded = await loadCatalog(this.dataDir, { defaultLanguage: LANGUAGE });
    if (!loaded.ok) throw new Error(`${this.dataDir} refused: ${loaded.problems[0]?.message}`);
    this.disk = loaded.catalog;
    return loaded.catalog;
  }

  /** A (re)start of the server on data/ as it is on disk: a new feed, curator and sandboxes. */
  async boot(): Promise<void> {
    this.close();
    await this.stamp();
    const base = await this.loadDisk();
    this.served = new ServedCatalog(base, 2 ** 20);
    this.feed = new ChangeFeed();
    this.curator = await Curator.open(this.served, await LogFileOverlayStore.open(this.overlayFile), log, this.feed);
    this.sandboxes = await Sandboxes.open(
      this.served,
      await LogFileOverlayStore.open(this.sandboxFile),
      BOUNDS,
      log,
      this.feed,
    );
    this.done();
    const { model } = this;
    model.served(base.version);
    // A new process knows no write at the floor: its cursors are accepted there whatever their tag.
    model.floor = model.folded;
    model.floorTag = model.folded === 0 ? '' : undefined;
  }

  close(): void {
    this.sandboxes?.close();
    this.curator?.close();
  }

  /** Waits for the clock to pass the last write's millisecond: writes of two operations are never stamped alike. */
  async stamp(): Promise<void> {
    while (Date.now() <= this.lastStamp) await sleep(1);
    this.model.tick++;
  }

  done(): void {
    this.lastStamp = Date.now();
  }

  /** Learns when the stores' new writes were made, checking they are numbered as the model says. */
  async learn(): Promise<void> {
    const { model } = this;
    const check = (kept: OverlayWrite[], writes: ModelWrite[], store: string) => {
      const unknown = writes.filter((write) => write.at === undefined);
      const got = kept.filter((write) => unknown.some((w) => w.seq === write.seq));
      assert.equal(
        got.map((write) => [write.seq, write.mark ? 'mark' : 'write', write.account.uuid]),
        unknown.map((write) => [write.seq, write.kind, write.account]),
        `the ${store} holds the writes the model expects`,
      );
      for (const write of unknown) write.at = got.find((w) => w.seq === write.seq)!.at;
    };
    const sharedFrom = Math.min(...model.shared.filter((w) => !w.at).map((w) => w.seq - 1), model.sharedSeq);
    check(await this.inspect.overlay.since(sharedFrom), model.shared, 'overlay');
    assert.is(await this.inspect.overlay.end(), model.sharedSeq, 'the overlay ends where the model does');
    const sandboxFrom = Math.min(...model.sandbox.filter((w) => !w.at).map((w) => w.seq - 1), model.sandboxSeq);
    check(await this.inspect.sandbox.since(sandboxFrom), model.sandbox, 'sandbox store');
    assert.is(await this.inspect.sandbox.end(), model.sandboxSeq, 'the sandbox store ends where the model does');
    // Writes of later operations are stamped later: the order the feed interleaves them in.
    const all = [...model.shared, ...model.sandbox].sort((a, b) => a.tick - b.tick);
    for (let i = 1; i < all.length; i++)
      if (all[i]!.tick > all[i - 1]!.tick)
        assert.ok(all[i]!.at! > all[i - 1]!.at!, `test set-up: writes of two operations stamped ${all[i]!.at}`);
  }

  // -- writes ----------------------------------------------------------------------------------

  /** The stage function of `op` over the records its writer may touch, and the record it names. */
  stageOf(
    op: { what: What; family: Family; pick: number },
    targets: string[],
    created: string[],
    name: string,
    deletesAny: boolean,
  ): { stage: (draft: Draft) => WriteOutcome; request: string; target?: string } {
    const { family, pick } = op;
    const pool = [...targets.filter((uuid) => !this.model.deleted.has(uuid)), ...created];
    const deletable = deletesAny ? pool : created;
    if (op.what === 'create' || (op.what === 'delete' && deletable.length === 0) || pool.length === 0) {
      const body = family === 'soundtracks' ? { name, duration: 1000 + pick } : { name };
      return { stage: (draft) => createRecord(draft, family, body), request: `POST /api/v1/${family}` };
    }
    if (op.what === 'delete') {
      const target = deletable[pick % deletable.length]!;
      return {
        stage: (draft) => deleteRecord(draft, family, target),
        request: `DELETE /api/v1/${family}/${target}`,
        target,
      };
    }
    const target = pool[pick % pool.length]!;
    return {
      stage: (draft) => patchRecord(draft, family, target, { name }),
      request: `PATCH /api/v1/${family}/${target}`,
      target,
    };
  }

  async curate(op: Extract<Op, { k: 'curate' }>): Promise<void> {
    const { model } = this;
    const created = model.curated[op.family];
    const { stage, request, target } = this.stageOf(op, CURATED[op.family], created, `Curated ${model.tick}`, true);
    const outcome = await this.curator.write({ caller: CURATOR, request, stage }).catch((error: unknown) => error);
    this.done();
    if (outcome instanceof Error) {
      assert.ok((statusOf(outcome) ?? 500) < 500, `${request}: ${outcome.message}`);
      return;
    }
    const written = outcome as WriteOutcome;
    model.addShared('write', CURATOR.uuid, written.changes.map(wantOf));
    if (request.startsWith('POST')) created.push(written.uuid);
    if (request.startsWith('DELETE')) {
      if (created.includes(target!)) created.splice(created.indexOf(target!), 1);
      model.deleted.add(target!);
    }
  }

  async study(op: Extract<Op, { k: 'study' }>): Promise<void> {
    const { model } = this;
    const student = model.students[op.student]!;
    const created = student.created[op.family];
    const { stage, request, target } = this.stageOf(
      op,
      STUDIED[op.family],
      created,
      `${student.caller.username} ${model.tick}`,
      false,
    );
    const outcome = await this.sandboxes.write({ caller: student.caller, request, stage }).catch((e: unknown) => e);
    this.done();
    if (outcome instanceof Error) {
      assert.ok((statusOf(outcome) ?? 500) < 500, `${request}: ${outcome.message}`);
      return;
    }
    const written = outcome as WriteOutcome;
    const write: ModelWrite = {
      seq: ++model.sandboxSeq,
      tick: model.tick,
      kind: 'write',
      account: student.caller.uuid,
      changes: written.changes.map(wantOf),
    };
    model.sandbox.push(write);
    student.writes.push(write);
    if (request.startsWith('POST')) created.push(written.uuid);
    if (request.startsWith('DELETE')) created.splice(created.indexOf(target!), 1);
  }

  async reset(op: Extract<Op, { k: 'reset' }>): Promise<void> {
    const { model } = this;
    const targets = (op.student === 'all' ? model.students : [model.students[op.student]!])
      .filter((student) => student.writes.length > 0)
      .sort((a, b) => a.writes[0]!.seq - b.writes[0]!.seq);
    const reset = await this.sandboxes.reset(op.student === 'all' ? undefined : STUDENTS[op.student]!.uuid);
    this.done();
    assert.is(reset, targets.length, 'every sandbox with writes is reset');
    for (const student of targets) {
      const mark: ModelWrite = {
        seq: ++model.sandboxSeq,
        tick: model.tick,
        kind: 'mark',
        account: student.caller.uuid,
        changes: [{ action: 'reset' }],
      };
      model.sandbox.push(mark);
      student.writes = [];
      student.reset = mark;
      student.created = { soundtracks: [], locations: [] };
    }
  }

  async reload(op: Extract<Op, { k: 'reload' }>): Promise<void> {
    const { model } = this;
    if (op.variant === 'edited') {
      // A field of a record no one writes: new data, every kept write still applies.
      const file = join(this.dataDir, 'games.json');
      const games = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
      games[0]!.website = `https://frequencies.example.com/v${++this.edits}`;
      await writeFile(file, `${JSON.stringify(games, null, 2)}\n`);
      this.disk = undefined;
    }
    const disk = await this.loadDisk();
    const base =
      op.variant === 'rebuilt'
        ? new Catalog(
            disk.stores,
            disk.languages,
            disk.defaultLanguage,
            `${disk.version}-r${model.tick}`,
            disk.pictureFiles,
          )
        : disk;
    await this.curator.rebase(base);
    this.done();
    model.served(base.version);
    // Replaying the overlay again forgets what an export folded: this process knew the floor's write.
    if (model.folded !== model.floor) {
      model.floor = model.folded;
      model.floorTag = model.tagOf(model.folded);
    }
  }

  /** `npm run catalog -- export`, as scripts/catalog.ts does it: the overlay folded into data/, then emptied. */
  async exportData(): Promise<void> {
    const { model } = this;
    const overlay = await LogFileOverlayStore.open(this.overlayFile);
    const loaded = await loadCatalog(this.dataDir, { defaultLanguage: LANGUAGE });
    if (!loaded.ok) throw new Error(`${this.dataDir} refused: ${loaded.problems[0]?.message}`);
    const writes = await overlay.since(0);
    assert.ok(writes.length > 0, 'the overlay holds at least its data mark');
    const replayed = replayWrites(loaded.catalog, writes, 'export');
    assert.equal(replayed.skipped, [], 'every kept write applies to data/');
    const plan = await planExport(this.dataDir, loaded.catalog, replayed.changes);
    for (const [file, text] of plan.texts) await writeWholeFile(join(this.dataDir, file), text);
    const through = writes.at(-1)!.seq;
    assert.is(through, model.sharedSeq, 'the export folds every shared write');
    await overlay.fold(through);
    overlay.close();
    this.disk = undefined;
    model.folded = through;
    model.lastMark = undefined;
  }

  // -- reads -----------------------------------------------------------------------------------

  /** The reader's own changes as the route gives them: a curator and an anonymous reader have none. */
  ownOf(reader: number): FeedWrite[] {
    const student = studentOf(reader);
    const caller = reader === 0 ? CURATOR : student === undefined ? undefined : STUDENTS[student];
    return readerChanges(this.sandboxes, caller)();
  }

  /** One page for `reader` from `since`, as the route reads it: the page and the version, or the error. */
  read(reader: number, since: string | undefined, limit: number): { page: FeedPage; version: string } | HttpError {
    try {
      return readFeed(this.feed, this.ownOf(reader), {
        ...(since === undefined ? {} : { since }),
        limit,
        records: false,
        language: LANGUAGE,
      });
    } catch (error) {
      if (error instanceof HttpError) return error;
      throw error;
    }
  }

  /** The version the reader's feed answers now: the cursor after every change it may see. */
  feedVersion(reader: number): string {
    return encodeCursor(this.model.now(reader));
  }

  /**
   * Reads one page for `reader` from `since` (the model's `place`) and checks it against the
   * model: the 410 it must be, or exactly the changes, cursors, `last` and `more` expected.
   * Each cursor given is remembered. Answers the page's end, or the 410's current cursor.
   */
  page(
    reader: number,
    since: string | undefined,
    place: Place,
    limit: number,
  ): { text: string; place: Place; more: boolean; gone: boolean; changes: unknown[] } {
    const { model } = this;
    const who = `${READERS[reader]} from ${since ?? 'the start'} (${described(place)}), limit ${limit}`;
    const answer = this.read(reader, since, limit);
    const gone = model.gone(reader, place);
    count(
      `pages from ${since === undefined ? 'the start' : since === 'now' ? 'now' : place.part > 0 ? 'mid-write cursors' : 'cursors'}`,
    );
    if (gone) {
      count(`410: ${gone}`);
      assert.instance(answer, HttpError, `${who}: a 410 (${gone}), got a page`);
      const error = answer as HttpError;
      assert.is(error.status, 410, `${who}: ${error.message}`);
      assert.is(error.headers['Catalog-Version'], this.feedVersion(reader), `${who}: the 410 names the current cursor`);
      return {
        text: error.headers['Catalog-Version']!,
        place: model.now(reader),
        more: false,
        gone: true,
        changes: [],
      };
    }
    assert.not.instance(answer, HttpError, `${who}: ${(answer as HttpError).message}`);
    const { page, version } = answer as { page: FeedPage; version: string };
    assert.is(version, this.feedVersion(reader), `${who}: the version answered`);
    const want = model.page(reader, place, limit);
    const got = page.changes.map(({ cursor, ...change }) => ({ want: change, after: decodeCursor(cursor) }));
    assert.equal(got, want.changes, `${who}: the changes of the page`);
    count('changes compared', got.length);
    count('own changes compared', got.filter((change) => change.want.sandbox).length);
    if (page.changes.length > limit) count('pages past their limit (a sandbox write whole)');
    for (const change of page.changes) this.see(reader, change.cursor, decodeCursor(change.cursor) as Place);
    assert.equal(decodeCursor(page.last), want.last, `${who}: last`);
    assert.is(page.more, want.more, `${who}: more`);
    this.see(reader, page.last, want.last);
    return {
      text: page.last,
      place: want.last,
      more: page.more,
      gone: false,
      changes: got.map((change) => change.want),
    };
  }

  see(reader: number, text: string, place: Place): void {
    assert.is(encodeCursor(place), text, 'a cursor is the text of its place');
    this.seen[reader]!.push({ text, place });
  }

  readFrom(op: Extract<Op, { k: 'read' }>): void {
    const { model } = this;
    const seen = this.seen[op.reader]!;
    if (op.from === 'start') return void this.page(op.reader, undefined, model.start(), op.limit);
    if (op.from === 'now' || seen.length === 0) return void this.page(op.reader, 'now', model.now(op.reader), op.limit);
    const { text, place } = seen[op.from % seen.length]!;
    this.page(op.reader, text, place, op.limit);
  }

  /**
   * Follows the feed page by page to its end: what the pages hold, concatenated, is the rest
   * of everything the reader may see after where it stood. A 410 starts it again from the
   * cursor it names.
   */
  follow(op: Extract<Op, { k: 'follow' }>): void {
    const { model } = this;
    let at =
      this.followers[op.reader] ??
      (op.start === 'start' ? { text: undefined, place: model.start() } : { text: 'now', place: model.now(op.reader) });
    for (let restarts = 0; ; restarts++) {
      const expected = model.gone(op.reader, at.place)
        ? []
        : model
            .suffix(op.reader, at.place)
            .groups.flat()
            .map((change) => change.want);
      const read: unknown[] = [];
      let gone = false;
      for (let pages = 0; ; pages++) {
        assert.ok(pages < 500, 'the feed never ends');
        const next = this.page(op.reader, at.text, at.place, op.limit);
        if (next.gone) {
          gone = true;
          at = { text: next.text, place: next.place };
          break;
        }
        read.push(...next.changes);
        assert.ok(next.more === false || next.text !== at.text, 'a page with more after it moves the cursor on');
        at = { text: next.text, place: next.place };
        if (!next.more) break;
      }
      if (!gone) {
        assert.equal(read, expected, `${READERS[op.reader]}: the pages, end to end, are the rest of the feed`);
        break;
      }
      assert.ok(restarts < 1, 'a 410 names a cursor that can be resumed');
    }
    this.followers[op.reader] = at;
  }

  /** Cursors no server gave (400) and cursors of another catalog (410). */
  bad(op: Extract<Op, { k: 'bad' }>): void {
    const { model } = this;
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const malformed = [
      '',
      'now ',
      'NOW',
      '-1',
      'x'.repeat(101),
      'not a cursor',
      'YzEuMS4wLjAu=',
      b64('c1.1.0.0'),
      b64('c2.1.0.0.abc'),
      b64('c1.-1.0.0.abc'),
      b64('c1.01.0.0.abc'),
      b64('c1.1.0.0.ABC'),
      b64('c1.1.0.0.abc.d'),
      b64('c1.1e3.0.0.abc'),
      b64('c1.1234567890123456.0.0.'),
      b64('c1.1.0.0.abcdefghi'),
      `${encodeCursor(model.now(op.reader))}.`,
    ];
    const text = malformed[op.kind % malformed.length]!;
    const answer = this.read(op.reader, text, 5);
    assert.instance(answer, HttpError, `${JSON.stringify(text)} is no cursor`);
    assert.is((answer as HttpError).status, 400, `${JSON.stringify(text)}: ${(answer as HttpError).message}`);
    count('400: malformed');
    // A cursor of another catalog: ahead of this one, or naming a kept write with another tag.
    const kept = model.kept();
    const foreign: Place[] = [{ shared: model.sharedSeq + 1 + (op.kind % 7), part: 0, sandbox: 0, tag: 'abc' }];
    const write = kept[op.kind % Math.max(1, kept.length)];
    if (write)
      foreign.push({ shared: write.seq, part: 0, sandbox: 0, tag: model.tagOf(write.seq) === 'zz' ? 'zy' : 'zz' });
    for (const place of foreign) {
      assert.ok(model.gone(op.reader, place), 'the model calls it foreign');
      this.page(op.reader, encodeCursor(place), place, 5);
    }
  }

  // -- versions --------------------------------------------------------------------------------

  /** Checks the data versions served after each operation against the model and the versions before. */
  versionsNow(): void {
    const { model } = this;
    const shared = this.served.shared;
    assert.is(shared.version, this.feed.version(), 'the shared catalog is served as the feed version');
    const decoded = decodeCursor(shared.version) as Cursor;
    assert.equal(decoded, model.now(0), 'the shared version is the cursor after the last shared change');
    if (this.lastShared) {
      assert.ok(decoded.shared >= this.lastShared.seq, 'the data version never goes back');
      assert.is(
        shared.version === this.lastShared.version,
        model.sharedSeq === this.lastShared.seq,
        'the data version moves exactly when a shared change was made',
      );
    }
    this.lastShared = { version: shared.version, seq: decoded.shared };
    // What each reader's feed answers now: the cursor after everything it may see, and nothing after it.
    for (let reader = 0; reader < READERS.length; reader++) {
      const answer = this.read(reader, 'now', 1);
      assert.not.instance(answer, HttpError, `${READERS[reader]}: since=now`);
      const { page, version } = answer as { page: FeedPage; version: string };
      assert.is(version, this.feedVersion(reader), `${READERS[reader]}: the feed's version now`);
      assert.equal([page.changes, page.last, page.more], [[], version, false], `${READERS[reader]}: nothing after now`);
    }
    this.content(shared.version, contentOf(shared.catalog), 'shared');
    STUDENTS.forEach((student, at) => {
      const reader = at + 2;
      const view = this.sandboxes.viewOf(student.uuid);
      const version = view?.version ?? shared.version;
      const own = decodeCursor(version) as Cursor;
      assert.is(own.shared, model.sharedSeq, `${student.username}'s version names the shared changes`);
      this.content(version, contentOf((view ?? shared).catalog), student.username);
      const writes = model.students[at]!.writes;
      if (writes.length) assert.is(version, this.feedVersion(reader), `${student.username}'s version with a sandbox`);
      if (this.options.studentVersions) {
        // The feed's `version` is documented as the Catalog-Version header of the reader's answers.
        assert.is(
          version,
          this.feedVersion(reader),
          `${student.username}: Catalog-Version is the version its feed answers`,
        );
        const last = this.lastStudent[at];
        if (last)
          assert.ok(
            own.shared > last.shared || (own.shared === last.shared && own.sandbox >= last.sandbox),
            `${student.username}'s data version never goes back: ${described(last)} then ${described(own)}`,
          );
        this.lastStudent[at] = own;
      }
    });
  }

  content(version: string, content: string, who: string): void {
    const known = this.versions.get(version);
    if (known !== undefined) assert.is(content, known, `${who}: version ${version} served with two contents`);
    this.versions.set(version, content);
  }

  // -- one operation ---------------------------------------------------------------------------

  async apply(op: Op): Promise<void> {
    this.trail.push(JSON.stringify(op));
    count(`op ${op.k}`);
    const before = this.model.sharedSeq;
    switch (op.k) {
      case 'curate':
        await this.stamp();
        await this.curate(op);
        break;
      case 'study':
        await this.stamp();
        await this.study(op);
        break;
      case 'reset':
        await this.stamp();
        await this.reset(op);
        break;
      case 'reload':
        await this.stamp();
        await this.reload(op);
        break;
      case 'restart':
        await this.boot();
        break;
      case 'export':
        await this.exportData();
        break;
      case 'read':
        this.readFrom(op);
        break;
      case 'follow':
        this.follow(op);
        break;
      case 'bad':
        this.bad(op);
        break;
    }
    await this.learn();
    this.versionsNow();
    if (this.model.sharedSeq !== before) count(`shared changes made by ${op.k}`);
  }
}

async function runScenario(ops: Op[], options: Options): Promise<void> {
  const run = new Run(options);
  await run.open();
  try {
    await run.learn();
    run.versionsNow();
    for (const op of ops) await run.apply(op);
    // Last, every reader follows the feed to its end, from the start and from every cursor it kept.
    for (let reader = 0; reader < READERS.length; reader++) {
      run.follow({ k: 'follow', reader, limit: 3, start: 'start' });
      run.followers[reader] = undefined;
      run.follow({ k: 'follow', reader, limit: 100, start: 'start' });
      for (const { text, place } of run.seen[reader]!.slice(-40)) run.page(reader, text, place, 1000);
    }
  } catch (error) {
    // uvu keeps its diff apart from the message, which is all fast-check reports.
    const { details } = error as { details?: string };
    (error as Error).message += `${details ? `\n${details}` : ''}\n  after: ${run.trail.slice(-6).join('\n         ')}`;
    throw error;
  } finally {
    run.close();
  }
}

const test = suite('change feed: random writes, resets, reloads and an export against a model of every reader');

test('every reader is shown, from any cursor, exactly what it may see, once and in order; the data version follows', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, (ops) => runScenario(ops, { studentVersions: false })),
    { numRuns: RUNS, seed: SEED, endOnFailure: false, includeErrorInReport: true },
  );
});

test("a student's Catalog-Version is the version its change feed answers, and never goes back", async () => {
  await fc.assert(
    fc.asyncProperty(scenario, (ops) => runScenario(ops, { studentVersions: true })),
    { numRuns: Math.ceil(RUNS / 2), seed: SEED + 1, includeErrorInReport: true },
  );
});

test("a student's write shows in its feed even when the feed was read since its previous write", async () => {
  // The smallest case the first property shrinks to: two sandbox writes, the feed read between them.
  const run = new Run({ studentVersions: false });
  await run.open();
  try {
    const [ana] = STUDENTS;
    const query = { limit: 100, records: false, language: LANGUAGE };
    const actions = () =>
      readFeed(run.feed, run.sandboxes.ownChanges(ana!.uuid), query).page.changes.flatMap((change) =>
        change.sandbox
          ? [`${change.action} ${change.family} ${change.uuid}${change.language ? ` ${change.language}` : ''}`]
          : [],
      );
    const create = (name: string) =>
      run.sandboxes.write({
        caller: ana!,
        request: 'POST /api/v1/soundtracks',
        stage: (draft) => createRecord(draft, 'soundtracks', { name }),
      });
    const first = await create('Song of ana');
    assert.equal(actions(), [`created soundtracks ${first.uuid}`]);
    const second = await create('Another song of ana');
    assert.equal(actions(), [`created soundtracks ${first.uuid}`, `created soundtracks ${second.uuid}`]);
  } finally {
    run.close();
  }
});

test('after a reset, following the feed from the Catalog-Version a student reads does not show the reset again', async () => {
  // The smallest case the property above shrinks to: one sandbox write, then its reset.
  const run = new Run({ studentVersions: true });
  await run.open();
  try {
    const [ana] = STUDENTS;
    await run.sandboxes.write({
      caller: ana!,
      request: 'POST /api/v1/locations',
      stage: (draft) => createRecord(draft, 'locations', { name: 'Pier of ana' }),
    });
    assert.is(await run.sandboxes.reset(ana!.uuid), 1);
    const own = run.sandboxes.ownChanges(ana!.uuid);
    const query = { limit: 100, records: false, language: LANGUAGE };
    const { version } = readFeed(run.feed, own, { ...query, since: 'now' });
    // What every answer to ana carries (http/caller-view.ts): her sandbox's version, else the shared one.
    const catalogVersion = (run.sandboxes.viewOf(ana!.uuid) ?? run.served.shared).version;
    // A client that reads the catalog after the reset, then follows the feed from its
    // Catalog-Version (as the header's documentation says), is shown the reset it already read past:
    // were it to read the catalog again at each reset, it would never stop.
    const since = readFeed(run.feed, own, { ...query, since: catalogVersion }).page.changes;
    assert.equal(
      since.map((change) => change.action),
      [],
      `since Catalog-Version ${described(decodeCursor(catalogVersion) as Cursor)} the feed shows the reset at ${described(decodeCursor(version) as Cursor)}`,
    );
    assert.is(catalogVersion, version, "Catalog-Version is the version ana's feed answers");
  } finally {
    run.close();
  }
});

test.after(() => {
  if (process.env.CHANGES_MODEL_STATS) console.log(Object.fromEntries([...stats].sort()));
});

test.run();
