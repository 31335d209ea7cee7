import { JETBRAINS_API } from './adapters.ts';
import { CURATOR_WRITE, SIGN_IN, type CollectionPlan, type PlannedRequest } from './plan.ts';
import { preRequestScript, testScript } from './scripts.ts';

/** A script block of the JetBrains HTTP Client syntax, which httpyac runs too. */
const block = (marker: '<' | '>', script: string) =>
  `${marker} {%\n${`${JETBRAINS_API}\n${script}`
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')}\n%}`;

/**
 * httpyac keeps each named answer as a variable and reads `{{…}}` inside a text one (a script
 * bundle) as an expression at every later request: a text answer is forgotten once tested.
 */
const FORGET_TEXT = (name: string) => `if (typeof response.body === 'string') client.global.clear('${name}');`;

function request(request: PlannedRequest): string {
  const before = preRequestScript(request);
  // The account requests send credentials, never the token (a placeholder one would be refused).
  const signedIn = !request.body?.includes('{{password}}');
  return [
    `### ${request.folder}: ${request.summary}`,
    `# @name ${request.name}`,
    // A 302 is what the request shows, not the page it leads to (httpyac; JetBrains: @no-redirect too).
    '# @no-redirect',
    // httpyac runs the sign-in and the curator's write alone with --tag maintainer.
    ...([CURATOR_WRITE, SIGN_IN].includes(request.folder) ? ['# @tag maintainer'] : []),
    ...(before ? [block('<', before)] : []),
    `${request.method} {{baseUrl}}${request.path}`,
    ...(request.body !== undefined ? ['Content-Type: application/json'] : []),
    // Once signed in every request carries the token: it raises the rate limit past a whole run.
    ...(request.bearer || signedIn ? ['Authorization: Bearer {{token}}'] : []),
    ...(request.body !== undefined ? ['', request.body] : []),
    '',
    block('>', `${testScript(request)}\n${FORGET_TEXT(request.name)}`),
    '',
  ].join('\n');
}

/**
 * The collection as one `.http` file for httpyac, the JetBrains HTTP Client and VS Code's REST
 * Client: variables `@baseUrl` and `@token` at the top, the sign-in storing the token with a
 * response handler (`client.global.set`), every operation with its test (`client.test`).
 *
 * @example
 * httpFile(planCollection(doc)); // '# …\n@baseUrl = http://localhost:3000\n…'
 */
export function httpFile(plan: CollectionPlan): string {
  // httpyac takes no empty value: until the sign-in sets the token, requests carry a placeholder (401).
  const variables = Object.entries({ ...plan.variables, token: 'sign-in-first' })
    .filter(([name]) => ['baseUrl', 'token', 'createdUuid'].includes(name))
    .map(([name, value]) => `@${name} = ${value}`);
  return [
    `# ${plan.title}`,
    ...plan.description.split('\n').map((line) => `# ${line}`),
    '# Run it all: npx httpyac send catalog.http --all',
    '',
    ...variables,
    '',
    ...plan.requests.map(request),
  ].join('\n');
}
