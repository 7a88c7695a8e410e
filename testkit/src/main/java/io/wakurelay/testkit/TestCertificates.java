package io.wakurelay.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed TLS certificate for a test's {@code /wss} listener, made by {@code openssl} (Debian's, on every
 * machine the tests run on): an EC P-256 key (PKCS#8 PEM, as certbot writes it) and a certificate valid for two days
 * for {@code localhost} and {@code 127.0.0.1}.
 *
 * @param cert      the certificate, PEM
 * @param key       its private key, PEM
 * @param spkiSha256 base64 SHA-256 of the certificate's public key (what Chromium's
 *                   {@code --ignore-certificate-errors-spki-list} takes)
 */
public record TestCertificates(Path cert, Path key, String spkiSha256) {

    /** Makes the key and the certificate in {@code dir}. */
    public static TestCertificates selfSigned(Path dir) {
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        run(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"));
        String spki = run(List.of("bash", "-c", "openssl x509 -in '" + cert + "' -pubkey -noout"
                + " | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl base64 -A"));
        return new TestCertificates(cert, key, spki.trim());
    }

    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return fail(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            return fail("cannot run openssl (is it on the PATH?): " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while openssl ran");
        }
    }
}
