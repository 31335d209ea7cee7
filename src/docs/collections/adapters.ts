// How each format's script API spells the six functions the shared scripts use (scripts.ts).

/** Postman (newman) test and pre-request scripts. */
export const POSTMAN_API = [
  'const status = () => pm.response.code;',
  'const body = () => { try { return pm.response.json(); } catch { return undefined; } };',
  'const check = (name, run) => pm.test(name, run);',
  'const assert = (ok, message) => pm.expect(ok, message).to.equal(true);',
  'const getVar = (name) => pm.variables.get(name);',
  'const setVar = (name, value) => pm.collectionVariables.set(name, value);',
].join('\n');

/** Bruno (bru run and the app) scripts and tests. */
export const BRUNO_API = [
  'const status = () => res.getStatus();',
  'const body = () => res.getBody();',
  'const check = (name, run) => test(name, run);',
  'const assert = (ok, message) => expect(ok, message).to.equal(true);',
  'const getVar = (name) => bru.getVar(name) ?? bru.getEnvVar(name) ?? bru.getCollectionVar(name);',
  'const setVar = (name, value) => bru.setVar(name, value);',
].join('\n');

/** JetBrains HTTP Client and httpyac response handlers (`> {% … %}`) and pre-request scripts (`< {% … %}`). */
export const JETBRAINS_API = [
  'const status = () => response.status;',
  'const body = () => response.body;',
  'const check = (name, run) => client.test(name, run);',
  'const assert = (ok, message) => client.assert(ok, message);',
  'const getVar = (name) => client.global.get(name) ?? request.variables.get(name);',
  'const setVar = (name, value) => client.global.set(name, value);',
].join('\n');

/**
 * Run before every Postman request: once signed in, the token goes on every request (it raises
 * the rate limit: a whole run is past an address's budget), and none before.
 */
export const POSTMAN_TOKEN_EVERYWHERE = [
  "const token = pm.variables.get('token');",
  "if (token && !pm.request.headers.has('Authorization'))",
  "  pm.request.headers.upsert({ key: 'Authorization', value: 'Bearer ' + token });",
].join('\n');

/** The same for Bruno, as the collection's pre-request script. */
export const BRUNO_TOKEN_EVERYWHERE = [
  "const token = bru.getVar('token') ?? bru.getEnvVar('token') ?? bru.getCollectionVar('token');",
  "if (token && !req.getHeader('Authorization')) req.setHeader('Authorization', 'Bearer ' + token);",
].join('\n');
