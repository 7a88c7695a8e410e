package io.wakurelay.discovery.dns;

import io.wakurelay.discovery.dns.EnrTreeException.Kind;
import io.wakurelay.discovery.enr.Secp256k1Signatures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** EIP-1459's TXT entries: the signed root, branches and their hashes. */
final class TreeEntries {
    static final String ROOT_PREFIX = "enrtree-root:v1 ";
    static final String BRANCH_PREFIX = "enrtree-branch:";
    static final String LINK_PREFIX = "enrtree://";
    static final String ENR_PREFIX = "enr:";
    /** A hash is the first 16 bytes of Keccak-256: 26 base32 characters. */
    static final int HASH_BYTES = 16;
    private static final Pattern ROOT = Pattern.compile(
            "^enrtree-root:v1 e=([A-Za-z2-7]{26}) l=([A-Za-z2-7]{26}) seq=(\\d{1,10}) sig=([A-Za-z0-9_-]{86,88}=*)$");
    private static final Pattern HASH = Pattern.compile("^[A-Za-z2-7]{26}$");

    private TreeEntries() {
    }

    /** The verified root: where the ENR tree and the link tree start, and its sequence number. */
    record Root(String enrRoot, String linkRoot, long seq) {
    }

    /** Parses {@code text} as a root and verifies its signature with {@code publicKey}. */
    static Root verifiedRoot(String text, byte[] publicKey) throws EnrTreeException {
        Matcher m = ROOT.matcher(text);
        if (!m.matches()) {
            throw new EnrTreeException(Kind.BAD_ENTRY, "the tree's root is not an enrtree-root:v1 entry: " + shorten(text));
        }
        byte[] signature;
        try {
            signature = Base64.getUrlDecoder().decode(m.group(4).replace("=", ""));
        } catch (IllegalArgumentException e) {
            throw new EnrTreeException(Kind.BAD_ENTRY, "the root's signature is not base64url");
        }
        if (signature.length != 65) {
            throw new EnrTreeException(Kind.BAD_ENTRY, "the root's signature has " + signature.length
                    + " bytes, not 65");
        }
        // signed: the text up to " sig=", as go-ethereum's dnsdisc signs it; v (the last byte) is not needed to verify
        byte[] signed = text.substring(0, text.indexOf(" sig=")).getBytes(StandardCharsets.UTF_8);
        if (!Secp256k1Signatures.verify(signed, Arrays.copyOf(signature, 64), publicKey)) {
            throw new EnrTreeException(Kind.BAD_SIGNATURE, "the tree's root is not signed by the URL's key");
        }
        return new Root(m.group(1).toUpperCase(java.util.Locale.ROOT), m.group(2).toUpperCase(java.util.Locale.ROOT),
                Long.parseLong(m.group(3)));
    }

    /** The child hashes of a branch entry (EIP-1459: comma-separated, possibly empty). */
    static List<String> branch(String text) throws EnrTreeException {
        String body = text.substring(BRANCH_PREFIX.length());
        List<String> out = new ArrayList<>();
        if (body.isEmpty()) {
            return out;
        }
        for (String hash : body.split(",", -1)) {
            if (!HASH.matcher(hash).matches()) {
                throw new EnrTreeException(Kind.BAD_ENTRY, "a branch names a child that is not a hash: " + shorten(hash));
            }
            out.add(hash.toUpperCase(java.util.Locale.ROOT));
        }
        return out;
    }

    /** A link entry, {@code enrtree://<key>@<domain>}: the tree it names, with the key its root must be signed with. */
    static EnrTreeUrl link(String text) throws EnrTreeException {
        try {
            return EnrTreeUrl.parse(text);
        } catch (IllegalArgumentException e) {
            throw new EnrTreeException(Kind.BAD_ENTRY, "a link entry is not an enrtree:// URL: " + shorten(text));
        }
    }

    /** The hash that names {@code text}: base32 of the first 16 bytes of its Keccak-256. */
    static String hash(String text) {
        byte[] digest = Secp256k1Signatures.keccak256(text.getBytes(StandardCharsets.UTF_8));
        return Base32.encode(Arrays.copyOf(digest, HASH_BYTES));
    }

    static String shorten(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }
}
