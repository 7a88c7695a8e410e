// A js-waku light node (@waku/sdk 0.0.36 createLightNode, libp2p 2.8: TCP, Noise, mplex, identify, ping, Waku
// metadata; clients of Store v3, lightpush, filter v2 and peer exchange) pinned to one peer, driven by JSON lines on
// stdin/stdout. See ../README.md for the contract.
//
//   node --import ../polyfill.mjs light-node.mjs --peer <multiaddr with /p2p/> [--cluster 0 --shards 0 |
//        --pubsub-topic /waku/2/rs/0/0] [--dial-timeout-ms N] [--peer-exchange] [--timeout-s N]
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { tcp } from '@libp2p/tcp'
import { multiaddr } from '@multiformats/multiaddr'
import { EnrDecoder } from '@waku/enr'
import { proto_lightpush as lightpushProto, proto_peer_exchange as pxProto, proto_store as storeProto } from '@waku/proto'
import { createDecoder, createEncoder, createLightNode, utils, waku } from '@waku/sdk'
import {
  COMMON_ARGS, connectionInfo, emit, emitLibp2pEvents, errorText, frames, fromBase64, fromHex0x, lengthPrefixed, list,
  log, parseArgs, peersOf, requireField, requireLoopback, run, toBase64, toHex0x, withTimeout
} from '../common.mjs'

const STORE_CODEC = '/vac/waku/store-query/3.0.0'
const LIGHTPUSH_CODEC = '/vac/waku/lightpush/3.0.0'
const LIGHTPUSH_V2_CODEC = '/vac/waku/lightpush/2.0.0-beta1'
const FILTER_CODEC = '/vac/waku/filter-subscribe/2.0.0-beta1'
const PX_CODEC = '/vac/waku/peer-exchange/2.0.0-alpha1'

const args = parseArgs(process.argv.slice(2), {
  ...COMMON_ARGS,
  peer: { type: 'string', help: 'the (loopback) multiaddr, with /p2p/<id>, of the node this light node uses' },
  cluster: { type: 'int', default: 0, help: 'cluster id (static sharding)' },
  shards: { type: 'string', default: '0', help: 'shard ids; the first is the default of every command' },
  'pubsub-topic': {
    type: 'string', help: 'pubsub topics /waku/2/rs/<cluster>/<shard>[,…]; overrides --cluster/--shards'
  },
  'dial-timeout-ms': { type: 'int', default: 10_000, help: 'how long the first dial of --peer may take' },
  'peer-exchange': {
    type: 'bool',
    help: "run js-waku's peer exchange discovery (@waku/discovery wakuPeerExchangeDiscovery): it asks the pinned " +
      'peer once identify completes; each peer it finds is emitted as a "discovery" event'
  }
})

/** {clusterId, shards} from --pubsub-topic or --cluster/--shards. */
function sharding () {
  if (args['pubsub-topic'] === undefined) {
    const shards = list(args.shards).map(Number)
    if (shards.length === 0 || shards.some(s => !Number.isInteger(s) || s < 0)) {
      throw new Error(`--shards takes shard numbers, got "${args.shards}"`)
    }
    return { clusterId: args.cluster, shards }
  }
  const parsed = list(args['pubsub-topic']).map(parsePubsubTopic)
  if (new Set(parsed.map(p => p.clusterId)).size !== 1) {
    throw new Error('all --pubsub-topic topics must be in one cluster')
  }
  return { clusterId: parsed[0].clusterId, shards: parsed.map(p => p.shard) }
}

function parsePubsubTopic (topic) {
  const m = /^\/waku\/2\/rs\/(\d+)\/(\d+)$/.exec(topic)
  if (m === null) throw new Error(`not a static-sharding pubsub topic /waku/2/rs/<cluster>/<shard>: ${topic}`)
  return { clusterId: Number(m[1]), shard: Number(m[2]) }
}

/**
 * A time bound for Store: a number or decimal string of milliseconds, or of nanoseconds when it is 10^14 or more
 * (10^14 ms is the year 5138; 10^14 ns is 1970-01-02). Returns nanoseconds as a BigInt.
 */
