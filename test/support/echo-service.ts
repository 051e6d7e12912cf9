/**
 * An echo double of the service that answers as the golden oracle did (test/fixtures/golden/README.md,
 * "The service behind them"), so the wire layer can be replayed against every transcript.
 */
import { fail } from '../../src/errors.ts';
import { LargeText } from '../../src/large-text/large-text.ts';
import { operation } from '../../src/operations/table.ts';
import { escapeText } from '../../src/render/xml.ts';
import type {
  OperationRequest,
  OperationResult,
  Service,
  XmlElement,
} from '../../src/service/types.ts';

/** The request with a StringOfJSONParameters held by the large-text worker brought here as a string. */
async function asStrings(req: OperationRequest) {
  const p = req.StringOfJSONParameters;
  return { ...req, StringOfJSONParameters: p instanceof LargeText ? await p.text() : p };
}

export const echoService: Service = {
  async invoke(large: OperationRequest): Promise<OperationResult> {
    const req = await asStrings(large);
    const op = operation(req.op)!;
    if (req.StringOfJSONParameters === '!throw')
      throw fail('Internal', `Oracle fault requested for ${op.name}`);
    if (op.result === 'string') {
      return {
        kind: 'text',
        text: `<Response Operation="${op.name}"><Echo Parameter="StringOfJSONParameters">${escapeText(req.StringOfJSONParameters ?? '')}</Echo></Response>`,
      };
    }
    const echoed: Record<string, string | null> = { Operation: op.name };
    for (const p of op.params) echoed[p] = req[p];
    const asType = req.AsType ?? '';
    if (asType === 'JSON' || asType === 'InternalUse')
      return { kind: 'text', text: JSON.stringify(echoed) };
    if (asType === 'XML' || asType === 'XMLNodes' || asType === 'XMLDocument') {
      const children: XmlElement[] = op.params.map((p) => ({
        name: 'Echo',
        attrs: [['Parameter', p]],
        children: req[p] ? [req[p]!] : [],
      }));
      return {
        kind: 'element',
        element: { name: 'Document', attrs: [['Operation', op.name]], children },
      };
    }
    throw fail('UnsupportedAsType', `Unsupported AsType: ${asType}`, { parameter: 'AsType' });
  },
};
