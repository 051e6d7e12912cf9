// The search page's columns and results: the grid, sorting, paging, errors and the empty state.
import { call } from './search-api.js';
import { findRanges, highlighted, queryTokens } from './search-highlight.js';
import { $, apply, el, navigate, PAGE_SIZE, plural, state, ui } from './search-page.js';
import { filterCount, filterList, writeState } from './search-state.js';

export async function loadHeaders() {
  if (ui.headersDb === state.db) return;
  const doc = await call(state.db, 'GetSearchResultHeaders', { View: 'Default' });
  ui.headers = doc.Headers;
  ui.labels = new Map(doc.Headers.map((h) => [h.Field, h.Label]));
  ui.headersDb = state.db;
  renderColumnChooser();
}

export function visibleHeaders() {
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

function setBusy(busy) {
  $('grid').setAttribute('aria-busy', String(busy));
  document.body.classList.toggle('loading', busy);
}

export function hideError() {
  $('error').hidden = true;
  ui.retry = null;
}

export function showError(e, retry) {
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

export async function runSearch() {
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
export function itemText(v) {
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
