import { STATUS_CODES } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { errorJson } from '../src/lib/error-json.ts';
import { statusText } from '../src/lib/status-text.ts';

// The error body is written on the server and in a static site's worker, where Node's table of reason phrases does not exist.

test("the reason phrases are Node's, for every status from 100 to 599", () => {
  for (let status = 100; status < 600; status++) assert.is(statusText(status), STATUS_CODES[status], String(status));
  assert.is(statusText(Number('toString')), undefined);
});

test('the error body names its status in those words, and an unnamed status as Error', () => {
  const fields = { method: 'GET', message: 'm', url: '/u' };
  assert.is(JSON.parse(errorJson({ status: 405, ...fields })).status, 'Method Not Allowed');
  assert.is(JSON.parse(errorJson({ status: 499, ...fields })).status, 'Error');
});

test.run();
