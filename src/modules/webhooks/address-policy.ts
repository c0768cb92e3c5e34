import { networkInterfaces } from 'node:os'
import ipaddr from 'ipaddr.js'

/**
 * Which IP addresses a status event may be sent to (RELIABILITY P8). Deny by default: anything
 * ipaddr.js does not classify as plain public unicast — loopback, link-local (cloud metadata at
 * 169.254.169.254 and fd00:ec2::254 among them), RFC 1918, ULA, CGNAT, NAT64/6to4/Teredo forms
 * that embed an IPv4 address, documentation and reserved blocks — plus this machine's own
 * addresses. An admin's CIDR allow-list reopens any of those for LAN receivers.
 */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6

/** No receiver can live here, so even an allow-list (say 0.0.0.0/0) does not open them. */
const NEVER = new Set(['unspecified', 'broadcast', 'multicast'])

const IPV4_COMPATIBLE = ipaddr.parse('::')

const RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback',
  linkLocal: 'link-local',
  private: 'private (RFC 1918)',
  uniqueLocal: 'unique-local (private IPv6)',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
}

/**
 * Parses an IP literal as a URL host spells it (brackets allowed). IPv4-mapped IPv6 such as
 * `::ffff:127.0.0.1` becomes the IPv4 address it really reaches. Undefined for a hostname.
 */
export function parseIpLiteral(host: string): IpAddress | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  // process() = parse, then unwrap IPv4-mapped IPv6 so the IPv4 rules apply to it.
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined
}

function inAllowList(addr: IpAddress, allow: readonly string[]): boolean {
  return allow.some((cidr) => {
    const [net, bits] = ipaddr.parseCIDR(cidr)
    return net.kind() === addr.kind() && addr.match(net, bits)
  })
}

function ownAddresses(): Set<string> {
  const own = new Set<string>()
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      const parsed = parseIpLiteral(a.address.split('%')[0]!)
      if (parsed) own.add(parsed.toNormalizedString())
    }
  }
  return own
}

/** Why `addr` may not receive callbacks, or undefined when it may. */
export function refusalReason(addr: IpAddress, allow: readonly string[]): string | undefined {
  const range = addr.range()
  if (NEVER.has(range)) return `${RANGE_NAMES[range]} address`
  // ipaddr.js calls ::a.b.c.d (RFC 4291's deprecated IPv4-compatible form) plain unicast, yet
  // stacks may route it to the embedded IPv4 address (::127.0.0.1 → loopback). No receiver
  // lives in ::/96 apart from :: and ::1, which have their own ranges above/below; refuse it all,
  // allow-list or not, since a CIDR written for IPv4 must not be reached through this spelling.
  if (range !== 'loopback' && addr.kind() === 'ipv6' && addr.match(IPV4_COMPATIBLE, 96)) {
    return 'IPv4-compatible IPv6 (deprecated ::a.b.c.d form, inside ::/96) address'
  }
  if (inAllowList(addr, allow)) return undefined
  if (range !== 'unicast') return `${RANGE_NAMES[range] ?? `special-purpose (${range})`} address`
  // Read per call: interfaces come and go (DHCP, VPNs), and validation is not a hot path.
  if (ownAddresses().has(addr.toNormalizedString())) return 'address of this server'
  return undefined
}
