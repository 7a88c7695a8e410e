// The contract every interop script keeps, so that one Java launcher (io.wakurelay.testkit.JsPeer) drives them all.
//
// - stdout carries only JSON lines. The first is {"event":"ready","peerId":…,"addrs":[…]} (or, when the node could
//   not start, {"event":"failed","error":…} and exit code 1); events follow as {"event":…,…}.
// - stdin takes JSON-line commands {"id":N,"cmd":…,…}; each gets exactly one reply {"id":N,"ok":true,…} or
//   {"id":N,"ok":false,"error":…}. Commands run concurrently: replies may come out of order.
// - The process ends by itself when stdin ends, on {"cmd":"stop"}, on SIGTERM/SIGINT, or after --timeout-s seconds:
//   it stops libp2p, emits {"event":"stopped","reason":…} and calls process.exit.
// - Logs (ours, libp2p's DEBUG output, js-waku's console output) go to stderr only.
//
// Only Node.js built-ins here: the three npm projects share this file.
import { createInterface } from 'node:readline'
import { isIP } from 'node:net'

// Anything printed with console.log/info/debug would corrupt the JSON stream (js-waku prints banners with
// console.info), so all of the console goes to stderr.
for (const name of ['log', 'info', 'debug', 'dir']) {
  console[name] = (...args) => console.error(...args)
}

export function log (...args) {
  console.error(new Date().toISOString(), ...args)
}

/** Writes one JSON line on stdout. BigInts become decimal strings (JSON has no 64-bit integers). */
export function emit (obj) {
  try {
    process.stdout.write(JSON.stringify(obj, (_k, v) => typeof v === 'bigint' ? v.toString() : v) + '\n')
  } catch (e) {
    log('cannot write to stdout:', e)
  }
}

export function errorText (e) {
  if (e == null) return 'unknown error'
  if (e instanceof AggregateError && e.errors?.length) {
    return `${e.name}: ${e.message}: ${e.errors.map(errorText).join('; ')}`
  }
  if (e instanceof Error) {
    const cause = e.cause != null ? ` (cause: ${errorText(e.cause)})` : ''
    return `${e.name}: ${e.message}${e.code != null ? ` [${e.code}]` : ''}${cause}`
  }
  return String(e)
}

/**
 * Parses `--name value` and `--flag` arguments against a spec {name: {type: 'string'|'int'|'bool', default}}.
 * An unknown argument or a malformed value ends the process with exit code 2 and a message on stderr.
 */
export function parseArgs (argv, spec) {
  const values = {}
  for (const [name, s] of Object.entries(spec)) values[name] = s.default
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const name = arg.startsWith('--') ? arg.slice(2) : undefined
    const s = name !== undefined ? spec[name] : undefined
    if (s === undefined) usage(spec, `unknown argument: ${arg}`)
    if (s.type === 'bool') {
      values[name] = true
      continue
    }
    if (i + 1 >= argv.length) usage(spec, `missing value for ${arg}`)
    const raw = argv[++i]
    if (s.type === 'int') {
      const n = Number(raw)
      if (!Number.isInteger(n)) usage(spec, `not an integer for ${arg}: ${raw}`)
      values[name] = n
    } else {
      values[name] = raw
    }
  }
  return values
}

function usage (spec, problem) {
  const lines = Object.entries(spec).map(([name, s]) => {
    const value = s.type === 'bool' ? '' : ` <${s.type}>`
    const byDefault = s.default !== undefined && s.type !== 'bool' ? ` (default ${s.default})` : ''
    return `  --${name}${value}  ${s.help ?? ''}${byDefault}`
  })
  console.error(`${problem}\nArguments:\n${lines.join('\n')}`)
  process.exit(2)
}

/** The common arguments of every script. */
export const COMMON_ARGS = {
  'timeout-s': { type: 'int', default: 300, help: 'exit after this many seconds whatever happens' }
}

/** Splits "a,b" into ["a","b"], dropping empty parts. */
export function list (text) {
  return (text ?? '').split(',').map(s => s.trim()).filter(s => s.length > 0)
}

/**
 * True when a multiaddr string names a loopback host (127.0.0.0/8, ::1, localhost) or no host at all
 * (a bare /p2p/<id>). The harness never sends traffic anywhere else.
 */
export function isLoopbackAddr (addr) {
  const m = /^\/(ip4|ip6|dns|dns4|dns6)\/([^/]+)/.exec(addr)
  if (m === null) return addr.startsWith('/p2p/')
  const host = m[2]
  if (m[1].startsWith('dns')) return host === 'localhost'
  if (isIP(host) === 4) return host.startsWith('127.')
  return host === '::1'
}

