package io.wakurelay.discovery.dns;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.Secp256k1Signatures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds and signs an EIP-1459 tree the way go-ethereum's {@code dnsdisc.MakeTree} lays it out: the records as
 * leaves, grouped into branches of at most {@code fanOut} hashes, branches grouped again until one is left; the
 * link tree likewise from link entries ({@code enrtree://key@domain}), an empty branch when there are none; the
 * root signed with secp256k1 over Keccak-256 of its text up to " sig=". The result is the TXT records by their full
 * name (the root at the domain itself).
 */
public final class EnrTreeBuilder {
    private final byte[] privateScalar;
    private final String domain;
    private final int fanOut;

    public EnrTreeBuilder(byte[] privateScalar, String domain, int fanOut) {
        this.privateScalar = privateScalar.clone();
        this.domain = domain;
        this.fanOut = fanOut;
    }

    public EnrTreeUrl url() {
        return new EnrTreeUrl(Secp256k1Signatures.publicKey(privateScalar), domain);
    }

    /** The TXT records of a tree of {@code records}, name to text, root first. */
    public Map<String, String> build(List<Enr> records, long seq) {
        return build(records, List.of(), seq);
    }

    /** The TXT records of a tree of {@code records} whose link tree names {@code links}, root first. */
    public Map<String, String> build(List<Enr> records, List<EnrTreeUrl> links, long seq) {
        return buildLeaves(records.stream().map(Enr::text).toList(), links.stream().map(EnrTreeUrl::toString).toList(),
                seq);
    }

    /** A tree of any leaves, of the right kind for their tree or not: {@code enrLeaves} under e=, others under l=. */
    public Map<String, String> buildLeaves(List<String> enrLeaves, List<String> linkLeaves, long seq) {
        Map<String, String> entries = new LinkedHashMap<>();
        String enrRoot = branches(entries, enrLeaves.stream().map(text -> put(entries, text)).toList());
        String linkRoot = branches(entries, linkLeaves.stream().map(text -> put(entries, text)).toList());
        Map<String, String> out = new LinkedHashMap<>();
        out.put(domain, signedRoot(enrRoot, linkRoot, seq));
        out.putAll(entries);
        return out;
    }

    /** Groups {@code leaves} into branches of {@code fanOut} until one is left: its hash. */
    private String branches(Map<String, String> entries, List<String> leaves) {
        List<String> level = leaves;
        do {
            List<String> parents = new ArrayList<>();
            for (int i = 0; i < level.size(); i += fanOut) {
                List<String> children = level.subList(i, Math.min(level.size(), i + fanOut));
                parents.add(put(entries, TreeEntries.BRANCH_PREFIX + String.join(",", children)));
            }
            if (level.isEmpty()) {
                parents.add(put(entries, TreeEntries.BRANCH_PREFIX));
            }
            level = parents;
        } while (level.size() > 1);
        return level.get(0);
    }

    String signedRoot(String enrRoot, String linkRoot, long seq) {
        String content = "enrtree-root:v1 e=" + enrRoot + " l=" + linkRoot + " seq=" + seq;
        byte[] signature = Arrays.copyOf(Secp256k1Signatures.sign(content.getBytes(StandardCharsets.UTF_8),
                privateScalar), 65); // v is not checked by verifiers (js-waku and we drop it)
        return content + " sig=" + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    }

    private String put(Map<String, String> entries, String text) {
        String hash = TreeEntries.hash(text);
        entries.put(hash + "." + domain, text);
        return hash;
    }
}
