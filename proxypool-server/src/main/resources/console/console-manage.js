// ProxyPool console, page "Manage": create, edit and delete providers, upstreams, routings, clients and
// credential refs through the Admin API (GET/POST /v1/admin/<plural>, GET/PUT/DELETE /v1/admin/<plural>/{name}).
// Loaded after console.js and built on its helpers (api, el, $, showError, showInfo, clearFieldErrors,
// fieldError, canWrite, status) and its router (PAGES, RENDER, renderSeq, currentPage): this file only adds a
// page to them. Same rules as console.js: text-only rendering, no secret kept anywhere.
'use strict';

PAGES.push('manage');
RENDER.manage = renderManage;

// ---- the API's rules, checked before sending (the server stays the judge) ---------------------

/** Provider, upstream, routing and client names (config loader: [A-Za-z0-9][A-Za-z0-9._-]{0,63}). */
const MG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Credential refs (CredentialRef: 1-128 letters, digits, '.', '_', '-', starting with a letter or digit). */
const MG_REF = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Durations as the config reader takes them: 30s, 1500ms, 10m, 1.5h, 2d, a bare number of seconds, or ISO PT30S. */
const MG_DURATION = /^(\d+(\.\d+)?\s*(ms|s|m|min|h|d)?|p[0-9a-z.]+)$/i;
/** Provider byte sizes: 1048576, 512KB, 5MB (at most 1 GB). */
const MG_BYTES = /^(\d+)\s*(KB|MB|B)?$/i;
const MG_MASK = '***';
const MG_MAX_INT = 2147483647;

const mgNameRule = (key, name) => key + ": '" + name + "' is not a valid name (letters, digits, '.', '_', '-'; at most 64,"
  + ' starting with a letter or digit)';

function mgBytesOk(text) {
  const m = MG_BYTES.exec(text);
  if (!m) return false;
  const unit = (m[2] || '').toUpperCase();
  const mult = unit === 'KB' ? 1024 : unit === 'MB' ? 1024 * 1024 : 1;
  const n = Number(m[1]);
  return n >= 1 && n <= (1024 * 1024 * 1024) / mult;
}

/** "a, b ,c" → ['a', 'b', 'c'] */
function mgList(text) {
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** "k=v, k2=v2" → {k: 'v', k2: 'v2'}, or null when a pair is malformed. */
function mgPairs(text) {
  const out = {};
  for (const pair of mgList(text)) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) return null;
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

const mgPairsText = (m) => Object.entries(m || {}).map(([k, v]) => k + '=' + v).join(', ');
const mgClone = (v) => JSON.parse(JSON.stringify(v || {}));

/** 32 random bytes from the browser's CSPRNG, base64url without padding (43 characters). */
function mgRandomSecret() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Replaces a list's children (console.js's fill() is for table bodies). */
function mgFill(node, children) {
  node.replaceChildren(...children);
}

/** Marks one field of a form with a message (the client-side twin of console.js's fieldError). */
function mgInvalid(form, field, message) {
  const slot = form.querySelector('[data-error-for="' + field + '"]') || form.querySelector('[data-error-for="_form"]');
  slot.textContent = message;
  const input = form.querySelector('[name="' + field + '"]');
  if (input) input.classList.add('invalid');
}

// ---- state ----------------------------------------------------------------------------------------

const mg = {
  tab: 'providers',
  providers: [], upstreams: [], routings: [], clients: [],
  editing: { provider: null, routing: null, client: null, credential: null },
  /** The provider URL as the API answered it (masked) when its edit began. */
  maskedUrl: null,
  confirm: null,
};

const MG_TABS = ['providers', 'upstreams', 'routings', 'clients', 'credentials'];

function mgDoc(kind, name) {
  return mg[kind].find((d) => d.name === name);
}

// who refers to whom: what a delete confirmation names
const mgProviderUsers = (name) => mg.upstreams.filter((u) => u.provider === name).map((u) => u.name);
const mgUpstreamUsers = (name) => mg.routings.filter((r) => (r.upstreams || []).includes(name)).map((r) => r.name);
const mgClientUsers = (name) => mg.routings.filter((r) => r.match && (r.match.clients || []).includes(name)).map((r) => r.name);

function mgRefs() {
  const refs = new Map();
  for (const p of mg.providers) {
    if (!p.credentialRef) continue;
    if (!refs.has(p.credentialRef)) refs.set(p.credentialRef, []);
    refs.get(p.credentialRef).push(p.name);
  }
  return new Map([...refs.entries()].sort((a, b) => a[0].localeCompare(b[0])));
}

function mgNames(kind, names) {
  return kind + (names.length === 1 ? ' ' : 's ') + names.map((n) => "'" + n + "'").join(', ');
}

// ---- rendering ------------------------------------------------------------------------------------

async function renderManage(quiet) {
  const seq = ++renderSeq;
  if (!quiet) {
    mgForgetSecret();
    mgHideConfirm();
    $('mg-refused').hidden = true;
  }
  let providers, upstreams, routings, clients, traffic;
  try {
    [providers, upstreams, routings, clients, traffic] = await Promise.all([api('GET', '/providers'), api('GET', '/upstreams'),
      api('GET', '/routings'), api('GET', '/clients'), trafficByName()]);
  } catch (e) {
    showError('The configuration could not be loaded', e);
    return;
  }
  if (seq !== renderSeq || currentPage() !== 'manage') return;
  mg.providers = providers.providers;
  mg.upstreams = upstreams.upstreams;
  mg.routings = routings.routings;
  mg.clients = clients.clients;
  mg.traffic = traffic;
  mgShowTab(mg.tab, true);
  mgRenderProviders();
  mgRenderUpstreams();
  mgRenderRoutings();
  mgRenderClients();
  mgRenderCredentials();
  status('configuration version ' + routings.version);
  document.body.dataset.rendered = 'manage';
}

