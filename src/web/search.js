// The search page: type-ahead combobox, result grid, filter panel, contact view, saved searches and
// export, with every view in the URL (docs/SEARCH-PAGE.md).
import { call, processRequest } from './search-api.js';
import { humanize, readContact, renderContact } from './search-contact.js';
import { findRanges, highlighted, queryTokens } from './search-highlight.js';
import { filterCount, filterList, readState, writeState } from './search-state.js';

const $ = (id) => document.getElementById(id);
const PAGE_SIZE = 25;
const SUGGESTIONS = 8;
const SHOWN_VALUES = 6; // values of a filter list shown before "Show more"
const TYPING_MS = 200; // a pause in typing that runs the search

function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  for (const c of children) if (c != null) e.append(c);
  return e;
}
const plural = (n, one, many) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
const announce = (text) => {
  $('announce').textContent = '';
  setTimeout(() => {
    $('announce').textContent = text;
  }, 30);
};

let state = readState(location.search);
const ui = {
  headersDb: null,
  headers: [],
  labels: new Map(),
  searchKey: null,
  filtersKey: null,
  searchSeq: 0,
  filtersSeq: 0,
  suggestSeq: 0,
  options: [],
  active: -1,
  typing: false,
  typingTimer: 0,
  facetOrder: new Map(),
  facetOrderKey: null,
  expanded: new Set(),
  why: new Map(),
  contactPushed: false,
  retry: null,
};

// ---- navigation: every change of view goes through the URL ----

function navigate(next, { push = true } = {}) {
  state = next;
  const url = location.pathname + writeState(state);
  if (url !== location.pathname + location.search)
    history[push ? 'pushState' : 'replaceState'](null, '', url);
  apply();
}

function commitQuery() {
  clearTimeout(ui.typingTimer);
  const q = $('q').value;
  const wasTyping = ui.typing;
  ui.typing = false;
  if (q !== state.q) navigate({ ...state, q, page: 1 }, { push: !wasTyping });
}

async function apply() {
  $('db').value = state.db;
  if (!ui.typing && $('q').value !== state.q) $('q').value = state.q;
  document.title = state.q ? `${state.q} – Contact Search` : 'Contact Search';
  try {
    await loadHeaders();
  } catch (e) {
    showError(e, apply);
    return;
  }
  renderChips();
  const searchKey = JSON.stringify([
    state.db,
    state.q,
    [...state.filters],
    [...state.ranges],
    state.sort,
    state.page,
    state.cols,
  ]);
  if (searchKey !== ui.searchKey) {
    ui.searchKey = searchKey;
    runSearch();
  }
  const filtersKey = JSON.stringify([state.db, state.q, [...state.filters], [...state.ranges]]);
  if (filtersKey !== ui.filtersKey) {
    ui.filtersKey = filtersKey;
    runFilters();
  }
  syncContact();
}

// ---- columns ----

async function loadHeaders() {
  if (ui.headersDb === state.db) return;
  const doc = await call(state.db, 'GetSearchResultHeaders', { View: 'Default' });
  ui.headers = doc.Headers;
  ui.labels = new Map(doc.Headers.map((h) => [h.Field, h.Label]));
  ui.headersDb = state.db;
  renderColumnChooser();
}

function visibleHeaders() {
  if (!state.cols) return ui.headers.filter((h) => h.Visible !== false);
  const chosen = new Set(state.cols);
  const shown = ui.headers.filter((h) => chosen.has(h.Field));
  return shown.length ? shown : ui.headers.filter((h) => h.Visible !== false);
}

function renderColumnChooser() {
  const box = $('columns');
  const shown = new Set(visibleHeaders().map((h) => h.Field));
  box.replaceChildren(
    box.querySelector('legend'),
    ...ui.headers.map((h) => {
      const input = el('input', { type: 'checkbox', checked: shown.has(h.Field), value: h.Field });
      input.addEventListener('change', () => {
        const checked = [...box.querySelectorAll('input:checked')].map((i) => i.value);
        if (!checked.length) {
          input.checked = true;
          return;
        } // at least one column
        navigate({ ...state, cols: checked });
      });
      return el('label', {}, input, ` ${h.Label}`);
    }),
  );
}

// ---- results ----

function setBusy(busy) {
  $('grid').setAttribute('aria-busy', String(busy));
  document.body.classList.toggle('loading', busy);
}

function hideError() {
  $('error').hidden = true;
  ui.retry = null;
}

function showError(e, retry) {
  $('error-text').textContent = e?.message || String(e);
  $('error').hidden = false;
  ui.retry = retry;
  // Rows of an earlier search must not pass for the answer to this one.
  $('grid').tBodies[0].replaceChildren();
  $('grid').hidden = true;
  $('pager').hidden = true;
  $('empty').hidden = true;
  $('status').textContent = 'Results could not be loaded.';
}

