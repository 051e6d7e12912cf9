/**
 * Which binding an HTTP call goes to, decided from what the front sees before it reads the body
 * (path, method, content type), and how that binding answers an error found before it decodes
 * (a body over its size limit). The HTTP front routes by path; everything about bindings is here.
 */
import type { ServiceError } from '../errors.ts';
import type { BindingName } from '../service/types.ts';
import type { Calls } from './dispatch.ts';
import { formError } from './http-form/encode.ts';
import { jsonError } from './json/binding.ts';
import { fault } from './soap/encode.ts';
import type { WireResponse } from './wire.ts';

export interface Selected<K extends keyof Calls> {
  /** The binding's entry in dispatch's table. */
  readonly binding: K;
  /** The binding as counted and logged (SOAP's version is a guess until the envelope says). */
  readonly name: BindingName;
  /** The binding's answer to an error found before the operation ran. */
  early(err: ServiceError): WireResponse;
}

const isSoap11 = (contentType: string | undefined) => /^\s*text\/xml/i.test(contentType ?? '');
const isJson = (contentType: string | undefined) =>
  /^\s*application\/json\b/i.test(contentType ?? '');

/** A POST to the endpoint itself: SOAP 1.1 for text/xml, else SOAP 1.2. */
export function endpointBinding(contentType: string | undefined): Selected<'soap'> {
  const v = isSoap11(contentType) ? '1.1' : '1.2';
  return {
    binding: 'soap',
    name: v === '1.1' ? 'soap11' : 'soap12',
    early: (err) => fault(v, err, false),
  };
}

/** A call to `<endpoint>/<Operation>`: ASP.NET AJAX JSON for a JSON POST, else the HTTP GET/POST forms. */
export function operationBinding(
  method: 'GET' | 'POST',
  contentType: string | undefined,
): Selected<'json'> | Selected<'form'> {
  if (method === 'POST' && isJson(contentType))
    return { binding: 'json', name: 'json', early: (err) => jsonError(err, false) };
  return {
    binding: 'form',
    name: method === 'GET' ? 'httpget' : 'httppost',
    early: (err) => formError(err, false),
  };
}
