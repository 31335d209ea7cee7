// npm run accounts -- create|list|delete|role|export|import: manages the accounts of the configured
// store (ACCOUNTS_STORE: the file, also while the server runs, or the shared Redis).
import { parseArgs } from 'node:util';
import { read } from 'read';
import { accountTable, changeRole, deleteByUsername, exportAccounts, importAccounts } from '../src/accounts/admin.ts';
import { openStore, passwordHasher } from '../src/accounts/open.ts';
import { createAccount, readRegisterBody } from '../src/accounts/service.ts';
import { accountOptions } from '../src/parts.ts';
import { readConfig } from '../src/config/env.ts';
import { createLogger } from '../src/config/logger.ts';

const USAGE = `usage:
  npm run accounts -- create --username NAME --email EMAIL [--role BASIC|DEV|MAINTAINER|ADMIN] [--first-name F] [--last-name L]
  npm run accounts -- list
  npm run accounts -- delete --username NAME
  npm run accounts -- role --username NAME --role BASIC|DEV|MAINTAINER|ADMIN
  npm run accounts -- export > accounts.json     every account, password hashes included, as JSON
  npm run accounts -- import < accounts.json     into the configured store; usernames or emails already there are refused
create reads the password from ACCOUNT_PASSWORD, or prompts for it without echo.`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The password from ACCOUNT_PASSWORD, or typed twice at a prompt that does not echo. */
async function password(fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) fail('no terminal to prompt for the password: set ACCOUNT_PASSWORD');
  const first = await read({ prompt: 'Password: ', silent: true, replace: '' });
  const again = await read({ prompt: 'Password again: ', silent: true, replace: '' });
  if (first !== again) fail('the two passwords differ');
  return first;
}

async function stdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      username: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const { positionals, values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const command = positionals[0];

const settings = readConfig();
if ('error' in settings) fail(settings.error);
const { config } = settings;
const log = createLogger({ level: 'warn', format: 'text' });
const { store: where } = accountOptions(config);
const named = where.kind === 'file' ? where.file : 'the shared Redis';
const store = await openStore(where, log).catch((error: Error) => fail(`cannot open the accounts: ${error.message}`));

try {
  if (command === 'create' && positionals.length === 1 && values.username && values.email) {
    const { username, email, role } = values;
    const fields = {
      username,
      email,
      role,
      first_name: values['first-name'] ?? username,
      last_name: values['last-name'] ?? username,
    };
    try {
      const body = readRegisterBody({ ...fields, password: await password(config.ACCOUNT_PASSWORD) });
      const account = await createAccount(
        store,
        body,
        passwordHasher({ scryptN: config.SCRYPT_N, hashes: { concurrent: 1, queued: 0 } }),
      );
      console.log(`created ${account.role} account '${account.username}' (${account.uuid}) in ${named}`);
    } catch (error) {
      fail(`cannot create the account: ${(error as Error).message}`);
    }
  } else if (command === 'list' && positionals.length === 1) {
    console.log(accountTable(await store.list()));
  } else if (command === 'delete' && positionals.length === 1 && values.username) {
    const deleted = await deleteByUsername(store, values.username);
    if (!deleted) fail(`no account named '${values.username}' in ${named}`);
    console.log(`deleted account '${deleted.username}' (${deleted.uuid}); its tokens stop working now`);
  } else if (command === 'role' && positionals.length === 1 && values.username && values.role) {
    const changed = await changeRole(store, values.username, values.role).catch((error: Error) => fail(error.message));
    if (!changed) fail(`no account named '${values.username}' in ${named}`);
    console.log(`account '${changed.username}' is now ${changed.role}; running servers see it within a second`);
  } else if (command === 'export' && positionals.length === 1) {
    console.log(await exportAccounts(store));
  } else if (command === 'import' && positionals.length === 1) {
    const { imported, refused } = await importAccounts(store, await stdin()).catch((error: Error) =>
      fail(`cannot import: ${error.message}`),
    );
    for (const line of refused) console.error(`refused: ${line}`);
    console.log(
      `imported ${imported} account${imported === 1 ? '' : 's'} into ${named}${refused.length ? `; refused ${refused.length}` : ''}`,
    );
    if (refused.length) process.exitCode = 1;
  } else {
    fail(USAGE);
  }
} finally {
  store.close();
}
