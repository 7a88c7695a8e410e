package io.wakurelay.rln.proof;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VerifyingKeyTest {

    private static String keyJson() throws IOException {
        try (InputStream in = VerifyingKey.class.getResourceAsStream(VerifyingKey.RLN_V2_RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void loadsTheBundledKeyWithItsFingerprintAndSpotValues() {
        VerifyingKey key = VerifyingKey.rlnV2();
        assertThat(key.fingerprint()).isEqualTo("55fca14bad921943e8f82f2f226774bfaa73f4aa9ba00e4bb2d0ab0d76022df2");
        assertThat(key.publicInputs()).isEqualTo(5);
        assertThat(key.alpha.xValue()).hasToString(
                "20491192805390485299153009773594534940189261866228447918068658471970481763042");
        assertThat(key.ic.get(0).xValue()).hasToString(
                "4920513730204767532050733107749276406754520419375654722016092399980613788208");
        assertThat(key.beta.isInSubgroup() && key.gamma.isInSubgroup() && key.delta.isInSubgroup()).isTrue();
    }

    @Test
    void refusesAKeyWhoseFieldsNoLongerMatchItsFingerprint() throws IOException {
        String changed = keyJson().replaceFirst("\"nPublic\": 5", "\"nPublic\": 4");
        assertThat(changed).isNotEqualTo(keyJson());
        assertThatThrownBy(() -> VerifyingKey.parse(changed.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fingerprint");
    }

    @Test
    void refusesAPointOffItsCurveEvenWithAMatchingFingerprint() throws Exception {
        String json = keyJson();
        String alphaX = "20491192805390485299153009773594534940189261866228447918068658471970481763042";
        String broken = json.replace(alphaX, "20491192805390485299153009773594534940189261866228447918068658471970481763043");
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(broken);
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("fingerprint")).put("sha256",
                VerifyingKey.fingerprint(tree));
        assertThatThrownBy(() -> VerifyingKey.parse(tree.toString().getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not on the curve");
    }
}
