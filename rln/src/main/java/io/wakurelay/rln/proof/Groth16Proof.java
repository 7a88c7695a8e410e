package io.wakurelay.rln.proof;

/**
 * The three points of a Groth16 proof, A and C in G1 and B in G2, decoded from RLN's 128 bytes and checked: every
 * coordinate below p, each point on its curve, B in the order-r subgroup. A point may still be the point at
 * infinity, which arkworks decodes and no valid proof has; {@link ProofVerifier} refuses it before any pairing.
 */
public final class Groth16Proof {
    final G1Point a;
    final G2Point b;
    final G1Point c;

    Groth16Proof(G1Point a, G2Point b, G1Point c) {
        this.a = a;
        this.b = b;
        this.c = c;
    }

    /** Decodes the 128 bytes at {@code offset}: arkworks-compressed A ‖ B ‖ C, with every check above. */
    static Groth16Proof decode(byte[] bytes, int offset) throws PointDecodingException {
        G1Point a = ArkworksEncoding.readG1(bytes, offset);
        G2Point b = ArkworksEncoding.readG2(bytes, offset + ArkworksEncoding.G1_BYTES);
        G1Point c = ArkworksEncoding.readG1(bytes, offset + ArkworksEncoding.G1_BYTES + ArkworksEncoding.G2_BYTES);
        return new Groth16Proof(a, b, c);
    }

    boolean hasPointAtInfinity() {
        return a.isInfinity() || b.isInfinity() || c.isInfinity();
    }

    /** The arkworks encoding again (tests, tools). */
    byte[] encode() {
        byte[] out = new byte[RateLimitProof.PROOF_BYTES];
        ArkworksEncoding.writeG1(a, out, 0);
        ArkworksEncoding.writeG2(b, out, ArkworksEncoding.G1_BYTES);
        ArkworksEncoding.writeG1(c, out, ArkworksEncoding.G1_BYTES + ArkworksEncoding.G2_BYTES);
        return out;
    }

    @Override
    public String toString() {
        return "Groth16Proof(A " + a + ", B " + b + ", C " + c + ")";
    }
}
