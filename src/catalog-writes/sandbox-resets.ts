import { HttpError } from '../lib/http-error.ts';
import { isMark, resetMarks, type OverlayWrite, type SandboxStore } from './store.ts';

/** How many times reset marks are appended again when other processes keep appending meanwhile. */
const TRIES = 5;

/**
 * Appends a mark that the sandbox of each of `owners` was emptied, for `reason`, after write
 * `after` (or after what other processes appended meanwhile): each student's change feed shows
 * it. Resolves with the marks as kept (numbered); a 503 when other processes kept appending.
 *
 * @example
 * const marks = await markResets(store, [{ uuid, username: 'ana' }], 'reset', seq);
 */
export async function markResets(
  store: SandboxStore,
  owners: readonly { uuid: string; username: string }[],
  reason: 'reset' | 'expired',
  after: number,
  at = new Date().toISOString(),
): Promise<OverlayWrite[]> {
  const marks = resetMarks(owners, reason, at);
  for (let tries = 1, end = after; ; tries++, end = await store.end()) {
    const appended = await store.appendAll(marks, end);
    if (!('behind' in appended)) return marks.map((mark, i) => ({ ...mark, seq: appended.seq - marks.length + 1 + i }));
    if (tries === TRIES)
      throw new HttpError(
        503,
        'The sandboxes kept being changed by other instances meanwhile: the reset was made, its mark was not kept',
        {
          'Retry-After': '1',
        },
      );
  }
}

/**
 * Empties every sandbox of `store` (what `npm run classroom -- reset` does, the server running
 * or not), marking each one emptied; earlier marks go too. Resolves with how many writes were dropped.
 *
 * @example
 * await resetEverySandbox(store); // 12
 */
export async function resetEverySandbox(store: SandboxStore): Promise<number> {
  // By number: a store may read its writes again before it drops them (Redis, when one was appended meanwhile).
  const dropped = new Map<number, OverlayWrite>();
  await store.drop((write) => dropped.set(write.seq, write).has(write.seq));
  const writes = [...dropped.values()].filter((write) => !isMark(write));
  const owners = [...new Map(writes.map((write) => [write.account.uuid, write.account])).values()];
  if (owners.length) await markResets(store, owners, 'reset', await store.end());
  return writes.length;
}
