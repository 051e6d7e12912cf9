// The search page: type-ahead combobox, result grid, filter panel, contact view, saved searches and
// export, with every view in the URL (docs/SEARCH-PAGE.md). This module navigates (every change of
// view goes through the URL) and wires the page; each part is a module of its own:
// search-results.js, search-filters.js, search-typeahead.js, search-contact-view.js, search-saved.js.
import { syncContact } from './search-contact-view.js';
import { renderChips, runFilters } from './search-filters.js';
import { $, navigate, onView, setState, state, ui } from './search-page.js';
import { hideError, loadHeaders, runSearch, showError } from './search-results.js';
import { readState } from './search-state.js';
// The parts that only listen (their events wired when they load).
import './search-saved.js';
import './search-typeahead.js';

/** Shows the view in `state`: each part reruns only where what it shows from changed. */
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
  setState(readState(location.search));
  $('q').value = state.q;
  apply();
});

onView(apply);
online();
apply();
