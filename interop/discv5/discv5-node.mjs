// ChainSafe's discv5 (@chainsafe/discv5 10.0.1, the implementation Lodestar and js-libp2p use) behind the interop
// contract (../README.md): a discv5 node on 127.0.0.1 that the Java tests ask to ping, find nodes, look up and learn
// records.
//
//   node --import ../polyfill.mjs discv5-node.mjs [--udp-port N] [--timeout-s N]
//   ready: {"event":"ready","peerId":"","addrs":[],"enr":"enr:…","nodeId":"<hex>"}
//   {"id":1,"cmd":"addEnr","enr":"enr:…"}                      the record enters the table (as a bootstrap node)
//   {"id":2,"cmd":"ping","enr":"enr:…"}                        -> {"enrSeq":"…","ip":"…","port":N}
//   {"id":3,"cmd":"findNode","enr":"enr:…","distances":[0]}    -> {"enrs":["enr:…",…]}
//   {"id":4,"cmd":"lookup","target":"<hex node id>"}           -> {"enrs":[…]}  (an iterative lookup)
//   {"id":5,"cmd":"table"}                                     -> {"enrs":[…]}  (the table's records)
//   {"id":6,"cmd":"talk","enr":"enr:…","protocol":"x","payload":"<base64>"} -> {"response":"<base64>"}
import { generateKeyPair } from '@libp2p/crypto/keys'
import { multiaddr } from '@multiformats/multiaddr'
import { Discv5 } from '@chainsafe/discv5'
import { ENR, SignableENR } from '@chainsafe/enr'
import { COMMON_ARGS, parseArgs, requireField, run, fromBase64, toBase64 } from '../common.mjs'

const args = parseArgs(process.argv.slice(2), {
  ...COMMON_ARGS,
  'udp-port': { type: 'int', default: 0, help: 'UDP port on 127.0.0.1 (0: any free port)' }
})

/** A record the Java side gave, refused unless every address in it is a loopback one. */
function loopbackEnr (text) {
  const enr = ENR.decodeTxt(requireField({ text }, 'text'))
  const ip = enr.ip
  if (ip !== undefined && !ip.startsWith('127.')) throw new Error(`only loopback records are allowed: ${ip}`)
  return enr
}

async function start () {
  const privateKey = await generateKeyPair('secp256k1')
  const port = args['udp-port'] === 0 ? await freeUdpPort() : args['udp-port']
  const enr = SignableENR.createFromPrivateKey(privateKey)
  enr.ip = '127.0.0.1'
  enr.udp = port
  const discv5 = Discv5.create({
    enr,
    privateKey,
    bindAddrs: { ip4: multiaddr(`/ip4/127.0.0.1/udp/${port}`) },
    config: { enrUpdate: false, pingInterval: 5 * 60 * 1000, lookupTimeout: 10_000 }
  })
  await discv5.start()
  const texts = (enrs) => enrs.map(e => e.encodeTxt())
  return {
    peerId: '',
    addrs: [],
    ready: { enr: discv5.enr.encodeTxt(), nodeId: discv5.enr.nodeId },
    commands: {
      addEnr: async (msg) => { discv5.addEnr(loopbackEnr(msg.enr)); return { size: discv5.kadValues().length } },
      ping: async (msg) => {
        const pong = await discv5.sendPing(loopbackEnr(msg.enr))
        return { enrSeq: pong.enrSeq, ip: pong.addr?.ip?.toString?.() ?? String(pong.addr?.ip), port: pong.addr?.port }
      },
      findNode: async (msg) => ({ enrs: texts(await discv5.sendFindNode(loopbackEnr(msg.enr), msg.distances ?? [0])) }),
      lookup: async (msg) => ({ enrs: texts(await discv5.findNode(requireField(msg, 'target'))) }),
      table: async () => ({ enrs: texts(discv5.kadValues()) }),
      talk: async (msg) => ({
        response: toBase64(new Uint8Array(await discv5.sendTalkReq(loopbackEnr(msg.enr), Buffer.from(fromBase64(msg.payload)),
          requireField(msg, 'protocol'))))
      })
    },
    stop: async () => { await discv5.stop() }
  }
}

/** A port the OS considers free now (bound and released), for the record that must name it before binding. */
async function freeUdpPort () {
  const dgram = await import('node:dgram')
  const socket = dgram.createSocket('udp4')
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address()
  await new Promise((resolve) => socket.close(resolve))
  return port
}

run({ name: 'discv5-node', timeoutS: args['timeout-s'], start })