export function requireLoopback (addr) {
  if (!isLoopbackAddr(addr)) throw new Error(`only loopback addresses are allowed: ${addr}`)
  return addr
}

export function requireField (msg, name) {
  const v = msg[name]
  if (v === undefined || v === null || v === '') throw new Error(`missing field "${name}"`)
  return v
}

export function fromBase64 (text) {
  return new Uint8Array(Buffer.from(text ?? '', 'base64'))
}

export function toBase64 (bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
}

export function toHex0x (bytes) {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

export function fromHex0x (text) {
  const hex = text.startsWith('0x') ? text.slice(2) : text
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error(`not a hex string: ${text}`)
  return new Uint8Array(Buffer.from(hex, 'hex'))
}

/** uvarint length prefix ‖ bytes: how libp2p and every Waku request-response protocol frame their messages. */
export function lengthPrefixed (bytes) {
  const prefix = []
  let n = bytes.length
  do {
    prefix.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0))
    n = Math.floor(n / 128)
  } while (n > 0)
  const out = new Uint8Array(prefix.length + bytes.length)
  out.set(prefix, 0)
  out.set(bytes, prefix.length)
  return out
}

/**
 * Reads one length-prefixed frame at `pos` of `bytes`: {frame, next}, or undefined when more bytes are needed.
 * Throws on a length prefix longer than 5 bytes.
 */
function frameAt (bytes, pos) {
  let len = 0
  for (let shift = 0; ; shift += 7) {
    if (shift > 28) throw new Error('length prefix too long')
    if (pos >= bytes.length) return undefined
    const b = bytes[pos++]
    len += (b & 0x7f) * 2 ** shift
    if ((b & 0x80) === 0) break
  }
  if (pos + len > bytes.length) return undefined
  return { frame: bytes.subarray(pos, pos + len), next: pos + len }
}

/** Splits the whole of a stream's bytes into its length-prefixed frames; says what is wrong when they do not parse. */
export function frames (bytes) {
  const result = []
  let pos = 0
  while (pos < bytes.length) {
    const f = frameAt(bytes, pos)
    if (f === undefined) throw new Error(`incomplete length-prefixed frame at byte ${pos} of ${bytes.length}`)
    result.push(f.frame)
    pos = f.next
  }
  return result
}

/** The first length-prefixed frame of a libp2p stream source, or undefined when the source ends before one. */
export async function readFrame (source) {
  let buffered = new Uint8Array(0)
  for await (const list of source) {
    buffered = Buffer.concat([buffered, list.subarray()])
    const f = frameAt(buffered, 0)
    if (f !== undefined) return f.frame
  }
  return undefined
}

/** What a libp2p Connection (js-libp2p 1.x or 2.x) shows of itself, as JSON. */
export function connectionInfo (c) {
  return {
    connectionId: c.id,
    peerId: c.remotePeer.toString(),
    direction: c.direction,
    muxer: c.multiplexer ?? null,
    encryption: c.encryption ?? null,
    remoteAddr: c.remoteAddr.toString(),
    status: c.status,
    streams: c.streams.map(s => s.protocol ?? null)
  }
}

/**
 * Emits "connection:open", "connection:close" and "identify" events for a libp2p node. The identify event carries
 * what the remote peer said about itself in its Identify message.
 */
export function emitLibp2pEvents (libp2p, emitEvent) {
  libp2p.addEventListener('connection:open', (e) => emitEvent('connection:open', connectionInfo(e.detail)))
  libp2p.addEventListener('connection:close', (e) => emitEvent('connection:close', connectionInfo(e.detail)))
  libp2p.addEventListener('peer:identify', (e) => {
    const r = e.detail
    emitEvent('identify', {
      peerId: r.peerId.toString(),
      protocols: r.protocols,
      agentVersion: r.agentVersion ?? null,
      protocolVersion: r.protocolVersion ?? null,
      listenAddrs: r.listenAddrs.map(a => a.toString()),
      observedAddr: r.observedAddr?.toString() ?? null
    })
  })
}

/** The connections of a libp2p node grouped by peer, with the protocols and agent its peer store knows. */
export async function peersOf (libp2p) {
  const byPeer = new Map()
  for (const c of libp2p.getConnections()) {
    const key = c.remotePeer.toString()
    if (!byPeer.has(key)) {
      byPeer.set(key, { peerId: key, connections: [], protocols: [], agentVersion: null, remotePeer: c.remotePeer })
    }
    byPeer.get(key).connections.push(connectionInfo(c))
  }
  const peers = []
  for (const { remotePeer, ...entry } of byPeer.values()) {
    try {
      const peer = await libp2p.peerStore.get(remotePeer)
      entry.protocols = peer.protocols
      const agent = peer.metadata.get('AgentVersion')
      entry.agentVersion = agent === undefined ? null : Buffer.from(agent).toString('utf8')
    } catch (e) {
      // not in the peer store yet (identify has not run): no protocols known
    }
    peers.push(entry)
  }
  return peers
}

