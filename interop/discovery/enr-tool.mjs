// js-waku's ENR library (@waku/enr 0.0.33) behind the interop contract (../README.md): decodes the records our node
// makes and creates records for our node to decode. It does not listen or dial; it only reads and writes records.
//
//   node --import ../polyfill.mjs enr-tool.mjs [--timeout-s N]
//   {"id":1,"cmd":"decode","enr":"enr:…"}
//   {"id":2,"cmd":"create","tcp":60000,"multiaddrs":["/dns4/x.example/tcp/443/wss"],
//    "waku2":{"relay":true,"store":true},"clusterId":1,"shards":[0,3]}
//   {"id":3,"cmd":"dns","url":"enrtree://KEY@nodes.example","nameServer":"127.0.0.1:5353","rounds":3}
//     js-waku's DNS discovery (@waku/discovery 0.0.13, DnsNodeDiscovery) reading an EIP-1459 tree through the given
//     name server only (Node's dns.promises.Resolver): the peers it finds (it keeps only records with waku2).
import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { multiaddr } from '@multiformats/multiaddr'
import { Resolver } from 'node:dns/promises'
import { DnsNodeDiscovery } from '@waku/discovery'
import { EnrCreator, EnrDecoder } from '@waku/enr'
import { encodeRelayShard } from '@waku/utils'
import { COMMON_ARGS, parseArgs, requireField, run } from '../common.mjs'
// @waku/enr's index does not export its encoder (js-waku signs records inside its discovery code); the file is the
// package's own, imported by path because the package's export map lists only the index.
import { EnrEncoder } from './node_modules/@waku/enr/dist/encoder.js'

const args = parseArgs(process.argv.slice(2), { ...COMMON_ARGS })

/** What @waku/enr reads from a record, as plain JSON. */
async function decode (msg) {
  const enr = await EnrDecoder.fromString(requireField(msg, 'enr'))
  const shardInfo = enr.shardInfo
  return {
    peerId: enr.peerId?.toString(),
    seq: enr.seq.toString(),
    ip: enr.ip,
    tcp: enr.tcp,
    udp: enr.udp,
    ip6: enr.ip6,
    tcp6: enr.tcp6,
    multiaddrs: (enr.multiaddrs ?? []).map(String),
    locationMultiaddrs: enr.getAllLocationMultiaddrs().map(String),
    fullMultiaddrs: enr.getFullMultiaddrs().map(String),
    waku2: enr.waku2 ?? null,
    shardInfo: shardInfo === undefined ? null : { clusterId: shardInfo.clusterId, shards: shardInfo.shards }
  }
}

/** A record of a new secp256k1 key with the fields asked for, signed by @waku/enr. */
async function create (msg) {
  const privateKey = await generateKeyPair('secp256k1')
  const peerId = peerIdFromPrivateKey(privateKey)
  const enr = await EnrCreator.fromPeerId(peerId)
  enr.setLocationMultiaddr(multiaddr(`/ip4/${msg.ip ?? '127.0.0.1'}/tcp/${requireField(msg, 'tcp')}`))
  if (msg.multiaddrs !== undefined) enr.multiaddrs = msg.multiaddrs.map(a => multiaddr(a))
  if (msg.waku2 !== undefined) {
    enr.waku2 = { relay: false, store: false, filter: false, lightPush: false, ...msg.waku2 }
  }
  if (msg.shards !== undefined) {
    enr.set('rs', encodeRelayShard({ clusterId: msg.clusterId ?? 0, shards: msg.shards }))
  }
  const text = await EnrEncoder.toString(enr, privateKey.raw)
  return { enr: text, peerId: peerId.toString() }
}

/**
 * The peers js-waku's DnsNodeDiscovery finds in a tree. Its walk is random (one leaf per descent, at most 10 descents
 * per call, each subdomain visited once per call), so the call is made `rounds` times and the finds are joined.
 */
async function dns (msg) {
  const resolver = new Resolver({ timeout: 2000, tries: 1 })
  resolver.setServers([requireField(msg, 'nameServer')])
  // js-waku's DnsClient: the TXT records of a name, each record's character-strings joined
  const client = { resolveTXT: async (domain) => (await resolver.resolveTxt(domain)).map(chunks => chunks.join('')) }
  const discovery = new DnsNodeDiscovery(client)
  const peers = new Map()
  for (let round = 0; round < (msg.rounds ?? 1); round++) {
    for await (const enr of discovery.getNextPeer([requireField(msg, 'url')])) {
      peers.set(enr.peerId.toString(), { peerId: enr.peerId.toString(), ip: enr.ip, tcp: enr.tcp })
    }
  }
  return { peers: [...peers.values()] }
}

run({
  name: 'enr-tool',
  timeoutS: args['timeout-s'],
  start: async () => ({
    peerId: '',
    addrs: [],
    commands: { decode, create, dns },
    stop: async () => {}
  })
})
