import type { PlannedRequest } from './plan.ts';

// The scripts every collection runs, written once against six small functions (status, body,
// check, assert, getVar, setVar) that each format defines with its own API (formats.ts).

/** The roles whose accounts may change the catalog (src/lib/roles.ts). */
const CURATORS = "['MAINTAINER', 'ADMIN']";

/** The status the request must answer, as a JavaScript expression evaluated after it ran. */
function expectedStatus(request: PlannedRequest): string {
  const { expect } = request;
  if ('register' in expect)
    // An account named by the user (`username`) may exist already: then the sign-in goes on with it.
    return "(getVar('usernameGiven') === 'yes' && status() === 409 ? 409 : 201)";
  if ('curator' in expect) return `(${CURATORS}.includes(getVar('role')) ? ${expect.curator} : ${expect.other})`;
  return String(expect.status);
}

/** The checks of the one error shape (src/lib/error-json.ts). */
const ERROR_SHAPE = (method: string) =>
  [
    "check('the error shape {code, status, method, message, url, timestamps}', () => {",
    '  const error = body();',
    "  assert(typeof error === 'object' && error !== null, 'a JSON object');",
    "  assert(error.code === status(), 'code is ' + status() + ', got ' + error.code);",
    "  assert(typeof error.status === 'string' && error.status.length > 0, 'status names the code');",
    `  assert(error.method === '${method}', 'method is ${method}, got ' + error.method);`,
    "  assert(typeof error.message === 'string' && error.message.length > 0, 'a message says what was wrong');",
    "  assert(typeof error.url === 'string' && error.url.startsWith('/'), 'url is the path asked for');",
    "  assert(!Number.isNaN(Date.parse(error.timestamps)), 'timestamps is a date');",
    '});',
  ].join('\n');

/**
 * The test script of a request: its status, the error shape when it is an error, and what it
 * stores for the requests after it (the token and role of a sign-in, the uuid of a new record).
 *
 * @example
 * testScript(request); // "const expected = 200;\ncheck('status is ' + expected, ..."
 */
export function testScript(request: PlannedRequest): string {
  const lines = [
    `const expected = ${expectedStatus(request)};`,
    "check('status is ' + expected, () =>",
    "  assert(status() === expected, 'expected ' + expected + ', got ' + status()));",
    `if (expected >= 400) {\n${ERROR_SHAPE(request.method)}\n}`,
  ];
  for (const [variable, field] of Object.entries(request.stores ?? {}))
    lines.push(
      `if (status() < 300 && body() && body().${field} !== undefined) setVar('${variable}', body().${field});`,
    );
  return lines.join('\n');
}

/** The password of the accounts a run signs up, unless `password` is given. */
export const DEFAULT_PASSWORD = 'a long passphrase';

/**
 * The script run before a request: one that sends the credentials gives `password` its default
 * when none was given; the sign-up names its account (`username` when given, else a fresh name).
 */
export function preRequestScript(request: PlannedRequest): string | undefined {
  const lines = request.body?.includes('{{password}}')
    ? [`if (!getVar('password')) setVar('password', '${DEFAULT_PASSWORD}');`]
    : [];
  if ('register' in request.expect)
    lines.push(
      "const given = getVar('username');",
      "setVar('usernameGiven', given ? 'yes' : 'no');",
      "if (!given) setVar('username', 'reader_' + Date.now().toString(36) + Math.random().toString(36).slice(2, 6));",
    );
  return lines.length > 0 ? lines.join('\n') : undefined;
}
