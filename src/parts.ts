import { dirname, join } from 'node:path';
import type { AccountOptions } from './accounts/open.ts';
import { openOverlay, openSandboxStore } from './catalog-writes/open.ts';
import type { SandboxStore } from './catalog-writes/store.ts';
import type { AccountService } from './accounts/service.ts';
import type { Config } from './config/env.ts';
import type { Logger } from './config/logger.ts';
import type { GraphQLLimits } from './graphql/limits.ts';
import type { ChangeFeed } from './changes/feed.ts';
import type { StreamOptions, ChangeStreams } from './http/change-streams.ts';
import { Curator } from './served/curator.ts';
import { Sandboxes } from './served/sandboxes.ts';
import type { ServedCatalog } from './served/served-catalog.ts';
import { RateLimits, type RateLimitOptions } from './limits/rate-limits.ts';
import { TIERS, type Tier } from './limits/tiers.ts';

// The parts a server is built from, each made from the configuration: scripts and tests
// build the same parts the server does.

/** The parts a server is built from: the loaded catalog, the accounts and the limits. */
export interface ServiceParts {
  served: ServedCatalog;
  /** What changed since: the curators' writes and each new data/ (and each sandbox's, to its owner). */
  feed: ChangeFeed;
  /** The feed's live streams; made by `createApp` when not given. */
  streams?: ChangeStreams;
  accounts: AccountService;
  /** Takes the catalog writes; none when `CATALOG_WRITES=off` (the write routes then answer 405). */
  curator?: Curator;
  /** Classroom mode: the sandbox of each account below MAINTAINER (with the curator). */
  sandboxes?: Sandboxes;
  /** None when `RATE_LIMIT=off`. */
  limits?: RateLimits;
  log: Logger;
}

/** 400s and 404s the fast path may remember, in bytes: apart from `RESPONSE_CACHE_MB`, and small. */
const FAST_PATH_ERROR_BYTES = 2 ** 20;

/**
 * The share of `RESPONSE_CACHE_MB` the entries may take by their own measure: while entries
 * come and go under hostile traffic, the heap and the allocator hold up to twice what the
 * entries themselves take (freed space not yet reused, the collector's room to work), so the
 * process grows by the setting, not by more (measured with `npm run bench:soak`).
 */
const MEASURED_SHARE = 0.5;

/**
 * How `RESPONSE_CACHE_MB` is shared: of what the entries may take, seven eighths for the
 * answers themselves, one eighth for the fast path's index of the URLs that reach them.
 *
 * @example
 * memoryBudgets(config).cacheBytes; // 29360128 for RESPONSE_CACHE_MB=64
 */
export function memoryBudgets(config: Config): {
  cacheBytes: number;
  fastPath: { answersBytes: number; errorsBytes: number };
} {
  const total = config.RESPONSE_CACHE_MB * 2 ** 20 * MEASURED_SHARE;
  return {
    cacheBytes: Math.floor((total * 7) / 8),
    fastPath: { answersBytes: Math.floor(total / 8), errorsBytes: FAST_PATH_ERROR_BYTES },
  };
}

/** Whether the configuration logs a line per request. */
export function logsAccess(config: Config): boolean {
  return config.LOG_LEVEL === 'info' || config.LOG_LEVEL === 'debug';
}

/** The accounts' options, from the configuration. */
export function accountOptions(config: Config): AccountOptions {
  return {
    store:
      config.ACCOUNTS_STORE === 'redis'
        ? { kind: 'redis', url: config.REDIS_URL, timeoutMs: config.ACCOUNTS_REDIS_TIMEOUT_MS }
        : { kind: 'file', file: config.ACCOUNTS_FILE },
    ...(config.JWT_SECRET ? { jwtSecret: config.JWT_SECRET } : {}),
    tokenTtlSeconds: config.TOKEN_TTL,
    scryptN: config.SCRYPT_N,
    hashes: { concurrent: config.HASH_CONCURRENCY, queued: config.HASH_QUEUE },
  };
}

/** The rate limits the configuration asks for, or none when `RATE_LIMIT=off`. */
export async function createLimits(config: Config, log: Logger): Promise<RateLimits | undefined> {
  if (!config.RATE_LIMIT) return undefined;
  const options: RateLimitOptions = {
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    // Each tier's budget is its variable: RATE_LIMIT_ANONYMOUS, RATE_LIMIT_BASIC, …
    tiers: Object.fromEntries(
      TIERS.map((tier) => [tier, config[`RATE_LIMIT_${tier.toUpperCase()}` as keyof Config] as number]),
    ) as Record<Tier, number>,
    auth: config.AUTH_RATE_LIMIT,
    pictures: config.PICTURE_RATE_LIMIT,
    loginFailures: { limit: config.LOGIN_FAILURE_LIMIT, windowMinutes: config.LOGIN_FAILURE_WINDOW_MINUTES },
    ...(config.REDIS_URL ? { redis: { url: config.REDIS_URL, timeoutMs: config.RATE_LIMIT_REDIS_TIMEOUT_MS } } : {}),
  };
  return RateLimits.open(options, log);
}

