import { HttpError } from '../lib/http-error.ts';

/** The bounds of the sandboxes (`SANDBOX_WRITES`, `SANDBOX_MB`, `SANDBOX_TTL`). */
export interface SandboxBounds {
  writes: number;
  bytes: number;
  idleMs: number;
}

const RESET = 'reset it with DELETE /api/v1/sandbox (or ask the teacher: npm run classroom -- reset)';

/** The 409 of a write to a sandbox that holds `held` writes already, `SANDBOX_WRITES` or more. */
export function refuseOverWrites(bounds: SandboxBounds, username: string, held: number): void {
  if (held >= bounds.writes)
    throw new HttpError(
      409,
      `The sandbox of '${username}' holds ${held} writes, the most SANDBOX_WRITES allows: nothing was changed; ` +
        `${RESET}`,
    );
}

/** The 409 of a write that would take the sandboxes to `bytes`, past `SANDBOX_MB`. */
export function refuseOverMemory(bounds: SandboxBounds, bytes: number): void {
  if (bytes > bounds.bytes)
    throw new HttpError(
      409,
      `The sandboxes take all the memory SANDBOX_MB gives them (${bounds.bytes / 2 ** 20} MB): nothing was ` +
        `changed; ${RESET}`,
    );
}
