package io.wakurelay.rln.crypto;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.rln.RlnConfig.NullifierDerivation;
import io.wakurelay.rln.RlnVectors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExternalNullifierTest {

    @Test
    void matchesEveryExternalNullifierVectorInBothDerivations() {
        JsonNode vectors = RlnVectors.poseidon().path("external_nullifier");
        assertThat(vectors).hasSize(7);
        for (JsonNode v : vectors) {
            byte[] epoch = RlnVectors.hex(v.path("epoch_le_hex").asText());
            byte[] identifier = RlnVectors.hex(v.path("rln_identifier_hex").asText());
            assertThat(RlnVectors.hex(ExternalNullifier.derive(epoch, identifier, NullifierDerivation.V038).toLittleEndian()))
                    .as("v038, epoch %s", v.path("epoch").asText()).isEqualTo(v.path("v038").asText());
            assertThat(RlnVectors.hex(ExternalNullifier.derive(epoch, identifier, NullifierDerivation.LEGACY).toLittleEndian()))
                    .as("legacy, epoch %s", v.path("epoch").asText()).isEqualTo(v.path("legacy").asText());
        }
    }

    @Test
    void matchesTheExternalNullifierEveryCaseWasProvedWith() {
        for (JsonNode c : RlnVectors.cases()) {
            JsonNode inputs = c.path("inputs");
            if (!inputs.has("external_nullifier_le_hex")) {
                continue;
            }
            String derivation = c.has("proved_with") ? c.path("proved_with").asText() : c.path("derivation").asText();
            Envelope envelope = RlnVectors.envelope(c);
            byte[] epoch;
            byte[] identifier;
            try {
                epoch = RlnVectors.protobufField(envelope.message().rateLimitProof(), 3);
                identifier = RlnVectors.protobufField(envelope.message().rateLimitProof(), 7);
            } finally {
                envelope.release();
            }
            NullifierDerivation d = derivation.equals("legacy") ? NullifierDerivation.LEGACY : NullifierDerivation.V038;
            assertThat(RlnVectors.hex(ExternalNullifier.derive(epoch, identifier, d).toLittleEndian()))
                    .as(c.path("id").asText()).isEqualTo(inputs.path("external_nullifier_le_hex").asText());
        }
    }

    @Test
    void refusesFieldsThatAreNot32Bytes() {
        assertThatThrownBy(() -> ExternalNullifier.derive(new byte[31], new byte[32], NullifierDerivation.V038))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("32 bytes");
    }
}
