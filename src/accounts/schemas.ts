import type { ErrorObject } from 'ajv';
import { compileValidator } from '../lib/validators.ts';
import { ROLES, type Role } from '../lib/roles.ts';
import { withArticle } from '../lib/text.ts';

const name = { type: 'string', minLength: 1, maxLength: 50, pattern: '\\S' };
const username = { type: 'string', minLength: 3, maxLength: 30, pattern: '^[A-Za-z0-9_.-]+$' };
const email = { type: 'string', format: 'email', maxLength: 254 };
const password = { type: 'string', minLength: 8, maxLength: 128 };

/** Words for a failed `pattern`, by the pattern. */
const PATTERN_RULES: Record<string, string> = {
  [name.pattern]: 'must not be blank',
  [username.pattern]: "may contain only letters, digits, '_', '.' and '-'",
};

/**
 * The body of `POST /api/v1/auth/register` and `npm run accounts -- create`, as JSON Schema
 * (checked here, published in the OpenAPI document).
 */
export const REGISTER_BODY_SCHEMA = {
  type: 'object',
  properties: { first_name: name, last_name: name, username, email, password, role: { type: 'string', enum: ROLES } },
  required: ['first_name', 'last_name', 'username', 'email', 'password'],
  additionalProperties: false,
} as const;

const registerBody = compileValidator<RegisterBody>(REGISTER_BODY_SCHEMA);

/**
 * `authenticate` and `delete`. Looser than registration on purpose: a username that could
 * never be registered is simply wrong credentials, and rules tightened later must not lock
 * out accounts made under the old ones.
 */
export const CREDENTIALS_BODY_SCHEMA = {
  type: 'object',
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 100 },
    email: { type: 'string', minLength: 1, maxLength: 254 },
    password: { type: 'string', minLength: 1, maxLength: 128 },
  },
  required: ['username', 'password'],
  additionalProperties: false,
} as const;

const credentialsBody = compileValidator<CredentialsBody>(CREDENTIALS_BODY_SCHEMA);

/** A valid registration body. */
export interface RegisterBody {
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  password: string;
  role?: Role;
}

/** A valid `authenticate` or `delete` body. */
export interface CredentialsBody {
  username: string;
  email?: string;
  password: string;
}

/** One ajv error in words that name the field and the rule, never the submitted value. */
function explain(error: ErrorObject): string {
  const field = error.instancePath.slice(1) || 'the body';
  const params = error.params as Record<string, unknown>;
  const schema = error.parentSchema as { minLength?: number; maxLength?: number } | undefined;
  switch (error.keyword) {
    case 'required':
      return `${String(params.missingProperty)} is required`;
    case 'additionalProperties':
      return `unknown field '${String(params.additionalProperty)}'`;
    case 'type':
      return error.instancePath
        ? `${field} must be ${withArticle(String(params.type))}`
        : 'the body must be a JSON object';
    case 'minLength':
    case 'maxLength':
      return `${field} must be ${schema?.minLength}–${schema?.maxLength} characters long`;
    case 'pattern':
      return `${field} ${PATTERN_RULES[String(params.pattern)] ?? `must match ${String(params.pattern)}`}`;
    case 'format':
      return `${field} must be a valid email address`;
    case 'enum':
      return `${field} must be one of ${(params.allowedValues as string[]).join(', ')}`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

/** The rule JSON Schema cannot say: a password must not repeat the username or email. */
function passwordProblems(body: Record<string, unknown>): string[] {
  const { password: given, username: user, email: mail } = body;
  if (typeof given !== 'string') return [];
  const same = (other: unknown) => typeof other === 'string' && other.toLowerCase() === given.toLowerCase();
  return [
    ...(same(user) ? ['password must not be the username'] : []),
    ...(same(mail) ? ['password must not be the email'] : []),
  ];
}

/**
 * Checks a registration body; every problem is listed, in schema order.
 *
 * @example
 * checkRegisterBody({ username: 'al', password: 'short' });
 * // { problems: ['first_name is required', ..., 'username must be 3–30 characters long', ...] }
 */
export function checkRegisterBody(body: unknown): { body: RegisterBody } | { problems: string[] } {
  const problems = registerBody(body) ? [] : (registerBody.errors ?? []).map(explain);
  if (body && typeof body === 'object' && !Array.isArray(body))
    problems.push(...passwordProblems(body as Record<string, unknown>));
  return problems.length ? { problems: [...new Set(problems)] } : { body: body as RegisterBody };
}

/**
 * Checks an `authenticate` or `delete` body.
 *
 * @example
 * checkCredentialsBody({ username: 'ana', password: 'x', extra: 1 }); // { problems: ["unknown field 'extra'"] }
 */
export function checkCredentialsBody(body: unknown): { body: CredentialsBody } | { problems: string[] } {
  if (credentialsBody(body)) return { body };
  return { problems: [...new Set((credentialsBody.errors ?? []).map(explain))] };
}
