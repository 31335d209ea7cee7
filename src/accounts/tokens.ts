import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Role } from '../lib/roles.ts';
import type { Account, Caller } from './account.ts';

/** `iss` of every token. */
export const TOKEN_ISSUER = 'series-catalog-api';
/** `aud` of every token: this service issues them for itself. */
export const TOKEN_AUDIENCE = 'series-catalog-api';

/** A token as handed to a client. */
export interface IssuedToken {
  token: string;
  token_type: 'Bearer';
  expires_at: string;
}

/**
 * Why a token was refused, for the 401's message.
 *
 * @example
 * throw new TokenRejected('expired'); // message: 'Bearer token has expired'
 */
export class TokenRejected extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Bearer token has expired' : 'Bearer token is invalid');
  }
}

/** jose, loaded with the first token: a server that is only read anonymously never needs it. */
let joseModule: Promise<typeof import('jose')> | undefined;
const jose = () => (joseModule ??= import('jose'));

/** Memory for verified tokens: about 6,000 of them (each costs its characters and about 400 bytes). */
const REMEMBERED_BYTES = 4 * 2 ** 20;
/** Memory for refused tokens: a few thousand (each costs its characters and about 200 bytes). */
const REFUSED_BYTES = 2 ** 20;

/**
 * Issues and checks HS256 JWTs. Verification pins the algorithm (so `alg: none` and
 * asymmetric tricks fail) and checks signature, `iss`, `aud` and `exp`. A verified token is
 * remembered (least recently used first out) until its `exp`, so a client sending the same
 * token on every request pays for one signature check, not one per request.
 *
 * @example
 * const tokens = new Tokens(key, 3600);
 * const { token } = await tokens.issue(account);
 * await tokens.verify(token); // { uuid, username, role } as issued
 */
export class Tokens {
  private readonly verified = new LRUCache<string, { caller: Caller; exp: number }>({
    maxSize: REMEMBERED_BYTES,
    sizeCalculation: ({ caller }, token) => 400 + token.length + caller.username.length,
  });
  private readonly refused = new LRUCache<string, TokenRejected>({
    maxSize: REFUSED_BYTES,
    sizeCalculation: (_, token) => 200 + token.length,
  });

  constructor(
    private readonly key: Uint8Array,
    private readonly ttlSeconds: number,
  ) {}

  async issue(account: Account): Promise<IssuedToken> {
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + this.ttlSeconds;
    const { SignJWT } = await jose();
    const token = await new SignJWT({ username: account.username, role: account.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(account.uuid)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(this.key);
    return { token, token_type: 'Bearer', expires_at: new Date(expiresAt * 1000).toISOString() };
  }

  /**
   * What `verify` would answer for a token checked before, without waiting: its caller, or
   * TokenRejected once it has expired or was refused; undefined for a token not checked yet.
   */
  recall(token: string): Caller | TokenRejected | undefined {
    const known = this.verified.get(token);
    if (!known) return this.refused.get(token);
    if (known.exp * 1000 > Date.now()) return known.caller;
    this.verified.delete(token);
    return this.refuse(token, 'expired');
  }

  private refuse(token: string, reason: TokenRejected['reason']): TokenRejected {
    const rejected = new TokenRejected(reason);
    this.refused.set(token, rejected);
    return rejected;
  }

  /**
   * The caller a valid token names (its `sub`, and the username and role it was issued with);
   * throws TokenRejected otherwise.
   */
  async verify(token: string): Promise<Caller> {
    const recalled = this.recall(token);
    if (recalled instanceof TokenRejected) throw recalled;
    if (recalled) return recalled;
    const { errors, jwtVerify } = await jose();
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      });
      const caller: Caller = { uuid: payload.sub!, username: String(payload.username), role: payload.role as Role };
      this.verified.set(token, { caller, exp: payload.exp! });
      return caller;
    } catch (error) {
      throw this.refuse(token, error instanceof errors.JWTExpired ? 'expired' : 'invalid');
    }
  }
}
