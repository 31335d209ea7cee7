/**
 * Where the service keeps what it writes (the accounts, and the catalog writes beside them):
 * one file for one instance, or a Redis every instance shares.
 */
export type StoreOptions = { kind: 'file'; file: string } | { kind: 'redis'; url: string; timeoutMs: number };
