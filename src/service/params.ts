/**
 * Reading StringOfJSONParameters (CONTRACT.md §5, §7): a JSON object whose member names match
 * case-insensitively; unknown members are errors (a typo in a filter must not widen a search).
 * Every error names the parameter and the JSON path.
 */
import { fail, pathOf } from '../errors.ts';
import { LargeText, LargeTextError } from '../large-text/large-text.ts';

const PARAM = 'StringOfJSONParameters';

export type JsonObject = { [k: string]: unknown };

/** Parses the parameter; empty or absent means `{}`. */
export function parseJsonParameters(text: string | null, maxDepth: number): JsonObject {
  if (text === null || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw notJson(e as Error);
  }
  return checkedParameters(value, maxDepth);
}

/**
 * parseJsonParameters of a large text held by the large-text worker (an import's), parsed there. A
 * member over LARGE_TEXT (Content) stays held there, a LargeText in the result.
 */
export async function parseLargeJsonParameters(
  large: LargeText,
  maxDepth: number,
): Promise<JsonObject> {
  let value: unknown;
  try {
    value = await large.json();
  } catch (e) {
    // Not JSON; else the worker died: an Internal error.
    throw e instanceof LargeTextError && e.kind === 'json' ? notJson(e) : e;
  } finally {
    large.release();
  }
  return checkedParameters(value, maxDepth);
}

const notJson = (e: Error) =>
  fail('InvalidJson', `StringOfJSONParameters is not valid JSON (${e.message}).`, {
    parameter: PARAM,
    path: '$',
  });

function checkedParameters(value: unknown, maxDepth: number): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fail(
      'InvalidJson',
      'StringOfJSONParameters must be a JSON object, like {"Query":"smith"}.',
      { parameter: PARAM, path: '$' },
    );
  }
  const depth = depthOf(value, maxDepth + 1);
  if (depth > maxDepth) {
    throw fail('InvalidJson', `StringOfJSONParameters is nested deeper than ${maxDepth} levels.`, {
      parameter: PARAM,
      path: '$',
    });
  }
  return value as JsonObject;
}

function depthOf(v: unknown, cap: number): number {
  if (v === null || typeof v !== 'object') return 0;
  let max = 0;
  for (const child of Object.values(v as object)) {
    const d = depthOf(child, cap - 1);
    if (d > max) max = d;
    if (max + 1 >= cap) break;
  }
  return max + 1;
}

/** What a member may hold. */
export type MemberSpec =
  | { type: 'string'; required?: boolean; maxLength?: number; values?: readonly string[] }
  | { type: 'integer'; required?: boolean; min?: number; max?: number }
  | { type: 'boolean'; required?: boolean }
  | { type: 'stringArray'; required?: boolean; maxItems?: number; maxLength?: number }
  | { type: 'array'; required?: boolean; maxItems?: number; items: ObjectSpec }
  | { type: 'object'; required?: boolean; members: ObjectSpec }
  | { type: 'any'; required?: boolean };

export type ObjectSpec = { readonly [canonicalName: string]: MemberSpec };

/**
 * Checks `obj` against `spec` and returns it keyed by the canonical member names.
 * Absent optional members are left out; the caller applies defaults.
 */
/** Lower-cased member name → the spec's spelling, once per spec (specs are long-lived: request-members.ts). */
const canonicalOf = new WeakMap<ObjectSpec, Map<string, string>>();
function canonicalNames(spec: ObjectSpec): Map<string, string> {
  let m = canonicalOf.get(spec);
  if (!m) canonicalOf.set(spec, (m = new Map(Object.keys(spec).map((k) => [k.toLowerCase(), k]))));
  return m;
}

