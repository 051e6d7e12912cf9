/**
 * The SOAP 1.1 and 1.2 bindings: version detection, routing and the call (golden README "SOAP faults").
 * SOAP 1.1 routes on SOAPAction, else the body element; SOAP 1.2 on the Content-Type `action`
 * parameter, else the body element; a SOAPAction header on 1.2 (zeep sends one) is ignored. Which
 * actions and elements name an operation: accepted-names.ts.
 */
import { LargeText } from '../../large-text/large-text.ts';
import { fail, ServiceError } from '../../errors.ts';
import { OPERATIONS, type OperationDef } from '../../operations/table.ts';
import {
  heldParameters,
  plainRequest,
  SLICED_FROM_CHARS,
  type Binding,
  type Decoded as BindingDecoded,
  type HttpCall,
  type LargeBody,
} from '../binding.ts';
import { CONTENT_TYPE, type SoapVersion } from '../constants.ts';
import { memoized, type WireResponse } from '../wire.ts';
import { elementKey, operationNames, requestNamespacesOf } from './accepted-names.ts';
import {
  actionParameter,
  decodeSoap,
  decodeSoapInSlices,
  envelopeText,
  MalformedXml,
  outcomeError,
  NotAnEnvelope,
  soapActionHeader,
  type SoapRequest,
} from './decode.ts';
import { emptyStatus, fault, resultEncoder } from './encode.ts';

/** The SOAPAction header as it came (a repeated header is a list). */
export type SoapActionHeader = HttpCall['headers'][string];

/** What SOAP's encoders need of a decoded call: the envelope's version and the operation. */
export interface SoapContext {
  readonly v: '1.1' | '1.2';
  readonly op: OperationDef;
}

type Decoded = BindingDecoded<SoapContext>;

/**
 * @param memoEntries envelopes whose decoding is kept (the result cache's entry count, so that what
 *   the result cache answers is decoded once too); 0 decodes every request.
 * @param onRepeat kept the second time an envelope comes, like the result cache's results.
 */