async function runSearch() {
  const seq = ++ui.searchSeq;
  const headers = visibleHeaders();
  const params = {
    Query: state.q,
    Filters: filterList(state.filters, state.ranges),
    Page: state.page,
    PageSize: PAGE_SIZE,
    Fields: headers.map((h) => h.Field),
  };
  if (state.sort) params.Sort = [state.sort];
  setBusy(true);
  try {
    const doc = await call(state.db, 'GetSearchResults', params, 'InternalUse');
    if (seq !== ui.searchSeq) return;
    const pages = Math.max(1, Math.ceil(doc.Total / PAGE_SIZE));
    if (state.page > pages) {
      navigate({ ...state, page: pages }, { push: false });
      return;
    }
    hideError();
    renderGrid(headers, doc);
  } catch (e) {
    if (seq === ui.searchSeq)
      showError(e, () => {
        ui.searchKey = null;
        apply();
      });
  } finally {
    if (seq === ui.searchSeq) setBusy(false);
  }
}

function sortButton(h) {
  const current = state.sort?.Field === h.Field ? state.sort.Dir : null;
  const th = el('th', { scope: 'col' });
  th.dataset.field = h.Field;
  // The schema's width, scaled down, as the column's least width: words are not cut into letters.
  if (h.Width) th.style.minWidth = `${Math.round(h.Width * 0.55)}px`;
  if (!h.Sortable) {
    th.textContent = h.Label;
    return th;
  }
  th.setAttribute(
    'aria-sort',
    current === 'Asc' ? 'ascending' : current === 'Desc' ? 'descending' : 'none',
  );
  const button = el(
    'button',
    { type: 'button', className: 'sort' },
    h.Label,
    el('span', {
      className: 'arrow',
      textContent: current === 'Asc' ? '▲' : current === 'Desc' ? '▼' : '',
    }),
  );
  button.setAttribute(
    'aria-label',
    `${h.Label}, sort ${current === 'Asc' ? 'descending' : current === 'Desc' ? 'by relevance' : 'ascending'}`,
  );
  button.addEventListener('click', () => {
    const sort =
      current === 'Asc'
        ? { Field: h.Field, Dir: 'Desc' }
        : current === 'Desc'
          ? null
          : { Field: h.Field, Dir: 'Asc' };
    navigate({ ...state, sort, page: 1 });
  });
  th.append(button);
  return th;
}

/** A value as text; a structured item ({Label, Number} for a labelled phone, say) as "label: value". */
function itemText(v) {
  if (v == null) return '';
  if (typeof v !== 'object') return String(v);
  const value = v.Value ?? v.Number ?? v.Address ?? v.Url ?? v.Text;
  const label = v.Label ?? v.Type;
  if (value !== undefined) return label ? `${label}: ${value}` : String(value);
  return Object.values(v)
    .filter((x) => x != null && x !== '')
    .map(String)
    .join(' ');
}
function cellText(v) {
  return Array.isArray(v) ? v.map(itemText).join(', ') : itemText(v);
}

function contactHref(id) {
  return location.pathname + writeState({ ...state, contact: id });
}

function renderGrid(headers, doc) {
  const tokens = queryTokens(state.q);
  const grid = $('grid');
  // The header row is drawn anew: a keyboard user who just sorted stays on the same header.
  const focusedSort = document.activeElement?.closest?.('#grid th')?.dataset.field;
  grid.tHead.rows[0].replaceChildren(...headers.map(sortButton));
  if (focusedSort)
    grid.querySelector(`th[data-field="${CSS.escape(focusedSort)}"] button`)?.focus();
  const linkField = headers.find((h) => h.Field === 'DisplayName')?.Field ?? headers[0].Field;
  const rows = doc.Rows.map((r) => {
    const tr = el('tr');
    tr.dataset.id = r.ContactId;
    for (const h of headers) {
      const text = cellText(r[h.Field]);
      const content = highlighted(text, findRanges(text, tokens));
      const td = el('td');
      td.dataset.label = h.Label;
      // Long unbroken text (an email) may break anywhere; names and places break between words only.
      if (/\S{22,}/.test(text)) td.className = 'anywhere';
      if (h.Field === linkField) {
        const a = el('a', { href: contactHref(r.ContactId), className: 'open' }, content);
        if (!text) a.textContent = r.ContactId;
        td.append(a);
      } else td.append(content);
      tr.append(td);
    }
    return tr;
  });
  grid.tBodies[0].replaceChildren(...rows);
  grid.hidden = rows.length === 0;
  const from = (doc.Page - 1) * PAGE_SIZE + 1;
  const pages = Math.max(1, Math.ceil(doc.Total / PAGE_SIZE));
  $('status').textContent = doc.Total
    ? `${from.toLocaleString()}–${(from + rows.length - 1).toLocaleString()} of ${plural(doc.Total, 'contact', 'contacts')}`
    : 'No contacts';
  $('status').dataset.ms = doc.Internal ? (doc.Internal.ElapsedMicroseconds / 1000).toFixed(1) : '';
  $('pager').hidden = pages <= 1;
  $('page-of').textContent = `Page ${doc.Page} of ${pages.toLocaleString()}`;
  $('prev').disabled = doc.Page <= 1;
  $('next').disabled = doc.Page >= pages;
  renderEmpty(doc.Total === 0);
}

