// Where a webhook may go (SSRF): an admin's URL must not make the store call itself, its database, the
// cloud's metadata service or anything else on a private network. Checked twice: the URL when the
// endpoint is added (a clear 422), and the address actually connected to at every delivery, since a
// name can resolve elsewhere later (DNS rebinding). WEBHOOK_ALLOW_PRIVATE=1 lifts the address rule (tests,
// a receiver on the shop's own network); https in production always holds.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { messages } from '../../lib/messages.ts';
import { notPossible } from '../errors.ts';

/** Loopback, private, link-local, shared, multicast, documentation and reserved ranges (IPv4-mapped included). */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is one webhooks may not call (an unparsable one is not allowed either). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface GuardOptions {
  production: boolean;
  allowPrivate: boolean;
  /** Name resolution (tests give their own, to play DNS rebinding); default dns.lookup. */
  resolve?: (host: string) => Promise<string[]>;
}

export const systemResolve = (host: string): Promise<string[]> =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses: LookupAddress[]) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

/** A URL's host as an address or a name: IPv6 literals lose their brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

const refuse = (message: string) => notPossible(message, { url: message });

/**
 * POST /webhooks: whether the store may send to this URL (its shape is checked by webhookUrlSchema).
 * Throws a 422 naming why not.
 */
export async function checkEndpointUrl(text: string, options: GuardOptions): Promise<void> {
  const url = new URL(text);
  if (options.production && url.protocol !== 'https:') throw refuse(messages.webhookHttpsOnly);
  if (options.allowPrivate) return;
  const host = hostOf(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) throw refuse(messages.webhookPrivateAddress);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      throw refuse(messages.webhookHostUnknown);
    }
  }
  if (!addresses.length) throw refuse(messages.webhookHostUnknown);
  if (addresses.some(isPrivateAddress)) throw refuse(messages.webhookPrivateAddress);
}

export class BlockedAddressError extends Error {}

/**
 * The address to connect to for a delivery, checked: an IP literal as it is, a name resolved now (the
 * connection then goes to exactly this address, so the name cannot be re-resolved to another in between).
 */
export async function deliveryAddress(url: URL, options: GuardOptions): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  const addresses = isIP(host) ? [host] : await (options.resolve ?? systemResolve)(host);
  if (!addresses.length) throw new Error(`${host} did not resolve`);
  if (!options.allowPrivate) {
    const refused = addresses.find(isPrivateAddress);
    if (refused)
      throw new BlockedAddressError(`${host} resolves to ${refused}, a private or local address: not called`);
  }
  const address = addresses[0];
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}

/** A `lookup` for node:http that answers the address already checked, whatever the name. */
export const pinnedLookup =
  (pinned: { address: string; family: 4 | 6 }): LookupFunction =>
  (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
