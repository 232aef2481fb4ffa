import { keccak_256 } from '@noble/hashes/sha3';
import { utf8ToBytes } from '@noble/hashes/utils';

/**
 * EVM addresses and their EIP-55 checksum, as viem's `isAddress` / `getAddress` answer them, with
 * @noble/hashes' keccak only: viem's index would bring its clients and ABI code into the server's
 * start and the web's rules chunk (docs/decisions.md, "Cold start"). rules.test.ts checks both against
 * viem's answers.
 */

const ADDRESS_PATTERN = /^0x[a-fA-F0-9]{40}$/;

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** The EIP-55 form of a 0x + 40 hex digit address (its casing ignored; not validated). */
function checksumAddress(address: string): `0x${string}` {
  const lower = address.toLowerCase().slice(2);
  const hash = keccak_256(utf8ToBytes(lower));
  let out = '0x';
  for (let i = 0; i < 40; i += 1) {
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? (lower[i] ?? '').toUpperCase() : (lower[i] ?? '');
  }
  return out as `0x${string}`;
}

/** 0x and 40 hex digits; with `strict` (the default) a mixed-case address must carry its checksum. */
export function isAddress(value: string, options: { strict?: boolean } = {}): value is `0x${string}` {
  if (!ADDRESS_PATTERN.test(value)) return false;
  if (options.strict === false || value.toLowerCase() === value) return true;
  return checksumAddress(value) === value;
}

/** The checksummed form of any casing; throws on what is not an address. */
export function getAddress(value: string): `0x${string}` {
  if (!isAddress(value, { strict: false })) throw new Error(`Address "${value}" is invalid.`);
  return checksumAddress(value);
}