function renderEmpty(empty) {
  $('empty').hidden = !empty;
  if (!empty) return;
  const what = state.q ? `“${state.q}”` : 'this search';
  $('empty-text').textContent =
    `No contacts match ${what}${filterCount(state) ? ' with the filters chosen' : ''}.`;
  const actions = [];
  if (filterCount(state))
    actions.push(
      el('button', {
        type: 'button',
        textContent: 'Clear filters',
        onclick: () => navigate({ ...state, filters: new Map(), ranges: new Map(), page: 1 }),
      }),
    );
  if (state.q) {
    actions.push(
      el('button', {
        type: 'button',
        textContent: 'Clear search',
        onclick: () => {
          $('q').value = '';
          navigate({ ...state, q: '', page: 1 });
          $('q').focus();
        },
      }),
    );
  }
  $('empty-actions').replaceChildren(...actions);
}

// ---- filters ----

function setFilter(field, value, on) {
  const filters = new Map(state.filters);
  const values = (filters.get(field) ?? []).filter((v) => v !== value);
  if (on) values.push(value);
  if (values.length) filters.set(field, values);
  else filters.delete(field);
  navigate({ ...state, filters, page: 1 });
}

function setRange(field, from, to) {
  const ranges = new Map(state.ranges);
  if (from || to) ranges.set(field, [from, to]);
  else ranges.delete(field);
  navigate({ ...state, ranges, page: 1 });
}

/** A removable filter chip; removing it moves focus to the next chip (or the search box). */
function chip(label, remove, key) {
  const b = el(
    'button',
    { type: 'button', className: 'chip' },
    label,
    el('span', { className: 'x', textContent: '✕' }),
  );
  b.setAttribute('aria-label', `Remove filter ${label}`);
  if (key) b.dataset.key = key;
  b.addEventListener('click', () => {
    const next = b.nextElementSibling;
    remove();
    (next && next.isConnected ? next : $('q')).focus();
  });
  return b;
}

function renderChips() {
  const chips = [];
  const labelOf = (field) => ui.labels.get(field) ?? humanize(field);
  for (const [field, values] of state.filters) {
    for (const v of values) {
      const key = `chip\u0000${field}\u0000${v}`;
      chips.push(chip(`${labelOf(field)}: ${v}`, () => setFilter(field, v, false), key));
    }
  }
  for (const [field, [from, to]] of state.ranges) {
    const label = `${labelOf(field)}: ${from || '…'} – ${to || '…'}`;
    chips.push(chip(label, () => setRange(field, '', '')));
  }
  if (chips.length) {
    chips.push(
      el('button', {
        type: 'button',
        className: 'clear-all',
        textContent: 'Clear all',
        onclick: () => {
          navigate({ ...state, filters: new Map(), ranges: new Map(), page: 1 });
          $('q').focus();
        },
      }),
    );
  }
  $('chips').replaceChildren(...chips);
  $('chips').hidden = !chips.length;
  const n = filterCount(state);
  $('filters-open').textContent = n ? `Filters (${n})` : 'Filters';
}

async function runFilters() {
  const seq = ++ui.filtersSeq;
  try {
    const doc = await call(state.db, 'GetSearchFilters', {
      Query: state.q,
      Filters: filterList(state.filters, state.ranges),
    });
    if (seq === ui.filtersSeq) renderFacets(doc.Filters);
  } catch (e) {
    if (seq === ui.filtersSeq)
      $('facets').replaceChildren(
        el('p', {
          className: 'error-text',
          textContent: `Filters could not be loaded: ${e.message}`,
        }),
      );
  }
}

/** The values in the order first seen for this search, so ticking one never moves the others. */
function stableOptions(field, options) {
  const key = JSON.stringify([state.db, state.q]);
  if (ui.facetOrderKey !== key) {
    ui.facetOrder.clear();
    ui.facetOrderKey = key;
  }
  const order = ui.facetOrder.get(field) ?? [];
  const byValue = new Map(options.map((o) => [o.Value, o]));
  for (const o of options) if (!order.includes(o.Value)) order.push(o.Value);
  ui.facetOrder.set(field, order);
  const selected = new Set(state.filters.get(field) ?? []);
  for (const v of selected) if (!order.includes(v)) order.push(v);
  return order
    .map((v) => byValue.get(v) ?? { Value: v, Label: v, Count: 0 })
    .filter((o) => o.Count > 0 || selected.has(o.Value));
}

