/** The `<Response Request="…" Status="OK|Partial|Rejected">…</Response>` string of ProcessRequest (CONTRACT.md §5). */
import { writeElement } from '../../render/xml.ts';
import type { XmlElement } from '../types.ts';

export type Status = 'OK' | 'Partial' | 'Rejected';

export const el = (
  name: string,
  attrs: Record<string, string | number | boolean | undefined> = {},
  children: (XmlElement | string)[] = [],
): XmlElement => ({
  name,
  attrs: Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, String(v)] as const),
  children,
});

export function response(
  request: string,
  status: Status,
  children: (XmlElement | string)[] = [],
  attrs: Record<string, string | number | boolean | undefined> = {},
): string {
  return writeElement(el('Response', { Request: request, Status: status, ...attrs }, children));
}

/** A contact as XML: one element per field, lists as items. */
export function contactElement(c: Record<string, unknown>): XmlElement {
  const children: XmlElement[] = [];
  for (const [k, v] of Object.entries(c)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v))
      children.push(
        el(
          k,
          {},
          v.map((x) => el(k.replace(/s$/, ''), {}, [String(x)])),
        ),
      );
    else children.push(el(k, {}, [String(v)]));
  }
  return el('Contact', {}, children);
}
