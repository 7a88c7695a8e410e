package io.wakurelay.rln.crypto;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.rln.RlnVectors;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PoseidonTest {

    @Test
    void hashesOneAndTwoAsCircomlibDoes() {
        assertThat(Poseidon.hash(FieldElement.of(1), FieldElement.of(2)))
                .hasToString("7853200120776062878684798364095072458815029376092732009249414926327459813530");
    }

    @Test
    void matchesEveryPoseidonVector() {
        JsonNode vectors = RlnVectors.poseidon().path("poseidon");
        assertThat(vectors).hasSize(23);
        for (JsonNode v : vectors) {
            List<FieldElement> inputs = new ArrayList<>();
            for (int i = 0; i < v.path("inputs").size(); i++) {
                FieldElement decimal = FieldElement.of(new BigInteger(v.path("inputs").get(i).asText()));
                FieldElement le = FieldElement.fromLittleEndian(RlnVectors.hex(v.path("inputs_le_hex").get(i).asText()));
                assertThat(le).isEqualTo(decimal);
                inputs.add(decimal);
            }
            FieldElement out = inputs.size() == 1 ? Poseidon.hash(inputs.get(0))
                    : Poseidon.hash(inputs.get(0), inputs.get(1));
            assertThat(out).as("Poseidon%s", v.path("inputs")).hasToString(v.path("output").asText());
            assertThat(RlnVectors.hex(out.toLittleEndian())).isEqualTo(v.path("output_le_hex").asText());
        }
    }

    @Test
    void matchesEveryZeroSubtreeHash() {
        JsonNode levels = RlnVectors.poseidon().path("zero_subtree_hashes");
        assertThat(levels).hasSize(21);
        FieldElement z = FieldElement.ZERO;
        for (JsonNode level : levels) {
            assertThat(z).as("level %s", level.path("level")).hasToString(level.path("value").asText());
            assertThat(RlnVectors.hex(z.toLittleEndian())).isEqualTo(level.path("le_hex").asText());
            z = Poseidon.hash(z, z);
        }
    }

    @Test
    void givesTheVectorsRootsForTheRegisteredMembers() {
        // leaf = Poseidon(id_commitment, rate_limit), id_commitment = Poseidon(secret); the member list's own values
        for (JsonNode member : RlnVectors.vectors().path("members")) {
            FieldElement secret = FieldElement.fromLittleEndian(RlnVectors.hex(member.path("identity_secret_le_hex").asText()));
            FieldElement commitment = Poseidon.hash(secret);
            assertThat(RlnVectors.hex(commitment.toLittleEndian())).isEqualTo(member.path("id_commitment_le_hex").asText());
            FieldElement leaf = Poseidon.hash(commitment, FieldElement.of(member.path("rate_limit").asLong()));
            assertThat(RlnVectors.hex(leaf.toLittleEndian())).isEqualTo(member.path("leaf_le_hex").asText());
        }
    }

    @Test
    void refusesANonCanonicalInputEncoding() {
        byte[] r = new byte[32];
        PrimeField.SCALAR.writeLittleEndian(PrimeField.SCALAR.zero(), r, 0);
        byte[] rBytes = littleEndian(PrimeField.SCALAR.modulus());
        assertThatThrownBy(() -> FieldElement.fromLittleEndian(rBytes)).isInstanceOf(IllegalArgumentException.class);
        assertThat(FieldElement.isCanonical(rBytes, 0)).isFalse();
        byte[] rMinusOne = littleEndian(PrimeField.SCALAR.modulus().subtract(BigInteger.ONE));
        assertThat(FieldElement.isCanonical(rMinusOne, 0)).isTrue();
    }

    static byte[] littleEndian(BigInteger value) {
        byte[] out = new byte[32];
        for (int i = 0; i < 32; i++) {
            out[i] = value.shiftRight(8 * i).byteValue();
        }
        return out;
    }
}
