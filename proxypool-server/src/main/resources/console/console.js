// ProxyPool operations console. Plain JS, no build step, no library: every value from the API is put
// into the page with textContent (never innerHTML), the admin token lives in sessionStorage only and
// travels only in the Authorization header of admin API calls (never in a URL).
'use strict';

const API = '/v1/admin';
const TOKEN_KEY = 'proxypool.adminToken';
const PAGES = ['overview', 'requests', 'upstreams', 'proxies', 'routings', 'audit', 'operators'];
const REFRESH_MS = { overview: 2000, requests: 3000, upstreams: 5000, proxies: 10000 };
/** The X-ProxyPool-Error reasons (GatewayErrors): the Requests page's reason filter. */
const REASONS = ['no_candidate', 'no_route', 'rate_limited', 'destination_denied', 'upstream_failed', 'session_lost', 'session_conflict',
  'auth_required', 'bad_request', 'origin_form_not_allowed', 'unsupported_method', 'unsupported_scheme',
  'bad_connect_target', 'request_line_too_long', 'headers_too_large', 'bad_framing', 'request_timeout',
  'upstream_protocol_error', 'upstream_timeout', 'shutting_down'];

let timer = null;
let renderSeq = 0;
/** Who signed in (GET /v1/admin/whoami): {name, role, bootstrap}; a viewer sees no write action. */
let me = null;

function canWrite() {
  return !!me && me.role === 'admin';
}

// ---- small DOM helpers ------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

/** el('td', {class: 'num'}, 'text', childNode...): children are text (textContent) or nodes. */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k.startsWith('data-')) e.setAttribute(k, v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
  alignHeaders(tbody);
}

/** A header over a numeric column (its cells have class "num") is right-aligned like the column. */
function alignHeaders(tbody) {
  const table = tbody.closest('table');
  const head = table && table.tHead && table.tHead.rows[0];
  const first = tbody.rows[0];
  if (!head || !first || first.cells.length !== head.cells.length) return;
  for (let i = 0; i < head.cells.length; i++) head.cells[i].classList.toggle('num', first.cells[i].classList.contains('num'));
}

const fmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const num = (v) => (v === null || v === undefined ? '–' : fmt.format(v));

/** A byte count as the bill reads it: B, kB, MB, GB, TB (powers of 1000). */
function bytesText(v) {
  if (v === null || v === undefined) return '–';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  let x = v;
  while (x >= 1000 && i < units.length - 1) { x /= 1000; i++; }
  return (i === 0 ? String(x) : x.toFixed(x < 10 ? 2 : 1)) + ' ' + units[i];
}

/** GET /traffic's rows by name ({bytesSent, bytesReceived, exchanges}); empty when this process counts none. */
async function trafficByName() {
  let t;
  try {
    t = await api('GET', '/traffic');
  } catch (e) {
    return { upstreams: {}, clients: {} };
  }
  const by = (rows, key) => Object.fromEntries((rows || []).map((r) => [r[key], r]));
  return { upstreams: by(t.upstreams, 'upstream'), clients: by(t.clients, 'client') };
}

function ago(iso) {
  if (!iso) return 'never';
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (s < 0) return 'just now';
  if (s < 90) return s + ' s ago';
  if (s < 5400) return Math.round(s / 60) + ' min ago';
  return Math.round(s / 3600) + ' h ago';
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  if (seconds < 90) return seconds + ' s';
  if (seconds < 5400) return Math.round(seconds / 60) + ' min';
  return (seconds / 3600).toFixed(1) + ' h';
}

function json(v) {
  return v === null || v === undefined ? '' : JSON.stringify(v, null, 1);
}

// ---- API ----------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || ('HTTP ' + status));
    this.status = status;
    this.code = code;
  }
}

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

async function api(method, path, body, tokenOverride) {
  const headers = { 'Authorization': 'Bearer ' + (tokenOverride || token() || ''), 'Accept': 'application/json' };
  const init = { method, headers, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(API + path, init);
  } catch (e) {
    throw new ApiError(0, 'network', 'the server cannot be reached: ' + e.message);
  }
  // the server answers again: a "cannot be reached" banner is out of date
  if ($('banner').dataset.kind === 'network') clearBanner();
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (e) { data = null; }
  }
  if (!res.ok) {
    const err = new ApiError(res.status, data && data.error, data && data.message);
    if (res.status === 401 && !tokenOverride) {
      // not the operator's choice: what they were typing stays for after the next sign-in
      logout('The admin token was refused (401 unauthorized); sign in again.', true);
    }
    throw err;
  }
  return data;
}

// ---- banner and status ----------------------------------------------------------------------------

function showError(what, e) {
  const b = $('banner');
  b.className = 'banner';
  b.dataset.kind = e.status === 0 ? 'network' : 'error';
  b.textContent = what + ': ' + (e.status ? e.status + ' ' : '') + (e.code ? e.code + ' — ' : '') + e.message;
  b.hidden = false;
}

function showInfo(text) {
  const b = $('banner');
  b.className = 'banner info';
  b.dataset.kind = 'info';
  b.textContent = text;
  b.hidden = false;
}

function clearBanner() {
  $('banner').hidden = true;
  $('banner').textContent = '';
  delete $('banner').dataset.kind;
}

/** A success message is stale once something new went wrong. */
function clearInfo() {
  if ($('banner').dataset.kind === 'info') clearBanner();
}

function status(text) {
  $('status').textContent = text;
}

// ---- login ----------------------------------------------------------------------------------------

function showLogin(message) {
  stopRefresh();
  for (const p of PAGES) $('page-' + p).hidden = true;
  $('nav').hidden = true;
  $('nav-toggle').hidden = true;
  $('logout').hidden = true;
  $('login').hidden = false;
  $('login-error').textContent = message || '';
  $('token').focus();
}

/** A created operator's token is shown once: gone when the page changes or the operator signs out. */
function forgetShownToken() {
  $('op-token').hidden = true;
  $('op-token-value').textContent = '';
  $('op-token-name').textContent = '';
}

/** Signs out; {@code keepForms} (a refused token, not a sign-out) keeps half-typed Manage forms but no secret. */
function logout(message, keepForms) {
  document.body.dataset.keepForms = keepForms ? 'true' : '';
  sessionStorage.removeItem(TOKEN_KEY);
  forgetShownToken();
  me = null;
  $('whoami').hidden = true;
  clearBanner();
  status('');
  showLogin(message);
}

async function login(ev) {
  ev.preventDefault();
  const t = $('token').value.trim();
  $('login-error').textContent = '';
  if (!t) {
    $('login-error').textContent = 'Type the admin token.';
    return;
  }
  try {
    me = await api('GET', '/whoami', undefined, t);
  } catch (e) {
    $('login-error').textContent = e.status === 401 ? 'Wrong token: the admin API answered 401 unauthorized.'
      : (e.code ? e.code + ': ' : '') + e.message;
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, t);
  $('token').value = '';
  $('login').hidden = true;
  $('nav').hidden = false;
  $('nav-toggle').hidden = false;
  $('logout').hidden = false;
  route();
}

// ---- router ---------------------------------------------------------------------------------------