function mgShowTab(tab, keepForms) {
  mg.tab = tab;
  for (const b of document.querySelectorAll('#mg-tabs [data-tab]')) {
    const on = b.dataset.tab === tab;
    b.classList.toggle('active', on);
    b.setAttribute('aria-selected', on ? 'true' : 'false');
  }
  for (const p of document.querySelectorAll('#page-manage .mg-panel')) p.hidden = p.dataset.panel !== tab;
  if (!keepForms) {
    mgHideConfirm();
    $('mg-refused').hidden = true;
  }
}

/** One entity of a list: its name, a summary (wraps anywhere: long values never widen the page), its actions. */
function mgItem(kind, name, summary, actions, extraClass) {
  return el('li', { class: 'mg-item' + (extraClass ? ' ' + extraClass : ''), 'data-entity': kind, 'data-name': name },
    el('div', { class: 'mg-head' }, el('strong', { class: 'mg-name', text: name }),
      ...summary.filter((s) => s).map((s) => el('span', { class: 'mg-sum', text: s }))),
    canWrite() && actions.length ? el('div', { class: 'mg-actions' }, ...actions) : null);
}

function mgButton(action, label, onclick, danger) {
  return el('button', { type: 'button', class: danger ? 'danger' : '', 'data-action': action, onclick }, label);
}

function mgEmpty(list, text) {
  mgFill(list, [el('li', { class: 'mg-item muted', text })]);
}

function mgRenderProviders() {
  const list = $('mg-pv-list');
  mgFill(list, mg.providers.map((p) => {
    const users = mgProviderUsers(p.name);
    return mgItem('provider', p.name, [
      p.type,
      p.url || p.path || '',
      p.credentialRef ? 'credential ref ' + p.credentialRef : '',
      users.length ? 'used by ' + mgNames('upstream', users) : 'not used',
    ], [
      mgButton('edit', 'Edit', () => mgEditProvider(p.name)),
      mgButton('delete', 'Delete', () => mgAskDelete('provider', p.name, users.length
        ? 'It is used by ' + mgNames('upstream', users) + ': the server refuses the delete while '
          + (users.length === 1 ? 'that upstream refers' : 'those upstreams refer') + ' to it.' : '',
      () => api('DELETE', '/providers/' + encodeURIComponent(p.name))), true),
    ]);
  }));
  if (!mg.providers.length) mgEmpty(list, 'No provider.');
}

function mgRenderUpstreams() {
  const list = $('mg-up-list');
  mgFill(list, mg.upstreams.map((u) => {
    const users = mgUpstreamUsers(u.name);
    return mgItem('upstream', u.name, [
      'provider ' + u.provider,
      'every ' + ((u.fetch && u.fetch.interval) || '30s'),
      u.validate === false ? 'not validated' : '',
      users.length ? 'used by ' + mgNames('routing', users) : 'in no routing list',
    ], [
      mgButton('delete', 'Delete', () => mgAskDelete('upstream', u.name, users.length
        ? 'It is used by ' + mgNames('routing', users) + ': the server refuses the delete while '
          + (users.length === 1 ? 'that routing lists' : 'those routings list') + ' it.' : '',
      () => api('DELETE', '/upstreams/' + encodeURIComponent(u.name))), true),
    ]);
  }));
  if (!mg.upstreams.length) mgEmpty(list, 'No upstream.');
}

function mgMatchText(m) {
  if (!m) return 'matches everything';
  const parts = [];
  for (const k of ['clients', 'hosts', 'ports', 'methods']) if (m[k] && m[k].length) parts.push(k + ' ' + m[k].join(', '));
  if (m.headers) parts.push('headers ' + mgPairsText(m.headers));
  return 'match ' + parts.join('; ');
}

function mgRenderRoutings() {
  const list = $('mg-rt-list');
  const n = mg.routings.length;
  mgFill(list, mg.routings.map((r) => mgItem('routing', r.name, [
    '#' + (r.position + 1),
    mgMatchText(r.match),
    (r.strategy || 'roundRobin') + (r.strategy === 'sequential' ? ' (' + (r.exhaustion || 'stop') + ', '
      + (r.emptyThreshold || 3) + ' empty)' : ''),
    r.upstreams && r.upstreams.length ? 'upstreams ' + r.upstreams.join(' → ') : 'all upstreams',
    r.sticky && r.sticky.enabled !== false ? 'sticky (' + (r.sticky.header || 'X-ProxyPool-Session') + ')' : 'not sticky',
    r.retry ? 'retry ' + r.retry.maxAttempts + ' attempts, ' + r.retry.budgetPercent + ' %' : '',
    'no candidate: ' + (r.onNoCandidate || 'reject'),
  ], [
    r.position > 0 ? mgButton('up', '↑', () => mgMoveRouting(r, r.position - 1)) : null,
    r.position < n - 1 ? mgButton('down', '↓', () => mgMoveRouting(r, r.position + 1)) : null,
    mgButton('edit', 'Edit', () => mgEditRouting(r.name)),
    mgButton('delete', 'Delete', () => mgAskDelete('routing', r.name, '',
      () => api('DELETE', '/routings/' + encodeURIComponent(r.name))), true),
  ].filter((b) => b))));
  if (!n) mgEmpty(list, 'No routing configured: one catch-all default routing serves every request.');
  mgFill($('mg-rt-known'), mg.upstreams.map((u) => el('option', { value: u.name })));
}

