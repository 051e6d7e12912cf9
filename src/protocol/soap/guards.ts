/**
 * Shape rules for SOAP envelopes that keep parsing linear and answers unambiguous (issue 27):
 * a nesting limit enforced before saxes resolves namespaces (its prefix lookup walks every open
 * element, so unlimited depth makes parsing quadratic), and refusals of envelopes that say one
 * thing twice (two Bodies, two operation elements, a repeated parameter).
 */
import type { SaxesParser } from 'saxes';
import { fail, type ServiceError } from '../../errors.ts';

/** Deepest element nesting read; real envelopes are 4–6 deep (Envelope, Body, operation, parameter). */
export const MAX_XML_DEPTH = 64;

/**
 * Refuses an element that would open deeper than `max`, at its start tag: before its attributes and
 * namespaces are read. `depth` gives the number of elements open now (the caller counts them already).
 */
export function refuseDeepNesting(
  parser: SaxesParser<{ xmlns: true; position: false }>,
  depth: () => number,
  max = MAX_XML_DEPTH,
): void {
  parser.on('opentagstart', () => {
    if (depth() >= max) throw fail('InvalidXml', `The XML is nested deeper than ${max} elements.`);
  });
}

/** An envelope that holds twice what the runtime reads once: refused rather than answered from the first. */
export function repeated(
  what: 'Body' | 'operation element' | 'parameter',
  name: string,
): ServiceError {
  const whereTo =
    what === 'Body'
      ? 'one soap:Body per envelope'
      : what === 'operation element'
        ? 'one operation element in the Body'
        : 'each parameter once';
  return fail('InvalidRequestFormat', `The envelope holds ${name} twice; send ${whereTo}.`);
}

/** xsd:boolean as SOAP's mustUnderstand carries it: whitespace is collapsed, then "1" or "true". */
export function isTrue(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  return v === '1' || v === 'true';
}