function valueBox(field, o, selected) {
  const input = el('input', { type: 'checkbox', checked: selected.has(o.Value) });
  input.dataset.key = `value\u0000${field}\u0000${o.Value}`;
  input.addEventListener('change', () => setFilter(field, o.Value, input.checked));
  return el(
    'label',
    { className: 'value' },
    input,
    el('span', { className: 'name', textContent: o.Label }),
    el('span', { className: 'count', textContent: o.Count.toLocaleString() }),
  );
}

function listFacet(f) {
  const selected = new Set(state.filters.get(f.Field) ?? []);
  const options = stableOptions(f.Field, f.Options);
  const id = `facet-${f.Field}`;
  const list = el('div', { className: 'values', id: `${id}-values` });
  const expanded = ui.expanded.has(f.Field);
  const find =
    options.length > 10
      ? el('input', {
          type: 'search',
          className: 'find',
          placeholder: `Find ${f.Label.toLowerCase()}`,
          autocomplete: 'off',
        })
      : null;
  const more =
    options.length > SHOWN_VALUES ? el('button', { type: 'button', className: 'link more' }) : null;
  const draw = () => {
    const text = queryTokens(find?.value ?? '');
    const matching = text.length
      ? options.filter((o) => findRanges(o.Label, text).length)
      : options;
    const shown = expanded || text.length ? matching : matching.slice(0, SHOWN_VALUES);
    list.replaceChildren(...shown.map((o) => valueBox(f.Field, o, selected)));
    if (!shown.length)
      list.append(el('p', { className: 'hint', textContent: 'No value matches.' }));
    if (more) {
      more.hidden = text.length > 0;
      more.textContent = expanded ? 'Show fewer' : `Show ${options.length - SHOWN_VALUES} more`;
      more.setAttribute('aria-expanded', String(expanded));
    }
  };
  if (find) {
    find.setAttribute('aria-label', `Find a value of ${f.Label}`);
    find.dataset.key = `find\u0000${f.Field}`;
    find.addEventListener('input', draw);
  }
  if (more) {
    more.setAttribute('aria-controls', list.id);
    more.dataset.key = `more\u0000${f.Field}`;
    more.addEventListener('click', () => {
      if (expanded) ui.expanded.delete(f.Field);
      else ui.expanded.add(f.Field);
      runFilters();
    });
  }
  draw();
  return el(
    'fieldset',
    { className: 'facet' },
    el('legend', { textContent: f.Label }),
    find,
    list,
    more,
  );
}

/** A field with too many values to list (City, Organisation …): its values are searched (GetPredictiveOptions). */
function predictiveFacet(f) {
  const selected = state.filters.get(f.Field) ?? [];
  const chosen = el(
    'div',
    { className: 'values' },
    ...selected.map((v) =>
      valueBox(f.Field, { Value: v, Label: v, Count: NaN }, new Set(selected)),
    ),
  );
  for (const c of chosen.querySelectorAll('.count')) c.remove();
  const found = el('div', { className: 'values', role: 'group' });
  found.setAttribute('aria-label', `${f.Label} values found`);
  const input = el('input', {
    type: 'search',
    className: 'find',
    placeholder: `Find ${f.Label.toLowerCase()}`,
    autocomplete: 'off',
  });
  input.setAttribute('aria-label', `Find a value of ${f.Label}`);
  input.dataset.key = `find\u0000${f.Field}`;
  let seq = 0;
  input.addEventListener('input', async () => {
    const mine = ++seq;
    if (!input.value.trim()) {
      found.replaceChildren();
      return;
    }
    const others = new Map(state.filters);
    others.delete(f.Field);
    try {
      const doc = await call(state.db, 'GetPredictiveOptions', {
        Field: f.Field,
        Text: input.value,
        Limit: 8,
        Query: state.q,
        Filters: filterList(others, state.ranges),
      });
      if (mine !== seq) return;
      const sel = new Set(selected);
      const options = doc.Options.filter((o) => !sel.has(o.Value));
      found.replaceChildren(...options.map((o) => valueBox(f.Field, o, sel)));
      if (!options.length)
        found.append(el('p', { className: 'hint', textContent: 'No value matches.' }));
    } catch (e) {
      if (mine === seq)
        found.replaceChildren(el('p', { className: 'error-text', textContent: e.message }));
    }
  });
  const details = el(
    'details',
    { className: 'facet', open: selected.length > 0 || ui.expanded.has(f.Field) },
    el(
      'summary',
      {},
      f.Label,
      selected.length
        ? el('span', { className: 'count', textContent: ` ${selected.length}` })
        : null,
    ),
    chosen,
    input,
    found,
  );
  details.addEventListener('toggle', () => {
    if (details.open) ui.expanded.add(f.Field);
    else ui.expanded.delete(f.Field);
  });
  return details;
}