function timeNs (value) {
  if (value === undefined || value === null) return undefined
  const n = BigInt(value)
  return n >= 100_000_000_000_000n ? n : n * 1_000_000n
}

/** A WakuMessage (protobuf object) as JSON; timestamps are nanoseconds as decimal strings. */
function messageJson (pubsubTopic, proto, messageHash) {
  return {
    messageHash,
    pubsubTopic: pubsubTopic ?? null,
    contentTopic: proto?.contentTopic ?? null,
    payload: proto?.payload === undefined ? null : toBase64(proto.payload),
    timestamp: proto?.timestamp == null ? null : proto.timestamp.toString(),
    meta: proto?.meta == null ? null : toBase64(proto.meta),
    ephemeral: proto === undefined ? null : Boolean(proto.ephemeral)
  }
}

async function start (emitEvent) {
  if (args.peer === undefined) throw new Error('--peer <multiaddr> is required')
  const pinnedAddr = multiaddr(requireLoopback(args.peer))
  const pinnedId = pinnedAddr.getPeerId()
  if (pinnedId === null) throw new Error(`--peer must end in /p2p/<peer id>: ${args.peer}`)
  const { clusterId, shards } = sharding()
  const networkConfig = { clusterId }

  const node = await createLightNode({
    networkConfig,
    defaultBootstrap: false,
    numPeersToUse: 1,
    discovery: args['peer-exchange'] ? { peerExchange: true, dns: false, peerCache: false } : undefined,
    libp2p: {
      addresses: { listen: [] },
      transports: [tcp()],
      hideWebSocketInfo: true
    }
  })
  emitLibp2pEvents(node.libp2p, emitEvent)
  node.libp2p.addEventListener('peer:discovery', (e) => emitEvent('discovery', {
    peerId: e.detail.id.toString(), multiaddrs: (e.detail.multiaddrs ?? []).map(String)
  }))

  // Peers whose identify has completed on their current connection: until then the peer store may list only the
  // protocols of the streams opened so far.
  const identified = new Set()
  node.libp2p.addEventListener('peer:identify', (e) => identified.add(e.detail.peerId.toString()))
  node.libp2p.addEventListener('peer:disconnect', (e) => identified.delete(e.detail.toString()))

  const connectionToPinned = () => node.libp2p.getConnections().find(c => c.remotePeer.toString() === pinnedId)

  async function dialPinned (timeoutMs) {
    try {
      return await node.libp2p.dial(pinnedAddr, { signal: AbortSignal.timeout(timeoutMs) })
    } catch (e) {
      throw new Error(`cannot reach the pinned peer ${args.peer}: ${errorText(e)}`)
    }
  }

  // Dial the pinned peer now; when that fails, the node still starts and says why in a "pinned" event.
  try {
    const connection = await dialPinned(args['dial-timeout-ms'])
    emitEvent('pinned', { addr: args.peer, peerId: pinnedId, connected: true, muxer: connection.multiplexer ?? null })
  } catch (e) {
    log(e.message)
    emitEvent('pinned', { addr: args.peer, peerId: pinnedId, connected: false, error: e.message })
  }

  /**
   * The pinned peer's PeerId once it is connected (re-dialled if needed) and its identify lists one of `codecs`;
   * the first such codec. Fails with a message that says which of the two is missing.
   */
  async function pinnedPeerWith (codecs, timeoutMs) {
    const deadline = Date.now() + timeoutMs
    let connection = connectionToPinned() ?? await dialPinned(timeoutMs)
    for (;;) {
      let protocols = []
      try {
        protocols = (await node.libp2p.peerStore.get(connection.remotePeer)).protocols
      } catch (e) {
        // identify has not finished yet
      }
      const codec = codecs.find(c => protocols.includes(c))
      if (codec !== undefined) return { peerId: connection.remotePeer, codec }
      if (identified.has(pinnedId) || Date.now() > deadline) {
        throw new Error(`the pinned peer ${pinnedId} does not offer ${codecs.join(' or ')} ` +
          (identified.has(pinnedId) ? `(its identify lists: ${protocols.join(', ')})` : '(identify did not complete)'))
      }
      await new Promise(resolve => setTimeout(resolve, 50))
      connection = connectionToPinned() ?? await dialPinned(Math.max(deadline - Date.now(), 1))
    }
  }

  /** The routing of a command: its "pubsubTopic" or "shard", else the first configured shard. */
  function routing (msg, contentTopic) {
    let shardId = msg.shard ?? shards[0]
    if (msg.pubsubTopic !== undefined) {
      const parsed = parsePubsubTopic(msg.pubsubTopic)
      if (parsed.clusterId !== clusterId) throw new Error(`${msg.pubsubTopic} is not in cluster ${clusterId}`)
      shardId = parsed.shard
    }
    return utils.createRoutingInfo(networkConfig, { contentTopic, shardId })
  }

  function contentTopicsOf (msg) {
    const topics = msg.contentTopics ?? (msg.contentTopic !== undefined ? [msg.contentTopic] : [])
    return Array.isArray(topics) ? topics : [topics]
  }

  /**
   * Sends one length-prefixed request on a new stream and reads until the server closes its side: the raw exchange
   * of Store v3 and lightpush v3, without js-waku's checks, so that a test can send what js-waku never would.
   */
  async function exchange (peerId, codec, requestBytes, timeoutMs) {
    const started = performance.now()
    const stream = await node.libp2p.dialProtocol(peerId, codec, { signal: AbortSignal.timeout(timeoutMs) })
    const chunks = []
    const reading = (async () => {
      for await (const list of stream.source) chunks.push(list.subarray())
    })()
    const timer = setTimeout(() => stream.abort(new Error(`no end of response within ${timeoutMs} ms`)), timeoutMs)
    try {
      await stream.sink([lengthPrefixed(requestBytes)])
      await reading
    } finally {
      clearTimeout(timer)
    }
    const bytes = Buffer.concat(chunks)
    const responseFrames = frames(bytes)
    if (responseFrames.length !== 1) {
      throw new Error(`expected one length-prefixed response, got ${responseFrames.length} in ${bytes.length} bytes`)
    }
    return { response: responseFrames[0], ms: Math.round(performance.now() - started), responseBytes: bytes.length }
  }

  async function rawStore (msg, peerId) {
    const request = {
      requestId: msg.requestId ?? randomUUID(),
      includeData: msg.includeData ?? true,
      pubsubTopic: msg.pubsubTopic ?? (msg.shard !== undefined ? `/waku/2/rs/${clusterId}/${msg.shard}` : undefined),
      contentTopics: contentTopicsOf(msg),
      timeStart: timeNs(msg.timeStart),
      timeEnd: timeNs(msg.timeEnd),
      messageHashes: (msg.hashes ?? []).map(fromHex0x),
      paginationCursor: msg.cursor === undefined ? undefined : fromHex0x(msg.cursor),
      paginationForward: msg.direction !== 'backward',
      paginationLimit: msg.pageSize === undefined ? undefined : BigInt(msg.pageSize)
    }
    const requestBytes = msg.requestBytes !== undefined ? fromBase64(msg.requestBytes)
      : storeProto.StoreQueryRequest.encode(request)
    const { response, ms, responseBytes } = await exchange(peerId, STORE_CODEC, requestBytes, msg.timeoutMs ?? 20_000)
    const decoded = storeProto.StoreQueryResponse.decode(response)
    return {
      requestId: decoded.requestId,
      statusCode: decoded.statusCode ?? null,
      statusDesc: decoded.statusDesc ?? null,
      messages: decoded.messages.map(kv => messageJson(kv.pubsubTopic, kv.message,
        kv.messageHash === undefined ? null : toHex0x(kv.messageHash))),
      paginationCursor: decoded.paginationCursor === undefined ? null : toHex0x(decoded.paginationCursor),
      responseBytes,
      ms
    }
  }

  async function sdkStore (msg, peerId) {
    const contentTopics = contentTopicsOf(msg)
    if (contentTopics.length === 0) throw new Error('missing field "contentTopic" or "contentTopics"')
    const decoders = contentTopics.map(ct => createDecoder(ct, routing(msg, ct)))
    const options = { peerId, paginationForward: msg.direction !== 'backward' }
    if (msg.pageSize !== undefined) options.paginationLimit = msg.pageSize
    // js-waku's Store API takes Dates: nanosecond bounds are truncated to milliseconds.
    if (msg.timeStart != null) options.timeStart = new Date(Number(timeNs(msg.timeStart) / 1_000_000n))
    if (msg.timeEnd != null) options.timeEnd = new Date(Number(timeNs(msg.timeEnd) / 1_000_000n))
    if (msg.hashes !== undefined && msg.hashes.length > 0) {
      options.messageHashes = msg.hashes.map(fromHex0x)
      options.pubsubTopic = decoders[0].pubsubTopic
    }
    const messages = []
    let pages = 0
    let undecoded = 0
    const query = async () => {
      for await (const page of node.store.queryGenerator(decoders, options)) {
        pages++
        for (const m of await Promise.all(page)) {
          if (m === undefined) undecoded++
          else messages.push(messageJson(m.pubsubTopic, m.proto, toHex0x(m.hash)))
        }
      }
    }
    await withTimeout(query(), msg.timeoutMs ?? 60_000, 'store query')
    return { messages, pages, undecoded }
  }

  async function rawLightpush (msg, peerId, proto, pubsubTopic) {
    const requestBytes = msg.requestBytes !== undefined ? fromBase64(msg.requestBytes)
      : lightpushProto.LightPushRequestV3.encode({
        requestId: msg.requestId ?? randomUUID(),
        pubsubTopic: msg.omitPubsubTopic === true ? undefined : pubsubTopic,
        message: proto
      })
    const { response, ms } = await exchange(peerId, LIGHTPUSH_CODEC, requestBytes, msg.timeoutMs ?? 20_000)
    const decoded = lightpushProto.LightPushResponseV3.decode(response)
    return {
      requestId: decoded.requestId,
      statusCode: decoded.statusCode ?? null,
      statusDesc: decoded.statusDesc ?? null,
      relayPeerCount: decoded.relayPeerCount ?? null,
      ms
    }
  }

  /** One peer exchange query of the pinned peer, by hand; every record decoded by @waku/enr. */
  async function peerExchange (msg, peerId) {
    const requestBytes = pxProto.PeerExchangeRPC.encode({ query: { numPeers: BigInt(msg.numPeers ?? 5) } })
    const { response, ms, responseBytes } = await exchange(peerId, PX_CODEC, requestBytes, msg.timeoutMs ?? 20_000)
    const decoded = pxProto.PeerExchangeRPC.decode(response)
    if (decoded.response === undefined) throw new Error('the PeerExchangeRPC answer carries no response')
    const records = []
    for (const info of decoded.response.peerInfos) {
      const enr = await EnrDecoder.fromRLP(info.enr)
      records.push({
        enr: toBase64(info.enr),
        peerId: enr.peerId?.toString() ?? null,
        ip: enr.ip ?? null,
        tcp: enr.tcp ?? null,
        locationMultiaddrs: enr.getAllLocationMultiaddrs().map(String),
        waku2: enr.waku2 ?? null,
        shardInfo: enr.shardInfo === undefined ? null
          : { clusterId: enr.shardInfo.clusterId, shards: enr.shardInfo.shards }
      })
    }
    return { records, responseBytes, ms }
  }

  const filterDecoders = new Map()

  const commands = {
    async dial (msg) {
      const connection = await node.libp2p.dial(multiaddr(requireLoopback(msg.addr ?? args.peer)),
        { signal: AbortSignal.timeout(msg.timeoutMs ?? 10_000) })
      return connectionInfo(connection)
    },

    async store (msg) {
      const { peerId } = await pinnedPeerWith([STORE_CODEC], msg.peerTimeoutMs ?? 10_000)
      return msg.raw === true ? await rawStore(msg, peerId) : await sdkStore(msg, peerId)
    },

    async lightpush (msg) {
      const legacy = msg.legacy === true
      const { peerId, codec } = await pinnedPeerWith(legacy ? [LIGHTPUSH_V2_CODEC] : [LIGHTPUSH_CODEC],
        msg.peerTimeoutMs ?? 10_000)
      const contentTopic = requireField(msg, 'contentTopic')
      const meta = msg.meta === undefined ? undefined : fromBase64(msg.meta)
      const encoder = createEncoder({
        contentTopic,
        routingInfo: routing(msg, contentTopic),
        ephemeral: msg.ephemeral === true,
        metaSetter: meta === undefined ? undefined : () => meta
      })
      // Fix the timestamp, so that the hash we report is that of the message sent.
      const message = { payload: fromBase64(msg.payload), timestamp: new Date(msg.timestamp ?? Date.now()) }
      const proto = await encoder.toProtoObj(message)
      const sent = messageJson(encoder.pubsubTopic, proto, '0x' + waku.messageHashStr(encoder.pubsubTopic, proto))
      if (msg.raw === true) return { ...sent, ...await rawLightpush(msg, peerId, proto, encoder.pubsubTopic) }
      const result = await node.lightPush.send(encoder, message, { autoRetry: false, useLegacy: legacy })
      return {
        ...sent,
        protocol: codec,
        successes: result.successes.map(p => p.toString()),
        failures: result.failures.map(f => ({ error: f.error, peerId: f.peerId?.toString() ?? null }))
      }
    },

    async filterSubscribe (msg) {
      await pinnedPeerWith([FILTER_CODEC], msg.peerTimeoutMs ?? 10_000)
      const contentTopic = requireField(msg, 'contentTopic')
      const decoder = createDecoder(contentTopic, routing(msg, contentTopic))
      const ok = await node.filter.subscribe(decoder, (m) => {
        emitEvent('message', messageJson(m.pubsubTopic, m.proto, toHex0x(m.hash)))
      })
      if (!ok) {
        throw new Error(`the filter subscription to ${contentTopic} on ${decoder.pubsubTopic} failed (see the log)`)
      }
      filterDecoders.set(`${decoder.pubsubTopic} ${contentTopic}`, decoder)
      return { pubsubTopic: decoder.pubsubTopic }
    },

    async filterUnsubscribe (msg) {
      const contentTopic = requireField(msg, 'contentTopic')
      const pubsubTopic = routing(msg, contentTopic).pubsubTopic
      const key = `${pubsubTopic} ${contentTopic}`
      const decoder = filterDecoders.get(key)
      if (decoder === undefined) throw new Error(`not subscribed to ${contentTopic} on ${pubsubTopic}`)
      const ok = await node.filter.unsubscribe(decoder)
      filterDecoders.delete(key)
      if (!ok) throw new Error(`the filter unsubscription from ${contentTopic} failed (see the log)`)
      return {}
    },

    async peerExchange (msg) {
      const { peerId } = await pinnedPeerWith([PX_CODEC], msg.peerTimeoutMs ?? 10_000)
      return await peerExchange(msg, peerId)
    },

    async peers () {
      return { peers: await peersOf(node.libp2p) }
    }
  }

  log(`light-node.mjs ${node.libp2p.peerId} pinned to ${args.peer}; cluster ${clusterId}, shards ${shards}`)
  return {
    peerId: node.libp2p.peerId.toString(),
    addrs: node.libp2p.getMultiaddrs().map(a => a.toString()),
    ready: { clusterId, shards, pinned: args.peer },
    commands,
    stop: () => node.stop()
  }
}

run({ name: 'light-node.mjs', timeoutS: args['timeout-s'], start }).catch((e) => {
  log('light-node.mjs crashed:', e)
  emit({ event: 'failed', error: errorText(e) })
  process.exit(1)
})
