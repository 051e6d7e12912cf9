/**
 * The field names are declared by the schema's entries (`FieldName` is derived from them, schema.ts)
 * and typed by the record type (`Contact`, contact.ts). This check makes `npm run typecheck` fail when the two drift apart (a field
 * added to one and not the other); it costs nothing at run time.
 */
import type { Contact } from './contact.ts';
import type { FieldName } from './schema.ts';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const CONTACT_MATCHES_SCHEMA: Same<keyof Contact, FieldName> = true;
