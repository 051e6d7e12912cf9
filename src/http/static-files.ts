/**
 * The search page's files (src/web/), served from memory. A fixed list: no path from the request
 * ever reaches the file system. Each answer carries an ETag and `no-cache`, so a browser revalidates
 * (a 304 of a few bytes) and a new deployment is seen on the next load.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { WireResponse } from '../protocol/wire.ts';
import { FOLDS } from '../search/normalize.ts';

const TYPES = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
} as const;

/** Request name (lower case, as the legacy IIS paths are case-insensitive) → file in src/web/. */
const FILES: Record<string, string> = {
  'search.html': 'search.html',
  'search.css': 'search.css',
  'search-layout.css': 'search-layout.css',
  'search-results.css': 'search-results.css',
  'search.js': 'search.js',
  'search-page.js': 'search-page.js',
  'search-results.js': 'search-results.js',
  'search-filters.js': 'search-filters.js',
  'search-typeahead.js': 'search-typeahead.js',
  'search-contact-view.js': 'search-contact-view.js',
  'search-saved.js': 'search-saved.js',
  'search-api.js': 'search-api.js',
  'search-highlight.js': 'search-highlight.js',
  'search-contact.js': 'search-contact.js',
  'search-state.js': 'search-state.js',
};

// The page talks only to its own origin; everything it needs is in the list above.
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** Made from the service's code, not read from src/web/: the page folds text with the service's table. */
const GENERATED: Record<string, () => string> = {
  'search-folds.js': () => `export const FOLDS = ${JSON.stringify(FOLDS)};\n`,
};

function load(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const add = (name: string, body: Buffer) => {
    const ext = name.slice(name.lastIndexOf('.') + 1) as keyof typeof TYPES;
    files.set(name, {
      body,
      type: TYPES[ext],
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    });
  };
  for (const [name, file] of Object.entries(FILES))
    add(name, readFileSync(new URL(`../web/${file}`, import.meta.url)));
  for (const [name, make] of Object.entries(GENERATED)) add(name, Buffer.from(make()));
  return files;
}

export type StaticFiles = (
  name: string,
  ifNoneMatch: string | undefined,
) => WireResponse | undefined;

/** Answers a file of the page by its lower-cased name, or undefined when the name is not one of them. */
export function staticFiles(): StaticFiles {
  const files = load();
  return (name, ifNoneMatch) => {
    const f = files.get(name);
    if (!f) return undefined;
    const headers: Record<string, string> = {
      'Content-Type': f.type,
      'Cache-Control': 'no-cache',
      ETag: f.etag,
      'X-Content-Type-Options': 'nosniff',
    };
    if (f.type === TYPES.html)
      Object.assign(headers, {
        'Content-Security-Policy': PAGE_POLICY,
        'Referrer-Policy': 'no-referrer',
      });
    if (
      ifNoneMatch !== undefined &&
      ifNoneMatch.split(',').some((t) => t.trim() === f.etag || t.trim() === '*')
    ) {
      // No Content-Length: on a 304 it would have to be the full file's.
      return { status: 304, headers, body: '', rawHeaders: Object.entries(headers).flat() };
    }
    return { status: 200, headers, body: f.body };
  };
}
