package io.wakurelay.relay;

import java.nio.file.Path;
import java.util.Objects;

/**
 * TLS on every peer connection, both directions (ADR 0030). Nodes authenticate each other by certificates
 * signed by a certificate authority they both trust: membership of the network, not a name, is what is
 * checked (no host name verification; see the ADR). Validated when built: each file must be readable and hold
 * what it should, the key must belong to the certificate, and the certificate must be valid now, so that a bad
 * file stops a node before it opens any port.
 *
 * @param certificateChain    PEM file: this node's certificate first, then any intermediate CA certificates;
 *                            presented to peers when accepting and when dialling
 * @param privateKey          PEM file: the certificate's private key, unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY})
 * @param trustedCertificates PEM file: the CA certificates a peer's certificate must chain to (both directions)
 * @param requireClientAuth   true: a dialling peer must present a trusted certificate too (mutual TLS); false:
 *                            inbound connections are encrypted but not authenticated, outbound ones still check
 *                            the peer's certificate
 */
public record TlsConfig(Path certificateChain, Path privateKey, Path trustedCertificates, boolean requireClientAuth) {

    public TlsConfig {
        Objects.requireNonNull(certificateChain, "certificate chain");
        Objects.requireNonNull(privateKey, "private key");
        Objects.requireNonNull(trustedCertificates, "trusted certificates");
        TlsMaterial.load(certificateChain, privateKey, trustedCertificates);
    }

    /** Mutual TLS with the three files: what nodes of one network use. */
    public static TlsConfig mutual(Path certificateChain, Path privateKey, Path trustedCertificates) {
        return new TlsConfig(certificateChain, privateKey, trustedCertificates, true);
    }
}
