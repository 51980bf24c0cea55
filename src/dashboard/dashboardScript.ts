/**
 * The dashboard page's script, sent as it is (no build step): it reads the events stream with
 * `fetch` (an `EventSource` cannot send the bearer key), resumes it with `Last-Event-ID` after a
 * drop or a `resync` (a partial message at a cut is never read), keeps the feed, asks for the figures on screen when something changed, and drives the
 * clock through the `_sim` control routes.
 */

/**
 * The script (ES2020, for any current browser). Written without template literals so it can sit
 * in this one.
 */
export const DASHBOARD_SCRIPT = String.raw`
'use strict';
const API = '/api/v2';
const FEED_KEPT = 500;
const LANE_PX = 34;
const $ = (id) => document.getElementById(id);
const state = {
  key: undefined, lastId: undefined, feed: [], project: '', first: 0, count: 12, total: 0,
  start: undefined, now: undefined, mode: '', viewBusy: false, viewAgain: false, streaming: false,
};

function takeKey() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('key');
  if (fromHash) {
    sessionStorage.setItem('computesim-key', fromHash);
    // The key stays out of the address bar and the history.
    history.replaceState(null, '', location.pathname + location.search);
  }
  return fromHash || sessionStorage.getItem('computesim-key') || undefined;
}

function askForKey(message) {
  $('app').hidden = true;
  $('key-form').hidden = false;
  $('key-problem').textContent = message || '';
}

async function api(method, path, body) {
  const response = await fetch(API + path, {
    method,
    headers: Object.assign(
      { authorization: 'Bearer ' + state.key },
      body === undefined ? {} : { 'content-type': 'application/json' },
    ),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401 || response.status === 403) {
    const problem = await response.json().catch(() => ({}));
    askForKey(problem.message || 'this key is not accepted');
    throw new Error('unauthorized');
  }
  return response;
}

function say(text, problem) {
  $('status').textContent = text;
  $('status').className = problem ? 'problem' : 'muted';
}

async function control(path, body) {
  try {
    const response = await api('POST', '/_sim' + path, body);
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) return say(answer.message || ('HTTP ' + response.status), true);
    if (answer.now_ms !== undefined) showClock(answer.now_ms, answer.mode);
    say('');
    requestView();
  } catch (error) {
    if (error.message !== 'unauthorized') say(String(error.message || error), true);
  }
}

function pad(n, width) { return String(n).padStart(width || 2, '0'); }

function sinceStart(ms) {
  const days = Math.floor(ms / 86400000);
  const rest = ms - days * 86400000;
  return '+' + (days > 0 ? days + 'd ' : '') + pad(Math.floor(rest / 3600000)) + ':' +
    pad(Math.floor(rest / 60000) % 60) + ':' + pad(Math.floor(rest / 1000) % 60);
}

function showClock(now, mode) {
  state.now = now;
  if (mode) state.mode = mode;
  $('clock').textContent = new Date(now).toISOString().replace('T', ' ').replace('.000Z', 'Z');
  $('clock').dataset.now = String(now);
  $('since').textContent = state.start === undefined ? '' : sinceStart(now - state.start);
  $('mode').textContent = state.mode;
  if (state.mode && $('speed').value !== state.mode) {
    if (![...$('speed').options].some((o) => o.value === state.mode))
      $('speed').add(new Option(state.mode, state.mode));
    $('speed').value = state.mode;
  }
}

function itemElement(item) {
  const li = document.createElement('li');
  li.className = item.kind + (item.kind === 'request' && Number(item.type) >= 400 ? ' failed' : '');
  const time = document.createElement('time');
  time.textContent = state.start === undefined
    ? new Date(item.at).toISOString().slice(11, 19) : sinceStart(item.at - state.start);
  li.append(time, item.text);
  return li;
}

function shown(item) {
  return state.project === '' || item.projectId === state.project || item.kind === 'note';
}

function renderFeed() {
  const list = $('feed');
  list.replaceChildren(...state.feed.filter(shown).slice(0, 200).map(itemElement));
}

function addToFeed(item) {
  state.feed.unshift(item);
  if (state.feed.length > FEED_KEPT) state.feed.length = FEED_KEPT;
  if (shown(item)) {
    $('feed').prepend(itemElement(item));
    while ($('feed').childElementCount > 200) $('feed').lastElementChild.remove();
  }
}

function onMessage(event, data) {
  if (event === 'feed') {
    for (const item of data) addToFeed(item);
  } else if (event === 'clock') {
    showClock(data.now, data.mode);
    $('events').textContent = data.events + ' events';
    requestView();
  } else if (event === 'reset') {
    state.feed = [];
    state.start = undefined;
    renderFeed();
  } else if (event === 'skipped') {
    addToFeed({ kind: 'note', at: data.at, text: '… ' + data.events + ' earlier events and ' +
      data.requests + ' requests not sent (the report has them all)' });
  }
}

/** Reads the stream until it ends; resolves false when it could not connect. */
async function readStream() {
  const headers = { authorization: 'Bearer ' + state.key, accept: 'text/event-stream' };
  if (state.lastId) headers['last-event-id'] = state.lastId;
  const response = await fetch(API + '/_sim/events', { headers });
  if (response.status === 401 || response.status === 403) {
    const problem = await response.json().catch(() => ({}));
    askForKey(problem.message || 'this key is not accepted');
    return false;
  }
  if (!response.ok || !response.body) return false;
  link('up');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    buffer += decoder.decode(next.value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id, event = 'message', data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      // Fell behind: the server sends no more; resume from the last id (it has no id of its own).
      if (event === 'resync') {
        await reader.cancel().catch(() => undefined);
        return true;
      }
      if (data !== '') onMessage(event, JSON.parse(data));
      if (id !== undefined) state.lastId = id;
    }
  }
  return true;
}

function link(how) {
  $('link').className = 'link ' + how;
  $('link').title = how === 'up' ? 'live' : 'reconnecting…';
}

async function stream() {
  if (state.streaming) return;
  state.streaming = true;
  for (;;) {
    let ok = false;
    try { ok = await readStream(); } catch (error) { ok = false; }
    if (!$('key-form').hidden) break;
    link('down');
    await new Promise((resolve) => setTimeout(resolve, ok ? 200 : 1000));
  }
  state.streaming = false;
}

function requestView() {
  if (state.viewBusy) { state.viewAgain = true; return; }
  state.viewBusy = true;
  const began = performance.now();
  loadView().catch((error) => {
    if (error.message !== 'unauthorized') say('cannot load the figures: ' + error.message, true);
  }).finally(() => {
    // A long run costs the server more per redraw: redraw less often, so it keeps serving.
    const took = performance.now() - began;
    setTimeout(() => {
      state.viewBusy = false;
      if (state.viewAgain) { state.viewAgain = false; requestView(); }
    }, Math.max(250, 4 * took));
  });
}

async function loadView() {
  const query = new URLSearchParams({ first: String(state.first), count: String(state.count) });
  if (state.project !== '') query.set('project', state.project);
  const response = await api('GET', '/_sim/view?' + query);
  if (!response.ok) throw new Error('HTTP ' + response.status);
  const view = await response.json();
  const firstTime = state.start === undefined;
  state.start = view.start;
  state.total = view.lanes.total;
  state.first = view.lanes.first;
  if (firstTime) renderFeed();
  showClock(view.now);
  $('events').textContent = view.events + ' events';
  $('lanes').innerHTML = view.lanes.figure;
  $('cu').innerHTML = view.cu;
  $('activity').innerHTML = view.activity;
  $('operations').innerHTML = view.operations;
  $('metrics').innerHTML = view.metrics;
  $('lane-range').textContent = view.lanes.total === 0 ? 'no computes yet'
    : 'computes ' + (view.lanes.first + 1) + '-' + (view.lanes.first + view.lanes.count) +
      ' of ' + view.lanes.total;
  $('lanes-up').disabled = view.lanes.first === 0;
  $('lanes-down').disabled = view.lanes.first + view.lanes.count >= view.lanes.total;
  const select = $('project');
  const known = new Set([...select.options].map((o) => o.value));
  for (const p of view.projects)
    if (!known.has(p.id)) select.add(new Option(p.name + ' (' + p.id + ')', p.id));
}

function moveLanes(by) {
  const first = Math.max(0, Math.min(state.first + by, state.total - state.count));
  if (first === state.first) return;
  state.first = first;
  requestView();
}

async function download() {
  try {
    const response = await api('GET', '/_sim/report');
    if (!response.ok) return say('cannot download the report: HTTP ' + response.status, true);
    const url = URL.createObjectURL(await response.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = 'computesim-report.html';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (error) {
    if (error.message !== 'unauthorized') say(String(error.message || error), true);
  }
}

function start() {
  $('key-form').hidden = true;
  $('app').hidden = false;
  state.count = Math.max(4, Math.min(40, Math.floor((innerHeight * 0.5) / LANE_PX)));
  requestView();
  stream();
}

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  state.key = $('key-input').value.trim();
  sessionStorage.setItem('computesim-key', state.key);
  start();
});
$('pause').addEventListener('click', () => control('/clock', { mode: 'manual' }));
$('step').addEventListener('click', () => control('/step'));
$('advance').addEventListener('click', () => control('/advance', { by: $('by').value.trim() }));
$('advance-5m').addEventListener('click', () => control('/advance', { by: '5m' }));
$('idle').addEventListener('click', () => control('/run_until_idle'));
$('speed').addEventListener('change', () => control('/clock', { mode: $('speed').value }));
$('download').addEventListener('click', download);
$('project').addEventListener('change', () => {
  state.project = $('project').value;
  state.first = 0;
  renderFeed();
  requestView();
});
$('lanes-up').addEventListener('click', () => moveLanes(-state.count));
$('lanes-down').addEventListener('click', () => moveLanes(state.count));
$('lanes').addEventListener('wheel', (event) => {
  if (state.total <= state.count) return;
  event.preventDefault();
  moveLanes(event.deltaY > 0 ? 1 : -1);
}, { passive: false });

state.key = takeKey();
if (state.key === undefined) askForKey(''); else start();
`;