function mgClientState(c) {
  return !c.hasSecret && !c.hasToken ? 'disabled' : 'active';
}

/** A client's bytes through this process's gateway since it started (GET /traffic). */
function mgClientTraffic(name) {
  const t = (mg.traffic && mg.traffic.clients[name]) || {};
  return 'sent ' + bytesText(t.bytesSent ?? 0) + ' · received ' + bytesText(t.bytesReceived ?? 0);
}

function mgRenderClients() {
  const list = $('mg-cl-list');
  mgFill(list, mg.clients.map((c) => {
    const users = mgClientUsers(c.name);
    const state = mgClientState(c);
    const quota = c.quota && c.quota.extractionsPerHour ? c.quota.extractionsPerHour + ' extractions/h' : 'no quota';
    const rps = c.rateLimit && c.rateLimit.rps ? c.rateLimit.rps + ' req/s' : 'no rate limit';
    return mgItem('client', c.name, [
      state === 'disabled' ? 'disabled (no secret, no token)'
        : (c.hasSecret ? 'gateway secret' : 'no gateway secret') + ' · ' + (c.hasToken ? 'API token' : 'no API token'),
      quota, rps,
      mgClientTraffic(c.name),
      users.length ? 'named by ' + mgNames('routing', users) : '',
    ], [
      mgButton('edit', 'Edit', () => mgEditClient(c.name)),
      mgButton('rotate', state === 'disabled' ? 'Enable (new secret)' : 'Rotate', () => mgAskRotate(c)),
      state === 'disabled' ? null : mgButton('disable', 'Disable', () => mgAskDisable(c), true),
      mgButton('delete', 'Delete', () => mgAskDelete('client', c.name, (users.length
        ? 'It is named by ' + mgNames('routing', users) + ' (match.clients): the server refuses the delete until it is removed there.'
        : '') + mgLastSecretWarning(c), () => api('DELETE', '/clients/' + encodeURIComponent(c.name))), true),
    ].filter((b) => b), 'state-' + state);
  }));
  if (!mg.clients.length) mgEmpty(list, 'No client.');
}

function mgRenderCredentials() {
  const list = $('mg-cr-list');
  const refs = mgRefs();
  mgFill(list, [...refs.entries()].map(([ref, providers]) => mgItem('credential', ref, [
    'given to the proxies of ' + mgNames('provider', providers),
  ], [
    mgButton('edit', 'Edit', () => mgEditCredential(ref)),
    mgButton('delete', 'Delete', () => mgAskDelete('credential ref', ref,
      'It is given to the proxies of ' + mgNames('provider', providers) + '; deleting it removes it from '
        + (providers.length === 1 ? 'that provider' : 'those providers') + ' (the credentials file is not changed).',
      () => mgSetRef(ref, null, [])), true),
  ])));
  if (!refs.size) mgEmpty(list, 'No provider names a credential ref.');
  mgFillRefProviders(mg.editing.credential);
}

// ---- confirmation, refusal, the secret shown once ---------------------------------------------------

function mgAskConfirm(text, yesLabel, run) {
  mg.confirm = run;
  $('mg-refused').hidden = true;
  $('mg-confirm-text').textContent = text;
  $('mg-confirm-yes').textContent = yesLabel;
  $('mg-confirm-yes').disabled = false;
  $('mg-confirm').hidden = false;
  $('mg-confirm').scrollIntoView({ block: 'nearest' });
  $('mg-confirm-no').focus();
}

function mgHideConfirm() {
  mg.confirm = null;
  $('mg-confirm').hidden = true;
  $('mg-confirm-text').textContent = '';
}

/** The API's refusal in words: what was refused, why (the API's message) and what the status means. */
function mgRefusal(what, e) {
  const why = e.status === 409 ? ' (409 conflict): ' : e.status === 400 ? ' (400 invalid request): '
    : e.status === 404 ? ' (404 not found): ' : e.status === 403 ? ' (403 forbidden): '
      : ' (' + (e.status || 'no answer') + (e.code ? ' ' + e.code : '') + '): ';
  return 'The server refused to ' + what + why + e.message + '.';
}

function mgAskDelete(kind, name, refs, run) {
  mgAskConfirm('Delete ' + kind + " '" + name + "'?" + (refs ? ' ' + refs.trim() : ' No other entity refers to it.'),
    'Delete ' + kind + ' ' + name, async () => {
      await run();
      showInfo(kind.charAt(0).toUpperCase() + kind.slice(1) + ' ' + name + ' deleted.');
    });
  mg.confirmWhat = 'delete ' + kind + " '" + name + "'";
}

async function mgConfirmed() {
  const run = mg.confirm;
  const what = mg.confirmWhat;
  if (!run) return;
  $('mg-confirm-yes').disabled = true;
  try {
    await run();
  } catch (e) {
    mgHideConfirm();
    const refused = $('mg-refused');
    refused.textContent = mgRefusal(what, e);
    refused.hidden = false;
    showError('Could not ' + what, e);
    await renderManage(true);
    return;
  }
  mgHideConfirm();
  await renderManage(true);
}

