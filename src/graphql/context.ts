import { GraphQLNonNull, type GraphQLNullableType } from 'graphql';
import type { Catalog } from '../catalog/catalog.ts';
import type { ChangeFeed } from '../changes/feed.ts';
import type { FeedWrite } from '../changes/types.ts';
import type { CatalogWriter, WriteCall } from '../http/catalog-writer.ts';
import type { Pacer } from './pacer.ts';
import type { FamilyStore } from '../catalog/store.ts';
import { ServedRecord } from './served.ts';

/** What every resolver of one request sees (a type, not an interface: graphql-http wants an indexable record). */
export type GraphQLContext = {
  catalog: Catalog;
  /** The language of `Accept-Language` (else the default): fields without a `language` argument answer in it. */
  preferred: string;
  maxPageSize: number;
  /** What the paths of the catalog's own pictures are made absolute with (see `pictureOrigin`). */
  origin: string;
  /** Slices this request's execution so other requests are served between slices. */
  pacer: Pacer;
  /** The records this request has reached through links (`ServedRecord.follow`). */
  reached: Map<string, ServedRecord>;
  /** Who writes, and through what: the mutations' side of the request. */
  mutations: MutationContext;
  /** The change feed (`changes`); none on a static site. */
  changes?: FeedContext;
};

/** What the `changes` field reads: the feed, and the caller's own sandbox changes. */
export interface FeedContext {
  feed: ChangeFeed;
  own: () => readonly FeedWrite[];
  /** Applies what other instances appended, before a cursor ahead of this instance is judged. */
  sync?: () => Promise<void>;
}

/** `type!`: a field or argument that is never null. */
export const nonNull = <T extends GraphQLNullableType>(type: T): GraphQLNonNull<T> => new GraphQLNonNull(type);

/** What a request's mutations need: the writer (none when the server takes no writes) and the caller. */
export interface MutationContext {
  writer?: CatalogWriter;
  caller?: WriteCall['caller'];
  /** Why there is no writer, when it is not `CATALOG_WRITES=off` (a static site). */
  noWrites?: string;
}

/** The record at `position` of `store` as this request serves it, in `language` (of the request's catalog). */
export function servedRecord(
  context: GraphQLContext,
  store: FamilyStore,
  position: number,
  language: string,
): ServedRecord {
  return new ServedRecord(context.catalog, store, position, language, context.origin, context.reached);
}
