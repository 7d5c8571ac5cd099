import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import ipaddr from "ipaddr.js";
import { isIP } from "node:net";

/**
 * Which push endpoints the server will POST to: an https URL whose host is a public
 * address. A member chooses the endpoint, so without this check `POST /api/push/test` opens TLS
 * connections wherever the member points it (127.0.0.1, the cloud's metadata address, the LAN).
 *
 * The host is read as the connection will read it: the WHATWG URL parser (Node's `URL`, which
 * `https.request` uses too) turns every IPv4 spelling the resolver accepts (`0x7f000001`, `127.1`,
 * `2130706433`, `017700000001`, `127.0.0.1.`) into dotted decimal and IPv6 into its short form;
 * a name is resolved and every address it gives must be public. Whether an address is public is
 * ipaddr.js's `range()` being `unicast` (not loopback, private, link-local, carrier-grade NAT,
 * unique-local, IPv4-mapped, multicast, reserved, ...): the rule `request-filtering-agent`
 * applies again to the address of the connection itself at send time (transport.ts), so a name
 * that resolves elsewhere later (DNS rebinding) is refused there.
 */

/** True when `address` (an IP address as the resolver or the URL parser writes it) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  try {
    return ipaddr.parse(address).range() === "unicast";
  } catch {
    return false;
  }
}

/** Resolves a host name to every address it has (the push transport's resolver). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/**
 * Why `endpoint` is refused, or null when the server may POST to it: an https URL on a public
 * IP address, or on a name (with at least one dot, not `localhost` nor under `.localhost`) whose
 * every address is public.
 */
export async function endpointProblem(endpoint: string, resolve: ResolveHost): Promise<MessageDescriptor | null> {
  const notPublic = msg`Reminders can only be sent through a public push service`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return msg`This push subscription is not valid`;
  }
  if (url.protocol !== "https:" || url.username !== "" || url.password !== "") return msg`This push subscription is not valid`;
  const host = url.hostname;
  if (host.startsWith("[")) return isPublicAddress(host.slice(1, -1)) ? null : notPublic;
  if (isIP(host) !== 0) return isPublicAddress(host) ? null : notPublic;
  // A single label ("intranet", "localhost") is completed by the resolver's search domains and
  // the hosts file; `localhost` and its subdomains are loopback by definition (RFC 6761).
  const name = host.replace(/\.$/, "");
  if (!name.includes(".") || name === "localhost" || name.endsWith(".localhost")) return notPublic;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return msg`The push service's address could not be found: please try again later`;
  }
  if (addresses.length === 0) return msg`The push service's address could not be found: please try again later`;
  return addresses.every(isPublicAddress) ? null : notPublic;
}
