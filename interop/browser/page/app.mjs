// The page's code, bundled by esbuild with @waku/sdk at test time: a js-waku light node in the browser that uses one
// node (given by the driver, over /ws or /wss) as its service node, the way a browser app does. browser-node.mjs
// calls window.waku.* through playwright-core; messages received over filter go to window.wakuMessage (exposed by
// the driver). Nothing here reaches beyond the address the driver gives.
import { multiaddr } from '@multiformats/multiaddr'
import { createDecoder, createEncoder, createLightNode, utils, waku as wakuUtils } from '@waku/sdk'

let node
let networkConfig
let shards
let pinned

function toBase64 (bytes) {
  let text = ''
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(text)
}

function fromBase64 (text) {
  return Uint8Array.from(atob(text ?? ''), c => c.charCodeAt(0))
}

function hex0x (bytes) {
  return '0x' + Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('')
}

function messageJson (pubsubTopic, proto, messageHash) {
  return {
    messageHash,
    pubsubTopic: pubsubTopic ?? null,
    contentTopic: proto?.contentTopic ?? null,
    payload: proto?.payload === undefined ? null : toBase64(proto.payload),
    timestamp: proto?.timestamp == null ? null : proto.timestamp.toString()
  }
}

function routing (contentTopic) {
  return utils.createRoutingInfo(networkConfig, { contentTopic, shardId: shards[0] })
}

window.waku = {
  /** Starts the light node and dials the service node; resolves with the connection's transport and muxer. */
  async start ({ peer, clusterId, shardIds }) {
    networkConfig = { clusterId }
    shards = shardIds
    pinned = peer
    node = await createLightNode({
      networkConfig,
      defaultBootstrap: false,
      numPeersToUse: 1,
      // a browser app on a page of its own dials only wss by default; /ws on loopback is allowed here
      libp2p: { filterMultiaddrs: false, hideWebSocketInfo: true }
    })
    const connection = await node.libp2p.dial(multiaddr(peer),
      { signal: AbortSignal.timeout(10_000) })
    return {
      peerId: node.libp2p.peerId.toString(),
      remotePeer: connection.remotePeer.toString(),
      remoteAddr: connection.remoteAddr.toString(),
      muxer: connection.multiplexer ?? null,
      userAgent: navigator.userAgent
    }
  },

  /** Waits until identify told the node that its peer serves `codec`. */
  async waitForProtocol (codec, timeoutMs) {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const connection = node.libp2p.getConnections().find(c => pinned.endsWith('/p2p/' + c.remotePeer.toString()))
      if (connection !== undefined) {
        try {
          if ((await node.libp2p.peerStore.get(connection.remotePeer)).protocols.includes(codec)) return true
        } catch (e) {
          // identify has not finished yet
        }
      }
      if (Date.now() > deadline) throw new Error(`the service node does not offer ${codec} (or is not connected)`)
      await new Promise(resolve => setTimeout(resolve, 50))
    }
  },

  async lightpush ({ contentTopic, payload }) {
    await this.waitForProtocol('/vac/waku/lightpush/3.0.0', 10_000)
    const encoder = createEncoder({ contentTopic, routingInfo: routing(contentTopic) })
    const message = { payload: fromBase64(payload), timestamp: new Date() }
    const proto = await encoder.toProtoObj(message)
    const sent = messageJson(encoder.pubsubTopic, proto, '0x' + wakuUtils.messageHashStr(encoder.pubsubTopic, proto))
    const result = await node.lightPush.send(encoder, message, { autoRetry: false })
    return {
      ...sent,
      successes: result.successes.map(p => p.toString()),
      failures: result.failures.map(f => ({ error: String(f.error), peerId: f.peerId?.toString() ?? null }))
    }
  },

  async filterSubscribe ({ contentTopic }) {
    await this.waitForProtocol('/vac/waku/filter-subscribe/2.0.0-beta1', 10_000)
    const decoder = createDecoder(contentTopic, routing(contentTopic))
    const ok = await node.filter.subscribe(decoder, (m) => {
      window.wakuMessage(messageJson(m.pubsubTopic, m.proto, hex0x(m.hash)))
    })
    if (!ok) throw new Error(`the filter subscription to ${contentTopic} failed`)
    return { pubsubTopic: decoder.pubsubTopic }
  },

  /** Every message of `contentTopic` in the service node's store, in pages of `pageSize`. */
  async store ({ contentTopic, pageSize }) {
    await this.waitForProtocol('/vac/waku/store-query/3.0.0', 10_000)
    const decoder = createDecoder(contentTopic, routing(contentTopic))
    const messages = []
    const pageSizes = []
    for await (const page of node.store.queryGenerator([decoder], { paginationLimit: pageSize })) {
      const decoded = await Promise.all(page)
      pageSizes.push(decoded.length)
      for (const m of decoded) {
        if (m !== undefined) messages.push(messageJson(m.pubsubTopic, m.proto, hex0x(m.hash)))
      }
    }
    return { messages, pageSizes }
  },

  async stop () {
    if (node !== undefined) await node.stop()
  }
}
window.wakuReady = true
