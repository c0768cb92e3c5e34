import ipaddr from 'ipaddr.js'
import type { Config } from '../../config/index.ts'

export const METRICS_PATH = '/_metrics'

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number]
const parsed = new WeakMap<Config, Network[]>()

/**
 * Whether `/_metrics` is open without a key to this client address (`--metrics-allow`). The
 * address is the socket's peer, never a forwarded header, which any caller could write.
 */
export function metricsOpenTo(config: Config, address: string | undefined): boolean {
  if (!address || config.metricsAllow.length === 0) return false
  let networks = parsed.get(config)
  if (!networks) {
    networks = config.metricsAllow.map((cidr) => ipaddr.parseCIDR(cidr))
    parsed.set(config, networks)
  }
  if (!ipaddr.isValid(address)) return false
  // IPv4-mapped IPv6 (::ffff:10.1.2.3, as a dual-stack socket reports it) counts as its IPv4 address.
  const addr = ipaddr.process(address)
  return networks.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))
}
