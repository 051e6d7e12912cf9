/**
 * API keys (CONTRACT.md §8): HTTP Basic (key id + secret, what every SOAP client can send) or
 * `Authorization: Bearer <id>:<secret>`; scopes `read` / `write`, each key limited to DBNames or `*`.
 * Secrets may be configured as `sha256:<hex>`; comparison is constant-time either way and secrets
 * are never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyConfig } from '../config.ts';
import { fail } from '../errors.ts';

export type Scope = 'read' | 'write';

export interface ApiKey {
  readonly id: string;
  readonly scopes: ReadonlySet<Scope>;
  /** Lower-cased DBNames, or '*' for all. */
  readonly databases: ReadonlySet<string> | '*';
}

interface StoredKey extends ApiKey {
  readonly digest: Buffer;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export class KeyRing {
  private readonly keys = new Map<string, StoredKey>();

  constructor(configured: readonly ApiKeyConfig[]) {
    for (const k of configured) {
      const digest = k.secret.startsWith('sha256:')
        ? Buffer.from(k.secret.slice(7), 'hex')
        : sha256(k.secret);
      if (digest.length !== 32)
        throw new Error(`API key "${k.id}": sha256 secret must be 64 hex digits`);
      this.keys.set(k.id, {
        id: k.id,
        digest,
        scopes: new Set(k.scopes),
        databases: k.databases === '*' ? '*' : new Set(k.databases.map((d) => d.toLowerCase())),
      });
    }
  }

  get enabled(): boolean {
    return this.keys.size > 0;
  }

  /**
   * The key named by an Authorization header. Throws Unauthorized when keys are configured and the
   * header is missing, malformed or wrong; returns undefined when no keys are configured.
   */
  authenticate(authorization: string | undefined): ApiKey | undefined {
    if (!this.enabled) return undefined;
    const creds = parseAuthorization(authorization);
    if (!creds)
      throw fail(
        'Unauthorized',
        'Credentials are required: send HTTP Basic (key id and secret) or Authorization: Bearer <id>:<secret>.',
      );
    const key = this.keys.get(creds.id);
    // Compare against a dummy digest when the id is unknown so timing does not reveal which ids exist.
    const ok = timingSafeEqual(sha256(creds.secret), key?.digest ?? DUMMY) && key !== undefined;
    if (!ok) throw fail('Unauthorized', 'The API key id or secret is wrong.');
    return key;
  }
}

const DUMMY = sha256('\u0000no-such-key');

function parseAuthorization(h: string | undefined): { id: string; secret: string } | undefined {
  if (!h) return undefined;
  const m = /^(Basic|Bearer)\s+(.+)$/i.exec(h.trim());
  if (!m) return undefined;
  const raw = m[1].toLowerCase() === 'basic' ? Buffer.from(m[2], 'base64').toString('utf8') : m[2];
  const i = raw.indexOf(':');
  if (i < 1) return undefined;
  return { id: raw.slice(0, i), secret: raw.slice(i + 1) };
}

/** Throws Forbidden unless `key` (when keys are in force) has `scope` on `dbName`. */
export function authorize(key: ApiKey | undefined, scope: Scope, dbName: string | undefined): void {
  if (!key) return;
  if (!key.scopes.has(scope))
    throw fail('Forbidden', `API key "${key.id}" lacks the ${scope} scope.`);
  if (dbName !== undefined && key.databases !== '*' && !key.databases.has(dbName.toLowerCase())) {
    throw fail('Forbidden', `API key "${key.id}" may not use database "${dbName}".`, {
      parameter: 'DBName',
    });
  }
}
