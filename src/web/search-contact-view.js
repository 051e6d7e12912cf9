// The search page's contact view: a dialog over the results, its contact in the URL.
import { processRequest } from './search-api.js';
import { readContact, renderContact } from './search-contact.js';
import { $, announce, navigate, state, ui } from './search-page.js';

const dialog = $('contact');

export function openContact(id) {
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

export async function syncContact() {
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