function currentPage() {
  const h = location.hash.replace(/^#/, '');
  return PAGES.includes(h) ? h : 'overview';
}

function stopRefresh() {
  if (timer) clearInterval(timer);
  timer = null;
}

/** Shows who is signed in and hides every write control (class "write") from a viewer. */
function showIdentity() {
  document.body.dataset.role = me.role;
  $('whoami').textContent = me.name + ' · ' + me.role;
  $('whoami').hidden = false;
  for (const e of document.querySelectorAll('.write')) {
    if (e.id === 'op-token') continue; // shown only after a creation
    e.hidden = !canWrite();
  }
}

async function route() {
  if (!token()) {
    showLogin();
    return;
  }
  if (!me) {
    try {
      me = await api('GET', '/whoami');
    } catch (e) {
      if (e.status !== 401) showError('Who you are could not be read', e);
      return;
    }
  }
  showIdentity();
  forgetShownToken();
  stopRefresh();
  clearBanner();
  const page = currentPage();
  $('login').hidden = true;
  $('nav').hidden = false;
  $('nav-toggle').hidden = false;
  $('logout').hidden = false;
  toggleNav(false);
  for (const p of PAGES) $('page-' + p).hidden = p !== page;
  for (const a of document.querySelectorAll('#nav a')) a.classList.toggle('active', a.dataset.page === page);
  document.title = 'ProxyPool · ' + page;
  const render = RENDER[page];
  render();
  // 'refresh': a quiet re-render by the timer (a page may skip it while the operator works in it)
  if (REFRESH_MS[page]) timer = setInterval(() => render('refresh'), REFRESH_MS[page]);
}

/** Phones: the navigation collapses behind the Menu button. */
function toggleNav(open) {
  $('nav').classList.toggle('open', open);
  $('nav-toggle').setAttribute('aria-expanded', open ? 'true' : 'false');
}

// ---- Overview -------------------------------------------------------------------------------------

function card(id, label, value, sub, tone) {
  return el('div', { class: 'card' + (tone ? ' ' + tone : ''), id },
    el('div', { class: 'label', text: label }),
    el('div', { class: 'value', text: value, 'data-value': value }),
    el('div', { class: 'sub', text: sub || '' }));
}

/**
 * Every time on every page in one format, in UTC (as the server's logs and the API's instants):
 * "2026-12-04 14:02:10 UTC".
 */
function stamp(iso) {
  const d = new Date(iso);
  return isNaN(d) ? '' : d.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
}

/** "14:02:10 UTC": the same format without the date, where space is short (the chart axis). */
function clock(iso) {
  const d = new Date(iso);
  return isNaN(d) ? '' : d.toISOString().slice(11, 19) + ' UTC';
}

/** "refreshed 2026-12-04 14:02:10 UTC". */
function refreshed() {
  status('refreshed ' + stamp(new Date().toISOString()));
}

/**
 * A small SVG line chart of one or two series (values may be null: gaps), with a time axis (the first
 * and last sample's time) and a legend naming each line in its colour.
 */
function chart(title, now, series, times) {
  const w = 300, h = 70;
  const all = series.flatMap((s) => s.values).filter((v) => v !== null && v !== undefined);
  const max = Math.max(1e-9, ...all);
  const n = Math.max(2, ...series.map((s) => s.values.length));
  const box = svg('svg', { viewBox: `0 0 ${w} ${h}`, preserveAspectRatio: 'none', role: 'img' });
  box.append(svg('line', { x1: 0, y1: h - 1, x2: w, y2: h - 1, class: 'axis' }));
  for (let q = 1; q < 4; q++) {
    box.append(svg('line', { x1: (q * w / 4).toFixed(1), y1: h - 4, x2: (q * w / 4).toFixed(1), y2: h - 1, class: 'axis' }));
  }
  series.forEach((s, i) => {
    // a null is a gap: the line stops there and starts again after it (never drawn across the gap);
    // a sample alone between gaps is a dot
    const segments = [];
    let run = [];
    s.values.forEach((v, j) => {
      if (v === null || v === undefined) {
        if (run.length) segments.push(run);
        run = [];
        return;
      }
      run.push([(j / (n - 1)) * w, h - 2 - (v / max) * (h - 6)]);
    });
    if (run.length) segments.push(run);
    const lines = segments.filter((r) => r.length > 1);
    if (lines.length) {
      const d = lines.map((r) => r.map(([x, y], k) => (k ? 'L' : 'M') + x.toFixed(1) + ' ' + y.toFixed(1)).join(' ')).join(' ');
      box.append(svg('path', { d, class: 'line' + i, 'data-segments': lines.length }));
    }
    for (const r of segments.filter((r) => r.length === 1)) {
      box.append(svg('circle', { cx: r[0][0].toFixed(1), cy: r[0][1].toFixed(1), r: 2.5, class: 'dot' + i }));
    }
  });
  const legend = el('div', { class: 'legend' }, ...series.map((s, i) =>
    el('span', { class: 'key' }, el('span', { class: 'swatch swatch' + i }), s.name)));
  const first = times.length ? clock(times[0]) : '';
  const last = times.length ? clock(times[times.length - 1]) : '';
  return el('div', { class: 'chart' },
    el('div', { class: 'title' }, el('span', { text: title }),
      el('span', { text: now + ' · max ' + num(max === 1e-9 ? 0 : max) })),
    box,
    el('div', { class: 'time-axis' }, el('span', { text: first }), legend, el('span', { text: last })));
}

/** One line of the attention list; {href, text} as a link to where to look. */
function flag(tone, text, link) {
  return el('li', { class: tone, 'data-flag': tone },
    text, link ? ' ' : null, link ? el('a', { href: link.href, text: link.text }) : null);
}

/** A row a red flag's link landed on: marked and scrolled to once its page rendered. */
const evidence = { routing: null };

/** Marks (and scrolls to) the row of {@code table} whose data-{key} is {@code name}; unmarks the others. */
function markRow(tableId, key, name) {
  let found = null;
  for (const tr of $(tableId).querySelectorAll('tr[data-' + key + ']')) {
    const hit = tr.dataset[key] === name;
    tr.classList.toggle('flagged', hit);
    if (hit) found = tr;
  }
  if (found) found.scrollIntoView({ block: 'center' });
  return found;
}

/**
 * The server's red flags (GET /flags): an upstream whose healthy share fell below admin.flags.healthyShare
 * links to its row of the pool table (its health counts); a routing whose recent requests mostly found no
 * proxy links to its row of the Routings page, marked.
 */
function serverFlags(flags) {
  return flags.flags.map((f) => {
    const li = el('li', { class: f.severity, 'data-flag': f.severity, 'data-kind': f.kind }, f.message, ' ');
    if (f.kind === 'upstream_unhealthy') {
      li.dataset.upstream = f.upstream;
      li.append(el('a', { href: '#overview', 'data-evidence': 'upstream', text: 'Health by upstream',
        onclick: (ev) => { ev.preventDefault(); markRow('ov-pool', 'upstream', f.upstream); } }));
    } else if (f.kind === 'routing_no_candidate') {
      li.dataset.routing = f.routing;
      li.append(el('a', { href: '#routings', 'data-evidence': 'routing', text: 'Routings',
        onclick: () => { evidence.routing = f.routing; } }), ' · ',
      el('a', { href: '#requests', text: 'its requests', onclick: (ev) => { ev.preventDefault();
        setRequestFilter({ routing: f.routing, reason: 'no_candidate' }); location.hash = '#requests'; } }));
    }
    return li;
  });
}

/** What an operator on call should look at first, worst first; one calm line when nothing is wrong. */
function attention(snap, series, pipeline, last, capPct, pool, providerOf, errors, flags) {
  const items = [];
  const add = (tone, text, link) => items.push(flag(tone, text, link));
  if (!series.storeUp) add('bad', 'The pool store cannot be reached: extraction and collection are failing; the gateway serves from its last snapshot.');
  items.push(...durabilityFlags(snap.storeDurability));
  if (snap.size === 0) add('bad', 'The snapshot is empty: every gateway request answers no_candidate.');
  else if (pool.healthy === 0) add('bad', 'No proxy is healthy: ' + pool.cooling + ' cooling, ' + pool.disabled + ' disabled.');
  else if (pool.cooling > pool.healthy) add('warn', 'More proxies are cooling (' + pool.cooling + ') than healthy (' + pool.healthy + ').');
  if (flags) items.push(...serverFlags(flags));
  const judged = new Set(flags ? flags.flags.filter((f) => f.upstream).map((f) => f.upstream) : []);
  for (const u of pool.upstreams) { // an upstream with no proxy at all is not the server's flag: said here
    if (snap.size > 0 && u.healthy === 0 && !judged.has(u.name)) {
      add('bad', 'Upstream ' + u.name + ' has no healthy proxy (' + u.inSnapshot + ' in the snapshot, ' + u.cooling
        + ' cooling, ' + u.disabled + ' disabled).', { href: '#upstreams', text: 'Upstreams' });
    }
  }
  for (const r of snap.routingsWithoutCandidates || []) {
    add('bad', 'Routing ' + r + ' has no candidate: no proxy of its upstreams, protocols and labels is in the snapshot.',
      { href: '#routings', text: 'Routings' });
  }
  for (const u of pipeline.upstreams) {
    const provider = providerOf[u.upstream];
    if (u.consecutiveErrors > 0) {
      add('bad', (provider ? 'Provider ' + provider + ' fails to fetch upstream ' : 'Upstream ') + u.upstream + ': '
        + u.consecutiveErrors + ' fetch error(s) in a row'
        + (u.lastError ? ' (' + u.lastError.kind + ': ' + u.lastError.detail + ')' : '')
        + (u.backoffSeconds ? ', next try delayed ' + duration(u.backoffSeconds) : '') + '.',
        { href: '#upstreams', text: 'Upstreams' });
    } else if (u.consecutiveEmpty > 0) {
      add('warn', 'Upstream ' + u.upstream + ': ' + u.consecutiveEmpty + ' empty answer(s) in a row.',
        { href: '#upstreams', text: 'Upstreams' });
    }
  }
  for (const s of pipeline.sequential) {
    if (s.exhausted) add('bad', 'Sequential routing ' + s.routing + ' is exhausted on ' + s.upstream + ' (' + s.exhaustion + ').',
      { href: '#upstreams', text: 'Upstreams' });
  }
  if (last.errorsPerSecond > 0) add('warn', 'The gateway answers ' + num(last.errorsPerSecond) + ' error(s)/s of '
    + num(last.requestsPerSecond) + ' request(s)/s.');
  if (errors && errors.count > 0) {
    add('warn', errors.count + ' gateway error(s) in the last ' + duration(errors.windowSeconds) + ': '
      + errors.byReason.filter((r) => r.count > 0).slice(0, 4).map((r) => r.reason + ' ' + r.count).join(', ') + '.',
      { href: '#requests', text: 'Requests' });
  }
  if (capPct > 80) add('warn', 'Capacity in use is at ' + capPct.toFixed(1) + ' %.');
  if (snap.ageSeconds > 300) add('warn', 'The snapshot is ' + duration(Math.round(snap.ageSeconds)) + ' old.');
  items.push(...workerFlags(snap));
  if (items.length === 0) add('ok', 'Nothing needs attention.');
  return items;
}

/**
 * Redis Cluster shards (GET /snapshot's storeDurability): refusing writes (an explicit store.waitReplicas their
 * master cannot meet: extractions on them answer 503) in red, serving with degraded durability (the default
 * waitReplicas after a promotion left their master without a replica) or with an unreadable master in amber.
 */
function durabilityFlags(d) {
  if (!d) return [];
  const out = [];
  const shardsOf = (state) => d.shards.filter((s) => s.state === state);
  const line = (tone, list, text) => {
    if (!list.length) return;
    const why = list.slice(0, 3).map((s) => 'shard ' + s.shard + ': ' + s.reason).join('; ');
    out.push(el('li', { class: tone, 'data-flag': tone, 'data-durability': list[0].state },
      text(list.length) + ' (' + why + (list.length > 3 ? '; …' : '') + ').'));
  };
  line('bad', shardsOf('refusing'), (n) => n + ' store shard(s) refuse extractions: store.waitReplicas ' + d.waitReplicas
    + ' cannot be met');
  line('warn', shardsOf('degraded'), (n) => n + ' store shard(s) serve with degraded durability: no replica online, '
    + 'extractions wait for none');
  line('warn', shardsOf('unknown'), (n) => n + ' store shard(s) with a master that cannot be read');
  return out;
}

/**
 * A red line for each worker flagged stale by GET /snapshot (behind the published version, or serving a
 * version older than workerStaleAfterSeconds: half of cluster.validity), linking to the Workers table.
 */
function workerFlags(snap) {
  const toTable = (ev) => {
    ev.preventDefault();
    $('ov-workers').scrollIntoView();
  };
  return (snap.workers || []).filter((w) => w.stale).map((w) => el('li', { class: 'bad', 'data-flag': 'bad', 'data-worker': w.id },
    'Worker ' + w.id + (w.snapshotVersion === 0 ? ' holds no snapshot yet'
      : (w.behind > 0 ? ' is ' + w.behind + ' version(s) behind: it serves ' + w.snapshotVersion + ' of ' + snap.publishedVersion
        : ' serves version ' + w.snapshotVersion)
      + (w.ageSeconds !== null && w.ageSeconds !== undefined ? ', published ' + duration(Math.round(w.ageSeconds)) + ' ago' : ''))
      + '.', ' ', el('a', { href: '#overview', onclick: toTable, text: 'Workers' })));
}

/** The Workers table: what each live worker serves (GET /snapshot's workers); hidden where there are none to show. */
function renderWorkers(snap) {
  const box = $('ov-workers');
  box.hidden = !Array.isArray(snap.workers);
  if (box.hidden) return;
  const unknown = (v) => v === null || v === undefined;
  fill($('ov-workers-table').tBodies[0], snap.workers.length ? snap.workers.map((w) => el('tr', {
    'data-worker': w.id, class: w.stale ? 'broken' : null },
  el('td', { text: w.id }),
  el('td', { text: w.description }),
  el('td', { class: 'num', 'data-col': 'version', text: unknown(w.snapshotVersion) ? 'unknown' : String(w.snapshotVersion) }),
  el('td', { class: 'num', 'data-col': 'behind', text: unknown(w.behind) ? 'unknown' : String(w.behind) }),
  el('td', { class: 'num', 'data-col': 'age', text: unknown(w.ageSeconds) ? (unknown(w.snapshotVersion) ? 'unknown' : '–')
    : duration(Math.round(w.ageSeconds)) }),
  el('td', { 'data-col': 'applied', text: w.appliedAt ? stamp(w.appliedAt) : '–' })))
    : [el('tr', {}, el('td', { colspan: 6, class: 'muted', text: 'No worker is registered.' }))]);
  $('ov-workers-note').textContent = 'published version ' + snap.publishedVersion + '; flagged when behind it or older than '
    + duration(Math.round(snap.workerStaleAfterSeconds)) + ' (half of cluster.validity)';
}

/**
 * The pool by upstream, from one source (GET /series' pool, read at request time) so the cards' totals
 * are the table's column sums; every upstream the pipeline fetches or the snapshot holds has a row, an
 * upstream with no proxy too.
 */
function poolRows(snap, series, pipeline, configured) {
  const pool = series.pool || {};
  const sizes = snap.sizesByUpstream || {};
  const names = new Set([...Object.keys(pool), ...Object.keys(sizes), ...pipeline.upstreams.map((u) => u.upstream),
    ...configured]);
  const out = { healthy: 0, cooling: 0, probe: 0, disabled: 0, stored: 0, storedDisabled: 0, upstreams: [] };
  for (const name of [...names].sort()) {
    const p = pool[name] || {};
    const stored = (snap.store || {})[name] || { available: 0, disabled: 0 };
    const u = {
      name, inSnapshot: sizes[name] ?? 0, healthy: p.healthy ?? 0, cooling: p.cooling ?? 0, probe: p.probe_allowed ?? 0,
      disabled: p.disabled ?? 0, stored: stored.available, storedDisabled: stored.disabled,
    };
    out.healthy += u.healthy; out.cooling += u.cooling; out.probe += u.probe; out.disabled += u.disabled;
    out.stored += u.stored; out.storedDisabled += u.storedDisabled;
    out.upstreams.push(u);
  }
  return out;
}

const errorView = { window: '15m' };

/** "Why requests fail": the window's errors by reason, by routing and by upstream; each row links to the Requests page. */
function renderErrors(errors) {
  const show = (filter) => (ev) => {
    ev.preventDefault();
    setRequestFilter(filter);
    location.hash = '#requests';
  };
  const reasons = (m) => el('td', {}, ...Object.entries(m || {}).map(([r, c]) => el('span', { class: 'tag', text: r + ' ' + c })));
  const empty = (cols, text) => [el('tr', {}, el('td', { colspan: cols, class: 'muted', text }))];
  const none = 'No gateway error in the last ' + duration(errors.windowSeconds) + '.';
  const byReason = errors.byReason.filter((r) => r.count > 0);
  fill($('ov-err-reason').tBodies[0], byReason.length ? byReason.map((r) => el('tr', { 'data-reason': r.reason },
    el('td', {}, el('a', { href: '#requests', onclick: show({ reason: r.reason }), text: r.reason })),
    el('td', { class: 'num', 'data-col': 'count', text: String(r.count) }),
    el('td', { class: 'num', 'data-col': 'total', text: String(r.total) }))) : empty(3, none));
  const group = (key, id) => {
    const rows = errors[key === 'routing' ? 'byRouting' : 'byUpstream'].filter((g) => g.count > 0);
    fill($(id).tBodies[0], rows.length ? rows.map((g) => el('tr', { ['data-' + key]: g[key] },
      el('td', {}, g[key] === 'none' ? el('span', { class: 'muted', text: key === 'routing' ? 'none (before routing)' : 'none (no proxy tried)' })
        : el('a', { href: '#requests', onclick: show({ [key]: g[key], status: 'error' }), text: g[key] })),
      el('td', { class: 'num', 'data-col': 'count', text: String(g.count) }),
      reasons(g.reasons))) : empty(3, none));
  };
  group('routing', 'ov-err-routing');
  group('upstream', 'ov-err-upstream');
  $('ov-err-total').textContent = errors.count + ' in the window, ' + errors.total + ' since ' + stamp(errors.since);
}

async function renderOverview(quiet) {
  const seq = ++renderSeq;
  let snap, series, pipeline, errors, upstreams, flags;
  try {
    [snap, series, pipeline, errors, upstreams, flags] = await Promise.all([api('GET', '/snapshot'), api('GET', '/series'),
      api('GET', '/pipeline'), api('GET', '/errors?window=' + encodeURIComponent(errorView.window)).catch(() => null),
      // the configuration (provider of each upstream) needs the database: the page works without it
      api('GET', '/upstreams').catch(() => ({ upstreams: [] })), api('GET', '/flags').catch(() => null)]);
  } catch (e) {
    showError('Overview could not be loaded', e);
    return;
  }
  if (seq !== renderSeq || currentPage() !== 'overview') return;
  if (!quiet) clearBanner();
  const samples = series.samples || [];
  const last = samples[samples.length - 1] || {};
  const providerOf = {};
  for (const u of upstreams.upstreams || []) providerOf[u.name] = u.provider;
  const pool = poolRows(snap, series, pipeline, Object.keys(providerOf));
  const capPct = last.capacityLimit ? (100 * last.capacityInUse / last.capacityLimit) : 0;
  const age = snap.ageSeconds;
  const noLatency = last.p50Ms == null && last.p99Ms == null;
  $('ov-cards').replaceChildren(
    card('ov-size', 'Proxies in the snapshot', String(snap.size), 'stored: ' + pool.stored + ' available, '
      + pool.storedDisabled + ' disabled', snap.size === 0 ? 'bad' : null),
    card('ov-healthy', 'Healthy', String(pool.healthy), 'cooling ' + pool.cooling + ' · probe ' + pool.probe
      + ' · disabled ' + pool.disabled, pool.healthy === 0 && snap.size > 0 ? 'bad' : (pool.cooling > pool.healthy ? 'warn' : null)),
    card('ov-capacity', 'Capacity in use', String(last.capacityInUse ?? '–'), 'of ' + num(last.capacityLimit) + ' ('
      + capPct.toFixed(1) + ' %)', capPct > 80 ? 'warn' : null),
    card('ov-inflight', 'Gateway in flight', String(last.gatewayInFlight ?? '–'), 'requests and tunnels'),
    card('ov-rps', 'Gateway requests/s', num(last.requestsPerSecond), 'errors/s ' + num(last.errorsPerSecond),
      last.errorsPerSecond > 0 ? 'warn' : null),
    card('ov-latency', 'Gateway P50 / P99', noLatency ? '–' : num(last.p50Ms) + ' / ' + num(last.p99Ms) + ' ms',
      noLatency ? 'no plain HTTP request in the last minute' : 'plain HTTP, last minute'),
    card('ov-extraction', 'Extractions/s', num(last.extractionsPerSecond), 'proxies handed out'),
    // with workers, the version they are measured against (the Workers table's); this node's own build below
    card('ov-snapshot', 'Snapshot version', String(snap.publishedVersion ?? snap.version),
      (snap.publishedVersion != null ? 'published · this node builds ' + snap.version + ', ' : 'built ')
      + num(age) + ' s ago', age > 300 ? 'warn' : null),
    card('ov-store', 'Pool store', series.storeUp ? 'up' : 'DOWN', series.storeUp
      ? (snap.storeDurability ? 'durability ' + snap.storeDurability.durability : '') : 'counts are stale',
    !series.storeUp || (snap.storeDurability && snap.storeDurability.durability === 'refusing') ? 'bad'
      : (snap.storeDurability && snap.storeDurability.durability !== 'full' ? 'warn' : null)));
  $('ov-attention').replaceChildren(...attention(snap, series, pipeline, last, capPct, pool, providerOf, errors, flags));
  const pick = (k) => samples.map((s) => s[k]);
  const times = pick('at');
  $('ov-charts').replaceChildren(
    chart('Requests/s', num(last.requestsPerSecond), [{ name: 'requests/s', values: pick('requestsPerSecond') },
      { name: 'errors/s', values: pick('errorsPerSecond') }], times),
    chart('Latency ms', noLatency ? '–' : num(last.p50Ms) + ' / ' + num(last.p99Ms), [{ name: 'P50', values: pick('p50Ms') },
      { name: 'P99', values: pick('p99Ms') }], times),
    chart('Extractions/s', num(last.extractionsPerSecond), [{ name: 'extractions/s', values: pick('extractionsPerSecond') }], times),
    chart('Capacity in use', num(last.capacityInUse), [{ name: 'in use', values: pick('capacityInUse') }], times),
    chart('Healthy / cooling proxies', num(last.healthy) + ' / ' + num(last.cooling),
      [{ name: 'healthy', values: pick('healthy') }, { name: 'cooling', values: pick('cooling') }], times),
    chart('Snapshot age s', num(last.snapshotAgeSeconds), [{ name: 'age', values: pick('snapshotAgeSeconds') }], times));
  if (errors) renderErrors(errors);
  $('ov-errors').hidden = !errors;
  fill($('ov-pool').tBodies[0], pool.upstreams.map((u) => el('tr', {
    'data-upstream': u.name, class: u.inSnapshot === 0 || (u.healthy === 0 && snap.size > 0) ? 'broken' : null },
  el('td', { text: u.name }),
  el('td', { class: 'num', 'data-col': 'snapshot', text: String(u.inSnapshot) }),
  el('td', { class: 'num state-healthy', 'data-col': 'healthy', text: String(u.healthy) }),
  el('td', { class: 'num state-cooling', 'data-col': 'cooling', text: String(u.cooling) }),
  el('td', { class: 'num state-probe_allowed', text: String(u.probe) }),
  el('td', { class: 'num state-disabled', 'data-col': 'health-disabled', text: String(u.disabled) }),
  el('td', { class: 'num', 'data-col': 'available', text: String(u.stored) }),
  el('td', { class: 'num', 'data-col': 'disabled', text: String(u.storedDisabled) }))));
  renderWorkers(snap);
  refreshed();
  document.body.dataset.rendered = 'overview';
}

// ---- Requests (the gateway's request log) ---------------------------------------------------------

const requestView = { filter: {} };

/** Sets the Requests page's filter (from an Overview link) before it renders. */
function setRequestFilter(f) {
  requestView.filter = Object.assign({ status: '', routing: '', upstream: '', client: '', reason: '', kind: '' }, f);
  for (const [k, v] of Object.entries(requestView.filter)) {
    const input = $('rq-' + k);
    if (input) input.value = v;
  }
}

function readRequestFilter() {
  requestView.filter = {
    status: $('rq-status').value, routing: $('rq-routing').value.trim(), upstream: $('rq-upstream').value.trim(),
    client: $('rq-client').value.trim(), reason: $('rq-reason').value, kind: $('rq-kind').value, limit: $('rq-limit').value,
  };
}

async function renderRequests() {
  const seq = ++renderSeq;
  const form = $('rq-filter');
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(requestView.filter)) if (v) q.set(k, v);
  let data;
  try {
    data = await api('GET', '/requests' + (q.toString() ? '?' + q.toString() : ''));
  } catch (e) {
    if (e.status === 400) {
      form.querySelector('[data-error-for="filter"]').textContent = e.code + ': ' + e.message;
      clearInfo();
    } else {
      showError('The request log could not be loaded', e);
    }
    return;
  }
  if (seq !== renderSeq || currentPage() !== 'requests') return;
  form.querySelector('[data-error-for="filter"]').textContent = '';
  const tbody = $('rq-table').tBodies[0];
  fill(tbody, data.entries.map((r) => el('tr', { 'data-seq': r.seq, 'data-status': r.status ?? '', 'data-reason': r.reason || '',
    class: r.reason ? 'failed' : null },
  el('td', { title: r.at, 'data-col': 'at', text: stamp(r.at) }),
  el('td', { text: r.kind }),
  // a refused 407 shows who tried (never the password); "–" only when no name was given
  el('td', { 'data-col': 'client' }, r.client || (r.attemptedUser ? el('span', { class: 'state-disabled', 'data-attempted': r.attemptedUser,
    title: 'refused: this username did not authenticate', text: r.attemptedUser + ' (refused)' }) : el('span', { class: 'muted', text: '–' })),
  el('div', { class: 'muted', 'data-col': 'peer', text: r.peer })),
  el('td', { text: r.method || '–' }),
  el('td', { 'data-col': 'routing', text: r.routing }),
  el('td', { 'data-col': 'upstream', text: r.upstream }),
  el('td', { 'data-col': 'proxy', text: r.proxy }),
  el('td', { class: 'num', 'data-col': 'status', text: r.status === null ? '–' : String(r.status) }),
  el('td', { 'data-col': 'reason', class: r.reason ? 'state-disabled' : null, text: r.reason || '–' }),
  el('td', { class: 'num', text: num(r.ms) }),
  el('td', { class: 'num', text: String(r.attempts) }),
  el('td', { text: r.result }))));
  if (data.entries.length === 0) {
    fill(tbody, [el('tr', {}, el('td', { colspan: 12, class: 'muted', text: data.capacity === 0
      ? 'The request log is off (admin.requestLog: 0).' : 'No request matches (the last ' + data.capacity + ' are kept).' }))]);
  }
  $('rq-count').textContent = data.entries.length + ' shown · ' + data.recorded + ' recorded since start · last '
    + data.capacity + ' kept';
  // each ring's reach: successes push older requests out quickly, failures have a ring of their own
  $('rq-reach').textContent = data.capacity === 0 ? '' : 'All requests go back to '
    + (data.oldest ? stamp(data.oldest) + ' (' + ago(data.oldest) + ')' : '–') + '; failures (their own ring of '
    + data.capacity + ') go back to ' + (data.failuresOldest ? stamp(data.failuresOldest) + ' (' + ago(data.failuresOldest) + ')' : '– (none yet)') + '.';
  $('rq-reach').dataset.oldest = data.oldest || '';
  $('rq-reach').dataset.failuresOldest = data.failuresOldest || '';
  refreshed();
  document.body.dataset.rendered = 'requests';
}

