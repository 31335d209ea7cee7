import { integer, flag, optionalPath } from './parsers.ts';

/**
 * The variables of the catalog writes and, in classroom mode, of the sandboxes (see docs/curation.md and
 * docs/classroom.md).
 */
export const WRITE_VARIABLES = {
  CATALOG_WRITES: {
    default: 'on',
    description:
      '`on`: MAINTAINER and ADMIN accounts may create, change and delete catalog records (POST, PATCH, DELETE); ' +
      '`off`: those routes answer 405',
    parse: flag,
  },
  CATALOG_OVERLAY_FILE: {
    default: '',
    description:
      'File keeping the catalog writes, one JSON line a write (the overlay over `DATA_DIR`, mode 0600); unset: ' +
      '`catalog-overlay.json` beside `ACCOUNTS_FILE`',
    parse: optionalPath,
  },
  SANDBOX_WRITES: {
    default: '200',
    description:
      "Classroom mode: writes one account's sandbox may hold; the next is refused with 409 until it is reset " +
      '(`DELETE /api/v1/sandbox`)',
    parse: integer(1, 100_000),
  },
  SANDBOX_MB: {
    default: '64',
    description:
      'Classroom mode: memory for all sandboxes together, estimated per write; a write past it is refused with ' +
      '409 (idle sandboxes past `SANDBOX_TTL` are dropped first)',
    parse: integer(1, 65536),
  },
  SANDBOX_TTL: {
    default: '86400',
    description: 'Classroom mode: seconds a sandbox may stay unused (no read or write) before it is dropped',
    parse: integer(1, 31536000),
  },
  SANDBOX_FILE: {
    default: '',
    description:
      'Classroom mode: file keeping the sandboxes, one JSON line a write (mode 0600); unset: `sandboxes.json` ' +
      'beside `ACCOUNTS_FILE`. Not used with `ACCOUNTS_STORE=redis`: the sandboxes then live in that Redis, ' +
      'shared by every instance',
    parse: optionalPath,
  },
};
