package io.wakurelay.discovery.discv5;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits the records of a NODES answer into messages whose packets stay within 1280 bytes: a packet spends
 * 16 (IV) + 23 (static header) + 32 (source id) + 16 (GCM tag) bytes, and a NODES message at most 1 + 3 + 9 + 2 + 3
 * bytes around its records, so {@value #RECORD_BYTES} bytes of records always fit. At least one message is sent, an
 * empty one when there is nothing to send.
 */
final class NodesPacking {

    static final int RECORD_BYTES = Packet.MAX_SIZE - 16 - 23 - 32 - 16 - 18 - 25; // 25 bytes of margin

    private NodesPacking() {
    }

    static List<Message.Nodes> pack(byte[] requestId, List<byte[]> records) {
        List<List<byte[]>> groups = new ArrayList<>();
        List<byte[]> current = new ArrayList<>();
        int used = 0;
        for (byte[] record : records) {
            if (!current.isEmpty() && used + record.length > RECORD_BYTES) {
                groups.add(current);
                current = new ArrayList<>();
                used = 0;
            }
            current.add(record);
            used += record.length;
        }
        groups.add(current);
        List<Message.Nodes> messages = new ArrayList<>(groups.size());
        for (List<byte[]> group : groups) {
            messages.add(new Message.Nodes(requestId, groups.size(), group));
        }
        return messages;
    }
}