function mgShowSecret(name, secret, token) {
  $('mg-secret-name').textContent = name;
  $('mg-secret-value').textContent = secret;
  $('mg-secret-token').textContent = token || '';
  $('mg-secret-token-row').hidden = !token;
  $('mg-secret').hidden = false;
  $('mg-secret').scrollIntoView({ block: 'nearest' });
}

/** The generated secret and token leave the page: on Dismiss, on another page, on sign-out. */
function mgForgetSecret() {
  $('mg-secret').hidden = true;
  $('mg-secret-name').textContent = '';
  $('mg-secret-value').textContent = '';
  $('mg-secret-token').textContent = '';
}

// ---- providers --------------------------------------------------------------------------------------

const MG_PROVIDER_FIELDS = [
  [/\.name:|\[\]\.name/, 'name'], [/\.type\b/, 'type'], [/\.url\b/, 'url'], [/\.path\b/, 'path'],
  [/\.protocol\b/, 'protocol'], [/\.credentialRef\b/, 'credentialRef'], [/\.timeout\b/, 'timeout'],
  [/\.maxBytes\b/, 'maxBytes'], [/\.labels\b/, 'labels'], [/\.tokenEnv\b/, 'tokenEnv'], [/\.username\b/, 'username'],
  [/\.passwordEnv\b/, 'passwordEnv'],
];
const MG_PROVIDER_TEXT = { url: 'mg-pv-url', path: 'mg-pv-path', credentialRef: 'mg-pv-cref', timeout: 'mg-pv-timeout',
  maxBytes: 'mg-pv-maxbytes', tokenEnv: 'mg-pv-tokenenv', username: 'mg-pv-username', passwordEnv: 'mg-pv-passenv' };

function mgEditProvider(name) {
  const p = mgDoc('providers', name);
  if (!p) return;
  mgResetProvider();
  mg.editing.provider = name;
  mg.maskedUrl = p.url || null;
  $('mg-pv-title').textContent = 'Edit provider ' + name;
  $('mg-pv-name').value = name;
  $('mg-pv-name').disabled = true;
  $('mg-pv-type').value = p.type || '';
  for (const [k, id] of Object.entries(MG_PROVIDER_TEXT)) $(id).value = p[k] === undefined ? '' : String(p[k]);
  $('mg-pv-protocol').value = p.protocol || '';
  $('mg-pv-labels').value = mgPairsText(p.labels);
  $('mg-pv-form').scrollIntoView({ block: 'nearest' });
}

function mgResetProvider() {
  mg.editing.provider = null;
  mg.maskedUrl = null;
  $('mg-pv-form').reset();
  $('mg-pv-name').disabled = false;
  $('mg-pv-title').textContent = 'Add a provider';
  clearFieldErrors($('mg-pv-form'));
}

async function mgSaveProvider(ev) {
  ev.preventDefault();
  const form = $('mg-pv-form');
  clearFieldErrors(form);
  const editing = mg.editing.provider;
  const name = editing || $('mg-pv-name').value.trim();
  const key = 'providers[' + name + ']';
  const doc = editing ? mgClone(mgDoc('providers', editing)) : {};
  doc.name = name;
  doc.type = $('mg-pv-type').value.trim();
  for (const [k, id] of Object.entries(MG_PROVIDER_TEXT)) {
    const v = $(id).value.trim();
    if (v) doc[k] = v; else delete doc[k];
  }
  if ($('mg-pv-protocol').value) doc.protocol = $('mg-pv-protocol').value; else delete doc.protocol;
  const labels = mgPairs($('mg-pv-labels').value);
  if (labels && Object.keys(labels).length) doc.labels = labels; else delete doc.labels;

  const errors = [];
  if (!editing && !MG_NAME.test(name)) {
    errors.push(['name', name ? mgNameRule('providers[].name', name) : 'providers[].name: is required']);
  }
  if (!doc.type) errors.push(['type', key + '.type: is required']);
  if (doc.url && !/^https?:\/\/[^/?#\s]+/i.test(doc.url)) {
    errors.push(['url', key + ".url: must be an http:// or https:// URL, got '" + doc.url + "'"]);
  } else if (doc.url && doc.url.includes(MG_MASK) && (!editing || !mg.maskedUrl)) {
    // a mask means "keep the stored secret": there is none to keep
    errors.push(['url', key + '.url: has a masked part (' + MG_MASK + ') and nothing is stored to keep: type the real value']);
  }
  if (doc.url && doc.path) errors.push(['path', key + ': give either url or path, not both']);
  if (doc.credentialRef && !MG_REF.test(doc.credentialRef)) {
    errors.push(['credentialRef', key + ".credentialRef: '" + doc.credentialRef
      + "' is not valid (1 to 128 letters, digits, '.', '_', '-', starting with a letter or digit)"]);
  }
  if (doc.timeout && !MG_DURATION.test(doc.timeout)) {
    errors.push(['timeout', key + ".timeout: '" + doc.timeout + "' is not a duration (write e.g. 30s, 10m, 24h)"]);
  }
  if (doc.maxBytes && !mgBytesOk(doc.maxBytes)) {
    errors.push(['maxBytes', key + ".maxBytes: '" + doc.maxBytes + "' is not a size from 1 byte to 1 GB (1048576, 512KB, 5MB)"]);
  }
  if (!labels) errors.push(['labels', key + '.labels: write key=value pairs separated by commas']);
  if (errors.length) {
    for (const [f, m] of errors) mgInvalid(form, f, m);
    return;
  }
  try {
    if (editing) await api('PUT', '/providers/' + encodeURIComponent(editing), doc);
    else await api('POST', '/providers', doc);
  } catch (e) {
    fieldError(form, (e.code ? e.code + ': ' : '') + e.message, MG_PROVIDER_FIELDS);
    return;
  }
  showInfo('Provider ' + name + ' saved.');
  mgResetProvider();
  await renderManage(true);
}

// ---- routings ---------------------------------------------------------------------------------------

const MG_ROUTING_FIELDS = [
  [/\]\.name:|\[\]\.name/, 'name'], [/\.position\b/, 'position'], [/\.strategy\b/, 'strategy'],
  [/\.upstreams\b|sequential/, 'upstreams'], [/\.exhaustion\b/, 'exhaustion'], [/\.emptyThreshold\b/, 'emptyThreshold'],
  [/\.match\.clients\b/, 'clients'], [/\.match\.hosts\b/, 'hosts'], [/\.match\.ports\b/, 'ports'],
  [/\.match\.methods\b/, 'methods'], [/\.sticky\.header\b/, 'stickyHeader'], [/\.sticky\.lifetime\b/, 'stickyLifetime'],
  [/\.sticky\.idle\b/, 'stickyIdle'], [/\.retry\.maxAttempts\b/, 'retryMaxAttempts'],
  [/\.retry\.budgetPercent\b/, 'retryBudgetPercent'], [/\.onNoCandidate\b/, 'onNoCandidate'],
  [/\.waitTimeout\b/, 'waitTimeout'],
];

