package io.wakurelay.relay;

import io.wakurelay.testkit.TestCertificates;
import io.wakurelay.testkit.TestCertificates.NodeFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A TLS configuration is refused when built if a file is missing or does not hold what it should. */
class TlsConfigTest {
    @TempDir
    static Path dir;
    private static NodeFiles node;
    private static NodeFiles other;

    @BeforeAll
    static void certificates() {
        TestCertificates.Authority ca = TestCertificates.authority("config-test-ca");
        node = ca.issue(dir, "node");
        other = ca.issue(dir, "other");
    }

    @Test
    void filesThatHoldACertificateItsKeyAndTrustedCertificatesAreAccepted() {
        TlsConfig tls = TlsConfig.mutual(node.certificateChain(), node.privateKey(), node.trustedCertificates());

        assertThat(tls.requireClientAuth()).isTrue();
        assertThat(RelayConfig.defaults("n", null).withTls(tls).tls()).isEqualTo(tls);
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("missing.pem");

        assertThatThrownBy(() -> TlsConfig.mutual(missing, node.privateKey(), node.trustedCertificates()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("certificate chain " + missing + ": no such file");
        assertThatThrownBy(() -> TlsConfig.mutual(node.certificateChain(), node.privateKey(), missing))
                .hasMessage("trusted certificates " + missing + ": no such file");
    }

    @Test
    void aFileThatIsNotPemIsRefused() throws IOException {
        Path binary = Files.write(dir.resolve("binary.der"), new byte[] {0x30, (byte) 0x82, 0x01, (byte) 0xff});

        assertThatThrownBy(() -> TlsConfig.mutual(node.certificateChain(), binary, node.trustedCertificates()))
                .hasMessage("private key " + binary + ": not a PEM file (no -----BEGIN ...----- block)");
        assertThatThrownBy(() -> TlsConfig.mutual(node.certificateChain(), node.privateKey(), node.privateKey()))
                .hasMessageContaining("no PEM certificate (BEGIN CERTIFICATE)");
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefused() {
        assertThatThrownBy(() -> TlsConfig.mutual(node.certificateChain(), other.privateKey(), node.trustedCertificates()))
                .hasMessageContaining("does not belong to the first certificate of " + node.certificateChain() + " (CN=node)");
    }

    @Test
    void aKeyInAFormatOtherThanPkcs8SaysHowToConvertIt() throws IOException {
        String pkcs8 = Files.readString(node.privateKey());
        Path sec1 = Files.writeString(dir.resolve("sec1.pem"), pkcs8.replace("PRIVATE KEY", "EC PRIVATE KEY"));

        assertThatThrownBy(() -> TlsConfig.mutual(node.certificateChain(), sec1, node.trustedCertificates()))
                .hasMessageContaining("EC PRIVATE KEY is not supported").hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    }
}