// ---- Upstreams ------------------------------------------------------------------------------------

let upstreamDocs = {};

/** "malformed_record 2, validation_connect_timeout 1", or a dash when nothing was dropped. */
function dropsText(drops) {
  const entries = Object.entries(drops || {});
  return entries.length ? entries.map(([reason, n]) => reason + ' ' + n).join(', ') : '–';
}

async function renderUpstreams(quiet) {
  const seq = ++renderSeq;
  let pipeline, upstreams, providers, traffic;
  try {
    [pipeline, upstreams, providers, traffic] = await Promise.all([api('GET', '/pipeline'), api('GET', '/upstreams'),
      quiet ? Promise.resolve(null) : api('GET', '/providers'), trafficByName()]);
  } catch (e) {
    showError('Upstreams could not be loaded', e);
    return;
  }
  if (seq !== renderSeq || currentPage() !== 'upstreams') return;
  upstreamDocs = {};
  for (const u of upstreams.upstreams) upstreamDocs[u.name] = u;
  const byName = {};
  for (const s of pipeline.upstreams) byName[s.upstream] = s;
  const names = [...new Set([...upstreams.upstreams.map((u) => u.name), ...pipeline.upstreams.map((s) => s.upstream)])];
  fill($('up-table').tBodies[0], names.map((name) => {
    const s = byName[name] || {};
    const doc = upstreamDocs[name] || {};
    const outcome = s.lastOutcome || (pipeline.collecting ? 'not fetched yet' : 'not fetched here');
    const detail = s.lastError ? s.lastError.kind + ': ' + s.lastError.detail
      : (s.newCandidates !== null && s.newCandidates !== undefined ? s.newCandidates + ' new' : '');
    return el('tr', { 'data-upstream': name },
      el('td', {}, canWrite()
        ? el('a', { href: '#upstreams', onclick: (ev) => { ev.preventDefault(); editUpstream(name); }, text: name })
        : name),
      el('td', { text: doc.provider || '' }),
      el('td', { class: 'outcome-' + (s.lastOutcome || 'none') }, outcome, el('div', { class: 'muted', text: detail })),
      el('td', { title: s.lastFetchAt || '', text: ago(s.lastFetchAt) }),
      el('td', { class: 'num', 'data-col': 'empty', text: String(s.consecutiveEmpty ?? '–') }),
      el('td', { class: 'num', 'data-col': 'errors', text: String(s.consecutiveErrors ?? '–') }),
      el('td', { class: 'num', text: s.backoffSeconds ? duration(s.backoffSeconds) : '–' }),
      el('td', { class: 'num', text: String(s.published ?? '–') }),
      el('td', { 'data-col': 'drops', title: 'candidates left out by the last fetch, by reason', text: dropsText(s.lastDrops) }),
      el('td', { text: (doc.fetch && doc.fetch.interval) || '30s' }),
      el('td', { class: 'num', 'data-col': 'sent', title: 'bytes the clients sent through this upstream since this process started',
        text: bytesText((traffic.upstreams[name] || {}).bytesSent ?? 0) }),
      el('td', { class: 'num', 'data-col': 'received', title: 'bytes the clients received through this upstream since this process started',
        text: bytesText((traffic.upstreams[name] || {}).bytesReceived ?? 0) }),
      el('td', {}, byName[name] && canWrite() ? el('button', { type: 'button', 'data-action': 'fetch',
        onclick: (ev) => fetchNow(name, s, ev.currentTarget) }, 'Fetch now') : null));
  }));
  fill($('seq-table').tBodies[0], pipeline.sequential.map((s) => el('tr', { 'data-routing': s.routing },
    el('td', { text: s.routing }),
    el('td', {}, ...(s.upstreams || []).map((u, i) => el('span', { class: 'tag' + (i === s.index ? ' seq-current' : ''),
      text: (i + 1) + '. ' + u }))),
    el('td', { 'data-col': 'position', text: (s.index + 1) + ' of ' + (s.upstreams || []).length + ' — ' + s.upstream }),
    el('td', { class: 'num', text: s.consecutiveEmpty + ' / ' + s.emptyThreshold }),
    el('td', { text: s.exhausted ? 'yes (' + s.exhaustion + ')' : 'no' }),
    el('td', { title: s.changedAt, text: s.reason + ', ' + ago(s.changedAt) }),
    el('td', {}, !canWrite() ? null :
      el('button', { type: 'button', 'data-action': 'advance', onclick: () => act('Advance of ' + s.routing, 'POST',
        '/routings/' + encodeURIComponent(s.routing) + '/sequential', { action: 'advance' }, renderUpstreams) }, 'Advance'),
      !canWrite() ? null : ' ',
      !canWrite() ? null : el('button', { type: 'button', 'data-action': 'reset', onclick: () => act('Reset of ' + s.routing, 'POST',
        '/routings/' + encodeURIComponent(s.routing) + '/sequential', { action: 'reset' }, renderUpstreams) }, 'Reset')))));
  if (pipeline.sequential.length === 0) {
    fill($('seq-table').tBodies[0], [el('tr', {}, el('td', { colspan: 7, class: 'muted', text: 'No sequential routing.' }))]);
  }
  if (providers) {
    // provider URLs arrive masked (user info and query values as ***): shown as answered
    fill($('pv-table').tBodies[0], providers.providers.map((p) => el('tr', { 'data-provider': p.name },
      el('td', { text: p.name }),
      el('td', { text: p.type }),
      el('td', { class: 'url', 'data-col': 'source', text: p.url || p.path || '–' }))));
    if (providers.providers.length === 0) {
      fill($('pv-table').tBodies[0], [el('tr', {}, el('td', { colspan: 3, class: 'muted', text: 'No provider.' }))]);
    }
    const sel = $('up-provider');
    const keep = sel.value;
    sel.replaceChildren(el('option', { value: '', text: '(choose)' }),
      ...providers.providers.map((p) => el('option', { value: p.name, text: p.name + ' (' + p.type + ')' })));
    sel.value = keep;
  }
  refreshed();
  document.body.dataset.rendered = 'upstreams';
}

