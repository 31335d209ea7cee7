import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword, scryptParams, verifyPassword } from '../src/accounts/passwords.ts';

const LOW = scryptParams(1024);

test('a hash records its parameters and verifies only its own password', async () => {
  const stored = await hashPassword('correct horse battery', LOW);
  assert.match(stored, /^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  assert.ok(await verifyPassword('correct horse battery', stored));
  assert.not.ok(await verifyPassword('correct horse battery!', stored));
  assert.not.ok(await verifyPassword('', stored));
});

test('every hash has its own salt', async () => {
  const [a, b] = await Promise.all([hashPassword('same password', LOW), hashPassword('same password', LOW)]);
  assert.is.not(a.split('$')[3], b.split('$')[3]);
  assert.is.not(a, b);
});

test('hashes made with other parameters still verify (RFC 7914 test vector, N=1024 r=8 p=16)', async () => {
  const key =
    'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640';
  const stored = `$scrypt$ln=10,r=8,p=16$${Buffer.from('NaCl').toString('base64').replace(/=+$/, '')}$${Buffer.from(key, 'hex').toString('base64').replace(/=+$/, '')}`;
  assert.ok(await verifyPassword('password', stored));
  assert.not.ok(await verifyPassword('Password', stored));
  const older = await hashPassword('kept from before', scryptParams(2048));
  assert.ok(await verifyPassword('kept from before', older));
});

test('the default cost N=2^17 runs: maxmem is raised above the 32 MiB default', async () => {
  const stored = await hashPassword('at full cost', scryptParams(2 ** 17));
  assert.match(stored, /^\$scrypt\$ln=17,r=8,p=1\$/);
  assert.ok(await verifyPassword('at full cost', stored));
});

test('composed and decomposed accents are the same password', async () => {
  const stored = await hashPassword('caf\u00e9 au lait', LOW);
  assert.ok(await verifyPassword('cafe\u0301 au lait', stored));
});

test('a malformed or truncated hash is refused, never treated as a match', async () => {
  const stored = await hashPassword('whatever it is', LOW);
  const [, , params, salt] = stored.split('$');
  for (const broken of [
    `$scrypt$${params}$${salt}$A`,
    `$scrypt$ln=40,r=8,p=1$${salt}$${stored.split('$')[4]}`,
    'plain text',
    '',
  ]) {
    await verifyPassword('whatever it is', broken).then(
      () => assert.unreachable(`accepted ${broken}`),
      (error: Error) => assert.match(error.message, /not a valid \$scrypt\$ string/),
    );
  }
});

test.run();
