// A js-waku light node in a real browser: bundles page/app.mjs with @waku/sdk (esbuild), serves it on 127.0.0.1,
// opens it in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core, which never downloads a
// browser of its own), and has the page use one node over /ws or /wss as its service node. Driven by JSON lines on
// stdin/stdout like the other scripts; see ../README.md.
//
//   node --import ../polyfill.mjs browser-node.mjs --peer /ip4/127.0.0.1/tcp/8000/ws/p2p/16Uiu2… [--cluster 0]
//        [--shards 0] [--trust-spki <base64 SHA-256 of a certificate's public key>] [--timeout-s N]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { COMMON_ARGS, emit, errorText, list, log, parseArgs, requireField, requireLoopback, run } from '../common.mjs'

const here = dirname(fileURLToPath(import.meta.url))

const args = parseArgs(process.argv.slice(2), {
  ...COMMON_ARGS,
  peer: { type: 'string', help: 'the (loopback) /ws or /wss multiaddr, with /p2p/<id>, of the service node' },
  cluster: { type: 'int', default: 0, help: 'cluster id (static sharding)' },
  shards: { type: 'string', default: '0', help: 'shard ids; the first is the one used' },
  'trust-spki': { type: 'string', help: 'base64 SHA-256 of the public key of a certificate Chromium accepts (wss)' },
  chromium: { type: 'string', default: process.env.CHROMIUM ?? '/usr/bin/chromium', help: 'the Chromium binary' }
})

/** The flags every headless Chromium of the tests runs with: no network of its own, nothing it would download. */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

async function bundle (dir) {
  await build({
    entryPoints: [join(here, 'page', 'app.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile: join(dir, 'app.js'),
    logLevel: 'warning'
  })
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>wakurelay browser test</title></head>' +
    '<body><script type="module" src="/app.js"></script></body></html>'
  return { '/': ['text/html', html], '/app.js': ['text/javascript', readFileSync(join(dir, 'app.js'))] }
}

function serve (files) {
  const server = createServer((req, res) => {
    const file = files[req.url]
    if (file === undefined) {
      res.writeHead(req.url === '/favicon.ico' ? 204 : 404).end()
      return
    }
    res.writeHead(200, { 'content-type': file[0] }).end(file[1])
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

async function start (emitEvent) {
  const peer = requireLoopback(requireField(args, 'peer'))
  if (!/\/(ws|wss|tls(\/sni\/[^/]+)?\/ws)\/p2p\//.test(peer)) {
    throw new Error(`--peer must be a /ws or /wss address ending in /p2p/<id>: ${peer}`)
  }
  if (!existsSync(args.chromium)) {
    throw new Error(`no Chromium at ${args.chromium}: install Debian's chromium (interop/install.sh does)`)
  }
  const shardIds = list(args.shards).map(Number)
  const dir = mkdtempSync(join(tmpdir(), 'wakurelay-browser-'))
  const server = await serve(await bundle(dir))
  const flags = [...CHROMIUM_FLAGS]
  if (args['trust-spki'] !== undefined) flags.push(`--ignore-certificate-errors-spki-list=${args['trust-spki']}`)
  // launch() gives Chromium a new empty --user-data-dir of its own, removed when it closes
  const browser = await chromium.launch({ executablePath: args.chromium, headless: true, args: flags })
  const stop = async () => {
    await browser.close().catch(e => log('closing Chromium:', e))
    server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const page = await browser.newPage()
    page.on('console', m => log(`page ${m.type()}: ${m.text()}`))
    page.on('pageerror', e => emitEvent('error', { error: errorText(e), origin: 'page' }))
    await page.exposeFunction('wakuMessage', m => emitEvent('message', m))
    await page.goto(`http://127.0.0.1:${server.address().port}/`)
    await page.waitForFunction(() => window.wakuReady === true, null, { timeout: 30_000 })
    const connected = await page.evaluate(o => window.waku.start(o), { peer, clusterId: args.cluster, shardIds })
    log(`browser-node.mjs: ${connected.userAgent} connected to ${connected.remoteAddr} over ${connected.muxer}`)
    const inPage = (fn) => (msg) => page.evaluate(([f, m]) => window.waku[f](m), [fn, msg])
    return {
      peerId: connected.peerId,
      addrs: [],
      ready: { connected, browser: browser.version() },
      commands: {
        lightpush: inPage('lightpush'),
        filterSubscribe: inPage('filterSubscribe'),
        store: inPage('store')
      },
      stop: async () => {
        await page.evaluate(() => window.waku.stop()).catch(e => log('stopping the page\'s node:', e))
        await stop()
      }
    }
  } catch (e) {
    await stop()
    throw e
  }
}

run({ name: 'browser-node.mjs', timeoutS: args['timeout-s'], start }).catch((e) => {
  log('browser-node.mjs crashed:', e)
  emit({ event: 'failed', error: errorText(e) })
  process.exit(1)
})