/** Runs one admin action, shows its error (never swallowed), then re-renders. */
async function act(what, method, path, body, then) {
  try {
    await api(method, path, body);
    showInfo(what + ': done.');
  } catch (e) {
    showError(what + ' failed', e);
    return false;
  }
  if (then) await then(true);
  return true;
}

/**
 * "Fetch now": the API only queues the fetch (202), so the page watches the pipeline until this
 * upstream's last fetch is a newer one, then says how it ended (at most two minutes).
 */
async function fetchNow(name, before, button) {
  button.disabled = true;
  try {
    await api('POST', '/upstreams/' + encodeURIComponent(name) + '/fetch');
  } catch (e) {
    showError('Fetch of ' + name + ' failed', e);
    button.disabled = false;
    return;
  }
  showInfo('Fetch of ' + name + ' requested: waiting for it to finish…');
  const deadline = Date.now() + 120000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    let s;
    try {
      s = (await api('GET', '/pipeline')).upstreams.find((u) => u.upstream === name);
    } catch (e) {
      continue; // a passing outage: the banner says so, the wait goes on
    }
    if (!s) break;
    if (s.lastFetchAt && s.lastFetchAt !== before.lastFetchAt) {
      const detail = s.lastError ? ' (' + s.lastError.kind + ': ' + s.lastError.detail + ')'
        : (s.newCandidates !== null && s.newCandidates !== undefined ? ', ' + s.newCandidates + ' new' : '');
      const text = 'Fetch of ' + name + ' finished: ' + s.lastOutcome + detail + '.';
      if (s.lastOutcome === 'error') showError('Fetch of ' + name + ' finished', { message: s.lastOutcome + detail });
      else showInfo(text);
      button.disabled = false;
      if (currentPage() === 'upstreams') await renderUpstreams(true);
      return;
    }
  }
  showInfo('Fetch of ' + name + ' was requested but has not finished after two minutes (see the Upstreams table).');
  button.disabled = false;
}

