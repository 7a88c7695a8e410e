// A bare js-libp2p 2.8 peer (TCP and WebSocket, Noise, yamux and/or mplex, identify, ping, optionally gossipsub
// configured as js-waku configures its relay), driven by JSON lines on stdin/stdout. See ../README.md for the contract.
//
//   node --import ../polyfill.mjs peer.mjs [--listen <multiaddr|none>] [--muxers yamux,mplex] [--gossipsub]
//        [--topics a,b] [--agent <text>] [--timeout-s N]
import { createHash, createCipheriv } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { gossipsub } from '@chainsafe/libp2p-gossipsub'
import { SignaturePolicy } from '@chainsafe/libp2p-gossipsub/types'
import { noise } from '@chainsafe/libp2p-noise'
import { yamux } from '@chainsafe/libp2p-yamux'
import { identify } from '@libp2p/identify'
import { mplex } from '@libp2p/mplex'
import { peerIdFromString } from '@libp2p/peer-id'
import { ping } from '@libp2p/ping'
import { tcp } from '@libp2p/tcp'
import { webSockets } from '@libp2p/websockets'
import { all as allWebSockets } from '@libp2p/websockets/filters'
import { multiaddr } from '@multiformats/multiaddr'
import { createLibp2p } from 'libp2p'
import {
  COMMON_ARGS, connectionInfo, emit, emitLibp2pEvents, errorText, fromBase64, lengthPrefixed, list, log, parseArgs,
  peersOf, readFrame, requireField, requireLoopback, run, toBase64, withTimeout
} from '../common.mjs'

const ECHO_PROTOCOL = '/wakurelay/echo/1.0.0'
const RELAY_PROTOCOL = '/vac/waku/relay/2.0.0'

const args = parseArgs(process.argv.slice(2), {
  ...COMMON_ARGS,
  listen: {
    type: 'string',
    default: '/ip4/127.0.0.1/tcp/0',
    help: 'listen multiaddrs (loopback; /tcp/N or /tcp/N/ws), comma-separated, or "none"'
  },
  muxers: { type: 'string', default: 'yamux,mplex', help: 'stream muxers in order of preference: yamux, mplex' },
  gossipsub: { type: 'bool', help: `run gossipsub as js-waku's relay does, on ${RELAY_PROTOCOL}` },
  topics: { type: 'string', default: '', help: 'pubsub topics to subscribe to at start (needs --gossipsub)' },
  agent: { type: 'string', help: 'identify agentVersion (default: js-libp2p\'s own)' }
})

const MUXERS = { yamux: () => yamux(), mplex: () => mplex() }

/** The wire-format fields 1 (payload) and 2 (content_topic) of a WakuMessage, or an Error when it does not parse. */
function wakuMessageTopicAndPayload (bytes) {
  let pos = 0
  const varint = () => {
    let value = 0n
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (pos >= bytes.length) throw new Error('truncated varint')
      const b = bytes[pos++]
      value |= BigInt(b & 0x7f) << shift
      if ((b & 0x80) === 0) return value
    }
    throw new Error('varint too long')
  }
  let payload
  let contentTopic
  while (pos < bytes.length) {
    const key = varint()
    const field = Number(key >> 3n)
    const wire = Number(key & 7n)
    if (field === 0) throw new Error('field number 0')
    if (wire === 0) varint()
    else if (wire === 1) pos += 8
    else if (wire === 5) pos += 4
    else if (wire === 2) {
      const len = Number(varint())
      if (pos + len > bytes.length) throw new Error('truncated length-delimited field')
      const value = bytes.subarray(pos, pos + len)
      pos += len
      if (field === 1) payload = value
      if (field === 2) contentTopic = Buffer.from(value).toString('utf8')
    } else throw new Error(`unsupported wire type ${wire}`)
    if (pos > bytes.length) throw new Error('truncated fixed-width field')
  }
  return { payload, contentTopic }
}

/**
 * js-waku's relay validator (packages/relay message_validator.ts): a message is rejected unless its data is a
 * WakuMessage with a non-empty content topic and a non-empty payload.
 */
function wakuMessageValidator (peerId, msg) {
  let reason
  try {
    const { payload, contentTopic } = wakuMessageTopicAndPayload(msg.data)
    if (!contentTopic) reason = 'no content topic'
    else if (!payload || payload.length === 0) reason = 'no payload'
  } catch (e) {
    reason = `not a WakuMessage: ${e.message}`
  }
  if (reason === undefined) return 'accept'
  emit({ event: 'validation', result: 'reject', reason, topic: msg.topic, from: peerId.toString() })
  return 'reject'
}

