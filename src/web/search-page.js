// What every part of the search page shares: element helpers, the view (`state`, from the URL)
// and the page's own bookkeeping (`ui`).
import { readState, writeState } from './search-state.js';

export const $ = (id) => document.getElementById(id);
export const PAGE_SIZE = 25;
export const SUGGESTIONS = 8;
export const SHOWN_VALUES = 6; // values of a filter list shown before "Show more"
export const TYPING_MS = 200; // a pause in typing that runs the search

export function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  for (const c of children) if (c != null) e.append(c);
  return e;
}
export const plural = (n, one, many) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
export const announce = (text) => {
  $('announce').textContent = '';
  setTimeout(() => {
    $('announce').textContent = text;
  }, 30);
};

/** The view shown, as the URL says (search-state.js); changed only through setState. */
export let state = readState(location.search);
export const setState = (next) => {
  state = next;
};
export const ui = {
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

let show = () => {};
/** What shows the view (search.js's apply), set as the page starts: the parts call it through `apply`. */
export const onView = (f) => {
  show = f;
};
export const apply = () => show();

export function navigate(next, { push = true } = {}) {
  setState(next);
  const url = location.pathname + writeState(state);
  if (url !== location.pathname + location.search)
    history[push ? 'pushState' : 'replaceState'](null, '', url);
  show();
}

export function commitQuery() {
  clearTimeout(ui.typingTimer);
  const q = $('q').value;
  const wasTyping = ui.typing;
  ui.typing = false;
  if (q !== state.q) navigate({ ...state, q, page: 1 }, { push: !wasTyping });
}