export function soapBinding(
  nsBase: string,
  memoEntries = 0,
  onRepeat = false,
): Binding<HttpCall, SoapContext> {
  const ops = OPERATIONS as readonly OperationDef[];
  const { byAction, byElement } = operationNames(nsBase);
  const encoders = new Map(ops.map((op) => [op.name, resultEncoder(op, nsBase)]));
  // Decoding is a pure function of the envelope's text, and type-ahead envelopes repeat (docs/perf-log/2026-11-23-evening.md).
  const decodeEnvelope = memoized(decodeSoap, {
    entries: memoEntries,
    maxChars: 2048,
    totalChars: 2_000_000,
    onRepeat,
  });

  return {
    decode,
    encode: (result, { v, op }) => encoders.get(op.name)!(v, result),
    encodeError: (err, { v }) => fault(v, err, true),
  };

  /**
   * A body of a MiB or more (only ProcessRequest's may be) is parsed in slices between turns of the
   * event loop; one over LARGE_TEXT bytes is read on the large-text worker (its text never here).
   */
  function decode(call: HttpCall): Decoded | WireResponse | Promise<Decoded | WireResponse> {
    const ct = call.headers['content-type'];
    if (!ct) return emptyStatus(415, CONTENT_TYPE.soap11, 'InvalidRequestFormat'); // golden post-endpoint-no-content-type
    const claimed = /^\s*text\/xml\b/i.test(ct) ? '1.1' : '1.2'; // Mono reads any other type as SOAP 1.2 (golden post-endpoint-form)
    if (call.large) return decodeLarge(call, claimed, call.large);
    const text = envelopeText(call.body);
    if (!('body' in text)) return shapeAnswer(claimed, text.shape);
    const body = text.body;
    if (body.length >= SLICED_FROM_CHARS)
      return decodeSoapInSlices(body).then(
        (msg) => route(call, claimed, msg),
        (e: unknown) => parseError(claimed, e),
      );
    let msg: SoapRequest;
    try {
      msg = decodeEnvelope(body);
    } catch (e) {
      return parseError(claimed, e);
    }
    return route(call, claimed, msg);
  }

  /** A large body read as an envelope by the large-text worker: StringOfJSONParameters stays there, a LargeText. */
  async function decodeLarge(
    call: HttpCall,
    claimed: SoapVersion,
    large: LargeBody,
  ): Promise<Decoded | WireResponse> {
    const outcome = await LargeText.reading(large, (text) => text.envelope());
    if ('shape' in outcome) return shapeAnswer(claimed, outcome.shape);
    if (!('read' in outcome)) return parseError(claimed, outcomeError(outcome));
    const { values, large: params } = await heldParameters(
      outcome.read.params,
      (k) => k === 'StringOfJSONParameters',
    );
    return route(call, claimed, { ...outcome.read, params: values }, params);
  }

  /** What a body that cannot be XML gets: empty, or not starting with '<'. */
  function shapeAnswer(claimed: SoapVersion, shape: 'empty' | 'notXml'): WireResponse {
    if (shape === 'notXml')
      return fault(
        claimed,
        fail('InvalidXml', 'Data at the root level is invalid. Line 1, position 1.'),
        false,
      );
    if (claimed === '1.1') return emptyStatus(400, CONTENT_TYPE.soap11, 'InvalidXml'); // golden soap11-empty-body
    return fault('1.2', fail('InvalidXml', 'Root element is missing.'), false); // golden soap12-empty-body
  }

  /** What a body that is no readable SOAP envelope gets. */
  function parseError(claimed: SoapVersion, e: unknown): WireResponse {
    if (e instanceof MalformedXml)
      return emptyStatus(
        400,
        claimed === '1.1' ? CONTENT_TYPE.soap11 : CONTENT_TYPE.soap12,
        'InvalidXml',
      );
    if (e instanceof NotAnEnvelope)
      return fault(
        claimed,
        fail('InvalidXml', 'The root element is not a SOAP 1.1 or SOAP 1.2 Envelope.'),
        false,
      );
    if (e instanceof ServiceError) return fault(claimed, e, false);
    throw e;
  }

  /** The operation a decoded envelope calls, checked against its action, as its plain request. */
  function route(
    call: HttpCall,
    claimed: SoapVersion,
    msg: SoapRequest,
    large?: LargeText,
  ): Decoded | WireResponse {
    const ct = call.headers['content-type'] ?? '';
    // The envelope decides the version; a SOAP 1.1 envelope under application/soap+xml is refused (golden soap12-ct-soap11-envelope).
    if (claimed === '1.2' && msg.version === '1.1')
      return emptyStatus(415, CONTENT_TYPE.soap11, 'InvalidRequestFormat');
    const v = msg.version;
    if (call.trace) call.trace.binding = v === '1.1' ? 'soap11' : 'soap12';
    if (msg.mustUnderstand) {
      return fault(
        v,
        fail('MustUnderstand', `SOAP header ${msg.mustUnderstand} was not understood.`),
        false,
      );
    }
    let op: OperationDef | undefined;
    const action = v === '1.1' ? soapActionHeader(call.headers.soapaction) : actionParameter(ct);
    if (action !== undefined) {
      op = byAction.get(action);
      if (!op && v === '1.1') {
        return fault(
          v,
          fail(
            'UnknownOperation',
            `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`,
          ),
          false,
        );
      }
    }
    const fromBody = msg.wrapper
      ? byElement.get(elementKey(msg.wrapper.uri, msg.wrapper.local))
      : undefined;
    if (!op) {
      op = fromBody;
      if (!op) {
        return fault(
          v,
          fail(
            'UnknownOperation',
            'Unable to handle request without a valid action parameter. Please supply a valid soap action.',
          ),
          false,
        );
      }
    } else if (fromBody !== op) {
      // CONTRACT §10: the runtime would run the action's method with null parameters; we say what is wrong.
      const w = msg.wrapper ? `{${msg.wrapper.uri}}${msg.wrapper.local}` : 'nothing';
      return fault(
        v,
        fail(
          'ActionMismatch',
          `The SOAP action names ${op.name}, but the Body holds ${w}; expected ${requestNamespacesOf(
            op,
            nsBase,
          )
            .map((ns) => `{${ns}}${op!.name}`)
            .join(' or ')}.`,
        ),
        false,
      );
    }
    if (call.trace) call.trace.op = op.name;
    return {
      request: plainRequest(
        op,
        (p) => msg.params.get(p),
        call,
        v === '1.1' ? 'soap11' : 'soap12',
        large,
      ),
      context: { v, op },
    };
  }
}

/**
 * The operation a message goes to when its action (if it sends one) and its Body's element agree:
 * what body-limit.ts sizes the body by while it streams in. The binding answers every other case with a fault.
 */
export function soapRouter(nsBase: string) {
  const { byAction, byElement } = operationNames(nsBase);
  return function routedOperation(
    version: SoapVersion,
    contentType: string | undefined,
    soapAction: SoapActionHeader,
    element: SoapRequest['wrapper'],
  ): OperationDef | undefined {
    const fromBody = element ? byElement.get(elementKey(element.uri, element.local)) : undefined;
    const action =
      version === '1.1' ? soapActionHeader(soapAction) : actionParameter(contentType ?? '');
    const fromAction = action === undefined ? undefined : byAction.get(action);
    // As the binding routes: an action naming nothing is refused for SOAP 1.1, and SOAP 1.2 falls back to the element.
    if (fromAction === undefined)
      return action !== undefined && version === '1.1' ? undefined : fromBody;
    return fromAction === fromBody ? fromBody : undefined;
  };
}
