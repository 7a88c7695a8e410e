package io.wakurelay.discovery.dns;

import io.wakurelay.discovery.enr.Secp256k1Signatures;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An EIP-1459 tree location, {@code enrtree://<base32 compressed secp256k1 key>@<domain>}: where the tree's root is
 * (a TXT record at {@code domain}) and the key its root must be signed with.
 */
public record EnrTreeUrl(byte[] publicKey, String domain) {
    public static final String SCHEME = "enrtree://";
    private static final Pattern FORM = Pattern.compile("^enrtree://([A-Za-z2-7]+)@([A-Za-z0-9.-]{1,253})$");

    public EnrTreeUrl {
        publicKey = publicKey.clone();
        Objects.requireNonNull(domain, "domain");
    }

    /** Parses {@code enrtree://KEY@domain}; an {@link IllegalArgumentException} naming what is wrong otherwise. */
    public static EnrTreeUrl parse(String text) {
        Matcher m = FORM.matcher(Objects.requireNonNull(text, "text").trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not an enrtree://<base32 public key>@<domain> URL: " + text);
        }
        byte[] key;
        try {
            key = Base32.decode(m.group(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the public key of " + text + " is not base32: " + e.getMessage(), e);
        }
        if (!Secp256k1Signatures.isPublicKey(key)) {
            throw new IllegalArgumentException("the public key of " + text
                    + " is not a 33-byte compressed secp256k1 key");
        }
        String domain = m.group(2).toLowerCase(Locale.ROOT);
        if (domain.startsWith(".") || domain.endsWith(".") || domain.contains("..")) {
            throw new IllegalArgumentException("not a domain name: " + m.group(2));
        }
        return new EnrTreeUrl(key, domain);
    }

    @Override
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The name of a tree entry: {@code hash.domain}. */
    String nameOf(String hash) {
        return hash + "." + domain;
    }

    @Override
    public String toString() {
        return SCHEME + Base32.encode(publicKey) + "@" + domain;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EnrTreeUrl u && java.util.Arrays.equals(publicKey, u.publicKey) && domain.equals(u.domain);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(publicKey) + domain.hashCode();
    }
}
