package io.wakurelay.discovery.dns;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TreeEntriesTest {
    // EIP-1459's example tree (https://eips.ethereum.org/EIPS/eip-1459)
    private static final String EIP_URL = "enrtree://AM5FCQLWIZX2QFPNJAP7VUERCCRNGRHWZG3YYHIUV7BVDQ5FDPRT2@nodes.example.org";
    private static final String EIP_BRANCH =
            "enrtree-branch:2XS2367YHAXJFGLZHVAWLQD4ZY,H4FHT4B454P6UXFD7JCYQ5PWDY,MHTDO6TMUBRIA2XWG5LUDACK24";

    @Test
    void parsesTheEipsUrl() {
        EnrTreeUrl url = EnrTreeUrl.parse(EIP_URL);
        assertEquals("nodes.example.org", url.domain());
        assertEquals(33, url.publicKey().length);
        assertEquals(EIP_URL, url.toString());
    }

    @Test
    void hashesTheEipsBranchToItsName() {
        assertEquals("JWXYDBPXYWG6FX3GMDIBFA6CJ4", TreeEntries.hash(EIP_BRANCH));
    }

    @Test
    void refusesUrlsThatAreNotTrees() {
        for (String bad : List.of("enrtree://@nodes.example.org", "enr://AM5FCQLWIZX2QFPNJAP7VUERCCRNGRHWZG3YYHIUV7BVDQ5FDPRT2@x",
                "enrtree://AM5FCQLWIZX2QFPNJAP7VUERCCRNGRHWZG3YYHIUV7BVDQ5FDPRT@nodes.example.org",
                "enrtree://AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@nodes.example.org",
                "enrtree://AM5FCQLWIZX2QFPNJAP7VUERCCRNGRHWZG3YYHIUV7BVDQ5FDPRT2@nodes..org",
                "enrtree://AM5FCQLWIZX2QFPNJAP7VUERCCRNGRHWZG3YYHIUV7BVDQ5FDPRT2@nodes.example.org/x")) {
            assertThrows(IllegalArgumentException.class, () -> EnrTreeUrl.parse(bad), bad);
        }
    }

    @Test
    void base32RoundTripsAndRefusesNonCanonicalText() {
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            byte[] data = new byte[random.nextInt(40)];
            random.nextBytes(data);
            String text = Base32.encode(data);
            assertArrayEquals(data, Base32.decode(text), HexFormat.of().formatHex(data));
            assertArrayEquals(data, Base32.decode(text.toLowerCase()));
        }
        assertThrows(IllegalArgumentException.class, () -> Base32.decode("AB")); // trailing bits set
        assertThrows(IllegalArgumentException.class, () -> Base32.decode("A1"));
        assertThrows(IllegalArgumentException.class, () -> Base32.decode("AA======"));
    }

    @Test
    void verifiesARootSignedByTheKeyAndRefusesOthers() throws Exception {
        byte[] key = new byte[32];
        key[31] = 5;
        EnrTreeBuilder builder = new EnrTreeBuilder(key, "t.example", 13);
        String root = builder.signedRoot("JWXYDBPXYWG6FX3GMDIBFA6CJ4", "C7HRFPF3BLGF3YR4DY5KX3SMBE", 42);
        TreeEntries.Root parsed = TreeEntries.verifiedRoot(root, builder.url().publicKey());
        assertEquals(new TreeEntries.Root("JWXYDBPXYWG6FX3GMDIBFA6CJ4", "C7HRFPF3BLGF3YR4DY5KX3SMBE", 42), parsed);

        byte[] other = new byte[32];
        other[31] = 6;
        EnrTreeException wrongKey = assertThrows(EnrTreeException.class, () -> TreeEntries.verifiedRoot(root,
                new EnrTreeBuilder(other, "t.example", 13).url().publicKey()));
        assertEquals(EnrTreeException.Kind.BAD_SIGNATURE, wrongKey.kind());
        String changed = root.replace("seq=42", "seq=43");
        assertEquals(EnrTreeException.Kind.BAD_SIGNATURE, assertThrows(EnrTreeException.class,
                () -> TreeEntries.verifiedRoot(changed, builder.url().publicKey())).kind());
        for (String bad : List.of("", "enrtree-root:v1", root.replace(" l=", " x="), root + " extra",
                root.substring(0, root.length() - 4))) {
            assertEquals(EnrTreeException.Kind.BAD_ENTRY, assertThrows(EnrTreeException.class,
                    () -> TreeEntries.verifiedRoot(bad, builder.url().publicKey())).kind(), bad);
        }
    }

    @Test
    void parsesBranchesAndRefusesChildrenThatAreNotHashes() throws Exception {
        assertEquals(List.of("2XS2367YHAXJFGLZHVAWLQD4ZY", "H4FHT4B454P6UXFD7JCYQ5PWDY", "MHTDO6TMUBRIA2XWG5LUDACK24"),
                TreeEntries.branch(EIP_BRANCH));
        assertEquals(List.of(), TreeEntries.branch("enrtree-branch:"));
        for (String bad : List.of("enrtree-branch:,", "enrtree-branch:ABC", EIP_BRANCH + ",",
                "enrtree-branch:2XS2367YHAXJFGLZHVAWLQD4Z1")) {
            assertThrows(EnrTreeException.class, () -> TreeEntries.branch(bad), bad);
        }
    }

    @Test
    void damagedRootsAndBranchesRaiseOnlyTreeErrors() {
        byte[] key = new byte[32];
        key[31] = 9;
        EnrTreeBuilder builder = new EnrTreeBuilder(key, "t.example", 13);
        String root = builder.signedRoot("JWXYDBPXYWG6FX3GMDIBFA6CJ4", "C7HRFPF3BLGF3YR4DY5KX3SMBE", 1);
        Random random = new Random(11);
        String alphabet = "abcAZ27=_-:, ";
        for (int i = 0; i < 3000; i++) {
            StringBuilder damaged = new StringBuilder(i % 2 == 0 ? root : EIP_BRANCH);
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
                int at = random.nextInt(damaged.length());
                switch (random.nextInt(3)) {
                    case 0 -> damaged.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> damaged.deleteCharAt(at);
                    default -> damaged.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String text = damaged.toString();
            try {
                if (text.startsWith(TreeEntries.BRANCH_PREFIX)) {
                    TreeEntries.branch(text);
                } else {
                    TreeEntries.verifiedRoot(text, builder.url().publicKey());
                }
            } catch (EnrTreeException expected) {
                // refused, as it should be: anything else thrown fails the test
            }
        }
    }
}
