// The teacher's board (classroom mode): an ADMIN signs in, the page reads the class once
// (GET /api/v1/sandboxes), then follows it live on the change feed's stream with
// include=sandboxes, read with fetch so that the token goes in a header (EventSource sends none).
'use strict';

const MINUTES = 30;
const students = new Map();
let perMinute = [];
let token = sessionStorage.getItem('board-token');

const $ = (id) => document.getElementById(id);
const minuteOf = (time) => Math.floor(Date.parse(time) / 60_000);
const shown = (time) => (time ? new Date(time).toLocaleTimeString() : '—');

function drawChart() {
  const now = Math.floor(Date.now() / 60_000);
  const counts = new Array(MINUTES).fill(0);
  for (const { minute, writes } of perMinute) {
    const back = now - minuteOf(minute);
    if (back >= 0 && back < MINUTES) counts[MINUTES - 1 - back] += writes;
  }
  const most = Math.max(1, ...counts);
  const width = 300 / MINUTES;
  $('chart').innerHTML = counts
    .map((n, i) => {
      const height = (n / most) * 76;
      return (
        `<rect x="${i * width + 1}" y="${78 - height}" width="${width - 2}" height="${height}"><title>${n}</title>` +
        `</rect>`
      );
    })
    .join('');
}

function drawStudents(fresh) {
  const rows = [...students.values()].sort((a, b) => a.username.localeCompare(b.username));
  const body = $('students');
  body.replaceChildren(
    ...rows.map((student) => {
      const row = document.createElement('tr');
      row.dataset.username = student.username;
      if (student.username === fresh) row.className = 'fresh';
      for (const text of [
        student.username,
        String(student.writes),
        shown(student.last_write),
        shown(student.last_reset),
      ]) {
        const cell = document.createElement('td');
        cell.textContent = text;
        row.append(cell);
      }
      return row;
    }),
  );
}

/** A student's sandbox changed: its row, and its new writes in the chart's current minute. */
function update(student) {
  const before = students.get(student.username);
  const added = student.writes - (before && before.last_reset === student.last_reset ? before.writes : 0);
  if (added > 0) perMinute.push({ minute: new Date().toISOString(), writes: added });
  students.set(student.username, student);
  drawStudents(student.username);
  drawChart();
}

async function api(path, init = {}) {
  const response = await fetch(path, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } });
  if (response.status === 401 || response.status === 403)
    throw Object.assign(new Error((await response.json()).message), { refused: true });
  return response;
}

async function load() {
  const { students: list, per_minute } = await (await api('/api/v1/sandboxes')).json();
  students.clear();
  for (const student of list) students.set(student.username, student);
  perMinute = per_minute.filter(({ writes }) => writes > 0);
  drawStudents();
  drawChart();
}

/** Follows the stream until it ends, updating the board at each `sandbox` event. */
async function follow() {
  const response = await api('/api/v1/changes?since=now&include=sandboxes', {
    headers: { Accept: 'text/event-stream' },
  });
  if (!response.ok) throw new Error((await response.json()).message);
  $('status').textContent = `Live: ${students.size} student(s)`;
  document.body.dataset.live = 'true';
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    pending += value;
    let end;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const block = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const type = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (type === 'sandbox' && data) update(JSON.parse(data));
      if (type === 'error' && data) $('status').textContent = JSON.parse(data).message;
    }
    $('status').textContent = `Live: ${students.size} student(s)`;
  }
}

/** Reads the class and follows it, reading it again after each dropped stream (a second later, then longer). */
async function run() {
  $('sign-in').hidden = true;
  $('board').hidden = false;
  for (let wait = 1000; ; wait = Math.min(wait * 2, 30_000)) {
    try {
      await load();
      await follow();
      wait = 1000;
    } catch (error) {
      document.body.dataset.live = 'false';
      if (error.refused) return signOut(error.message);
      $('status').textContent = `Reconnecting: ${error.message}`;
    }
    document.body.dataset.live = 'false';
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function signOut(message) {
  sessionStorage.removeItem('board-token');
  token = null;
  $('board').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-error').textContent = message;
}

$('sign-in').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const response = await fetch('/api/v1/auth/authenticate', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: form.get('username'), password: form.get('password') }),
  });
  const body = await response.json();
  if (!response.ok) return void ($('sign-in-error').textContent = body.message);
  token = body.token;
  sessionStorage.setItem('board-token', token);
  void run();
});

setInterval(drawChart, 30_000);
if (token) void run();