let editing = null;

function editUpstream(name) {
  const doc = upstreamDocs[name];
  if (!doc) return;
  editing = name;
  $('up-form-title').textContent = 'Edit upstream ' + name;
  $('up-name').value = name;
  $('up-name').disabled = true;
  $('up-provider').value = doc.provider || '';
  $('up-interval').value = (doc.fetch && doc.fetch.interval) || '';
  $('up-low').value = doc.fetch && doc.fetch.lowWaterMark !== undefined ? doc.fetch.lowWaterMark : '';
  $('up-validate').checked = doc.validate !== false;
  clearFieldErrors($('up-form'));
}

function resetUpstreamForm() {
  editing = null;
  $('up-form').reset();
  $('up-name').disabled = false;
  $('up-form-title').textContent = 'Add an upstream';
  clearFieldErrors($('up-form'));
}

function clearFieldErrors(form) {
  for (const e of form.querySelectorAll('[data-error-for]')) e.textContent = '';
  for (const e of form.querySelectorAll('.invalid')) e.classList.remove('invalid');
}

/** Puts the API's message next to the field its key names (upstreams[x].fetch.lowWaterMark: ...). */
function fieldError(form, message, fields) {
  let target = '_form';
  for (const [pattern, field] of fields) {
    if (pattern.test(message)) {
      target = field;
      break;
    }
  }
  clearInfo();
  const slot = form.querySelector('[data-error-for="' + target + '"]') || form.querySelector('[data-error-for]');
  if (slot) slot.textContent = message;
  else showError('The request was refused', { message });
  const input = form.querySelector('[name="' + target + '"]');
  if (input) input.classList.add('invalid');
}

