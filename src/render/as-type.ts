/**
 * AsType rendering (CONTRACT.md §6): a document (plain object) becomes the result a binding writes.
 * JSON → JSON text; InternalUse → JSON text with an `Internal` member; XML → an element tree written
 * inline like golden/*-XMLNodes (root `Document`, member names as element names, a list `Xs` holds
 * `X` items, null members left out).
 */
import { fail } from '../errors.ts';
import type { OperationName } from '../operations/table.ts';
import type { OperationResult, XmlElement } from '../service/types.ts';

export const AS_TYPES = ['JSON', 'XML', 'InternalUse'] as const;
export type AsType = (typeof AS_TYPES)[number];

/** AsType is matched case-insensitively (ASMX clients send what their UI shows); the canonical name comes back. */
export function parseAsType(value: string): AsType {
  const found = AS_TYPES.find((t) => t.toLowerCase() === value.trim().toLowerCase());
  if (!found) {
    throw fail(
      'UnsupportedAsType',
      `AsType "${value}" is not supported; use one of ${AS_TYPES.join(', ')}.`,
      { parameter: 'AsType' },
    );
  }
  return found;
}

export type Document = { readonly [member: string]: unknown };

export function render(
  op: OperationName,
  asType: AsType,
  doc: Document,
  internal?: () => Document,
): OperationResult {
  switch (asType) {
    case 'JSON':
      return { kind: 'text', text: JSON.stringify(doc) };
    case 'InternalUse':
      return {
        kind: 'text',
        text: JSON.stringify({ ...doc, Internal: internal ? internal() : {} }),
      };
    case 'XML':
      return {
        kind: 'element',
        element: { name: 'Document', attrs: [['Operation', op]], children: members(doc) },
      };
  }
}

const IRREGULAR: Record<string, string> = {
  Matches: 'Match',
  Aliases: 'Alias',
  Statuses: 'Status',
  Addresses: 'Address',
  Entries: 'Entry',
};

/** `Options` → `Option`, `Matches` → `Match`; a name that is not a plural gives `Item`. */
export function itemName(listName: string): string {
  if (IRREGULAR[listName]) return IRREGULAR[listName];
  if (/ies$/.test(listName)) return listName.slice(0, -3) + 'y';
  if (/(ch|sh|x)es$/.test(listName)) return listName.slice(0, -2);
  if (/[^s]s$/.test(listName)) return listName.slice(0, -1);
  return 'Item';
}

function members(obj: Document): XmlElement[] {
  const out: XmlElement[] = [];
  for (const [name, value] of Object.entries(obj)) {
    const el = toElement(name, value);
    if (el) out.push(el);
  }
  return out;
}

function toElement(name: string, value: unknown): XmlElement | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const item = itemName(name);
    return {
      name,
      children: value
        .map((v) => toElement(item, v))
        .filter((e): e is XmlElement => e !== undefined),
    };
  }
  if (typeof value === 'object') return { name, children: members(value as Document) };
  return { name, children: [String(value)] };
}