export function readMembers(obj: unknown, spec: ObjectSpec, path = '$'): JsonObject {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw fail('InvalidValue', `${path} must be a JSON object.`, { parameter: PARAM, path });
  }
  const canonical = canonicalNames(spec);
  const out: JsonObject = {};
  // for…in and paths made only for an error: every request reads its members here (Object.entries
  // and a path string a member were ~0.7 KB of each type-ahead request's garbage).
  for (const key in obj) {
    const value = (obj as JsonObject)[key];
    const name = Object.hasOwn(spec, key) ? key : canonical.get(key.toLowerCase());
    if (!name) {
      const at = pathOf(path, key);
      throw fail(
        'UnknownMember',
        `Unknown member "${key}" at ${at}; allowed: ${Object.keys(spec).join(', ')}.`,
        { parameter: PARAM, path: at },
      );
    }
    if (value === null) continue; // null means "not given"
    out[name] = readValue(value, spec[name], path, name);
  }
  for (const name in spec) {
    if (spec[name].required && out[name] === undefined) {
      throw fail('MissingParameter', `Member "${name}" is required at ${pathOf(path, name)}.`, {
        parameter: PARAM,
        path: pathOf(path, name),
      });
    }
  }
  return out;
}

/** Not a closure in readValue: that would be allocated for every member read, failing or not. */
const badValue = (path: string, what: string) =>
  fail('InvalidValue', `${path} must be ${what}.`, { parameter: PARAM, path });

/** `member` is the member's name under `at`: the path is made only for an error or a nested read. */
function readValue(value: unknown, s: MemberSpec, at: string, member: string): unknown {
  switch (s.type) {
    case 'string': {
      // A string over LARGE_TEXT held by the large-text worker (Content) is a string of that length.
      if (value instanceof LargeText) {
        if (s.maxLength !== undefined && value.length > s.maxLength)
          throw badValue(pathOf(at, member), `at most ${s.maxLength} characters`);
        if (s.values) throw badValue(pathOf(at, member), `one of ${s.values.join(', ')}`);
        return value;
      }
      if (typeof value !== 'string') throw badValue(pathOf(at, member), 'a string');
      if (s.maxLength !== undefined && value.length > s.maxLength)
        throw badValue(pathOf(at, member), `at most ${s.maxLength} characters`);
      if (s.values) {
        const hit = s.values.find((v) => v.toLowerCase() === value.toLowerCase());
        if (!hit) throw badValue(pathOf(at, member), `one of ${s.values.join(', ')}`);
        return hit;
      }
      return value;
    }
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw badValue(pathOf(at, member), 'a whole number');
      if (s.min !== undefined && value < s.min)
        throw badValue(pathOf(at, member), `at least ${s.min}`);
      if (s.max !== undefined && value > s.max)
        throw badValue(pathOf(at, member), `at most ${s.max}`);
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw badValue(pathOf(at, member), 'true or false');
      return value;
    case 'stringArray': {
      if (!Array.isArray(value)) throw badValue(pathOf(at, member), 'a list of strings');
      if (s.maxItems !== undefined && value.length > s.maxItems)
        throw badValue(pathOf(at, member), `a list of at most ${s.maxItems} items`);
      value.forEach((v, i) => {
        if (typeof v !== 'string')
          throw fail('InvalidValue', `${pathOf(at, member)}[${i}] must be a string.`, {
            parameter: PARAM,
            path: `${pathOf(at, member)}[${i}]`,
          });
        if (s.maxLength !== undefined && v.length > s.maxLength) {
          throw fail(
            'InvalidValue',
            `${pathOf(at, member)}[${i}] must be at most ${s.maxLength} characters.`,
            {
              parameter: PARAM,
              path: `${pathOf(at, member)}[${i}]`,
            },
          );
        }
      });
      return value;
    }
    case 'array': {
      if (!Array.isArray(value)) throw badValue(pathOf(at, member), 'a list');
      if (s.maxItems !== undefined && value.length > s.maxItems)
        throw badValue(pathOf(at, member), `a list of at most ${s.maxItems} items`);
      return value.map((v, i) => readMembers(v, s.items, `${pathOf(at, member)}[${i}]`));
    }
    case 'object':
      return readMembers(value, s.members, pathOf(at, member));
    case 'any':
      return value;
  }
}
