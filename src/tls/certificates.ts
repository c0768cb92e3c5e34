// @peculiar/x509 resolves its ASN.1 parts through tsyringe, which needs the Reflect metadata API
// to exist before it loads: this import must stay first.
import 'reflect-metadata'
import * as x509 from '@peculiar/x509'
import ipaddr from 'ipaddr.js'

/**
 * Making certificates for `--tls auto`: a local certificate authority, and server certificates it
 * signs. Keys are ECDSA P-256, made and used by Bun's own WebCrypto; @peculiar/x509 only writes the
 * ASN.1. Reading, checking and fingerprinting use `node:crypto` (see server-tls.ts).
 */
export const isIpAddress = (name: string) =>
  ipaddr.IPv4.isValidFourPartDecimal(name) || ipaddr.IPv6.isValid(name)
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const
const DAY_MS = 86_400_000
/** Agents and servers on a LAN disagree about the time by a little: certificates start early. */
const BACKDATE_MS = 3_600_000

export const CA_DAYS = 3650
/** Within what Apple platforms accept for any TLS server certificate (825 days). */
export const SERVER_CERT_DAYS = 825

export interface PemPair {
  certPem: string
  keyPem: string
}

export async function createCertificateAuthority(now: Date, label: string): Promise<PemPair> {
  const keys = await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [`deskhook local CA (${label})`] }, { O: ['deskhook'] }],
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter: new Date(now.getTime() + CA_DAYS * DAY_MS),
    signingAlgorithm: EC,
    keys,
    extensions: [
      // pathLength 0: this CA signs server certificates, never another CA.
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  })
  return { certPem: `${cert.toString('pem')}\n`, keyPem: await privateKeyPem(keys.privateKey) }
}

/** A server certificate for these host names and addresses, signed by the CA. */
export async function issueServerCertificate(ca: PemPair, names: string[], now: Date): Promise<PemPair> {
  const caCert = new x509.X509Certificate(ca.certPem)
  const caKey = await crypto.subtle.importKey('pkcs8', x509.PemConverter.decode(ca.keyPem)[0]!, EC, false, [
    'sign',
  ])
  const keys = await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])
  // Never beyond the CA: a chain is only as valid as its shortest-lived link.
  const notAfter = Math.min(now.getTime() + SERVER_CERT_DAYS * DAY_MS, caCert.notAfter.getTime())
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: [{ CN: [names.find((n) => !isIpAddress(n)) ?? names[0]!] }, { O: ['deskhook'] }],
    issuer: caCert.subject,
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter: new Date(notAfter),
    signingAlgorithm: EC,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        names.map((value) => ({ type: isIpAddress(value) ? ('ip' as const) : ('dns' as const), value })),
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  })
  return { certPem: `${cert.toString('pem')}\n`, keyPem: await privateKeyPem(keys.privateKey) }
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  return `${x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY')}\n`
}

/** 128 random bits, positive (RFC 5280 wants a positive integer of at most 20 bytes). */
function serialNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  // Positive and without a leading zero byte, so DER keeps all 16 bytes.
  bytes[0] = bytes[0]! & 0x7f || 0x01
  return Buffer.from(bytes).toString('hex')
}