/** Rejects with a clear message when `promise` does not settle within `ms`. */
export async function withTimeout (promise, ms, what) {
  let timer
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Runs a script: starts the node, prints the ready line, serves commands until stdin ends, "stop", a signal or the
 * timeout, then stops the node and exits.
 *
 * @param {object} p
 * @param {string} p.name          the script's name, for the logs
 * @param {number} p.timeoutS      --timeout-s
 * @param {(emitEvent: (event: string, fields: object) => void) => Promise<{peerId: string, addrs: string[],
 *   ready?: object, commands: Record<string, (msg: object) => Promise<object|undefined>>,
 *   stop: () => Promise<void>}>} p.start
 *   starts the node; `ready` holds extra fields for the ready line. Events the node emits through `emitEvent` before
 *   the ready line is out are held back and follow it, so that the ready line is always the first.
 */
export async function run ({ name, timeoutS, start }) {
  let node
  let stopping
  const shutdown = (reason, exitCode = 0) => {
    if (stopping !== undefined) return stopping
    stopping = (async () => {
      log(`${name}: stopping (${reason})`)
      // A stop that hangs must not keep the process alive: the parent relies on it ending.
      const guard = setTimeout(() => {
        log(`${name}: stop did not finish within 10 s, exiting anyway`)
        process.exit(exitCode === 0 ? 3 : exitCode)
      }, 10_000)
      try {
        if (node !== undefined) await node.stop()
      } catch (e) {
        log(`${name}: error while stopping:`, e)
        if (exitCode === 0) exitCode = 1
      }
      clearTimeout(guard)
      emit({ event: 'stopped', reason })
      process.exit(exitCode)
    })()
    return stopping
  }

  process.on('unhandledRejection', (e) => {
    log(`${name}: unhandled rejection:`, e)
    emit({ event: 'error', error: errorText(e), origin: 'unhandledRejection' })
  })
  process.on('uncaughtException', (e) => {
    log(`${name}: uncaught exception:`, e)
    emit({ event: 'error', error: errorText(e), origin: 'uncaughtException' })
  })
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.stdout.on('error', () => shutdown('stdout closed'))
  setTimeout(() => shutdown(`timeout after ${timeoutS} s`), timeoutS * 1000)

  // Commands that arrive while the node starts wait for it; stdin ending during the start stops it right after.
  let startedResolve, startedReject
  const started = { promise: new Promise((resolve, reject) => { startedResolve = resolve; startedReject = reject }) }
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity })
  input.on('line', (line) => {
    if (line.trim() === '') return
    started.promise.then(() => handle(line), () => {})
  })
  input.on('close', () => {
    const stop = () => shutdown('stdin closed')
    started.promise.then(stop, stop)
  })

  const handle = async (line) => {
    let msg
    try {
      msg = JSON.parse(line)
    } catch (e) {
      emit({ id: null, ok: false, error: `not JSON: ${errorText(e)}` })
      return
    }
    const id = msg.id ?? null
    if (msg.cmd === 'stop') {
      emit({ id, ok: true })
      await shutdown('stop command')
      return
    }
    const command = node.commands[msg.cmd]
    if (command === undefined) {
      const known = ['stop', ...Object.keys(node.commands)].join(', ')
      emit({ id, ok: false, error: `unknown command "${msg.cmd}"; known: ${known}` })
      return
    }
    try {
      const result = await command(msg)
      emit({ ...(result ?? {}), id, ok: true })
    } catch (e) {
      log(`${name}: command ${msg.cmd} (id ${id}) failed:`, e)
      emit({ id, ok: false, error: errorText(e) })
    }
  }

  let held = []
  const emitEvent = (event, fields) => {
    const line = { event, ...fields }
    if (held !== undefined) held.push(line)
    else emit(line)
  }

  try {
    node = await start(emitEvent)
  } catch (e) {
    log(`${name}: failed to start:`, e)
    emit({ event: 'failed', error: errorText(e) })
    startedReject(e)
    await shutdown('start failed', 1)
    return
  }
  emit({ event: 'ready', peerId: node.peerId, addrs: node.addrs, ...(node.ready ?? {}) })
  for (const line of held) emit(line)
  held = undefined
  startedResolve()
}
