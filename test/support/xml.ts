/** Reading the XML strings ProcessRequest answers (the `<Response>` and `<File>` documents), for tests. */
import { SaxesParser } from 'saxes';

export type El = { attrs: Record<string, string>; text: string };

/** Every element named `name`, in document order, with its attributes and text. */
export function elements(xml: string, name: string): El[] {
  const out: El[] = [];
  const p = new SaxesParser();
  let cur: El | undefined;
  p.on('opentag', (t) => {
    if (t.name === name) {
      cur = { attrs: t.attributes as Record<string, string>, text: '' };
      out.push(cur);
    }
  });
  p.on('text', (t) => {
    if (cur) cur.text += t;
  });
  p.on('closetag', (t) => {
    if (t.name === name) cur = undefined;
  });
  p.write(xml).close();
  return out;
}

/** The first element named `name`. */
export const first = (xml: string, name: string): El => elements(xml, name)[0];