function mgEditRouting(name) {
  const r = mgDoc('routings', name);
  if (!r) return;
  mgResetRouting();
  mg.editing.routing = name;
  $('mg-rt-title').textContent = 'Edit routing ' + name;
  $('mg-rt-name').value = name;
  $('mg-rt-name').disabled = true;
  $('mg-rt-position').value = String(r.position + 1);
  $('mg-rt-strategy').value = r.strategy || 'roundRobin';
  $('mg-rt-upstreams').value = (r.upstreams || []).join(', ');
  $('mg-rt-exhaustion').value = r.exhaustion || 'stop';
  $('mg-rt-empty').value = r.emptyThreshold === undefined ? '' : String(r.emptyThreshold);
  const m = r.match || {};
  $('mg-rt-clients').value = (m.clients || []).join(', ');
  $('mg-rt-hosts').value = (m.hosts || []).join(', ');
  $('mg-rt-ports').value = (m.ports || []).join(', ');
  $('mg-rt-methods').value = (m.methods || []).join(', ');
  const s = r.sticky;
  $('mg-rt-sticky').checked = !!s && s.enabled !== false;
  $('mg-rt-sheader').value = (s && s.header) || '';
  $('mg-rt-slifetime').value = (s && s.lifetime) || '';
  $('mg-rt-sidle').value = (s && s.idle) || '';
  $('mg-rt-sonlost').value = (s && s.onLost) || 'repin';
  $('mg-rt-rattempts').value = r.retry ? String(r.retry.maxAttempts) : '';
  $('mg-rt-rbudget').value = r.retry ? String(r.retry.budgetPercent) : '';
  $('mg-rt-onnc').value = r.onNoCandidate || 'reject';
  $('mg-rt-wait').value = r.waitTimeout || '';
  $('mg-rt-form').scrollIntoView({ block: 'nearest' });
}

function mgResetRouting() {
  mg.editing.routing = null;
  $('mg-rt-form').reset();
  $('mg-rt-name').disabled = false;
  $('mg-rt-title').textContent = 'Add a routing';
  clearFieldErrors($('mg-rt-form'));
}

/** A whole number in [min, max] from a form field, or null when empty; NaN when it is not one. */
function mgWhole(id, min, max) {
  const t = $(id).value.trim();
  if (t === '') return null;
  if (!/^-?\d+$/.test(t)) return NaN;
  const n = Number(t);
  return n >= min && n <= max ? n : NaN;
}

