package io.wakurelay.relay;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Violation;
import io.wakurelay.protocol.WireReader;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.RPC;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads one pubsub RPC without copying message data: each published message's data is a slice of the RPC buffer,
 * and so is the whole Message, which is forwarded to mesh peers exactly as received. Subscriptions and control
 * (small) are parsed by the generated code, control only after its messages were counted on the wire: an RPC with
 * more than {@code maxControl} of them (a megabyte holds some 300,000 empty GRAFTs) costs no object per message.
 */
final class RpcReader {
    private static final int RPC_SUBSCRIPTIONS = WireReader.tag(1, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int RPC_PUBLISH = WireReader.tag(2, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int RPC_CONTROL = WireReader.tag(3, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int MSG_FROM = 1;
    private static final int MSG_DATA = WireReader.tag(2, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int MSG_SEQNO = 3;
    private static final int MSG_TOPIC = WireReader.tag(4, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int MSG_SIGNATURE = 5;
    private static final int MSG_KEY = 6;
    /** ControlMessage's fields: ihave 1, iwant 2, graft 3, prune 4, idontwant 5, each a repeated message. */
    private static final ControlKind[] CONTROL_FIELDS = {null, ControlKind.IHAVE, ControlKind.IWANT, ControlKind.GRAFT,
            ControlKind.PRUNE, ControlKind.IDONTWANT};

    private RpcReader() {
    }

    /**
     * A published message.
     *
     * @param data    the WakuMessage bytes, a slice of the RPC (null when absent)
     * @param topic   the pubsub topic ("" when absent)
     * @param signed  true when from, seqno, signature or key is present (refused under StrictNoSign)
     * @param message the whole Message as received, a slice of the RPC (what forwarding sends on)
     */
    record Message(ByteBuf data, String topic, boolean signed, ByteBuf message) {
    }

    /**
     * @param control        the RPC's control, parsed; null when it had none, or more than allowed
     * @param controlCounts  its control messages by kind (empty control parts counted apart), parsed or not
     */
    record Rpc(List<RPC.SubOpts> subscriptions, List<Message> messages, ControlMessage control,
               ControlCounts controlCounts) {
        /** The RPC carried more control than allowed: none of it was parsed. */
        boolean controlOverLimit() {
            return control == null && controlCounts.total() > 0;
        }
    }

    /** An RPC's control messages by kind, counted on the wire; an empty control part counts as one. */
    record ControlCounts(int[] byKind, int emptyParts) {
        static final ControlCounts NONE = new ControlCounts(new int[ControlKind.values().length], 0);

        int of(ControlKind kind) {
            return byKind[kind.ordinal()];
        }

        int total() {
            int total = emptyParts;
            for (int n : byKind) {
                total += n;
            }
            return total;
        }
    }

    /**
     * @param rpc        one RPC without its length prefix; the slices returned alias it
     * @param maxControl control messages parsed at most: past it the RPC's control is counted and not parsed
     * @throws ProtocolViolation {@link Violation#MALFORMED_RPC} when it is not a valid RPC
     */
    static Rpc read(ByteBuf rpc, int maxControl) {
        WireReader in = new WireReader(rpc, rpc.readerIndex(), rpc.readableBytes(), Violation.MALFORMED_RPC);
        List<RPC.SubOpts> subscriptions = new ArrayList<>(0);
        List<Message> messages = new ArrayList<>(1);
        int[] byKind = null;
        int emptyParts = 0;
        while (in.hasMore()) {
            int tag = in.readTag();
            if (tag == RPC_PUBLISH) {
                int start = in.readLengthDelimited();
                messages.add(readMessage(rpc, start, in.lastLength(start)));
            } else if (tag == RPC_SUBSCRIPTIONS) {
                int start = in.readLengthDelimited();
                subscriptions.add(parse(() -> RPC.SubOpts.parseFrom(rpc.nioBuffer(start, in.lastLength(start)))));
            } else if (tag == RPC_CONTROL) {
                int start = in.readLengthDelimited();
                byKind = byKind != null ? byKind : new int[ControlKind.values().length];
                emptyParts += countControl(rpc, start, in.lastLength(start), byKind) ? 0 : 1;
            } else {
                in.skipField(tag);
            }
        }
        if (byKind == null) {
            return new Rpc(subscriptions, messages, null, ControlCounts.NONE);
        }
        ControlCounts counts = new ControlCounts(byKind, emptyParts);
        ControlMessage control = counts.total() <= maxControl ? parseControl(rpc) : null;
        return new Rpc(subscriptions, messages, control, counts);
    }

    /** Counts one control part's messages by kind; false when it has none. */
    private static boolean countControl(ByteBuf rpc, int index, int length, int[] byKind) {
        WireReader in = new WireReader(rpc, index, length, Violation.MALFORMED_RPC);
        boolean any = false;
        while (in.hasMore()) {
            int tag = in.readTag();
            int field = WireReader.fieldNumber(tag);
            if (field < CONTROL_FIELDS.length && WireReader.wireType(tag) == WireReader.WIRETYPE_LENGTH_DELIMITED) {
                in.readLengthDelimited();
                byKind[CONTROL_FIELDS[field].ordinal()]++;
                any = true;
            } else {
                in.skipField(tag);
            }
        }
        return any;
    }

    /** Every control part of the RPC, merged as protobuf merges repeated occurrences of a message field. */
    private static ControlMessage parseControl(ByteBuf rpc) {
        WireReader in = new WireReader(rpc, rpc.readerIndex(), rpc.readableBytes(), Violation.MALFORMED_RPC);
        ControlMessage.Builder control = ControlMessage.newBuilder();
        while (in.hasMore()) {
            int tag = in.readTag();
            if (tag == RPC_CONTROL) {
                int start = in.readLengthDelimited();
                // one builder for all parts: merging each into the last built message would copy them again and again
                control.mergeFrom(parse(() -> ControlMessage.parseFrom(rpc.nioBuffer(start, in.lastLength(start)))));
            } else {
                in.skipField(tag);
            }
        }
        return control.build();
    }

    private static Message readMessage(ByteBuf rpc, int index, int length) {
        WireReader in = new WireReader(rpc, index, length, Violation.MALFORMED_RPC);
        ByteBuf data = null;
        String topic = "";
        boolean signed = false;
        while (in.hasMore()) {
            int tag = in.readTag();
            int field = WireReader.fieldNumber(tag);
            if (tag == MSG_DATA) {
                int start = in.readLengthDelimited();
                data = rpc.slice(start, in.lastLength(start));
            } else if (tag == MSG_TOPIC) {
                topic = in.readString(Violation.MALFORMED_RPC, "topic");
            } else {
                signed |= field == MSG_FROM || field == MSG_SEQNO || field == MSG_SIGNATURE || field == MSG_KEY;
                in.skipField(tag);
            }
        }
        return new Message(data, topic, signed, rpc.slice(index, length));
    }

    private interface Parser<T> {
        T parse() throws InvalidProtocolBufferException;
    }

    private static <T> T parse(Parser<T> parser) {
        try {
            return parser.parse();
        } catch (InvalidProtocolBufferException e) {
            throw new ProtocolViolation(Violation.MALFORMED_RPC, "malformed RPC part: " + e.getMessage());
        }
    }
}
