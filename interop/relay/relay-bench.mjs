// js-waku's relay in two processes, the reference beside `wakurelay-loadgen macro --processes`
// (loadgen/macro-headline.sh runs both): this process publishes the seeded payload mix from a js-waku relay node
// (@waku/sdk createRelayNode: js-libp2p gossipsub, Noise, mplex, TCP) to a second one, a child process of this
// script, which counts what it receives. Relay only: js-waku has no archive.
//
//   node --import ../polyfill.mjs relay-bench.mjs [--count 20000] [--warmup 1000] [--seed 42]
//
// The sizes are the loadgen's exactly (PayloadMix: 10,000 / 50,000 / 150,000 bytes at 25 / 50 / 25 %, drawn by
// java.util.SplittableRandom with the seed, reimplemented below); at most 128 messages and 3 MiB are in flight, as in
// the loadgen's window. A message counts when the receiver has it; the rate is measured messages over the time from
// the first measured publish to the last receipt. Prints one JSON line on stdout:
//   {"scenario":"js-waku-relay","count":…,"warmup":…,"elapsed_ms":…,"msg_per_s":…,"mb_per_s":…,"missing":…}
// and ends with exit code 0, or 3 when messages were missing after 30 s of silence.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { randomFillSync } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { tcp } from '@libp2p/tcp'
import { multiaddr } from '@multiformats/multiaddr'
import { createDecoder, createEncoder } from '@waku/sdk'
import { createRelayNode } from '@waku/sdk/relay'
import { emit, errorText, log, parseArgs } from '../common.mjs'

const args = parseArgs(process.argv.slice(2), {
  count: { type: 'int', default: 20000, help: 'measured messages' },
  warmup: { type: 'int', default: 1000, help: 'messages sent before measuring' },
  seed: { type: 'int', default: 42, help: 'seed of the sizes (the loadgen\'s --seed)' },
  role: { type: 'string', default: 'publisher', help: 'publisher (starts the receiver itself) or receiver' }
})
const PUBSUB_TOPIC = '/waku/2/rs/0/0'
const CONTENT_TOPIC = '/loadgen/1/bench/proto'
const MIX = [[10000, 25], [50000, 50], [150000, 25]]
const WINDOW_MESSAGES = 128
const WINDOW_BYTES = 3 * 1024 * 1024
const SILENCE_MS = 30_000

const MASK64 = (1n << 64n) - 1n
/** java.util.SplittableRandom(seed).nextInt(bound), as the JDK computes it, so that the sizes equal the loadgen's. */
function splittableRandom (seed) {
  let state = BigInt.asUintN(64, BigInt(seed))
  const GAMMA = 0x9e3779b97f4a7c15n
  const mix32 = () => {
    state = (state + GAMMA) & MASK64
    let z = state
    z = ((z ^ (z >> 33n)) * 0x62a9d9ed799705f5n) & MASK64
    return Number(BigInt.asIntN(32, ((z ^ (z >> 28n)) * 0xcb24d0a5c88c35b3n & MASK64) >> 32n))
  }
  return (bound) => {
    let r = mix32()
    const m = bound - 1
    if ((bound & m) === 0) return r & m
    // the JDK's rejection loop, with Java's 32-bit overflow: u + m - r < 0 when the int sum wraps
    for (let u = r >>> 1; ((u + m - (r = u % bound)) | 0) < 0; u = mix32() >>> 1);
    return r
  }
}

function sizes (seed, n) {
  const next = splittableRandom(seed)
  return Array.from({ length: n }, () => {
    const roll = next(100)
    let cumulative = 0
    for (const [bytes, percent] of MIX) {
      cumulative += percent
      if (roll < cumulative) return bytes
    }
    throw new Error('percents add up to 100')
  })
}

async function relayNode (listen) {
  const node = await createRelayNode({
    networkConfig: { clusterId: 0, shards: [0] },
    defaultBootstrap: false,
    libp2p: { addresses: { listen }, transports: [tcp()], hideWebSocketInfo: true }
  })
  await node.start()
  return node
}