async function mgSaveRouting(ev) {
  ev.preventDefault();
  const form = $('mg-rt-form');
  clearFieldErrors(form);
  const editing = mg.editing.routing;
  const name = editing || $('mg-rt-name').value.trim();
  const key = 'routings[' + name + ']';
  const errors = [];
  if (!editing && !MG_NAME.test(name)) {
    errors.push(['name', name ? mgNameRule('routings[].name', name) : 'routings[].name: is required']);
  }
  const doc = editing ? mgClone(mgDoc('routings', editing)) : {};
  delete doc.position;
  doc.name = name;
  const maxPlace = mg.routings.length + (editing ? 0 : 1);
  const place = mgWhole('mg-rt-position', 1, maxPlace);
  if (Number.isNaN(place)) errors.push(['position', key + '.position: must be a whole number from 1 to ' + maxPlace]);
  doc.strategy = $('mg-rt-strategy').value;
  const ups = mgList($('mg-rt-upstreams').value);
  const known = new Set(mg.upstreams.map((u) => u.name));
  ups.forEach((u, i) => {
    if (!known.has(u)) errors.push(['upstreams', key + '.upstreams[' + i + "]: names upstream '" + u + "', which is not defined under upstreams"]);
  });
  if (new Set(ups).size !== ups.length) errors.push(['upstreams', key + '.upstreams: names an upstream twice']);
  if (ups.length) doc.upstreams = ups; else delete doc.upstreams;
  if (doc.strategy === 'sequential') {
    if (ups.length < 2) errors.push(['upstreams', key + '.upstreams: a sequential routing needs at least two upstreams, in order']);
    doc.exhaustion = $('mg-rt-exhaustion').value;
    const empty = mgWhole('mg-rt-empty', 1, 1000000);
    if (Number.isNaN(empty)) errors.push(['emptyThreshold', key + '.emptyThreshold: must be a whole number from 1 to 1000000']);
    else if (empty === null) delete doc.emptyThreshold; else doc.emptyThreshold = empty;
  } else {
    delete doc.exhaustion;
    delete doc.emptyThreshold;
  }
  const match = Object.assign({}, doc.match || {});
  for (const [field, id] of [['clients', 'mg-rt-clients'], ['hosts', 'mg-rt-hosts'], ['methods', 'mg-rt-methods']]) {
    const list = mgList($(id).value);
    if (list.length) match[field] = field === 'methods' ? list.map((m) => m.toUpperCase()) : list; else delete match[field];
  }
  (match.clients || []).forEach((c, i) => {
    if (!MG_NAME.test(c)) errors.push(['clients', key + '.match.clients[' + i + "]: '" + c + "' is not a client name"]);
  });
  (match.methods || []).forEach((m, i) => {
    if (!/^[A-Z]{1,20}$/.test(m)) errors.push(['methods', key + '.match.methods[' + i + "]: '" + m + "' is not an HTTP method"]);
  });
  const ports = mgList($('mg-rt-ports').value);
  ports.forEach((p, i) => {
    if (!/^\d{1,5}$/.test(p) || Number(p) < 1 || Number(p) > 65535) {
      errors.push(['ports', key + '.match.ports[' + i + "]: '" + p + "' is not a port (1..65535)"]);
    }
  });
  if (ports.length) match.ports = ports.map(Number); else delete match.ports;
  if (Object.keys(match).length) doc.match = match; else delete doc.match;

  if ($('mg-rt-sticky').checked) {
    const sticky = Object.assign({}, doc.sticky || {}, { enabled: true, onLost: $('mg-rt-sonlost').value });
    for (const [field, id, dur] of [['header', 'mg-rt-sheader', false], ['lifetime', 'mg-rt-slifetime', true],
      ['idle', 'mg-rt-sidle', true]]) {
      const v = $(id).value.trim();
      const formField = 'sticky' + field.charAt(0).toUpperCase() + field.slice(1);
      if (!v) delete sticky[field];
      else if (dur && !MG_DURATION.test(v)) errors.push([formField, key + '.sticky.' + field + ": '" + v + "' is not a duration (write e.g. 30s, 10m, 24h)"]);
      else if (!dur && !/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/.test(v)) errors.push([formField, key + ".sticky.header: '" + v + "' is not a header name"]);
      else sticky[field] = v;
    }
    doc.sticky = sticky;
  } else {
    delete doc.sticky;
  }
  const attempts = mgWhole('mg-rt-rattempts', 1, 10);
  const budget = mgWhole('mg-rt-rbudget', 0, 100);
  if (Number.isNaN(attempts)) errors.push(['retryMaxAttempts', key + '.retry.maxAttempts: must be a whole number from 1 to 10']);
  if (Number.isNaN(budget)) errors.push(['retryBudgetPercent', key + '.retry.budgetPercent: must be a whole number from 0 to 100']);
  if (attempts === null && budget === null) delete doc.retry;
  else doc.retry = { maxAttempts: attempts ?? 2, budgetPercent: budget ?? 20 };
  doc.onNoCandidate = $('mg-rt-onnc').value;
  const wait = $('mg-rt-wait').value.trim();
  if (!wait) delete doc.waitTimeout;
  else if (!MG_DURATION.test(wait)) errors.push(['waitTimeout', key + ".waitTimeout: '" + wait + "' is not a duration (write e.g. 30s, 10m, 24h)"]);
  else doc.waitTimeout = wait;
  if (errors.length) {
    for (const [f, m] of errors) mgInvalid(form, f, m);
    return;
  }
  if (place !== null) doc.position = place - 1;
  try {
    if (editing) await api('PUT', '/routings/' + encodeURIComponent(editing), doc);
    else await api('POST', '/routings', doc);
  } catch (e) {
    fieldError(form, (e.code ? e.code + ': ' : '') + e.message, MG_ROUTING_FIELDS);
    return;
  }
  showInfo('Routing ' + name + ' saved.');
  mgResetRouting();
  await renderManage(true);
}

async function mgMoveRouting(r, to) {
  const doc = mgClone(r);
  doc.position = to;
  try {
    await api('PUT', '/routings/' + encodeURIComponent(r.name), doc);
  } catch (e) {
    showError('Could not move routing ' + r.name, e);
    return;
  }
  showInfo('Routing ' + r.name + ' is now #' + (to + 1) + ' in match order.');
  await renderManage(true);
}

// ---- clients ----------------------------------------------------------------------------------------

const MG_CLIENT_FIELDS = [
  [/\]\.name:|\[\]\.name/, 'name'], [/extractionsPerHour/, 'extractionsPerHour'], [/\.rps\b/, 'rps'],
];

/** The client's document for a PUT: quota and rate limit as they are; secret and token left out (kept). */
function mgClientBody(c) {
  return { name: c.name, quota: mgClone(c.quota), rateLimit: mgClone(c.rateLimit) };
}