const UPSTREAM_FIELDS = [
  [/\]\.name:|\[\]\.name/, 'name'],
  [/\.fetch\.lowWaterMark/, 'lowWaterMark'],
  [/\.fetch\.interval/, 'interval'],
  [/\.provider/, 'provider'],
];

async function saveUpstream(ev) {
  ev.preventDefault();
  const form = $('up-form');
  clearFieldErrors(form);
  const base = editing ? JSON.parse(JSON.stringify(upstreamDocs[editing] || {})) : {};
  delete base.position;
  const doc = Object.assign(base, { name: editing || $('up-name').value.trim() });
  if ($('up-provider').value) doc.provider = $('up-provider').value; else delete doc.provider;
  const fetchCfg = Object.assign({}, doc.fetch || {});
  const interval = $('up-interval').value.trim();
  if (interval) fetchCfg.interval = interval; else delete fetchCfg.interval;
  const low = $('up-low').value.trim();
  if (low !== '') fetchCfg.lowWaterMark = /^-?\d+$/.test(low) ? Number(low) : low; else delete fetchCfg.lowWaterMark;
  if (Object.keys(fetchCfg).length) doc.fetch = fetchCfg; else delete doc.fetch;
  doc.validate = $('up-validate').checked;
  try {
    if (editing) await api('PUT', '/upstreams/' + encodeURIComponent(editing), doc);
    else await api('POST', '/upstreams', doc);
  } catch (e) {
    fieldError(form, (e.code ? e.code + ': ' : '') + e.message, UPSTREAM_FIELDS);
    return;
  }
  showInfo('Upstream ' + doc.name + ' saved.');
  resetUpstreamForm();
  await renderUpstreams(false);
}

// ---- Proxies --------------------------------------------------------------------------------------

const proxyView = { cursors: [''], page: 0, filter: {} };

function proxyQuery() {
  const f = proxyView.filter;
  const q = new URLSearchParams();
  q.set('masked', 'true');
  q.set('limit', f.limit || '100');
  if (f.upstream) q.set('upstream', f.upstream);
  if (f.state) q.set('state', f.state);
  if (f.protocol) q.set('protocol', f.protocol);
  if (f.country) q.set('label.country', f.country);
  if (f.health) q.set('health', f.health);
  if (f.reason) q.set('reason', f.reason);
  if (f.id) q.set('id', f.id);
  const cursor = proxyView.cursors[proxyView.page];
  if (cursor) q.set('cursor', cursor);
  return '/proxies?' + q.toString();
}

function readFilter() {
  proxyView.filter = {
    upstream: $('px-upstream').value, state: $('px-state').value, protocol: $('px-protocol').value,
    country: $('px-country').value.trim(), limit: $('px-limit').value, health: $('px-health').value,
    reason: $('px-reason').value.trim(), id: $('px-id').value.trim(), sort: $('px-sort').value,
  };
  proxyView.cursors = [''];
  proxyView.page = 0;
}

async function renderProxies(quiet) {
  // a refresh would close an open history row and mask a revealed address again: not while one is shown
  if (quiet === 'refresh' && document.querySelector('#px-table tr[data-history-of], #px-table .addr.revealed')) return;
  const seq = ++renderSeq;
  const form = $('px-filter');
  clearFieldErrors(form);
  let page;
  try {
    page = await api('GET', proxyQuery());
  } catch (e) {
    // a bad filter: its message next to the filter (the form's slot is "filter"), not a TypeError
    if (e.status === 400) form.querySelector('[data-error-for="filter"]').textContent = e.code + ': ' + e.message;
    else showError('Proxies could not be listed', e);
    return;
  }
  if (seq !== renderSeq || currentPage() !== 'proxies') return;
  proxyView.cursors[proxyView.page + 1] = page.nextCursor || null;
  const tbody = $('px-table').tBodies[0];
  fill(tbody, sortProxies(page.proxies, proxyView.filter.sort).map(proxyRow));
  $('px-bulk').hidden = !canWrite();
  $('px-select-page').checked = false;
  updateSelection();
  if (page.proxies.length === 0) {
    fill(tbody, [el('tr', {}, el('td', { colspan: 11, class: 'muted', text: 'No proxy matches.' }))]);
  }
  const limit = Number(proxyView.filter.limit || 100);
  const from = proxyView.page * limit + (page.proxies.length ? 1 : 0);
  const to = proxyView.page * limit + page.proxies.length;
  $('px-range').textContent = from + '–' + to + (page.total !== null && page.total !== undefined
    ? ' of ' + page.total : (page.nextCursor ? ' of more' : ''));
  $('px-range').dataset.total = page.total ?? '';
  $('px-prev').disabled = proxyView.page === 0;
  $('px-next').disabled = !page.nextCursor;
  document.body.dataset.rendered = 'proxies';
  if (!window.__proxiesFirstRender) {
    window.__proxiesFirstRender = performance.now();
    performance.mark('proxies-rendered');
  }
  refreshed();
  if (!quiet) fillUpstreamFilter();
}

const HEALTH_ORDER = { DISABLED: 0, COOLING: 1, PROBE_ALLOWED: 2, HEALTHY: 3 };

