// A js-waku relay node (@waku/sdk 0.0.27 createRelayNode, @waku/relay 0.0.14, libp2p 1.9: TCP, Noise, mplex, identify,
// ping, Waku metadata, gossipsub on /vac/waku/relay/2.0.0), driven by JSON lines on stdin/stdout.
// See ../README.md for the contract.
//
//   node --import ../polyfill.mjs relay-node.mjs [--listen <multiaddr|none>] [--cluster 0 --shards 0,1 |
//        --pubsub-topic /waku/2/rs/0/0[,…]] [--timeout-s N]
import { tcp } from '@libp2p/tcp'
import { multiaddr } from '@multiformats/multiaddr'
import { messageHashStr } from '@waku/message-hash'
import { createDecoder, createEncoder } from '@waku/sdk'
import { createRelayNode } from '@waku/sdk/relay'
import {
  COMMON_ARGS, connectionInfo, emit, emitLibp2pEvents, errorText, fromBase64, list, log, parseArgs, peersOf,
  requireField, requireLoopback, run, toBase64
} from '../common.mjs'

const args = parseArgs(process.argv.slice(2), {
  ...COMMON_ARGS,
  listen: { type: 'string', default: '/ip4/127.0.0.1/tcp/0', help: 'listen multiaddr (loopback), or "none"' },
  cluster: { type: 'int', default: 0, help: 'cluster id (static sharding)' },
  shards: { type: 'string', default: '0', help: 'shard ids of the cluster, e.g. 0,1' },
  'pubsub-topic': {
    type: 'string', help: 'pubsub topics /waku/2/rs/<cluster>/<shard>[,…]; overrides --cluster/--shards'
  }
})

/** {clusterId, shards} from --pubsub-topic or --cluster/--shards: js-waku 0.0.27's static-sharding network config. */
function networkConfig () {
  if (args['pubsub-topic'] === undefined) {
    const shards = list(args.shards).map(Number)
    if (shards.length === 0 || shards.some(s => !Number.isInteger(s) || s < 0)) {
      throw new Error(`--shards takes shard numbers, got "${args.shards}"`)
    }
    return { clusterId: args.cluster, shards }
  }
  const parsed = list(args['pubsub-topic']).map((topic) => {
    const m = /^\/waku\/2\/rs\/(\d+)\/(\d+)$/.exec(topic)
    if (m === null) throw new Error(`not a static-sharding pubsub topic /waku/2/rs/<cluster>/<shard>: ${topic}`)
    return { clusterId: Number(m[1]), shard: Number(m[2]) }
  })
  const clusters = new Set(parsed.map(p => p.clusterId))
  if (clusters.size !== 1) throw new Error('all --pubsub-topic topics must be in one cluster')
  return { clusterId: parsed[0].clusterId, shards: parsed.map(p => p.shard) }
}

/** A received or sent message as JSON; timestamps are nanoseconds as decimal strings. */
function messageJson (pubsubTopic, proto) {
  return {
    pubsubTopic,
    contentTopic: proto.contentTopic,
    payload: toBase64(proto.payload),
    timestamp: proto.timestamp === undefined ? null : proto.timestamp.toString(),
    meta: proto.meta === undefined ? null : toBase64(proto.meta),
    ephemeral: Boolean(proto.ephemeral),
    messageHash: '0x' + messageHashStr(pubsubTopic, proto)
  }
}

async function start (emitEvent) {
  const config = networkConfig()
  const pubsubTopics = config.shards.map(s => `/waku/2/rs/${config.clusterId}/${s}`)
  const listen = args.listen === 'none' ? [] : [requireLoopback(args.listen)]

  const node = await createRelayNode({
    networkConfig: config,
    defaultBootstrap: false,
    libp2p: {
      addresses: { listen },
      transports: [tcp()],
      hideWebSocketInfo: true
    }
  })
  emitLibp2pEvents(node.libp2p, emitEvent)
  await node.start()

  /** The pubsub topic a command names, or the node's first one. */
  function topicOf (msg) {
    const topic = msg.pubsubTopic ?? pubsubTopics[0]
    if (!pubsubTopics.includes(topic)) {
      throw new Error(`pubsub topic ${topic} is not one of this node's: ${pubsubTopics}`)
    }
    return topic
  }

  const unsubscribers = new Map()

  const commands = {
    async dial (msg) {
      const connection = await node.libp2p.dial(multiaddr(requireLoopback(requireField(msg, 'addr'))),
        { signal: AbortSignal.timeout(msg.timeoutMs ?? 10_000) })
      return connectionInfo(connection)
    },

    async publish (msg) {
      const pubsubTopic = topicOf(msg)
      const meta = msg.meta === undefined ? undefined : fromBase64(msg.meta)
      const encoder = createEncoder({
        contentTopic: requireField(msg, 'contentTopic'),
        pubsubTopic,
        ephemeral: msg.ephemeral === true,
        metaSetter: meta === undefined ? undefined : () => meta
      })
      // The encoder stamps the time when it encodes: fix it, so that the hash we report is that of the sent message.
      const message = { payload: fromBase64(msg.payload), timestamp: new Date(msg.timestamp ?? Date.now()) }
      const proto = await encoder.toProtoObj(message)
      const result = await node.relay.send(encoder, message)
      if (result.failures.length > 0 && result.successes.length === 0) {
        throw new Error(`relay send failed: ${result.failures.map(f => f.error).join(', ')}`)
      }
      return {
        ...messageJson(pubsubTopic, proto),
        recipients: result.successes.map(p => p.toString())
      }
    },

    async subscribe (msg) {
      const pubsubTopic = topicOf(msg)
      const contentTopic = requireField(msg, 'contentTopic')
      const key = `${pubsubTopic} ${contentTopic}`
      if (!unsubscribers.has(key)) {
        const unsubscribe = node.relay.subscribe(createDecoder(contentTopic, pubsubTopic), (decoded) => {
          emitEvent('message', messageJson(decoded.pubsubTopic, decoded.proto))
        })
        unsubscribers.set(key, unsubscribe)
      }
      return {}
    },

    async unsubscribe (msg) {
      const key = `${topicOf(msg)} ${requireField(msg, 'contentTopic')}`
      unsubscribers.get(key)?.()
      unsubscribers.delete(key)
      return {}
    },

    async peers () {
      return { peers: await peersOf(node.libp2p) }
    },

    async mesh (msg) {
      const topic = topicOf({ pubsubTopic: msg.topic ?? msg.pubsubTopic })
      const gossipSub = node.relay.gossipSub
      return {
        peers: gossipSub.getMeshPeers(topic),
        subscribers: gossipSub.getSubscribers(topic).map(p => p.toString())
      }
    }
  }

  const addrs = node.libp2p.getMultiaddrs().map(a => a.toString())
  log(`relay-node.mjs ${node.libp2p.peerId} listening on ${addrs.join(' ')}; pubsub topics ${pubsubTopics}`)
  return {
    peerId: node.libp2p.peerId.toString(),
    addrs,
    ready: { pubsubTopics },
    commands,
    stop: () => node.stop()
  }
}

run({ name: 'relay-node.mjs', timeoutS: args['timeout-s'], start }).catch((e) => {
  log('relay-node.mjs crashed:', e)
  emit({ event: 'failed', error: errorText(e) })
  process.exit(1)
})