function mgEditClient(name) {
  const c = mgDoc('clients', name);
  if (!c) return;
  mgResetClient();
  mg.editing.client = name;
  $('mg-cl-title').textContent = 'Edit client ' + name;
  $('mg-cl-save').textContent = 'Save client';
  $('mg-cl-name').value = name;
  $('mg-cl-name').disabled = true;
  $('mg-cl-quota').value = c.quota && c.quota.extractionsPerHour !== undefined ? String(c.quota.extractionsPerHour) : '';
  $('mg-cl-rps').value = c.rateLimit && c.rateLimit.rps !== undefined ? String(c.rateLimit.rps) : '';
  $('mg-cl-withtoken').checked = !!c.hasToken;
  $('mg-cl-withtoken').disabled = true; // tokens change through Rotate
  $('mg-cl-form').scrollIntoView({ block: 'nearest' });
}

function mgResetClient() {
  mg.editing.client = null;
  $('mg-cl-form').reset();
  $('mg-cl-name').disabled = false;
  $('mg-cl-withtoken').disabled = false;
  $('mg-cl-title').textContent = 'Add a client';
  $('mg-cl-save').textContent = 'Create client';
  clearFieldErrors($('mg-cl-form'));
}

async function mgSaveClient(ev) {
  ev.preventDefault();
  const form = $('mg-cl-form');
  clearFieldErrors(form);
  const editing = mg.editing.client;
  const name = editing || $('mg-cl-name').value.trim();
  const key = 'clients[' + name + ']';
  const errors = [];
  if (!editing && !MG_NAME.test(name)) {
    errors.push(['name', name ? mgNameRule('clients[].name', name) : 'clients[].name: is required']);
  }
  const quota = mgWhole('mg-cl-quota', 0, MG_MAX_INT);
  if (Number.isNaN(quota)) errors.push(['extractionsPerHour', key + '.quota.extractionsPerHour: must be a whole number from 0 to ' + MG_MAX_INT]);
  const rpsText = $('mg-cl-rps').value.trim();
  const rps = rpsText === '' ? 0 : Number(rpsText);
  if (!/^\d+(\.\d+)?$/.test(rpsText || '0') || !(rps >= 0 && rps <= 1000000)) {
    errors.push(['rps', key + '.rateLimit.rps: must be a number from 0 to 1000000']);
  }
  if (errors.length) {
    for (const [f, m] of errors) mgInvalid(form, f, m);
    return;
  }
  const body = { name, quota: { extractionsPerHour: quota ?? 0 }, rateLimit: { rps } };
  let secret = null;
  let token = null;
  if (!editing) {
    secret = mgRandomSecret();
    body.secret = secret;
    if ($('mg-cl-withtoken').checked) {
      token = mgRandomSecret();
      body.token = token;
    }
  }
  try {
    if (editing) await api('PUT', '/clients/' + encodeURIComponent(editing), body);
    else await api('POST', '/clients', body);
  } catch (e) {
    fieldError(form, (e.code ? e.code + ': ' : '') + e.message, MG_CLIENT_FIELDS);
    return;
  }
  mgResetClient();
  if (secret) {
    mgShowSecret(name, secret, token);
    showInfo('Client ' + name + ' created: copy its secret now, it is not shown again.');
  } else {
    showInfo('Client ' + name + ' saved.');
  }
  await renderManage(true);
}

function mgAskRotate(c) {
  const enabling = mgClientState(c) === 'disabled';
  mg.confirmWhat = (enabling ? 'enable' : 'rotate the secret of') + " client '" + c.name + "'";
  mgAskConfirm((enabling ? 'Enable' : 'Rotate') + " client '" + c.name + "'? A new gateway secret"
    + (c.hasToken ? ' and a new API token are' : ' is') + ' generated and shown once'
    + (enabling ? '.' : '; the old ' + (c.hasToken ? 'secret and token stop' : 'secret stops') + ' working at once.'),
  enabling ? 'Enable ' + c.name : 'Rotate ' + c.name, async () => {
    const body = mgClientBody(c);
    body.secret = mgRandomSecret();
    if (c.hasToken) body.token = mgRandomSecret();
    await api('PUT', '/clients/' + encodeURIComponent(c.name), body);
    mgShowSecret(c.name, body.secret, body.token);
    showInfo('Client ' + c.name + ': new secret' + (body.token ? ' and token' : '') + '; copy now, not shown again.');
  });
}

/** Said before a client loses its secret: whether any other client still has one. */
function mgLastSecretWarning(c) {
  if (!c.hasSecret || mg.clients.some((o) => o.name !== c.name && o.hasSecret)) return '';
  return ' It is the last client with a gateway secret: a gateway bound to loopback then admits anyone'
    + ' (development mode), one bound to another address refuses everyone.';
}

function mgAskDisable(c) {
  mg.confirmWhat = "disable client '" + c.name + "'";
  mgAskConfirm("Disable client '" + c.name + "'? Its gateway secret" + (c.hasToken ? ' and API token are' : ' is')
    + ' removed: it can no longer authenticate until it is enabled with a new secret.' + mgLastSecretWarning(c),
  'Disable ' + c.name, async () => {
    const body = mgClientBody(c);
    body.secret = null;
    body.token = null;
    await api('PUT', '/clients/' + encodeURIComponent(c.name), body);
    showInfo('Client ' + c.name + ' disabled.');
  });
}

// ---- credential refs (the providers' credentialRef) ------------------------------------------------

