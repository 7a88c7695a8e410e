package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.EnrFormatException;
import io.wakurelay.discovery.enr.Rlp;
import io.wakurelay.discovery.enr.RlpReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The discv5 messages this node speaks, as {@code message-type ‖ rlp(message-data)}; the first item of every message
 * is the request id (at most 8 bytes). Topic messages (0x07–0x0a) are not read: they are refused as unknown.
 */
public sealed interface Message {

    int PING = 1;
    int PONG = 2;
    int FINDNODE = 3;
    int NODES = 4;
    int TALKREQ = 5;
    int TALKRESP = 6;
    int MAX_REQUEST_ID = 8;
    /** FINDNODE asks for at most this many distances (there are 257 meaningful ones; go-ethereum caps at 5 rounds). */
    int MAX_DISTANCES = 256;

    byte[] requestId();

    int type();

    byte[] encode();

    record Ping(byte[] requestId, long enrSeq) implements Message {
        public int type() {
            return PING;
        }

        public byte[] encode() {
            return frame(PING, Rlp.bytes(requestId), Rlp.unsigned(enrSeq));
        }
    }

    record Pong(byte[] requestId, long enrSeq, byte[] recipientIp, int recipientPort) implements Message {
        public int type() {
            return PONG;
        }

        public byte[] encode() {
            return frame(PONG, Rlp.bytes(requestId), Rlp.unsigned(enrSeq), Rlp.bytes(recipientIp),
                    Rlp.unsigned(recipientPort));
        }
    }

    record FindNode(byte[] requestId, List<Integer> distances) implements Message {
        public int type() {
            return FINDNODE;
        }

        public byte[] encode() {
            List<byte[]> items = new ArrayList<>();
            distances.forEach(d -> items.add(Rlp.unsigned(d)));
            return frame(FINDNODE, Rlp.bytes(requestId), Rlp.list(items));
        }
    }

    /** {@code enrs}: the records' RLP, each checked by the reader of the answer, not here. */
    record Nodes(byte[] requestId, int total, List<byte[]> enrs) implements Message {
        public int type() {
            return NODES;
        }

        public byte[] encode() {
            return frame(NODES, Rlp.bytes(requestId), Rlp.unsigned(total), Rlp.list(enrs));
        }
    }

    record TalkReq(byte[] requestId, byte[] protocol, byte[] request) implements Message {
        public int type() {
            return TALKREQ;
        }

        public byte[] encode() {
            return frame(TALKREQ, Rlp.bytes(requestId), Rlp.bytes(protocol), Rlp.bytes(request));
        }
    }

    record TalkResp(byte[] requestId, byte[] response) implements Message {
        public int type() {
            return TALKRESP;
        }

        public byte[] encode() {
            return frame(TALKRESP, Rlp.bytes(requestId), Rlp.bytes(response));
        }
    }

    /** Reads a decrypted message; anything malformed, unknown or with trailing bytes is a packet exception. */
    static Message decode(byte[] plaintext) {
        if (plaintext.length < 2) {
            throw new Discv5PacketException("an empty message");
        }
        try {
            RlpReader outer = new RlpReader(Arrays.copyOfRange(plaintext, 1, plaintext.length));
            RlpReader items = outer.list();
            if (outer.hasMore()) {
                throw new Discv5PacketException("bytes after the message");
            }
            byte[] requestId = items.bytes();
            if (requestId.length > MAX_REQUEST_ID) {
                throw new Discv5PacketException("a request id of " + requestId.length + " bytes");
            }
            Message message = switch (plaintext[0]) {
                case PING -> new Ping(requestId, items.unsigned(8));
                case PONG -> new Pong(requestId, items.unsigned(8), ip(items.bytes()), (int) items.unsigned(2));
                case FINDNODE -> new FindNode(requestId, distances(items.list()));
                case NODES -> new Nodes(requestId, (int) items.unsigned(1), records(items.list()));
                case TALKREQ -> new TalkReq(requestId, items.bytes(), items.bytes());
                case TALKRESP -> new TalkResp(requestId, items.bytes());
                default -> throw new Discv5PacketException("message type " + (plaintext[0] & 0xff));
            };
            // extra list items are allowed by RLP's forward compatibility rule (go-ethereum's "rest" fields)
            return message;
        } catch (EnrFormatException e) {
            throw new Discv5PacketException("a malformed message: " + e.getMessage(), e);
        }
    }

    private static byte[] ip(byte[] ip) {
        if (ip.length != 4 && ip.length != 16) {
            throw new Discv5PacketException("an IP of " + ip.length + " bytes");
        }
        return ip;
    }

    private static List<Integer> distances(RlpReader list) {
        List<Integer> distances = new ArrayList<>();
        while (list.hasMore()) {
            long distance = list.unsigned(2);
            if (distance > 256 || distances.size() >= MAX_DISTANCES) {
                throw new Discv5PacketException("distance " + distance + " or more than " + MAX_DISTANCES);
            }
            distances.add((int) distance);
        }
        return distances;
    }

    private static List<byte[]> records(RlpReader list) {
        List<byte[]> records = new ArrayList<>();
        while (list.hasMore()) {
            records.add(list.rawItem()); // a packet holds at most 1280 bytes: a few records at most
        }
        return records;
    }

    private static byte[] frame(int type, byte[]... items) {
        return Discv5Crypto.concat(new byte[] {(byte) type}, Rlp.list(Arrays.asList(items)));
    }
}
