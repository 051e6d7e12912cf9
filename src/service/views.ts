/** Views (CONTRACT.md §5): which fields a grid shows. Default, Compact, Export, and saved searches by name. */
import { fail } from '../errors.ts';
import { FIELDS, field, type FieldDef } from '../fields/schema.ts';
import type { SavedSearch } from '../fields/contact.ts';
import type { ContactDatabase } from '../database/database.ts';

const named = (...names: string[]) => names.map((n) => field(n)!);

export const VIEWS: Record<string, FieldDef[]> = {
  Default: named('DisplayName', 'Organization', 'JobTitle', 'Emails', 'Phones', 'City', 'Country'),
  Compact: named('DisplayName', 'Emails', 'Phones'),
  Export: [...FIELDS],
};

export interface View {
  readonly name: string;
  readonly fields: FieldDef[];
  readonly saved?: SavedSearch;
}

export function resolveView(
  db: ContactDatabase | undefined,
  name: string | undefined,
  path = '$.View',
): View {
  const wanted = name ?? 'Default';
  const builtIn = Object.keys(VIEWS).find((v) => v.toLowerCase() === wanted.toLowerCase());
  if (builtIn) return { name: builtIn, fields: VIEWS[builtIn] };
  const saved = db?.savedSearch(wanted);
  if (saved) {
    const fields = (saved.Fields ?? [])
      .map((n) => field(n))
      .filter((f): f is FieldDef => f !== undefined);
    return { name: saved.Name, fields: fields.length ? fields : VIEWS.Default, saved };
  }
  throw fail(
    'InvalidValue',
    `View "${wanted}" is neither Default, Compact, Export nor a saved search of this database.`,
    { parameter: 'StringOfJSONParameters', path },
  );
}