/** A date field (Created, Updated): from and to, either may stay open. */
function rangeFacet(f) {
  const [from, to] = state.ranges.get(f.Field) ?? ['', ''];
  const day = (v) => (typeof v === 'string' ? v.slice(0, 10) : '');
  const input = (which, value) => {
    const i = el('input', { type: 'date', value, min: day(f.Min), max: day(f.Max) });
    i.dataset.key = `${which}\u0000${f.Field}`;
    i.setAttribute('aria-label', `${f.Label} ${which}`);
    i.addEventListener('change', () => {
      const [a, b] = state.ranges.get(f.Field) ?? ['', ''];
      if (which === 'from') setRange(f.Field, i.value, b);
      else setRange(f.Field, a, i.value);
    });
    return el(
      'label',
      { className: 'date' },
      el('span', { textContent: which === 'from' ? 'From' : 'To' }),
      i,
    );
  };
  const details = el(
    'details',
    { className: 'facet', open: Boolean(from || to) || ui.expanded.has(f.Field) },
    el('summary', {}, f.Label),
    el('div', { className: 'dates' }, input('from', from), input('to', to)),
  );
  details.addEventListener('toggle', () => {
    if (details.open) ui.expanded.add(f.Field);
    else ui.expanded.delete(f.Field);
  });
  return details;
}

function renderFacets(filters) {
  // Keep the keyboard where it was: the panel is drawn anew after every change.
  const focusKey = document.activeElement?.closest?.('#facets')
    ? document.activeElement.dataset.key
    : undefined;
  const finds = new Map(
    [...$('facets').querySelectorAll('input.find')].map((i) => [i.dataset.key, i.value]),
  );
  // A field lists its values when the service gives them (few enough under this search); a
  // predictive field without them has its values searched instead.
  const lists = filters.filter(
    (f) => Array.isArray(f.Options) && (f.Options.length || state.filters.has(f.Field)),
  );
  const predictive = filters.filter((f) => f.Control === 'Predictive' && !lists.includes(f));
  const dates = filters.filter((f) => f.Control === 'DateRange');
  const parts = [
    ...lists.map(listFacet),
    ...predictive.map(predictiveFacet),
    ...dates.map(rangeFacet),
  ];
  $('facets').replaceChildren(...parts);
  for (const i of $('facets').querySelectorAll('input.find')) {
    const v = finds.get(i.dataset.key);
    if (v) {
      i.value = v;
      i.dispatchEvent(new Event('input'));
    }
  }
  if (focusKey)
    [...$('facets').querySelectorAll('[data-key]')]
      .find((e) => e.dataset.key === focusKey)
      ?.focus();
}

// ---- type-ahead (WAI-ARIA combobox with a listbox popup) ----

const q = $('q');
const list = $('suggest');

function openList(open) {
  list.hidden = !open;
  q.setAttribute('aria-expanded', String(open));
  if (!open) setActive(-1);
}

function setActive(i) {
  ui.active = i;
  for (const [k, li] of [...list.children].entries())
    li.setAttribute('aria-selected', String(k === i));
  if (i >= 0) {
    q.setAttribute('aria-activedescendant', `opt-${i}`);
    list.children[i].scrollIntoView({ block: 'nearest' });
  } else q.removeAttribute('aria-activedescendant');
}

function whyKey(id, m) {
  return `${id}\u0000${m.Field}\u0000${m.Item ?? ''}`;
}

/** The matched value of a field other than the name, with its highlight: why this contact was suggested. */
function whyLine(o, m) {
  const value = ui.why.get(whyKey(o.ContactId, m));
  const span = el('span', { className: 'why-value' });
  span.dataset.key = whyKey(o.ContactId, m);
  if (value !== undefined)
    span.append(
      highlighted(
        value,
        o.Matches.filter((x) => x.Field === m.Field && (x.Item ?? '') === (m.Item ?? '')),
      ),
    );
  return el(
    'span',
    { className: 'why' },
    el('span', {
      className: 'field',
      textContent: `${ui.labels.get(m.Field) ?? humanize(m.Field)}: `,
    }),
    span,
  );
}

function renderOptions(options, text) {
  ui.options = options;
  list.replaceChildren(
    ...options.map((o, i) => {
      const name = highlighted(
        o.Label,
        o.Matches.filter((m) => m.Field === 'DisplayName'),
      );
      // The description starts with the organisation: its matches are shown in place.
      const desc = highlighted(
        o.Description || '',
        o.Matches.filter((m) => m.Field === 'Organization'),
      );
      const seen = new Set();
      const why = o.Matches.filter(
        (m) =>
          m.Field !== 'DisplayName' &&
          m.Field !== 'Organization' &&
          !seen.has(whyKey('', m)) &&
          seen.add(whyKey('', m)),
      );
      const li = el(
        'li',
        { role: 'option', id: `opt-${i}` },
        el('span', { className: 'name' }, name),
        o.Description ? el('span', { className: 'desc' }, desc) : null,
        ...why.map((m) => whyLine(o, m)),
      );
      li.dataset.id = o.ContactId;
      li.setAttribute('aria-selected', 'false');
      li.addEventListener('mousedown', (ev) => ev.preventDefault()); // keep focus in the input
      li.addEventListener('click', () => pick(i));
      return li;
    }),
  );
  list.dataset.text = text;
  openList(options.length > 0);
  if (!options.length) announce(`No contacts start with “${text}”.`);
  fillWhy(options, text);
}

