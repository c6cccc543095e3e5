import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { AppError } from '@ringfence/platform';

/** Issue 37's password policy: long enough to resist guessing, short enough to hash cheaply. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * scrypt, a memory-hard function (ADR-0002): N = 2^15, r = 8, p = 1 takes 32 MiB and about
 * 50-100 ms per hash, which makes each guess at a stolen hash costly on any hardware. The
 * parameters are stored with each hash, so they can be raised later and old hashes still verify.
 */
export const SCRYPT_PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** What scrypt may allocate: 128 * N * r bytes, with room to spare (node's default limit is 32 MiB, exactly what N = 2^15 needs). */
const maxmemFor = (N: number, r: number) => 256 * N * r;
/** Stored parameters beyond these are refused rather than obeyed (a tampered row must not exhaust memory). */
const MAX_STORED_N = 2 ** 20;

interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, parameters: ScryptParameters, keyLength: number): Promise<Buffer> {
  // The callback form runs on libuv's thread pool: the event loop keeps serving requests meanwhile.
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { ...parameters, maxmem: maxmemFor(parameters.N, parameters.r) }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** The password's problem under the policy, naming the field; null when it is acceptable. */
export function passwordPolicyProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `password: must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `password: must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}

/** Throws VALIDATION_FAILED (400) naming `password` when the policy refuses it. */
export function assertPasswordPolicy(password: string): void {
  const problem = passwordPolicyProblem(password);
  if (problem !== null) throw new AppError('VALIDATION_FAILED', problem);
}

/** `scrypt$<N>$<r>$<p>$<salt base64url>$<key base64url>`: a random salt per hash. */
export async function hashPassword(password: string, parameters: ScryptParameters = SCRYPT_PARAMETERS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, parameters, KEY_LENGTH);
  return ['scrypt', parameters.N, parameters.r, parameters.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether the password is the one hashed; false for a malformed or out-of-bounds stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match) return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (N < 2 || N > MAX_STORED_N || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const expected = Buffer.from(match[5], 'base64url');
  if (expected.length < 16 || expected.length > 64) return false;
  const key = await derive(password, Buffer.from(match[4], 'base64url'), { N, r, p }, expected.length);
  return timingSafeEqual(key, expected);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one verification on nothing: signing in with an unknown address takes as
 * long as with a wrong password, so the answer's timing does not tell which addresses exist.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('not a password of anyone');
  await verifyPassword(password, await dummyHash);
  return false;
}