/** The gossipsub service exactly as js-waku's wakuGossipSub() builds it (packages/relay relay.ts). */
function wakuGossipsub () {
  const init = {
    msgIdFn: (msg) => new Uint8Array(createHash('sha256').update(msg.data).digest()),
    globalSignaturePolicy: SignaturePolicy.StrictNoSign,
    fallbackToFloodsub: false
  }
  return (components) => {
    const pubsub = gossipsub(init)(components)
    pubsub.multicodecs = [RELAY_PROTOCOL]
    return pubsub
  }
}

/** Deterministic test data: the ChaCha20 keystream (RFC 8439, zero nonce, counter 0) under key SHA-256(seed). */
function* testData (seed, total, chunkSize) {
  const key = createHash('sha256').update(seed, 'utf8').digest()
  const cipher = createCipheriv('chacha20', key, Buffer.alloc(16))
  for (let left = total; left > 0; left -= chunkSize) {
    yield new Uint8Array(cipher.update(Buffer.alloc(Math.min(chunkSize, left))))
  }
}

/** Milliseconds since the Unix epoch, with a fraction (performance's clock: monotonic within this process). */
function nowMs () {
  return performance.timeOrigin + performance.now()
}

/** A little-endian unsigned integer. */
function le (bytes) {
  let value = 0n
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i])
  return value
}

function textOf (bytes) {
  return bytes === undefined ? null : Buffer.from(bytes).toString('utf8')
}