/** The child: counts messages and reports each receipt's time (ms since the epoch, sub-millisecond). */
async function receiver () {
  const node = await relayNode(['/ip4/127.0.0.1/tcp/0'])
  let received = 0
  node.relay.subscribe(createDecoder(CONTENT_TOPIC, PUBSUB_TOPIC), () => {
    received++
    emit({ received, at: performance.timeOrigin + performance.now() })
  })
  emit({ ready: true, addr: node.libp2p.getMultiaddrs()[0].toString(), peerId: node.libp2p.peerId.toString() })
  // ends when the publisher closes stdin
  createInterface({ input: process.stdin }).on('close', () => node.stop().finally(() => process.exit(0)))
}

async function publisher () {
  const total = args.warmup + args.count
  const plan = sizes(args.seed, total)
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--role', 'receiver'],
    { stdio: ['pipe', 'pipe', 'inherit'] })
  const state = { received: 0, lastAt: 0, changed: () => {} }
  const ready = new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the receiver exited with code ${code}`)))
    createInterface({ input: child.stdout }).on('line', (line) => {
      const msg = JSON.parse(line)
      if (msg.ready) resolve(msg)
      if (msg.received !== undefined) {
        state.received = msg.received
        state.lastAt = msg.at
        state.changed()
      }
    })
  })
  const until = (condition, ms) => new Promise((resolve) => {
    if (condition()) return resolve(true)
    const timer = setTimeout(() => { state.changed = () => {}; resolve(false) }, ms)
    state.changed = () => { if (condition()) { clearTimeout(timer); state.changed = () => {}; resolve(true) } }
  })

  const target = await ready
  const node = await relayNode([])
  try {
    await node.libp2p.dial(multiaddr(target.addr))
    const meshed = () => node.relay.gossipSub.getMeshPeers(PUBSUB_TOPIC).includes(target.peerId)
    for (let i = 0; !meshed(); i++) {
      if (i > 300) throw new Error('the receiver never joined the mesh')
      await new Promise(resolve => setTimeout(resolve, 100))
    }
    const encoder = createEncoder({ contentTopic: CONTENT_TOPIC, pubsubTopic: PUBSUB_TOPIC })
    const payload = new Uint8Array(Math.max(...plan))
    let inFlightBytes = 0
    let acknowledged = 0
    const roomFor = (bytes) => () => {
      for (; acknowledged < state.received; acknowledged++) inFlightBytes -= plan[acknowledged]
      return sent - state.received < WINDOW_MESSAGES && inFlightBytes + bytes <= WINDOW_BYTES
    }
    let sent = 0
    let start = 0
    for (; sent < total; sent++) {
      if (sent === args.warmup) {
        if (!await until(() => state.received >= args.warmup, SILENCE_MS)) break
        start = performance.timeOrigin + performance.now()
      }
      if (!await until(roomFor(plan[sent]), SILENCE_MS)) break
      randomFillSync(payload, 0, 32) // distinct messages: gossipsub drops what it has seen
      inFlightBytes += plan[sent]
      await node.relay.send(encoder, { payload: payload.subarray(0, plan[sent]) })
    }
    await until(() => state.received >= total, SILENCE_MS)
    const measured = Math.max(0, state.received - args.warmup)
    const elapsedMs = state.lastAt - start
    const bytes = plan.slice(args.warmup, args.warmup + measured).reduce((a, b) => a + b, 0)
    emit({
      scenario: 'js-waku-relay',
      count: args.count,
      warmup: args.warmup,
      seed: args.seed,
      elapsed_ms: Math.round(elapsedMs),
      msg_per_s: Math.round(measured / (elapsedMs / 1000) * 10) / 10,
      mb_per_s: Math.round(bytes / 1e6 / (elapsedMs / 1000) * 10) / 10,
      payload_bytes: bytes,
      missing: args.count - measured,
      node: process.version
    })
    return measured === args.count ? 0 : 3
  } finally {
    child.stdin.end()
    await node.stop()
  }
}

const main = args.role === 'receiver' ? receiver : publisher
main().then((code) => { if (code !== undefined) process.exit(code) }, (e) => {
  log('relay-bench.mjs failed:', errorText(e))
  process.exit(1)
})