/** The page's proxies in the chosen order (the API lists by id): worst health first, or slowest first. */
function sortProxies(list, by) {
  const key = {
    upstream: (p) => [p.upstream, p.id],
    health: (p) => [p.health ? HEALTH_ORDER[p.health.state] : 4, p.id],
    latency: (p) => [-(p.latencyEwmaMs || 0), p.id],
  }[by];
  if (!key) return list;
  return list.slice().sort((a, b) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

/** The ids ticked on this page. */
function selectedProxies() {
  return [...document.querySelectorAll('#px-table input.px-select:checked')].map((c) => c.dataset.id);
}

function updateSelection() {
  const n = selectedProxies().length;
  $('px-selected').textContent = n + ' selected';
  for (const b of document.querySelectorAll('#px-bulk button[data-scope="selection"]')) b.disabled = n === 0;
  // the bulk filter knows upstream, state, health, reason and id; protocol and country cannot be sent
  const f = proxyView.filter;
  const sendable = !f.protocol && !f.country && (f.upstream || f.state || f.health || f.reason || f.id);
  for (const b of document.querySelectorAll('#px-bulk button[data-scope="filter"]')) {
    b.disabled = !sendable;
    b.title = sendable ? 'every proxy matching the filter, on every page' : 'filter by upstream, state, health, reason or id first';
  }
}

/** POST /proxies/bulk on the selection or on every proxy matching the filter; the answer says how many changed. */
async function bulk(action, scope) {
  $('px-bulk-error').textContent = '';
  const f = proxyView.filter;
  const body = { action };
  let what;
  if (scope === 'selection') {
    body.ids = selectedProxies();
    what = body.ids.length + ' selected proxies';
  } else {
    body.filter = {};
    for (const k of ['upstream', 'state', 'health', 'reason', 'id']) if (f[k]) body.filter[k] = f[k];
    what = 'every proxy matching ' + Object.entries(body.filter).map(([k, v]) => k + '=' + v).join(', ');
  }
  try {
    const r = await api('POST', '/proxies/bulk', body);
    showInfo({ enable: 'Enable', disable: 'Disable', recheck: 'Re-check' }[action] + ' of ' + what + ': ' + r.matched
      + ' matched, ' + r.changed + ' changed' + (r.unknown.length ? ', unknown: ' + r.unknown.join(', ') : '') + '.');
  } catch (e) {
    if (e.status === 400) $('px-bulk-error').textContent = e.code + ': ' + e.message;
    else showError('Bulk ' + action + ' failed', e);
    return;
  }
  await renderProxies(true);
}

async function fillUpstreamFilter() {
  const sel = $('px-upstream');
  if (sel.options.length > 1) return;
  try {
    const snap = await api('GET', '/snapshot');
    const names = new Set([...Object.keys(snap.sizesByUpstream || {}), ...Object.keys(snap.store || {})]);
    const keep = sel.value;
    sel.replaceChildren(el('option', { value: '', text: 'any' }),
      ...[...names].sort().map((n) => el('option', { value: n, text: n })));
    sel.value = keep;
  } catch (e) {
    showError('Upstream names could not be loaded', e);
  }
}

function proxyRow(p) {
  const health = p.health;
  const stateText = p.state + (health ? ' · ' + health.state.toLowerCase() + ' (' + health.reason
    + (health.detail ? ': ' + health.detail : '') + ')' : ' · not in snapshot');
  const address = el('span', { class: 'addr', text: p.host + ':' + p.port });
  const revealBtn = el('button', { type: 'button', 'data-action': 'reveal', title: 'Show the full address (audited)' }, 'Reveal');
  revealBtn.addEventListener('click', async () => {
    try {
      const r = await api('POST', '/proxies/' + encodeURIComponent(p.id) + '/reveal');
      address.textContent = r.host + ':' + r.port;
      address.classList.add('revealed');
      revealBtn.remove();
    } catch (e) {
      showError('Reveal of ' + p.id + ' failed', e);
    }
  });
  const disabled = p.state === 'disabled';
  const toggle = el('button', { type: 'button', class: disabled ? '' : 'danger', 'data-action': disabled ? 'enable' : 'disable' },
    disabled ? 'Enable' : 'Disable');
  toggle.addEventListener('click', async () => {
    toggle.disabled = true;
    const ok = await act((disabled ? 'Enable' : 'Disable') + ' of ' + p.id, 'POST',
      '/proxies/' + encodeURIComponent(p.id) + '/' + (disabled ? 'enable' : 'disable'), undefined, renderProxies);
    if (!ok) toggle.disabled = false;
  });
  const bans = Object.entries(p.bannedDomains || {});
  // the health record (GET /v1/admin/proxies/{id}): status, backoff and the last transitions, in a row below
  const historyBtn = el('button', { type: 'button', 'data-action': 'history', title: 'Health record and last transitions' }, 'History');
  historyBtn.addEventListener('click', async () => {
    const row = historyBtn.closest('tr');
    const open = row.nextElementSibling;
    if (open && open.dataset.historyOf === p.id) { open.remove(); return; }
    try {
      const d = await api('GET', '/proxies/' + encodeURIComponent(p.id) + '?masked=true&transitions=10');
      const h = d.healthRecord;
      const lines = h ? [el('div', { text: h.state + ' (' + h.reason + ', ' + h.stage + ') since ' + stamp(h.since)
          + (h.cooldownUntil ? ' · cooldown until ' + stamp(h.cooldownUntil) + ' · backoff step ' + h.backoffStep : '') })]
          .concat(h.transitions.slice().reverse().map((t) => el('div', { class: 'muted', 'data-transition': t.sequence,
            text: stamp(t.at) + ' → ' + t.state + ' (' + t.reason + ', ' + t.stage + ')' })))
        : [el('div', { class: 'muted', text: 'not in this process\'s snapshot: no health record' })];
      row.after(el('tr', { 'data-history-of': p.id }, el('td', { colspan: 11 }, ...lines)));
    } catch (e) {
      showError('History of ' + p.id + ' failed', e);
    }
  });
  const pick = canWrite() ? el('input', { type: 'checkbox', class: 'px-select', 'data-id': p.id, title: 'select for a bulk action' }) : null;
  if (pick) pick.addEventListener('change', updateSelection);
  return el('tr', { 'data-id': p.id, 'data-state': p.state, 'data-health': health ? health.state : '' },
    el('td', {}, pick, pick ? ' ' : null, p.id),
    el('td', {}, address, p.masked && canWrite() ? ' ' : null, p.masked && canWrite() ? revealBtn : null),
    el('td', { text: p.protocol }),
    el('td', { text: p.upstream }),
    el('td', {}, ...Object.entries(p.labels || {}).map(([k, v]) => el('span', { class: 'tag', text: k + '=' + v }))),
    el('td', { class: 'state-' + (health ? health.state.toLowerCase() : p.state), 'data-col': 'state', text: stateText }),
    el('td', { class: 'num', text: p.latencyEwmaMs ? num(p.latencyEwmaMs) + ' ms' : '–' }),
    el('td', { class: 'num', text: duration(p.remainingTtlSeconds) }),
    el('td', { class: 'num', text: p.inFlight + ' / ' + p.maxConcurrency }),
    el('td', {}, ...(bans.length ? bans.map(([d, s]) => el('span', { class: 'tag', text: d + ' ' + duration(s) })) : ['–'])),
    el('td', {}, canWrite() ? toggle : null, canWrite() ? ' ' : null, historyBtn));
}

// ---- Routings -------------------------------------------------------------------------------------

const ROUTING_SHOWN = ['position', 'name', 'match', 'strategy', 'upstreams', 'filter', 'sticky', 'onNoCandidate'];

async function renderRoutings() {
  const seq = ++renderSeq;
  let data;
  try {
    data = await api('GET', '/routings');
  } catch (e) {
    showError('Routings could not be loaded', e);
    return;
  }
  if (seq !== renderSeq || currentPage() !== 'routings') return;
  const pre = (v) => (v === undefined ? el('span', { class: 'muted', text: 'default' }) : el('pre', { text: json(v) }));
  fill($('rt-table').tBodies[0], data.routings.map((r) => {
    const other = {};
    for (const [k, v] of Object.entries(r)) if (!ROUTING_SHOWN.includes(k)) other[k] = v;
    return el('tr', { 'data-routing': r.name },
      el('td', { class: 'num', text: String(r.position + 1) }),
      el('td', { text: r.name }),
      el('td', {}, r.match === undefined ? el('span', { class: 'muted', text: 'everything' }) : el('pre', { text: json(r.match) })),
      el('td', { text: r.strategy || 'roundRobin' }),
      el('td', {}, ...((r.upstreams || []).length ? r.upstreams.map((u) => el('span', { class: 'tag', text: u }))
        : [el('span', { class: 'tag', title: 'every upstream', text: 'all' })])),
      el('td', {}, pre(r.filter)),
      el('td', {}, pre(r.sticky)),
      el('td', { text: r.onNoCandidate || 'reject' }),
      el('td', {}, Object.keys(other).length ? el('pre', { text: json(other) }) : ''));
  }));
  if (data.routings.length === 0) {
    fill($('rt-table').tBodies[0], [el('tr', {}, el('td', { colspan: 9, class: 'muted',
      text: 'No routing configured: one catch-all default routing serves every request.' }))]);
  }
  await routingErrors(seq);
  if (evidence.routing) markRow('rt-table', 'routing', evidence.routing); // landed from a red flag
  status('configuration version ' + data.version);
  document.body.dataset.rendered = 'routings';
}

/**
 * Why each routing's requests failed lately (GET /errors): a last column on the routings table,
 * each reason linking to those requests. Added here, not in the markup, so the table stays as it is
 * when this process serves no gateway.
 */
async function routingErrors(seq) {
  let errors;
  try {
    errors = await api('GET', '/errors?window=15m');
  } catch (e) {
    return; // no gateway in this process, or a passing error: the table stands without the column
  }
  if (seq !== renderSeq) return;
  const head = $('rt-table').tHead.rows[0];
  if (!head.querySelector('th[data-col="errors"]')) head.append(el('th', { 'data-col': 'errors', text: 'errors (15 min)' }));
  const by = {};
  for (const g of errors.byRouting) by[g.routing] = g;
  for (const row of $('rt-table').tBodies[0].rows) {
    const name = row.dataset.routing;
    if (!name) continue;
    const g = by[name];
    const reasons = g ? Object.entries(g.reasons || {}) : [];
    row.append(el('td', { 'data-col': 'errors' }, ...(reasons.length ? reasons.map(([r, c]) => el('a', {
      class: 'tag', href: '#requests', 'data-reason': r, text: r + ' ' + c,
      onclick: (ev) => { ev.preventDefault(); setRequestFilter({ routing: name, reason: r }); location.hash = '#requests'; },
    })) : [el('span', { class: 'muted', text: '–' })])));
  }
}

// ---- Audit ----------------------------------------------------------------------------------------

let auditCursor = null;

async function renderAudit(quiet, more) {
  const seq = ++renderSeq;
  let data;
  try {
    data = await api('GET', '/audit?limit=50' + (more && auditCursor ? '&cursor=' + encodeURIComponent(auditCursor) : ''));
  } catch (e) {
    showError('The audit log could not be loaded', e);
    return;
  }
  if (seq !== renderSeq || currentPage() !== 'audit') return;
  const rows = data.entries.map((a) => el('tr', { 'data-audit-id': a.id, 'data-action': a.action },
    el('td', { title: a.at, text: stamp(a.at) }),
    el('td', { text: a.actor }),
    el('td', { text: a.action }),
    el('td', { text: a.entityType + ' ' + a.entityName }),
    el('td', {}, el('pre', { text: json(a.before) })),
    el('td', {}, el('pre', { text: json(a.after) }))));
  const tbody = $('au-table').tBodies[0];
  if (more) tbody.append(...rows); else fill(tbody, rows);
  if (!more && rows.length === 0) fill(tbody, [el('tr', {}, el('td', { colspan: 6, class: 'muted', text: 'No change yet.' }))]);
  auditCursor = data.nextCursor;
  $('au-more').hidden = !auditCursor;
  refreshed();
  document.body.dataset.rendered = 'audit';
}

// ---- Operators ------------------------------------------------------------------------------------

async function renderOperators() {
  const seq = ++renderSeq;
  let data;
  try {
    data = await api('GET', '/operators');
  } catch (e) {
    showError('Operators could not be listed', e);
    return;
  }
  if (seq !== renderSeq || currentPage() !== 'operators') return;
  fill($('op-table').tBodies[0], data.operators.map((o) => {
    let revoke = null;
    if (canWrite() && !o.bootstrap) {
      // two clicks: the first asks, naming the operator
      revoke = el('button', { type: 'button', class: 'danger', 'data-action': 'revoke' }, 'Revoke');
      revoke.addEventListener('click', async () => {
        if (revoke.dataset.confirm !== 'yes') {
          revoke.dataset.confirm = 'yes';
          revoke.textContent = 'Revoke ' + o.name + '? Click again';
          return;
        }
        revoke.disabled = true;
        const ok = await act('Revoke of operator ' + o.name, 'DELETE', '/operators/' + encodeURIComponent(o.name),
          undefined, renderOperators);
        if (!ok) revoke.disabled = false;
      });
    }
    return el('tr', { 'data-operator': o.name, 'data-role': o.role },
      el('td', { text: o.name + (me && o.name === me.name ? ' (you)' : '') }),
      el('td', { text: o.role }),
      el('td', { title: o.createdAt || '', text: o.bootstrap ? 'admin.token (bootstrap)' : ago(o.createdAt) }),
      el('td', { text: o.createdBy || '–' }),
      el('td', {}, revoke));
  }));
  refreshed();
  document.body.dataset.rendered = 'operators';
}

const OPERATOR_FIELDS = [[/\.name:|\[\]\.name/, 'name'], [/\.role:/, 'role']];

async function createOperator(ev) {
  ev.preventDefault();
  const form = $('op-form');
  clearFieldErrors(form);
  $('op-token').hidden = true;
  const name = $('op-name').value.trim();
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    fieldError(form, 'operators[].name: must be 1 to 64 letters, digits, \'.\', \'_\' or \'-\'', OPERATOR_FIELDS);
    return;
  }
  let created;
  try {
    created = await api('POST', '/operators', { name, role: $('op-role').value });
  } catch (e) {
    fieldError(form, (e.code ? e.code + ': ' : '') + e.message, OPERATOR_FIELDS);
    return;
  }
  form.reset();
  $('op-token-name').textContent = created.name + ' (' + created.role + ')';
  $('op-token-value').textContent = created.token;
  $('op-token').hidden = false;
  showInfo('Operator ' + created.name + ' created: copy the token now, it is not shown again.');
  await renderOperators();
}

const RENDER = {
  overview: renderOverview, requests: renderRequests, upstreams: renderUpstreams, proxies: renderProxies, routings: renderRoutings, audit: renderAudit,
  operators: renderOperators,
};

// ---- wiring ---------------------------------------------------------------------------------------

document.addEventListener('DOMContentLoaded', () => {
  $('login-form').addEventListener('submit', login);
  $('logout').addEventListener('click', () => logout('Signed out.'));
  $('px-filter').addEventListener('submit', (ev) => {
    ev.preventDefault();
    readFilter();
    renderProxies(true);
  });
  $('px-sort').addEventListener('change', () => {
    proxyView.filter.sort = $('px-sort').value; // the page in the new order, without a new request's cursor reset
    renderProxies(true);
  });
  $('px-select-page').addEventListener('change', () => {
    for (const c of document.querySelectorAll('#px-table input.px-select')) c.checked = $('px-select-page').checked;
    updateSelection();
  });
  for (const b of document.querySelectorAll('#px-bulk button[data-bulk]')) {
    b.addEventListener('click', () => bulk(b.dataset.bulk, b.dataset.scope));
  }
  $('px-prev').addEventListener('click', () => {
    if (proxyView.page > 0) {
      proxyView.page--;
      renderProxies(true);
    }
  });
  $('px-next').addEventListener('click', () => {
    if (proxyView.cursors[proxyView.page + 1]) {
      proxyView.page++;
      renderProxies(true);
    }
  });
  $('up-form').addEventListener('submit', saveUpstream);
  $('up-reset').addEventListener('click', resetUpstreamForm);
  $('au-more').addEventListener('click', () => renderAudit(true, true));
  $('op-form').addEventListener('submit', createOperator);
  $('nav-toggle').addEventListener('click', () => toggleNav(!$('nav').classList.contains('open')));
  $('nav').addEventListener('click', (ev) => {
    if (ev.target.closest('a')) toggleNav(false);
  });
  $('rq-reason').append(...REASONS.map((r) => el('option', { value: r, text: r })));
  $('rq-filter').addEventListener('submit', (ev) => {
    ev.preventDefault();
    readRequestFilter();
    renderRequests();
  });
  $('ov-window').addEventListener('change', () => {
    errorView.window = $('ov-window').value;
    renderOverview(true);
  });
  window.addEventListener('hashchange', route);
  readFilter();
  route();
});
