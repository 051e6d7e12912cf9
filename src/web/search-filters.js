// The search page's filter panel: chips, value lists, searched values and date ranges.
import { call } from './search-api.js';
import { humanize } from './search-contact.js';
import { findRanges, queryTokens } from './search-highlight.js';
import { $, el, navigate, SHOWN_VALUES, state, ui } from './search-page.js';
import { filterCount, filterList } from './search-state.js';

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

export function renderChips() {
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

export async function runFilters() {
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
