/**
 * Bolt version negotiation (https://neo4j.com/docs/bolt/current/bolt/handshake/).
 *
 * The client opens with the magic 0x6060B017 and four proposals of four bytes each:
 * [reserved, range, minor, major], meaning major.minor down to major.(minor - range). Two ways
 * to answer:
 * - the classic one: four bytes naming the chosen version (all zero: none fits);
 * - "manifest v1", which a driver announces with the proposal 255.1 (drivers of the Bolt 5.7
 *   era): the server answers 255.1, then lists the versions it serves and its capabilities;
 *   the client picks one and echoes it with its own capabilities.
 *
 * This server speaks one version, 5.4: the first with every message the driver sends
 * (LOGON/LOGOFF from 5.1, TELEMETRY from 5.4) and before the GQL-style errors of 5.7.
 */

export const BOLT_MAGIC = 0x6060b017;
export const PREAMBLE_LENGTH = 20;
export const SERVED_VERSION = { major: 5, minor: 4 } as const;

const MANIFEST_V1 = { major: 255, minor: 1 } as const;
const NO_CAPABILITIES = 0;

export type HandshakeAnswer =
  /** Version chosen; Bolt messages follow. */
  | { outcome: 'agreed'; reply: Buffer }
  /** Manifest sent; the client's choice (see readManifestChoice) comes next. */
  | { outcome: 'manifest'; reply: Buffer }
  /** Nothing fits (or not Bolt at all); the reply, if any, tells the client so. */
  | { outcome: 'refused'; reply: Buffer | null };

export function answerHandshake(preamble: Buffer): HandshakeAnswer {
  if (preamble.readUInt32BE(0) !== BOLT_MAGIC) return { outcome: 'refused', reply: null };
  const proposals = [4, 8, 12, 16].map((offset) => ({
    range: preamble[offset + 1],
    minor: preamble[offset + 2],
    major: preamble[offset + 3],
  }));
  if (proposals.some((proposal) => proposal.major === MANIFEST_V1.major && proposal.minor === MANIFEST_V1.minor)) {
    const reply = Buffer.concat([encodeVersion(MANIFEST_V1), encodeVarInt(1), encodeVersion(SERVED_VERSION), encodeVarInt(NO_CAPABILITIES)]);
    return { outcome: 'manifest', reply };
  }
  const fits = proposals.some(
    (proposal) => proposal.major === SERVED_VERSION.major && proposal.minor >= SERVED_VERSION.minor && proposal.minor - proposal.range <= SERVED_VERSION.minor,
  );
  return fits ? { outcome: 'agreed', reply: encodeVersion(SERVED_VERSION) } : { outcome: 'refused', reply: encodeVersion({ major: 0, minor: 0 }) };
}

/**
 * The client's answer to the manifest: four bytes of version and a varint of capabilities.
 * Null while incomplete; `consumed` tells where the Bolt messages begin.
 */
export function readManifestChoice(bytes: Buffer): { accepted: boolean; consumed: number } | null {
  if (bytes.length < 5) return null;
  let consumed = 4;
  while (consumed < bytes.length && (bytes[consumed] & 0x80) !== 0) consumed++;
  if (consumed === bytes.length) return null;
  consumed++;
  const accepted = bytes[2] === SERVED_VERSION.minor && bytes[3] === SERVED_VERSION.major;
  return { accepted, consumed };
}

function encodeVersion(version: { major: number; minor: number }): Buffer {
  return Buffer.from([0, 0, version.minor, version.major]);
}

/** An unsigned base-128 varint, least significant group first. */
function encodeVarInt(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    const group = rest & 0x7f;
    rest = Math.floor(rest / 128);
    bytes.push(rest > 0 ? group | 0x80 : group);
  } while (rest > 0);
  return Buffer.from(bytes);
}
