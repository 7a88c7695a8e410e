// An independent oracle for the rln module's crypto (RlnOracleTest in system-tests): libraries other than ours
// compute what our Java code computes, and the test compares. Behind the interop contract (../README.md); no network.
//
//   node --import ../polyfill.mjs oracle.mjs [--timeout-s N]
//   {"id":1,"cmd":"poseidon","inputs":[["1","2"],["0"]]}
//     → {"outputs":["7853…","1901…"]}                              poseidon-lite's poseidon1 / poseidon2 (circomlib)
//   {"id":2,"cmd":"decompress","points":[{"group":"g2","x":["c0","c1"],"larger":true}, …]}
//     → {"points":[{"onCurve":true,"y":["c0","c1"],"torsionFree":true,"orderR":true}, …]}
//     @noble/curves' bn254: y² = x³ + b with noble's square roots, y chosen as arkworks does (the larger of y and -y
//     when "larger", Fp2 compared c1 first), noble's subgroup test (isTorsionFree) and [r]P = O; decimal strings
//   {"id":3,"cmd":"groth16","vk":{…snarkjs key…},"cases":[{"proof":{pi_a,pi_b,pi_c},"publicSignals":[…]}, …]}
//     → {"verdicts":[true,false,…]}                                  snarkjs' groth16.verify
import { bn254 } from '@noble/curves/bn254'
import { poseidon1, poseidon2 } from 'poseidon-lite'
import * as snarkjs from 'snarkjs'
import { COMMON_ARGS, parseArgs, requireField, run } from '../common.mjs'

const args = parseArgs(process.argv.slice(2), { ...COMMON_ARGS })
const { Fp, Fp2 } = bn254.fields
const R = bn254.fields.Fr.ORDER

function poseidon (msg) {
  const outputs = requireField(msg, 'inputs').map((inputs) => {
    const values = inputs.map(BigInt)
    if (values.length === 1) return poseidon1(values).toString()
    if (values.length === 2) return poseidon2(values).toString()
    throw new Error(`poseidon of ${values.length} inputs is not asked for`)
  })
  return { outputs }
}

/** -1, 0, 1 as a compares with b, Fp2 values compared c1 first (arkworks' and pairing_ce's order). */
function compareFp2 (a, b) {
  if (a.c1 !== b.c1) return a.c1 < b.c1 ? -1 : 1
  if (a.c0 !== b.c0) return a.c0 < b.c0 ? -1 : 1
  return 0
}

function decompressOne (p) {
  if (p.group === 'g1') {
    const x = BigInt(p.x[0])
    const rhs = Fp.add(Fp.mul(Fp.sqr(x), x), 3n)
    let y
    try {
      y = Fp.sqrt(rhs)
    } catch {
      return { onCurve: false }
    }
    const negY = Fp.neg(y)
    const larger = y > negY ? y : negY
    const smaller = y > negY ? negY : y
    y = p.larger ? larger : smaller
    const point = bn254.G1.ProjectivePoint.fromAffine({ x, y })
    point.assertValidity()
    return { onCurve: true, y: [y.toString()], torsionFree: true, orderR: point.multiplyUnsafe(R - 1n).add(point).is0() }
  }
  const x = Fp2.fromBigTuple([BigInt(p.x[0]), BigInt(p.x[1])])
  const b = bn254.G2.CURVE.b
  const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), b)
  let y
  try {
    y = Fp2.sqrt(rhs)
  } catch {
    return { onCurve: false }
  }
  if (!Fp2.eql(Fp2.sqr(y), rhs)) return { onCurve: false }
  const negY = Fp2.neg(y)
  const yIsLarger = compareFp2(y, negY) > 0
  if (yIsLarger !== p.larger) y = negY
  const point = bn254.G2.ProjectivePoint.fromAffine({ x, y })
  let torsionFree = true
  try {
    point.assertValidity()
  } catch {
    torsionFree = false
  }
  return {
    onCurve: true,
    y: [y.c0.toString(), y.c1.toString()],
    torsionFree,
    orderR: point.multiplyUnsafe(R - 1n).add(point).is0()
  }
}

function decompress (msg) {
  return { points: requireField(msg, 'points').map(decompressOne) }
}

async function groth16 (msg) {
  const vk = requireField(msg, 'vk')
  const verdicts = []
  for (const c of requireField(msg, 'cases')) {
    verdicts.push(await snarkjs.groth16.verify(vk, c.publicSignals, { ...c.proof, protocol: 'groth16', curve: 'bn128' }))
  }
  return { verdicts }
}

run({
  name: 'rln-oracle',
  timeoutS: args['timeout-s'],
  start: async () => ({
    peerId: '',
    addrs: [],
    commands: { poseidon, decompress, groth16 },
    stop: async () => {
      if (globalThis.curve_bn128 != null) await globalThis.curve_bn128.terminate()
    }
  })
})