function mgFillRefProviders(ref) {
  const box = $('mg-cr-providers');
  const checked = new Set([...box.querySelectorAll('input:checked')].map((i) => i.value));
  mgFill(box, mg.providers.map((p) => {
    const id = 'mg-cr-p-' + p.name;
    const on = ref !== undefined && ref !== null ? p.credentialRef === ref : checked.has(p.name);
    return el('label', { class: 'mg-check', for: id },
      el('input', { type: 'checkbox', id, name: 'providers', value: p.name, checked: on }),
      ' ' + p.name + (p.credentialRef && p.credentialRef !== ref ? ' (now ' + p.credentialRef + ')' : ''));
  }));
  if (!mg.providers.length) mgFill(box, [el('span', { class: 'muted', text: 'No provider yet.' })]);
}

function mgEditCredential(ref) {
  mgResetCredential();
  mg.editing.credential = ref;
  $('mg-cr-title').textContent = 'Edit credential ref ' + ref;
  $('mg-cr-name').value = ref;
  mgFillRefProviders(ref);
  $('mg-cr-form').scrollIntoView({ block: 'nearest' });
}

function mgResetCredential() {
  mg.editing.credential = null;
  $('mg-cr-form').reset();
  $('mg-cr-title').textContent = 'Add a credential ref';
  clearFieldErrors($('mg-cr-form'));
  for (const i of $('mg-cr-providers').querySelectorAll('input')) i.checked = false;
}

/**
 * Gives {@code ref} (null: none) to the providers named in {@code using} and takes {@code old} away from the
 * others that have it: one PUT per provider that changes, its document as answered (a masked URL keeps its secret).
 */
async function mgSetRef(old, ref, using) {
  for (const p of mg.providers) {
    const want = using.includes(p.name) ? ref : (p.credentialRef === old ? null : p.credentialRef);
    if ((want || null) === (p.credentialRef || null)) continue;
    const doc = mgClone(p);
    if (want) doc.credentialRef = want; else delete doc.credentialRef;
    await api('PUT', '/providers/' + encodeURIComponent(p.name), doc);
  }
}

async function mgSaveCredential(ev) {
  ev.preventDefault();
  const form = $('mg-cr-form');
  clearFieldErrors(form);
  const editing = mg.editing.credential;
  const ref = $('mg-cr-name').value.trim();
  const using = [...$('mg-cr-providers').querySelectorAll('input:checked')].map((i) => i.value);
  const errors = [];
  if (!MG_REF.test(ref)) {
    errors.push(['ref', "providers[].credentialRef: '" + ref
      + "' is not valid (1 to 128 letters, digits, '.', '_', '-', starting with a letter or digit)"]);
  } else if (ref !== editing && mgRefs().has(ref)) {
    errors.push(['ref', "credential ref '" + ref + "' already exists: edit it instead"]);
  }
  if (!using.length) {
    errors.push(['providers', 'choose at least one provider: a credential ref exists through the providers that name it'
      + (editing ? ' (to remove it everywhere, delete it)' : '')]);
  }
  if (errors.length) {
    for (const [f, m] of errors) mgInvalid(form, f, m);
    return;
  }
  try {
    await mgSetRef(editing, ref, using);
  } catch (e) {
    fieldError(form, (e.code ? e.code + ': ' : '') + e.message, [[/credentialRef/, 'ref']]);
    await renderManage(true);
    return;
  }
  showInfo('Credential ref ' + ref + ' given to ' + mgNames('provider', using) + '.');
  mgResetCredential();
  await renderManage(true);
}

// ---- wiring ---------------------------------------------------------------------------------------

document.addEventListener('DOMContentLoaded', () => {
  for (const b of document.querySelectorAll('#mg-tabs [data-tab]')) {
    b.addEventListener('click', () => mgShowTab(b.dataset.tab));
  }
  $('mg-confirm-yes').addEventListener('click', mgConfirmed);
  $('mg-confirm-no').addEventListener('click', mgHideConfirm);
  $('mg-secret-dismiss').addEventListener('click', mgForgetSecret);
  $('mg-pv-form').addEventListener('submit', mgSaveProvider);
  $('mg-pv-new').addEventListener('click', mgResetProvider);
  $('mg-rt-form').addEventListener('submit', mgSaveRouting);
  $('mg-rt-new').addEventListener('click', mgResetRouting);
  $('mg-cl-form').addEventListener('submit', mgSaveClient);
  $('mg-cl-new').addEventListener('click', mgResetClient);
  $('mg-cr-form').addEventListener('submit', mgSaveCredential);
  $('mg-cr-new').addEventListener('click', mgResetCredential);
  // a shown secret is gone once the operator leaves the page or signs out (the nav hides on sign-out)
  window.addEventListener('hashchange', () => {
    if (currentPage() !== 'manage') mgForgetSecret();
  });
  new MutationObserver(() => {
    if ($('nav').hidden) {
      mgForgetSecret();
      mgHideConfirm();
      if (document.body.dataset.keepForms === 'true') {
        // a 401 (a restart, a revoked token): the typing stays for after the next sign-in, a typed secret does not
        for (const e of document.querySelectorAll('#page-manage input[type="password"]')) e.value = '';
      } else {
        for (const reset of [mgResetProvider, mgResetRouting, mgResetClient, mgResetCredential]) reset();
      }
    }
  }).observe($('nav'), { attributes: true, attributeFilter: ['hidden'] });
  mgShowTab(MG_TABS.includes(mg.tab) ? mg.tab : 'providers');
});
