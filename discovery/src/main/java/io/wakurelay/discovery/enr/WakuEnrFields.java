package io.wakurelay.discovery.enr;

import io.wakurelay.p2p.crypto.KeyFormatException;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.multiaddr.MultiaddrFormatException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Waku's ENR keys (rfc-index core/31/enr) and the {@code multiaddrs} encoding: each address in binary, without its
 * {@code /p2p} component (the record's key names the peer), prefixed by its length as 2 bytes big-endian. As nwaku
 * does, an address we cannot parse is skipped (a newer transport we do not know must not hide the others), while a
 * zero length or one that runs past the field is an error.
 */
final class WakuEnrFields {

    static final String CAPABILITIES = "waku2";
    static final String MULTIADDRS = "multiaddrs";
    static final String SHARDS_LIST = "rs";
    static final String SHARDS_BIT_VECTOR = "rsv";

    private WakuEnrFields() {
    }

    static byte[] encodeMultiaddrs(List<Multiaddr> addresses) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Multiaddr address : addresses) {
            byte[] bytes = address.withoutPeerId().bytes();
            out.write(bytes.length >>> 8);
            out.write(bytes.length);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    static List<Multiaddr> decodeMultiaddrs(byte[] value) {
        List<Multiaddr> out = new ArrayList<>();
        int position = 0;
        while (position < value.length) {
            if (value.length - position < 2) {
                throw new EnrFormatException("the multiaddrs field ends inside a length");
            }
            int length = ((value[position] & 0xff) << 8) | (value[position + 1] & 0xff);
            position += 2;
            if (length == 0 || length > value.length - position) {
                throw new EnrFormatException("the multiaddrs field has an address of " + length + " bytes with "
                        + (value.length - position) + " left");
            }
            byte[] bytes = java.util.Arrays.copyOfRange(value, position, position + length);
            position += length;
            try {
                out.add(Multiaddr.fromBytes(bytes).withoutPeerId());
            } catch (MultiaddrFormatException | KeyFormatException unknown) {
                // skipped, as nwaku skips it: see the class comment
            }
        }
        return out;
    }
}