async function start (emitEvent) {
  const muxers = list(args.muxers)
  if (muxers.length === 0 || muxers.some(m => MUXERS[m] === undefined)) {
    throw new Error(`--muxers takes yamux and/or mplex, got "${args.muxers}"`)
  }
  const listen = args.listen === 'none' ? [] : list(args.listen).map(requireLoopback)
  const topics = list(args.topics)
  if (topics.length > 0 && !args.gossipsub) throw new Error('--topics needs --gossipsub')

  const services = {
    identify: identify(args.agent !== undefined ? { agentVersion: args.agent } : {}),
    ping: ping()
  }
  if (args.gossipsub) services.pubsub = wakuGossipsub()

  const node = await createLibp2p({
    addresses: { listen },
    // WebSocket dials /ws on loopback too (its default filter in Node.js; said here so that it stays so)
    transports: [tcp(), webSockets({ filter: allWebSockets })],
    connectionEncrypters: [noise()],
    streamMuxers: muxers.map(m => MUXERS[m]()),
    services
  })

  emitLibp2pEvents(node, emitEvent)

  // Echo every byte back; the sink ends (closing our write side) when the remote closes its write side.
  await node.handle(ECHO_PROTOCOL, ({ stream }) => {
    stream.sink(stream.source).catch((e) => {
      log('echo stream failed:', e)
      stream.abort(e)
    })
  }, { maxInboundStreams: 64, maxOutboundStreams: 64 })

  // Scripted request-response protocols (the "respond" command): for each inbound stream, read one length-prefixed
  // request, report it, answer with the next scripted reply (the last one repeats) and close.
  const scripts = new Map()
  async function serveScripted (protocol, stream, connection) {
    const request = await readFrame(stream.source)
    if (request === undefined) {
      // the remote opened the stream and closed it without a request (js-waku keeps spare streams open)
      await stream.close()
      return
    }
    const script = scripts.get(protocol)
    const index = Math.min(script.served++, script.replies.length - 1)
    emitEvent('request', {
      protocol,
      peerId: connection.remotePeer.toString(),
      data: toBase64(request),
      reply: index
    })
    await stream.sink([lengthPrefixed(script.replies[index])])
  }

  const pubsub = node.services.pubsub
  if (pubsub !== undefined) {
    pubsub.addEventListener('gossipsub:message', (e) => {
      const { msg, msgId, propagationSource } = e.detail
      emitEvent('message', {
        topic: msg.topic,
        data: toBase64(msg.data),
        msgId: Buffer.from(msgId, 'base64').toString('hex'),
        from: propagationSource.toString(),
        at: nowMs()
      })
    })
    pubsub.addEventListener('subscription-change', (e) => {
      emitEvent('subscription-change', {
        peerId: e.detail.peerId.toString(),
        subscriptions: e.detail.subscriptions.map(s => ({ topic: s.topic, subscribe: s.subscribe }))
      })
    })
    for (const topic of topics) subscribe(topic)
  }

  function subscribe (topic) {
    pubsub.topicValidators.set(topic, wakuMessageValidator)
    pubsub.subscribe(topic)
  }

  function requirePubsub () {
    if (pubsub === undefined) throw new Error('gossipsub is off: start the peer with --gossipsub')
    return pubsub
  }

  /** A PeerId or a (loopback) Multiaddr from a command's "peerId" or "addr" field. */
  function target (msg) {
    if (msg.addr) return multiaddr(requireLoopback(msg.addr))
    if (msg.peerId) return peerIdFromString(msg.peerId)
    throw new Error('missing field "addr" or "peerId"')
  }

  function signal (msg, defaultMs) {
    return AbortSignal.timeout(msg.timeoutMs ?? defaultMs)
  }

  async function peerInfo (peerId) {
    const peer = await node.peerStore.get(peerId)
    return {
      peerId: peer.id.toString(),
      protocols: peer.protocols,
      agentVersion: textOf(peer.metadata.get('AgentVersion')),
      protocolVersion: textOf(peer.metadata.get('ProtocolVersion')),
      addrs: peer.addresses.map(a => a.multiaddr.toString())
    }
  }

  const commands = {
    async dial (msg) {
      const connection = await node.dial(multiaddr(requireLoopback(requireField(msg, 'addr'))),
        { signal: signal(msg, 10_000) })
      return connectionInfo(connection)
    },

    async ping (msg) {
      const rttMs = await node.services.ping.ping(target(msg), { signal: signal(msg, 10_000) })
      return { rttMs }
    },

    async echo (msg) {
      const total = Number(requireField(msg, 'bytes'))
      const chunkSize = Number(msg.chunkSize ?? 65536)
      const connection = await node.dial(target(msg), { signal: signal(msg, 10_000) })
      const stream = await connection.newStream(ECHO_PROTOCOL, { signal: signal(msg, 10_000) })
      const sent = createHash('sha256')
      const received = createHash('sha256')
      let receivedBytes = 0
      const started = performance.now()
      const timer = setTimeout(() => stream.abort(new Error('echo timed out')), msg.timeoutMs ?? 120_000)
      try {
        const writing = stream.sink((function * () {
          for (const chunk of testData(msg.seed ?? 'wakurelay', total, chunkSize)) {
            sent.update(chunk)
            yield chunk
          }
        })())
        const reading = (async () => {
          for await (const list of stream.source) {
            for (const chunk of list) {
              received.update(chunk)
              receivedBytes += chunk.byteLength
            }
          }
        })()
        await Promise.all([writing, reading])
      } finally {
        clearTimeout(timer)
      }
      return {
        bytes: total,
        receivedBytes,
        sha256Sent: sent.digest('hex'),
        sha256Received: received.digest('hex'),
        ms: Math.round(performance.now() - started),
        muxer: connection.multiplexer ?? null,
        peerId: connection.remotePeer.toString()
      }
    },

    async peers () {
      return { peers: await peersOf(node) }
    },

    async identify (msg) {
      const peerId = peerIdFromString(requireField(msg, 'peerId'))
      if (msg.refresh) {
        const connection = node.getConnections(peerId)[0]
        if (connection === undefined) throw new Error(`not connected to ${peerId}`)
        await node.services.identify.identify(connection, { signal: signal(msg, 10_000) })
      }
      return await peerInfo(peerId)
    },

    async hangup (msg) {
      await node.hangUp(target(msg))
      return {}
    },

    async publish (msg) {
      requirePubsub()
      const data = fromBase64(msg.data ?? '')
      const at = nowMs()
      const { recipients } = await pubsub.publish(requireField(msg, 'topic'), data,
        { allowPublishToZeroTopicPeers: msg.allowZeroPeers === true })
      return {
        recipients: recipients.map(p => p.toString()),
        msgId: createHash('sha256').update(data).digest('hex'),
        at
      }
    },

    async flood (msg) {
      requirePubsub()
      const topic = requireField(msg, 'topic')
      const template = fromBase64(requireField(msg, 'data'))
      const offset = Number(requireField(msg, 'counterOffset'))
      const length = Number(msg.counterLength ?? 32)
      const count = Number(requireField(msg, 'count'))
      const perSecond = Number(requireField(msg, 'perSecond'))
      if (!(offset >= 0 && length >= 1 && offset + length <= template.length)) {
        throw new Error(`the counter [${offset}, ${offset + length}) is not within the ${template.length} bytes`)
      }
      const redial = msg.redial === undefined ? undefined : multiaddr(requireLoopback(msg.redial))
      return await flood({ topic, template, offset, length, count, perSecond, redial })
    },

    async subscribe (msg) {
      requirePubsub()
      subscribe(requireField(msg, 'topic'))
      return {}
    },

    async unsubscribe (msg) {
      const topic = requireField(msg, 'topic')
      requirePubsub().unsubscribe(topic)
      pubsub.topicValidators.delete(topic)
      return {}
    },

    async respond (msg) {
      const protocol = requireField(msg, 'protocol')
      const replies = (msg.replies ?? []).map(fromBase64)
      if (replies.length === 0) throw new Error('"replies" needs at least one base64 reply')
      const known = scripts.has(protocol)
      scripts.set(protocol, { replies, served: 0 })
      if (!known) {
        await node.handle(protocol, ({ stream, connection }) => {
          serveScripted(protocol, stream, connection).catch((e) => {
            log(`scripted ${protocol} stream failed:`, e)
            stream.abort(e)
          })
        }, { maxInboundStreams: 64 })
      }
      return {}
    },

    async send (msg) {
      const protocol = requireField(msg, 'protocol')
      const connection = await node.dial(target(msg), { signal: signal(msg, 10_000) })
      const stream = await connection.newStream(protocol, { signal: signal(msg, 10_000) })
      await stream.sink([lengthPrefixed(fromBase64(requireField(msg, 'data')))])
      if (msg.expectReply !== true) {
        await stream.close()
        return { reply: null }
      }
      const reply = await withTimeout(readFrame(stream.source), msg.timeoutMs ?? 10_000, `reply on ${protocol}`)
      await stream.close()
      return { reply: reply === undefined ? null : toBase64(reply) }
    },

    async mesh (msg) {
      const topic = requireField(msg, 'topic')
      return {
        peers: requirePubsub().getMeshPeers(topic),
        subscribers: pubsub.getSubscribers(topic).map(p => p.toString()),
        topics: pubsub.getTopics()
      }
    }
  }

  /**
   * Publishes `count` variants of `template` at `perSecond`: variant k (1, 2, …) has k added to the little-endian
   * integer at [offset, offset + length). A publish that fails (nobody to send to: the remote disconnected us) is
   * counted; with `redial`, the peer dials it again, at most every 100 ms.
   */
  async function flood ({ topic, template, offset, length, count, perSecond, redial }) {
    const started = performance.now()
    const base = le(template.subarray(offset, offset + length))
    let published = 0
    let failed = 0
    let redials = 0
    let lastRedial = -Infinity
    const errors = new Map()
    for (let k = 1; k <= count; k++) {
      const due = started + (k - 1) * 1000 / perSecond
      const wait = due - performance.now()
      if (wait > 0) await new Promise(resolve => setTimeout(resolve, wait))
      const data = new Uint8Array(template)
      let value = base + BigInt(k)
      for (let i = 0; i < length; i++) {
        data[offset + i] = Number(value & 0xffn)
        value >>= 8n
      }
      try {
        await pubsub.publish(topic, data)
        published++
      } catch (e) {
        failed++
        const text = errorText(e)
        errors.set(text, (errors.get(text) ?? 0) + 1)
        if (redial !== undefined && performance.now() - lastRedial >= 100) {
          lastRedial = performance.now()
          redials++
          node.dial(redial, { signal: AbortSignal.timeout(1_000) }).catch(() => {})
        }
      }
    }
    return {
      published,
      failed,
      redials,
      errors: Object.fromEntries(errors),
      ms: Math.round(performance.now() - started)
    }
  }

  log(`peer.mjs ${node.peerId} listening on ${node.getMultiaddrs().join(' ')}; muxers ${muxers}; ` +
    `gossipsub ${args.gossipsub ? 'on' : 'off'}`)
  return {
    peerId: node.peerId.toString(),
    addrs: node.getMultiaddrs().map(a => a.toString()),
    ready: { muxers, gossipsub: args.gossipsub === true },
    commands,
    stop: () => node.stop()
  }
}

run({ name: 'peer.mjs', timeoutS: args['timeout-s'], start }).catch((e) => {
  log('peer.mjs crashed:', e)
  emit({ event: 'failed', error: errorText(e) })
  process.exit(1)
})