/** Where the catalog writes are kept: beside the accounts (their file's folder, or their Redis). */
export function overlayFile(config: Config): string {
  return config.CATALOG_OVERLAY_FILE ?? join(dirname(config.ACCOUNTS_FILE), 'catalog-overlay.json');
}

/**
 * The curator of the catalog writes, with the overlay applied over the served catalog, or
 * none when `CATALOG_WRITES=off` (or, under `npm run dev`, before the data is good).
 */
export async function openCurator(
  config: Config,
  served: ServedCatalog,
  feed: ChangeFeed,
  log: Logger,
): Promise<Curator | undefined> {
  if (!config.CATALOG_WRITES || !served.ready) return undefined;
  const { store } = accountOptions(config);
  const overlay = await openOverlay(store, overlayFile(config), log).catch((error: Error) => {
    throw new Error(`cannot open the catalog overlay: ${error.message}`);
  });
  const curator = await Curator.open(served, overlay, log, feed);
  log.info(`catalog writes: on, kept in ${store.kind === 'file' ? overlayFile(config) : `the accounts' Redis`}`);
  return curator;
}

/** The file keeping the classroom sandboxes (without `ACCOUNTS_STORE=redis`): beside the accounts file. */
export function sandboxFile(config: Config): string {
  return config.SANDBOX_FILE ?? join(dirname(config.ACCOUNTS_FILE), 'sandboxes.json');
}

/** Where the classroom sandboxes are kept, in words: `sandboxFile`, or the accounts' Redis. */
export function sandboxPlace(config: Config): string {
  return config.ACCOUNTS_STORE === 'redis' ? `the accounts' Redis` : sandboxFile(config);
}

/**
 * The classroom sandboxes' store beside the accounts: `sandboxFile`, or with
 * `ACCOUNTS_STORE=redis` the accounts' Redis, which every instance shares. Rejects with a
 * message naming what cannot be used.
 */
export function openSandboxesStore(config: Config, log: Logger): Promise<SandboxStore> {
  return openSandboxStore(accountOptions(config).store, sandboxFile(config), log).catch((error: Error) => {
    throw new Error(`cannot open the sandboxes: ${error.message}`);
  });
}

/** Classroom mode's sandboxes, or none outside classroom mode or without catalog writes. */
export async function openSandboxes(
  config: Config,
  served: ServedCatalog,
  feed: ChangeFeed,
  log: Logger,
): Promise<Sandboxes | undefined> {
  if (!config.CLASSROOM || !config.CATALOG_WRITES || !served.ready) return undefined;
  const store = await openSandboxesStore(config, log);
  const bounds = {
    writes: config.SANDBOX_WRITES,
    bytes: config.SANDBOX_MB * 2 ** 20,
    idleMs: config.SANDBOX_TTL * 1000,
  };
  log.info(`sandboxes: every account below MAINTAINER writes to its own, kept in ${sandboxPlace(config)}`);
  return Sandboxes.open(served, store, bounds, log, feed);
}

/** How many comment-line periods a change stream may leave changes unread before it is cut off (60 s by default). */
const STALLED_BEATS = 4;

/** The bounds of the change streams, from the configuration. */
export function streamOptions(config: Config): StreamOptions {
  return {
    total: config.CHANGE_STREAMS,
    perAddress: config.CHANGE_STREAMS_PER_ADDRESS,
    perAccount: config.CHANGE_STREAMS_PER_ACCOUNT,
    heartbeatMs: config.CHANGE_HEARTBEAT_SECONDS * 1000,
    stalledMs: config.CHANGE_HEARTBEAT_SECONDS * 1000 * STALLED_BEATS,
  };
}

/** Memory for parsed GraphQL query texts: a few thousand typical queries. */
export const GRAPHQL_DOCUMENT_BYTES = 4 * 2 ** 20;

/** The GraphQL limits, from the configuration. */
export function graphqlLimits(config: Config): GraphQLLimits {
  return {
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxFields: config.GRAPHQL_MAX_FIELDS,
    maxCost: config.GRAPHQL_MAX_COST,
    maxDocumentBytes: config.GRAPHQL_MAX_DOCUMENT_BYTES,
    maxTokens: config.GRAPHQL_MAX_TOKENS,
  };
}