/** Fetches the matched values the options do not carry (one GetSearchResults for all of them). */
async function fillWhy(options, text) {
  const missing = options.flatMap((o) =>
    o.Matches.filter(
      (m) =>
        m.Field !== 'DisplayName' &&
        m.Field !== 'Organization' &&
        !ui.why.has(whyKey(o.ContactId, m)),
    ).map(() => o.ContactId),
  );
  if (!missing.length) return;
  const ids = [...new Set(missing)];
  const fields = [
    ...new Set(
      options
        .flatMap((o) => o.Matches.map((m) => m.Field))
        .filter((f) => f !== 'DisplayName' && f !== 'Organization'),
    ),
  ];
  try {
    const doc = await call(state.db, 'GetSearchResults', {
      Filters: [{ Field: 'ContactId', Op: 'In', Values: ids }],
      Fields: fields,
      PageSize: ids.length,
    });
    for (const r of doc.Rows) {
      for (const f of fields) {
        const v = r[f];
        if (Array.isArray(v))
          v.forEach((item, k) => ui.why.set(`${r.ContactId}\u0000${f}\u0000${k}`, itemText(item)));
        else ui.why.set(`${r.ContactId}\u0000${f}\u0000`, itemText(v));
      }
    }
  } catch {
    return;
  } // the suggestion still shows which field matched
  if (list.dataset.text !== text) return;
  for (const span of list.querySelectorAll('.why-value:empty')) {
    const o = ui.options.find((x) => span.dataset.key.startsWith(`${x.ContactId}\u0000`));
    const [, field, item] = span.dataset.key.split('\u0000');
    const value = ui.why.get(span.dataset.key);
    if (o && value !== undefined)
      span.append(
        highlighted(
          value,
          o.Matches.filter((m) => m.Field === field && String(m.Item ?? '') === item),
        ),
      );
  }
}

async function suggest() {
  const text = q.value;
  const seq = ++ui.suggestSeq;
  if (!text.trim()) {
    list.replaceChildren();
    list.dataset.text = '';
    openList(false);
    return;
  }
  try {
    const doc = await call(state.db, 'GetPredictiveOptionsSearchContacts', {
      Text: text,
      Limit: SUGGESTIONS,
      Filters: filterList(state.filters, state.ranges),
    });
    if (seq === ui.suggestSeq && document.activeElement === q) renderOptions(doc.Options, text);
  } catch {
    if (seq === ui.suggestSeq) openList(false); // the search below reports the error
  }
}

function pick(i) {
  const o = ui.options[i];
  if (!o) return;
  openList(false);
  openContact(o.ContactId);
}

q.addEventListener('input', () => {
  setActive(-1);
  suggest();
  clearTimeout(ui.typingTimer);
  ui.typingTimer = setTimeout(() => {
    // The first pause of a new query makes a history entry; the next pauses refine it.
    const push = !ui.typing;
    ui.typing = true;
    if (q.value !== state.q) navigate({ ...state, q: q.value, page: 1 }, { push });
  }, TYPING_MS);
});

q.addEventListener('keydown', (e) => {
  const n = list.hidden ? 0 : list.children.length;
  switch (e.key) {
    case 'ArrowDown':
      e.preventDefault();
      if (list.hidden) {
        if (list.children.length) {
          openList(true);
          if (!e.altKey) setActive(0);
        } else suggest();
      } else setActive((ui.active + 1) % n);
      break;
    case 'ArrowUp':
      e.preventDefault();
      if (list.hidden) {
        if (list.children.length) {
          openList(true);
          setActive(list.children.length - 1);
        }
      } else setActive(ui.active <= 0 ? n - 1 : ui.active - 1);
      break;
    case 'Home':
    case 'End':
      if (n && ui.active >= 0) {
        e.preventDefault();
        setActive(e.key === 'Home' ? 0 : n - 1);
      }
      break;
    case 'Enter':
      e.preventDefault();
      if (n && ui.active >= 0) pick(ui.active);
      else {
        ui.suggestSeq++;
        openList(false);
        commitQuery();
      } // suggestions still on their way are not wanted now
      break;
    case 'Escape':
      if (!list.hidden) {
        e.preventDefault();
        ui.suggestSeq++;
        openList(false);
      } else if (q.value) {
        e.preventDefault();
        q.value = '';
        commitQuery();
      }
      break;
    case 'Tab':
      openList(false);
      break;
  }
});
q.addEventListener('blur', () => {
  openList(false);
  if (ui.typing) commitQuery();
});
$('search-form').addEventListener('submit', (e) => {
  e.preventDefault();
  commitQuery();
});

