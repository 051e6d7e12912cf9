// The search page's type-ahead: a WAI-ARIA combobox with a listbox popup of suggested contacts.
import { call } from './search-api.js';
import { openContact } from './search-contact-view.js';
import { humanize } from './search-contact.js';
import { highlighted } from './search-highlight.js';
import {
  $,
  announce,
  commitQuery,
  el,
  navigate,
  state,
  SUGGESTIONS,
  TYPING_MS,
  ui,
} from './search-page.js';
import { itemText } from './search-results.js';
import { filterList } from './search-state.js';

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
