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
 * (small) are parsed by the generated code.
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

    record Rpc(List<RPC.SubOpts> subscriptions, List<Message> messages, ControlMessage control) {
        boolean hasControl() {
            return control != null;
        }
    }

    /**
     * @param rpc one RPC without its length prefix; the slices returned alias it
     * @throws ProtocolViolation {@link Violation#MALFORMED_RPC} when it is not a valid RPC
     */
    static Rpc read(ByteBuf rpc) {
        WireReader in = new WireReader(rpc, rpc.readerIndex(), rpc.readableBytes(), Violation.MALFORMED_RPC);
        List<RPC.SubOpts> subscriptions = new ArrayList<>(0);
        List<Message> messages = new ArrayList<>(1);
        ControlMessage control = null;
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
                ControlMessage part = parse(() -> ControlMessage.parseFrom(rpc.nioBuffer(start, in.lastLength(start))));
                // protobuf merges repeated occurrences of a message field
                control = control == null ? part : control.toBuilder().mergeFrom(part).build();
            } else {
                in.skipField(tag);
            }
        }
        return new Rpc(subscriptions, messages, control);
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
