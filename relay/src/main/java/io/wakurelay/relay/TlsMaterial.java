package io.wakurelay.relay;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The contents of a {@link TlsConfig}'s PEM files, read with the JDK alone and checked, so that every mistake is
 * reported as which file is wrong and why, rather than as a failed handshake later.
 */
record TlsMaterial(List<X509Certificate> certificateChain, PrivateKey privateKey, List<X509Certificate> trusted) {
    private static final Pattern PEM_BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
    /** The key algorithms a PKCS#8 key may be in, tried in order (the JDK offers no look-up by OID). */
    private static final List<String> KEY_ALGORITHMS = List.of("EC", "RSA", "EdDSA", "RSASSA-PSS", "XDH");

    /** @throws IllegalArgumentException naming the file and what is wrong with it */
    static TlsMaterial load(Path certificateChain, Path privateKey, Path trustedCertificates) {
        List<X509Certificate> chain = certificates(certificateChain, "certificate chain");
        PrivateKey key = privateKey(privateKey);
        checkKeyBelongsTo(key, chain.get(0), certificateChain, privateKey);
        checkValidNow(chain.get(0), certificateChain);
        List<X509Certificate> trusted = certificates(trustedCertificates, "trusted certificates");
        return new TlsMaterial(chain, key, trusted);
    }

    private static List<X509Certificate> certificates(Path file, String what) {
        List<X509Certificate> certificates = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Block block : blocks(file, what)) {
                if (block.type().equals("CERTIFICATE")) {
                    certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(what + " " + file + ": not a valid X.509 certificate: " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(what + " " + file + ": no PEM certificate (BEGIN CERTIFICATE) in it");
        }
        return List.copyOf(certificates);
    }

    private static PrivateKey privateKey(Path file) {
        List<Block> keys = blocks(file, "private key").stream().filter(b -> b.type().endsWith("PRIVATE KEY")).toList();
        if (keys.size() != 1) {
            throw new IllegalArgumentException("private key " + file + ": expected one PEM private key, found " + keys.size());
        }
        Block block = keys.get(0);
        if (!block.type().equals("PRIVATE KEY")) {
            // PKCS#1 (RSA), SEC 1 (EC) and encrypted keys need a library the node does without
            throw new IllegalArgumentException("private key " + file + ": " + block.type() + " is not supported; "
                    + "convert it to unencrypted PKCS#8 with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8.pem");
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(block.der());
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // not this algorithm: try the next
            }
        }
        throw new IllegalArgumentException("private key " + file + ": not a PKCS#8 key of a supported algorithm " + KEY_ALGORITHMS);
    }

    /** A key that is not the certificate's would only show as every handshake failing: check it here. */
    private static void checkKeyBelongsTo(PrivateKey key, X509Certificate certificate, Path certificateFile, Path keyFile) {
        String algorithm = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "EdDSA", "Ed25519", "Ed448" -> "EdDSA";
            default -> null; // nothing simple to sign with: the handshake will tell
        };
        if (algorithm == null) {
            return;
        }
        byte[] probe = "wakurelay key check".getBytes(StandardCharsets.US_ASCII);
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new IllegalArgumentException("private key " + keyFile + " does not belong to the first certificate of "
                    + certificateFile + " (" + certificate.getSubjectX500Principal().getName() + ")");
        }
    }

    private static void checkValidNow(X509Certificate certificate, Path file) {
        try {
            certificate.checkValidity();
        } catch (CertificateExpiredException e) {
            throw new IllegalArgumentException("certificate chain " + file + ": the certificate expired on " + certificate.getNotAfter().toInstant());
        } catch (CertificateNotYetValidException e) {
            throw new IllegalArgumentException("certificate chain " + file + ": the certificate is valid only from " + certificate.getNotBefore().toInstant());
        }
    }

    private record Block(String type, byte[] der) {
    }

    private static List<Block> blocks(Path file, String what) {
        String text;
        try {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException(what + " " + file + ": no such file");
            }
            // Latin-1 reads any bytes: a DER or binary file is then reported as "not a PEM file", not as a charset error
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " " + file + ": cannot read it: " + e, e);
        }
        List<Block> blocks = new ArrayList<>();
        Matcher m = PEM_BLOCK.matcher(text);
        while (m.find()) {
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + " " + file + ": bad base64 in a " + m.group(1) + " block", e);
            }
        }
        if (blocks.isEmpty()) {
            throw new IllegalArgumentException(what + " " + file + ": not a PEM file (no -----BEGIN ...----- block)");
        }
        return blocks;
    }
}
