/** Calls an operation as a client of each binding would (for tests that need every binding, not one). */
import { OPERATIONS } from '../../src/operations/table.ts';
import { CONTENT_TYPE, SOAP11_NS, SOAP12_NS, XML_DECL } from '../../src/protocol/constants.ts';
import type { BindingName } from '../../src/service/types.ts';
import { escapeText } from '../../src/render/xml.ts';

export const BINDINGS: readonly BindingName[] = ['soap11', 'soap12', 'httpget', 'httppost', 'json'];

export interface Args {
  StringOfJSONParameters: string;
  DBName: string;
  AsType?: string;
}

/** The operation's parameters as the binding sends them; `headers` are added (Authorization …). */
export async function callIn(
  binding: BindingName,
  endpoint: string,
  op: string,
  args: Args,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const o = OPERATIONS.find((x) => x.name === op)!;
  const values = o.params.map(
    (p) => [p, (args as unknown as Record<string, string>)[p] ?? ''] as const,
  );
  const form = values.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  let r: Response;
  if (binding === 'httpget') r = await fetch(`${endpoint}/${op}?${form}`, { headers });
  else if (binding === 'httppost')
    r = await fetch(`${endpoint}/${op}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
    });
  else if (binding === 'json')
    r = await fetch(`${endpoint}/${op}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(values)),
    });
  else {
    const ns = `${o.schemeless ? '' : 'http:'}//tempuri.org/API/${o.nsOp}RequestData`;
    const body = `${XML_DECL}<s:Envelope xmlns:s="${binding === 'soap11' ? SOAP11_NS : SOAP12_NS}"><s:Body><${op} xmlns="${ns}">${values
      .map(([k, v]) => `<${k}>${escapeText(v)}</${k}>`)
      .join('')}</${op}></s:Body></s:Envelope>`;
    r = await fetch(endpoint, {
      method: 'POST',
      body,
      headers: {
        ...headers,
        ...(binding === 'soap11'
          ? {
              'Content-Type': CONTENT_TYPE.soap11,
              SOAPAction: `"${ns.replace(/RequestData$/, '')}"`,
            }
          : { 'Content-Type': CONTENT_TYPE.soap12 }),
      },
    });
  }
  return { status: r.status, text: await r.text() };
}
