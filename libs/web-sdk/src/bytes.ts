/** Base64 (RFC 4648 §4, padded) of bytes, with the browser's own `btoa`: no dependency. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

/** The bytes of base64 text (whitespace ignored); throws on anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Lower-case hexadecimal of bytes. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `length` random bytes from the platform's cryptographic generator (never Math.random). */
export function randomBytes(crypto: Pick<Crypto, 'getRandomValues'>, length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return bytes;
}

/** The size in bytes of text once UTF-8 encoded, which is what a request body weighs. */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
