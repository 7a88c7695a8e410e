// A local Ethereum node for the RLN tests, behind the interop contract (../README.md): Foundry's anvil (the binary
// that the npm package @foundry-rs/anvil-linux-amd64 carries) on 127.0.0.1, and our membership contract for tests
// (contracts/RlnMembershipForTests.sol) compiled from its source with solc-js. The Java side (testkit's Anvil) talks
// JSON-RPC to anvil itself: it deploys the contract, places it at other addresses and sends the test's transactions.
//
//   node --import ../polyfill.mjs anvil.mjs [--port N] [--chain-id N] [--timeout-s N]
//   ready: {"event":"ready","peerId":"","addrs":[],"rpc":"http://127.0.0.1:N","port":N,"chainId":N,"anvilPid":N,
//           "contract":{"name":…,"bytecode":"0x…","deployedBytecode":"0x…",
//                       "methodIdentifiers":{"root()":"ebf0c717",…}}}
//   No commands besides "stop". anvil's own output goes to stderr (this script's log).
//
// anvil ends with this script: killed when the script stops, and (through setpriv's parent-death signal, where
// util-linux's setpriv exists) when the script itself is killed.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { COMMON_ARGS, log, parseArgs, run, withTimeout } from '../common.mjs'
import { compileContract } from './compile.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const ANVIL = join(here, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil')

const args = parseArgs(process.argv.slice(2), {
  ...COMMON_ARGS,
  port: { type: 'int', default: 0, help: 'TCP port on 127.0.0.1 (0: any free port)' },
  'chain-id': { type: 'int', default: 31337, help: 'the chain id anvil reports (59141: The Waku Network\'s chain)' }
})

/** Starts anvil and resolves with {child, port} once it listens; rejects when it ends first. */
function startAnvil () {
  if (!existsSync(ANVIL)) throw new Error(`no anvil binary at ${ANVIL}: run bash interop/install.sh`)
  const anvilArgs = ['--host', '127.0.0.1', '--port', String(args.port), '--chain-id', String(args['chain-id'])]
  const command = existsSync('/usr/bin/setpriv')
    ? ['/usr/bin/setpriv', ['--pdeathsig', 'KILL', '--', ANVIL, ...anvilArgs]]
    : [ANVIL, anvilArgs]
  const child = spawn(command[0], command[1], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stderr.on('data', (chunk) => process.stderr.write(chunk))
  return new Promise((resolve, reject) => {
    let buffered = ''
    let listening = false
    child.stdout.on('data', (chunk) => {
      process.stderr.write(chunk)
      if (listening) return
      buffered += chunk.toString('utf8')
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(buffered)
      if (m !== null) {
        listening = true
        buffered = ''
        resolve({ child, port: Number(m[1]) })
      } else if (buffered.length > 1_000_000) {
        buffered = buffered.slice(-1000)
      }
    })
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (!listening) reject(new Error(`anvil ended before listening (exit ${code}, signal ${signal})`))
      else log(`anvil ended (exit ${code}, signal ${signal})`)
    })
  })
}

/** Ends anvil: SIGTERM, then SIGKILL when it is still running after 3 s. */
async function stopAnvil (child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const ended = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  try {
    await withTimeout(ended, 3000, 'anvil stop')
  } catch (e) {
    child.kill('SIGKILL')
    await ended
  }
}

async function start () {
  const contract = compileContract()
  const { child, port } = await withTimeout(startAnvil(), 30_000, 'anvil start')
  log(`anvil (pid ${child.pid}) listens on 127.0.0.1:${port}, chain id ${args['chain-id']}`)
  return {
    peerId: '',
    addrs: [],
    ready: { rpc: `http://127.0.0.1:${port}`, port, chainId: args['chain-id'], anvilPid: child.pid, contract },
    commands: {},
    stop: () => stopAnvil(child)
  }
}

run({ name: 'anvil', timeoutS: args['timeout-s'], start })