// ---- contact view ----

const dialog = $('contact');

function openContact(id) {
  ui.contactPushed = true;
  navigate({ ...state, contact: id });
}

function closeContact() {
  if (!state.contact) return;
  if (ui.contactPushed) {
    ui.contactPushed = false;
    history.back();
  } else navigate({ ...state, contact: null }, { push: false });
}

async function syncContact() {
  if (!state.contact) {
    if (dialog.open) dialog.close();
    return;
  }
  if (dialog.open && dialog.dataset.id === state.contact) return;
  const id = state.contact;
  dialog.dataset.id = id;
  $('contact-name').textContent = 'Loading contact…';
  $('contact-sub').textContent = '';
  $('contact-error').hidden = true;
  $('contact-fields').replaceChildren();
  dialog.setAttribute('aria-busy', 'true');
  if (!dialog.open) dialog.showModal();
  $('contact-name').focus();
  try {
    const response = await processRequest(state.db, 'GetContact', { ContactId: id });
    if (dialog.dataset.id !== id) return;
    const fields = readContact(response.getElementsByTagName('Contact')[0]);
    const value = (f) => fields.find((x) => x.field === f)?.items[0].value ?? '';
    $('contact-name').textContent = value('DisplayName') || id;
    $('contact-sub').textContent = [value('JobTitle'), value('Organization')]
      .filter(Boolean)
      .join(' · ');
    renderContact($('contact-fields'), fields, ui.labels, announce);
  } catch (e) {
    if (dialog.dataset.id !== id) return;
    $('contact-name').textContent = 'Contact not available';
    $('contact-error').textContent =
      e.code === 'Rejected'
        ? `This contact could not be found (${e.message}). It may have been deleted.`
        : e.message;
    $('contact-error').hidden = false;
  } finally {
    dialog.removeAttribute('aria-busy');
  }
}

dialog.addEventListener('close', () => {
  if (state.contact) closeContact();
});
$('contact-close').addEventListener('click', () => dialog.close());
$('contact-back').addEventListener('click', () => dialog.close());
// A click on the backdrop (outside the panel) closes it too.
dialog.addEventListener('click', (e) => {
  if (e.target === dialog) dialog.close();
});

$('grid').addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey)
    return;
  const tr = e.target.closest('tbody tr');
  if (!tr || (e.target.closest('a') === null && getSelection()?.toString())) return;
  e.preventDefault();
  openContact(tr.dataset.id);
});
// Up and down arrows move between the rows' links, as in a list.
$('grid').addEventListener('keydown', (e) => {
  if ((e.key !== 'ArrowDown' && e.key !== 'ArrowUp') || !e.target.matches('a.open')) return;
  const links = [...$('grid').querySelectorAll('a.open')];
  const next = links[links.indexOf(e.target) + (e.key === 'ArrowDown' ? 1 : -1)];
  if (next) {
    e.preventDefault();
    next.focus();
  }
});

// ---- saved searches and export ----

async function loadSaved() {
  const ul = $('saved-list');
  try {
    const response = await processRequest(state.db, 'ListSavedSearches');
    const saved = [...response.getElementsByTagName('SavedSearch')];
    ul.replaceChildren(
      ...saved.map((s) => {
        const name = s.getAttribute('Name');
        const query = s.getAttribute('Query') ?? '';
        const b = el(
          'button',
          { type: 'button', className: 'link' },
          name,
          query ? el('span', { className: 'hint', textContent: ` “${query}”` }) : null,
        );
        b.addEventListener('click', () => {
          applySaved(query, s.textContent);
          $('saved-menu').open = false;
          announce(`Applied saved search ${name}`);
        });
        const del = el('button', { type: 'button', className: 'delete', textContent: 'Delete' });
        del.setAttribute('aria-label', `Delete saved search ${name}`);
        del.addEventListener('click', async () => {
          try {
            await processRequest(state.db, 'DeleteSavedSearch', { Name: name });
            announce(`Deleted saved search ${name}`);
            await loadSaved();
            $('save-name').focus();
          } catch (err) {
            announce(`Could not delete: ${err.message}`);
          }
        });
        return el('li', {}, b, del);
      }),
    );
    if (!saved.length)
      ul.replaceChildren(el('li', { className: 'hint', textContent: 'None yet.' }));
  } catch (e) {
    ul.replaceChildren(el('li', { className: 'error-text', textContent: e.message }));
  }
}

