/**
 * Cross-site writes (issue 27, docs/SECURITY.md "Browser writes"): a web page on another site can
 * make a visitor's browser send ProcessRequest over HTTP GET or a plain form POST, and the browser
 * adds the visitor's saved Basic credentials; on a keyless loopback server nothing else stands in
 * the way. Browsers say where a request comes from (`Origin`; `Sec-Fetch-Site` also on GETs that
 * carry no Origin); clients that are no browser send neither and are not affected.
 */
import type { IncomingHttpHeaders } from 'node:http';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** `scheme://host[:port]` lower-cased, default port dropped; undefined when it is no origin (e.g. "null"). */
function normalOrigin(origin: string): string | undefined {
  try {
    const u = new URL(origin);
    return u.origin === 'null' ? undefined : u.origin;
  } catch {
    return undefined;
  }
}

/** The Host header as an origin of the same scheme as `origin`. */
function hostOrigin(scheme: string, host: string | undefined): string | undefined {
  return host ? normalOrigin(`${scheme}//${host}`) : undefined;
}

/**
 * What shows that a browser sent this request from a page of another site ("Origin https://…",
 * "Sec-Fetch-Site cross-site"), or undefined: no browser headers, the page's own origin, or one of
 * `allowedOrigins` (exact origins, or "*" for any). Writes are refused on it (process-request.ts).
 */
export function crossSiteWriter(
  headers: IncomingHttpHeaders,
  allowedOrigins: readonly string[],
): string | undefined {
  const origin = one(headers.origin);
  if (origin !== undefined) {
    if (allowedOrigins.includes('*')) return undefined;
    const o = normalOrigin(origin);
    if (
      o !== undefined &&
      (o === hostOrigin(new URL(o).protocol, one(headers.host)) ||
        allowedOrigins.some((a) => normalOrigin(a) === o))
    )
      return undefined;
    return `Origin ${origin}`;
  }
  // No Origin: a GET from an <img>, a link or a form; the page's origin is unknown, so no allow-list applies.
  const site = one(headers['sec-fetch-site']);
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site ${site}`;
  return undefined;
}
