// The contact view: every field of GetContact's <Contact>, in the service's order, labelled from the
// field schema's labels (GetSearchResultHeaders). Fields are rendered from the XML as they come, so a
// field the schema gains later (a nickname, labelled phones, websites …) shows without a change here.

const LINKS = [
  { test: /phone|mobile|fax|^tel/i, href: (v) => `tel:${v.replace(/[^\d+]/g, '')}` },
  { test: /e-?mail/i, href: (v) => `mailto:${v}` },
  { test: /web|url|site|homepage|link/i, href: (v) => (/^https?:\/\/[^\s]+$/i.test(v) ? v : null) },
];
// Element names that hold an item's value when the item is structured (<Phone><Label/><Number/></Phone>).
const VALUE_NAMES = /^(value|number|address|url|uri|text|email|phone)$/i;

/** "NamePrefix" → "Name prefix": the label of a field the headers do not know. */
export function humanize(name) {
  const words = name.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const children = (e) => [...e.children];

/** One item of a field: its value and the labels that qualify it ("mobile", "work"). */
function readItem(e) {
  const tags = [...e.attributes].map((a) => a.value).filter(Boolean);
  const parts = children(e);
  if (!parts.length) return { value: e.textContent.trim(), tags };
  const main = parts.find((p) => VALUE_NAMES.test(p.nodeName)) ?? parts[parts.length - 1];
  for (const p of parts) if (p !== main && p.textContent.trim()) tags.push(p.textContent.trim());
  return { value: main.textContent.trim(), tags };
}

/** The contact's fields as [{field, items:[{value, tags}]}], empty ones left out. */
export function readContact(contactElement) {
  const fields = [];
  for (const e of children(contactElement)) {
    const kids = children(e);
    // A list holds items named alike (<Emails><Email/>…); a structured single value does not.
    const isList =
      kids.length > 0 &&
      kids.every((k) => k.nodeName === kids[0].nodeName) &&
      (kids.length > 1 || e.nodeName.endsWith('s'));
    const items = (isList ? kids.map(readItem) : [readItem(e)]).filter((i) => i.value);
    if (items.length) fields.push({ field: e.nodeName, items });
  }
  return fields;
}

function display(field, value) {
  if (/At$/.test(field) && /^\d{4}-\d\d-\d\dT/.test(value)) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime()))
      return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }
  return value;
}

async function copyText(text) {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      /* fall back below */
    }
  }
  const area = Object.assign(document.createElement('textarea'), { value: text });
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  return ok;
}

/**
 * Fills `dl` with the contact's fields. `labels` maps field names to labels; `announce` tells
 * screen reader users what a copy button did.
 */
export function renderContact(dl, fields, labels, announce) {
  const rows = [];
  for (const { field, items } of fields) {
    const label = labels.get(field) ?? humanize(field);
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.dataset.field = field;
    for (const { value, tags } of items) {
      const line = document.createElement('div');
      line.className = 'value';
      for (const t of tags) {
        const tag = document.createElement('span');
        tag.className = 'tag';
        tag.textContent = t;
        line.append(tag, ' ');
      }
      const href = LINKS.find((l) => l.test.test(field))?.href(value);
      const shown = display(field, value);
      if (href) {
        const a = Object.assign(document.createElement('a'), { href, textContent: shown });
        if (href.startsWith('http'))
          Object.assign(a, { target: '_blank', rel: 'noopener noreferrer' });
        line.append(a);
      } else {
        const span = document.createElement('span');
        span.textContent = shown;
        line.append(span);
      }
      const copy = Object.assign(document.createElement('button'), {
        type: 'button',
        className: 'copy',
        textContent: 'Copy',
      });
      copy.setAttribute('aria-label', `Copy ${label}: ${value}`);
      copy.addEventListener('click', async () =>
        announce((await copyText(value)) ? `Copied ${label}` : `Could not copy ${label}`),
      );
      line.append(' ', copy);
      dd.append(line);
    }
    rows.push(dt, dd);
  }
  dl.replaceChildren(...rows);
}