function applySaved(query, json) {
  let more = {};
  try {
    more = JSON.parse(json || '{}');
  } catch {
    /* only the query then */
  }
  const filters = new Map();
  const ranges = new Map();
  for (const f of more.Filters ?? []) {
    if (!Array.isArray(f.Values)) continue;
    if (f.Op === 'In' || f.Op === 'Eq') filters.set(f.Field, f.Values.map(String));
    else if (f.Op === 'Between') ranges.set(f.Field, [String(f.Values[0]), String(f.Values[1])]);
    else if (f.Op === 'Gte') ranges.set(f.Field, [String(f.Values[0]), '']);
    else if (f.Op === 'Lte') ranges.set(f.Field, ['', String(f.Values[0])]);
  }
  const sort = more.Sort?.[0]
    ? { Field: more.Sort[0].Field, Dir: more.Sort[0].Dir === 'Desc' ? 'Desc' : 'Asc' }
    : null;
  const cols = Array.isArray(more.Fields) && more.Fields.length ? more.Fields : state.cols;
  $('q').value = query;
  navigate({ ...state, q: query, filters, ranges, sort, cols, page: 1, contact: null });
}

$('saved-menu').addEventListener('toggle', () => {
  if ($('saved-menu').open) loadSaved();
});
$('save-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const name = $('save-name').value.trim();
  if (!name) return;
  try {
    await processRequest(state.db, 'SaveSearch', {
      Name: name,
      Query: state.q,
      Filters: filterList(state.filters, state.ranges),
      Sort: state.sort ? [state.sort] : [],
      Fields: visibleHeaders().map((h) => h.Field),
    });
    $('save-name').value = '';
    announce(`Saved search ${name}`);
    loadSaved();
  } catch (err) {
    announce(`Could not save: ${err.message}`);
    $('saved-list').prepend(el('li', { className: 'error-text', textContent: err.message }));
  }
});

$('export-menu').addEventListener('click', async (e) => {
  const button = e.target.closest('button[data-format]');
  if (!button) return;
  button.disabled = true;
  try {
    const response = await processRequest(state.db, 'ExportContacts', {
      Format: button.dataset.format,
      Query: state.q,
      Filters: filterList(state.filters, state.ranges),
    });
    const file = response.getElementsByTagName('File')[0];
    const text = file.textContent;
    const body =
      file.getAttribute('Encoding') === 'Base64'
        ? Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
        : text;
    const url = URL.createObjectURL(
      new Blob([body], { type: file.getAttribute('ContentType') || 'application/octet-stream' }),
    );
    const a = el('a', { href: url, download: file.getAttribute('Name') || 'contacts' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    announce(`Exported ${plural(Number(file.getAttribute('Count') ?? 0), 'contact', 'contacts')}`);
  } catch (err) {
    announce(`Export failed: ${err.message}`);
    $('export-what').textContent = `Export failed: ${err.message}`;
  } finally {
    button.disabled = false;
  }
});

// ---- the rest of the page ----

$('prev').addEventListener('click', () => navigate({ ...state, page: state.page - 1 }));
$('next').addEventListener('click', () => navigate({ ...state, page: state.page + 1 }));
$('retry').addEventListener('click', () => {
  const retry =
    ui.retry ??
    (() => {
      ui.searchKey = null;
      apply();
    });
  hideError();
  retry();
});
$('db').addEventListener('change', () => {
  ui.why.clear();
  navigate({ ...readState(''), db: $('db').value.trim() || 'Demo' });
});

function drawer(open) {
  document.body.classList.toggle('drawer-open', open);
  // While the drawer covers the page, the page behind it is out of reach of Tab and screen readers.
  for (const behind of [document.querySelector('.top'), $('results')]) behind.inert = open;
  $('filters-open').setAttribute('aria-expanded', String(open));
  (open ? $('filters-title') : $('filters-open')).focus();
}
// Widening the window past the drawer's width puts the filters back beside the results.
matchMedia('(max-width: 1040px)').addEventListener('change', (e) => {
  if (!e.matches && document.body.classList.contains('drawer-open')) {
    document.body.classList.remove('drawer-open');
    for (const behind of [document.querySelector('.top'), $('results')]) behind.inert = false;
  }
});
$('filters-open').addEventListener('click', () => drawer(true));
$('filters-close').addEventListener('click', () => drawer(false));
$('filters').addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && document.body.classList.contains('drawer-open')) drawer(false);
});
// Menus close with Escape, as the other popups do.
for (const menu of document.querySelectorAll('details.menu')) {
  menu.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menu.open) {
      menu.open = false;
      menu.querySelector('summary').focus();
    }
  });
}

function online() {
  $('offline').hidden = navigator.onLine;
  if (navigator.onLine && !$('error').hidden) $('retry').click();
}
window.addEventListener('online', online);
window.addEventListener('offline', online);
window.addEventListener('popstate', () => {
  ui.typing = false;
  ui.contactPushed = false;
  state = readState(location.search);
  $('q').value = state.q;
  apply();
});

online();
apply();
