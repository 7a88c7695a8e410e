// Compiles contracts/RlnMembershipForTests.sol with solc-js (the npm package solc, pinned in package.json) and returns
// its creation bytecode, runtime bytecode, ABI method identifiers and the compiler's version. The compile runs when a
// test starts the chain (anvil.mjs), so the bytecode always comes from the committed source; its output is cached in
// node_modules/.cache/, keyed by the SHA-256 of the source and the solc package's version, so that only the first
// start after a change pays for loading the compiler (seconds).
//
//   node compile.mjs     prints the same JSON on stdout
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const here = dirname(fileURLToPath(import.meta.url))
const NAME = 'RlnMembershipForTests'
const SOURCE = join(here, 'contracts', `${NAME}.sol`)
const CACHE = join(here, 'node_modules', '.cache', 'wakurelay-chain')

export function compileContract () {
  const source = readFileSync(SOURCE, 'utf8')
  // The package's version, not solc.version(): loading the compiler alone takes seconds
  const solcPackage = JSON.parse(readFileSync(join(here, 'node_modules', 'solc', 'package.json'), 'utf8')).version
  const key = createHash('sha256').update(solcPackage).update('\0').update(source).digest('hex')
  const cached = join(CACHE, `${NAME}-${key}.json`)
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8'))

  const solc = createRequire(import.meta.url)('solc')
  const version = solc.version()

  const input = {
    language: 'Solidity',
    sources: { [`${NAME}.sol`]: { content: source } },
    settings: {
      optimizer: { enabled: false },
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.methodIdentifiers'] }
      }
    }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter(e => e.severity === 'error')
  if (errors.length > 0) {
    throw new Error(`solc ${version} cannot compile ${SOURCE}:\n${errors.map(e => e.formattedMessage).join('\n')}`)
  }
  const compiled = output.contracts[`${NAME}.sol`][NAME]
  const result = {
    name: NAME,
    compiler: version,
    sourceSha256: createHash('sha256').update(source).digest('hex'),
    bytecode: '0x' + compiled.evm.bytecode.object,
    deployedBytecode: '0x' + compiled.evm.deployedBytecode.object,
    methodIdentifiers: compiled.evm.methodIdentifiers
  }
  mkdirSync(CACHE, { recursive: true })
  const partial = `${cached}.${process.pid}.tmp`
  writeFileSync(partial, JSON.stringify(result))
  renameSync(partial, cached) // two starts at once write the same content; the rename makes each write whole
  return result
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(compileContract(), null, 2) + '\n')
}
