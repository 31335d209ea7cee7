import type { Caller } from '../accounts/account.ts';
import { createRecord, deleteRecord, patchRecord, type WriteOutcome } from '../catalog/edit/operations.ts';
import {
  createSocial,
  createTranslation,
  deleteSocial,
  deleteTranslation,
  patchSocial,
  patchTranslation,
} from '../catalog/edit/sub-resources.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { withLocalPictures } from '../catalog/pictures/urls.ts';
import type { Draft } from '../catalog/edit/draft.ts';
import type { FamilyName } from '../catalog/families.ts';
import { curates } from '../lib/roles.ts';
import type { Curator } from '../served/curator.ts';
import type { Sandboxes } from '../served/sandboxes.ts';
import { servedOf, type Served, type View } from '../served/served-catalog.ts';
import { recordTags, socialTags, translationTags, type Precondition, type ServedAs } from './if-match.ts';
import type { RouteDeps } from './routes/context.ts';
import { admitted } from './write-admission.ts';

/** What the writer needs besides the read routes' deps: the one place writes are taken. */
export interface WriteDeps extends RouteDeps {
  curator: Curator;
  /** Classroom mode: where the writes of accounts below MAINTAINER go, each to its own. */
  sandboxes?: Sandboxes;
}

/** One write as either face asks for it: who, what request, the `If-Match` tags sent, and the origin of pictures. */
export interface WriteCall {
  caller: Caller | undefined;
  /** How messages name the request: `PATCH /api/v1/actors/…`, `mutation update_actor`. */
  request: string;
  /** The `If-Match` header (REST) or `if_match` argument (GraphQL), when sent. */
  ifMatch?: string | undefined;
  /** What the paths of the catalog's own pictures are made absolute with: the ETags of answers depend on it. */
  origin: string;
}

/**
 * The catalog writes of both faces, REST's routes and GraphQL's mutations: each checks the
 * caller, stages the write with the catalog's own functions under its `If-Match` condition
 * and takes it where the caller's writes go (the curator: the shared catalog and its overlay;
 * in classroom mode, below MAINTAINER, the caller's sandbox; both pass the same gate), then
 * returns what it changed.
 *
 * @example
 * const writer = new CatalogWriter({ ...routeDeps, curator });
 * const { uuid } = await writer.createRecord({ caller, request: 'mutation create_location', origin }, 'locations', {
 *   name: 'Pier',
 * });
 */
export class CatalogWriter {
  constructor(private readonly deps: WriteDeps) {}

  /** Classroom mode's sandboxes, when on. */
  get sandboxes(): Sandboxes | undefined {
    return this.deps.sandboxes;
  }

  /**
   * The caller, when it may write (see `admitted`): the write routes ask before reading a body, and every write again.
   */
  admit(caller: Caller | undefined, request: string, origin: string): Caller {
    return admitted(caller, request, origin, this.deps.sandboxes !== undefined);
  }

  /** Whether `caller`'s writes and reads go to its own sandbox (classroom mode, below MAINTAINER). */
  sandboxed(caller: Caller): boolean {
    return this.deps.sandboxes !== undefined && !curates(caller.role);
  }

  /** What `caller` reads instead of the shared catalog: its sandbox, when its writes go to one (see `sandboxed`). */
  viewOf(caller: Caller | undefined): View | undefined {
    const sandboxes = this.deps.sandboxes;
    if (!sandboxes || !caller || !this.sandboxed(caller)) return undefined;
    return () => sandboxes.viewOf(caller.uuid);
  }

  /** The catalog `caller` reads now, with every write it sees taken. */
  catalogOf(caller: Caller | undefined): Catalog {
    return this.deps.served.seenBy(this.viewOf(caller)).catalog;
  }

  createRecord(call: WriteCall, name: FamilyName, body: unknown): Promise<WriteOutcome> {
    const local = withLocalPictures(body, call.origin);
    return this.#run(call, (draft) => createRecord(draft, name, local));
  }

  patchRecord(call: WriteCall, name: FamilyName, uuid: string, body: unknown): Promise<WriteOutcome> {
    const local = withLocalPictures(body, call.origin);
    return this.#run(call, (draft) => patchRecord(draft, name, uuid, local), this.#recordTags(call, name, uuid));
  }

  deleteRecord(call: WriteCall, name: FamilyName, uuid: string): Promise<WriteOutcome> {
    return this.#run(call, (draft) => deleteRecord(draft, name, uuid), this.#recordTags(call, name, uuid));
  }

  createTranslation(call: WriteCall, name: FamilyName, uuid: string, body: unknown): Promise<WriteOutcome> {
    return this.#run(call, (draft) => createTranslation(draft, name, uuid, body));
  }

  patchTranslation(
    call: WriteCall,
    name: FamilyName,
    uuid: string,
    language: string,
    body: unknown,
  ): Promise<WriteOutcome> {
    return this.#run(
      call,
      (draft) => patchTranslation(draft, name, uuid, language, body),
      this.#translationTags(call, name, uuid, language),
    );
  }

  deleteTranslation(call: WriteCall, name: FamilyName, uuid: string, language: string): Promise<WriteOutcome> {
    return this.#run(
      call,
      (draft) => deleteTranslation(draft, name, uuid, language),
      this.#translationTags(call, name, uuid, language),
    );
  }

  createSocial(call: WriteCall, uuid: string, body: unknown): Promise<WriteOutcome & { social: string }> {
    return this.#run(call, (draft) => createSocial(draft, uuid, body));
  }

  patchSocial(
    call: WriteCall,
    uuid: string,
    social: string,
    body: unknown,
  ): Promise<WriteOutcome & { social: string }> {
    return this.#run(call, (draft) => patchSocial(draft, uuid, social, body), this.#socialTags(call, uuid, social));
  }

  deleteSocial(call: WriteCall, uuid: string, social: string): Promise<WriteOutcome> {
    return this.#run(call, (draft) => deleteSocial(draft, uuid, social), this.#socialTags(call, uuid, social));
  }

  #run<T extends WriteOutcome>(call: WriteCall, stage: (draft: Draft) => T, precondition?: Precondition): Promise<T> {
    const caller = this.admit(call.caller, call.request, call.origin);
    const request = { caller, request: call.request, stage, ...(precondition ? { precondition } : {}) };
    return this.sandboxed(caller) ? this.deps.sandboxes!.write(request) : this.deps.curator.write(request);
  }

  /**
   * `catalog` (what a write is staged on) as served: from the cache of the caller's view when
   * it is that catalog, else answers made for it and not kept (an earlier write of the caller's,
   * in the same sandbox batch, is not served yet).
   */
  #servedAs(caller: Caller | undefined, catalog: Catalog): Served {
    const seen = this.deps.served.seenBy(this.viewOf(caller));
    return seen.catalog === catalog ? seen : servedOf(catalog, seen.version, 0);
  }

  /** `#servedAs` for the caller of `call`. */
  #servedTo(call: WriteCall): ServedAs {
    return (catalog) => this.#servedAs(call.caller, catalog);
  }

  #recordTags(call: WriteCall, name: FamilyName, uuid: string): Precondition | undefined {
    return recordTags(call.ifMatch, name, uuid, call.origin, this.#servedTo(call));
  }

  #translationTags(call: WriteCall, name: FamilyName, uuid: string, language: string): Precondition | undefined {
    return translationTags(call.ifMatch, name, uuid, language, this.#servedTo(call));
  }

  #socialTags(call: WriteCall, uuid: string, social: string): Precondition | undefined {
    return socialTags(call.ifMatch, uuid, social, this.#servedTo(call));
  }
}
