// The search page's saved searches and export.
import { processRequest } from './search-api.js';
import { $, announce, el, navigate, plural, state } from './search-page.js';
import { visibleHeaders } from './search-results.js';
import { filterList } from './search-state.js';

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
