package io.wakurelay.node;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlIDontWant;
import io.wakurelay.relay.proto.ControlIHave;
import io.wakurelay.relay.proto.ControlIWant;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.ControlPrune;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded generator of what a hostile relay peer writes on its relay stream, one step at a time: every kind of pubsub
 * RPC a peer can send (valid and invalid WakuMessages, messages on topics the node does not relay, duplicates, all five
 * control kinds for known and unknown topics, RPCs packed to the limit) and framing faults (a length prefix past
 * {@code --max-rpc-size}, bytes that are no RPC, an RPC cut short). The same seed gives the same steps, so a failure
 * replays with {@code -Dfuzz.seed}.
 */
final class HostileRelaySteps {
    /** What a step does; each ends in a metric with its reason (the fuzz test holds the node to that). */
    enum Kind {
        VALID_MESSAGE, DUPLICATE, MALFORMED_MESSAGE, MISSING_CONTENT_TOPIC, META_TOO_LARGE, OVERSIZED_MESSAGE,
        SIGNED_MESSAGE, UNKNOWN_TOPIC_MESSAGE, SUBSCRIPTIONS, GRAFT_KNOWN, GRAFT_UNKNOWN, PRUNE_KNOWN, PRUNE_UNKNOWN,
        IHAVE_FLOOD, IWANT_FLOOD, IDONTWANT_FLOOD, CONTROL_FLOOD, MALFORMED_RPC, OVERSIZED_FRAME
    }

    /**
     * One write on the relay stream.
     *
     * @param wire the bytes as they go on the stream (length prefix included, or deliberately broken)
     */
    record Step(Kind kind, byte[] wire) {
        /** The node resets the stream after this step: the peer writes the next one on a new stream. */
        boolean resetsStream() {
            return kind == Kind.OVERSIZED_FRAME;
        }
    }

    /** Steps of the weights below: messages and control mostly, framing faults now and then. */
    private static final Kind[] WEIGHTED = weighted();
    /** Just under the node's default --max-rpc-size (1 MiB): what one RPC may carry at most. */
    static final int RPC_BUDGET = 1_000_000;
    static final int MAX_RPC_SIZE = 1 << 20;

    private final Random random;
    private final String knownTopic;
    private final String contentTopic;
    private final List<byte[]> sent = new ArrayList<>();

    HostileRelaySteps(long seed, String knownTopic, String contentTopic) {
        this.random = new Random(seed);
        this.knownTopic = knownTopic;
        this.contentTopic = contentTopic;
    }

    private static Kind[] weighted() {
        List<Kind> kinds = new ArrayList<>();
        for (Kind k : Kind.values()) {
            int weight = switch (k) {
                case OVERSIZED_FRAME, MALFORMED_RPC, CONTROL_FLOOD, OVERSIZED_MESSAGE -> 1;
                case VALID_MESSAGE, DUPLICATE -> 2;
                default -> 3;
            };
            for (int i = 0; i < weight; i++) {
                kinds.add(k);
            }
        }
        return kinds.toArray(new Kind[0]);
    }

    /** Control kinds only: what a flooder that never sends an invalid message (so never pays P₄) writes. */
    static final Kind[] CONTROL = {Kind.GRAFT_KNOWN, Kind.GRAFT_UNKNOWN, Kind.PRUNE_KNOWN, Kind.PRUNE_UNKNOWN,
            Kind.IHAVE_FLOOD, Kind.IWANT_FLOOD, Kind.IDONTWANT_FLOOD, Kind.CONTROL_FLOOD, Kind.SUBSCRIPTIONS};

    Step next() {
        return step(WEIGHTED[random.nextInt(WEIGHTED.length)]);
    }

    Step next(Kind kind) {
        return step(kind);
    }

    private Step step(Kind kind) {
        return new Step(kind, switch (kind) {
            case VALID_MESSAGE -> validMessage();
            case DUPLICATE -> sent.isEmpty() ? validMessage() : sent.get(random.nextInt(sent.size()));
            case MALFORMED_MESSAGE -> publish(knownTopic, malformedWakuMessage());
            case MISSING_CONTENT_TOPIC -> publish(knownTopic, waku(payload(200), "", null).toByteArray());
            case META_TOO_LARGE -> publish(knownTopic, waku(payload(200), contentTopic, bytes(65 + random.nextInt(200))).toByteArray());
            case OVERSIZED_MESSAGE -> publish(knownTopic, waku(payload(160_000 + random.nextInt(100_000)), contentTopic, null).toByteArray());
            case SIGNED_MESSAGE -> framed(RPC.newBuilder().addPublish(Message.newBuilder().setTopic(knownTopic)
                    .setData(ByteString.copyFrom(waku(payload(100), contentTopic, null).toByteArray()))
                    .setSeqno(ByteString.copyFrom(bytes(8))).setFrom(ByteString.copyFrom(bytes(38)))).build());
            case UNKNOWN_TOPIC_MESSAGE -> publish(unknownTopic(), waku(payload(300), contentTopic, null).toByteArray());
            case SUBSCRIPTIONS -> subscriptions();
            case GRAFT_KNOWN -> control(ControlMessage.newBuilder().addGraft(ControlGraft.newBuilder().setTopicID(knownTopic)));
            case GRAFT_UNKNOWN -> control(graftsOrPrunes(true));
            case PRUNE_KNOWN -> control(ControlMessage.newBuilder().addPrune(ControlPrune.newBuilder().setTopicID(knownTopic)
                    .setBackoff(random.nextBoolean() ? random.nextInt(120) : Long.MAX_VALUE - random.nextInt(1000))));
            case PRUNE_UNKNOWN -> control(graftsOrPrunes(false));
            case IHAVE_FLOOD -> control(ihaves());
            case IWANT_FLOOD -> control(ControlMessage.newBuilder().addIwant(ControlIWant.newBuilder().addAllMessageIDs(ids(20_000))));
            case IDONTWANT_FLOOD -> control(idontwants());
            case CONTROL_FLOOD -> control(controlFlood());
            case MALFORMED_RPC -> malformedRpc();
            case OVERSIZED_FRAME -> oversizedFrame();
        });
    }

    /** An RPC whose length prefix promises {@code length} bytes, of which only half follow: the peer then stalls. */
    byte[] truncatedFrame() {
        int length = 20_000 + random.nextInt(100_000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Uvarint.write(out, length);
        out.writeBytes(bytes(length / 2));
        return out.toByteArray();
    }

    private byte[] validMessage() {
        byte[] wire = publish(knownTopic, waku(payload(50 + random.nextInt(4000)), contentTopic, null).toByteArray());
        if (sent.size() == 64) {
            sent.remove(0);
        }
        sent.add(wire);
        return wire;
    }

    private WakuMessage waku(byte[] payload, String contentTopic, byte[] meta) {
        WakuMessage.Builder b = WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload)).setContentTopic(contentTopic)
                .setTimestamp(WakuNode.nowNanos());
        if (meta != null) {
            b.setMeta(ByteString.copyFrom(meta));
        }
        return b.build();
    }

    /** A field of wire type 7, which no protobuf has: the WakuMessage cannot be read. */
    private byte[] malformedWakuMessage() {
        byte[] b = bytes(10 + random.nextInt(500));
        b[0] = 0x0F;
        return b;
    }

    private byte[] publish(String topic, byte[] data) {
        return framed(RPC.newBuilder().addPublish(Message.newBuilder().setTopic(topic).setData(ByteString.copyFrom(data))).build());
    }

    private byte[] subscriptions() {
        RPC.Builder rpc = RPC.newBuilder();
        int n = 1 + random.nextInt(64);
        for (int i = 0; i < n; i++) {
            rpc.addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(random.nextInt(4) > 0)
                    .setTopicid(random.nextInt(3) == 0 ? knownTopic : unknownTopic()));
        }
        return framed(rpc.build());
    }

    /** As many GRAFTs or PRUNEs for topics the node does not have as one RPC holds (G1 and G2b of issue 27). */
    private ControlMessage.Builder graftsOrPrunes(boolean graft) {
        ControlMessage.Builder c = ControlMessage.newBuilder();
        boolean packed = random.nextBoolean();
        int n = packed ? Integer.MAX_VALUE : 1 + random.nextInt(100);
        long size = 0;
        for (int i = 0; i < n && size < RPC_BUDGET - 1024; i++) {
            String topic = unknownTopic();
            size += topic.length() + 16; // the entry's tags, lengths and backoff, at most
            if (graft) {
                c.addGraft(ControlGraft.newBuilder().setTopicID(topic));
            } else {
                c.addPrune(ControlPrune.newBuilder().setTopicID(topic).setBackoff(random.nextInt(Integer.MAX_VALUE)));
            }
        }
        return c;
    }

    private ControlMessage.Builder ihaves() {
        ControlMessage.Builder c = ControlMessage.newBuilder();
        int messages = 1 + random.nextInt(40);
        for (int i = 0; i < messages; i++) {
            c.addIhave(ControlIHave.newBuilder().setTopicID(random.nextBoolean() ? knownTopic : unknownTopic())
                    .addAllMessageIDs(ids(1 + random.nextInt(600))));
        }
        return c;
    }

    private ControlMessage.Builder idontwants() {
        ControlMessage.Builder c = ControlMessage.newBuilder();
        int messages = 1 + random.nextInt(200);
        for (int i = 0; i < messages; i++) {
            c.addIdontwant(ControlIDontWant.newBuilder().addAllMessageIDs(ids(1 + random.nextInt(100))));
        }
        return c;
    }

    /** One RPC packed with small control entries of every kind: the per-RPC entry bound. */
    private ControlMessage.Builder controlFlood() {
        ControlMessage.Builder c = ControlMessage.newBuilder();
        for (int i = 0; i < 20_000; i++) {
            switch (i % 5) {
                case 0 -> c.addGraft(ControlGraft.newBuilder().setTopicID(knownTopic));
                case 1 -> c.addPrune(ControlPrune.newBuilder().setTopicID(knownTopic));
                case 2 -> c.addIhave(ControlIHave.newBuilder().setTopicID(knownTopic).addAllMessageIDs(ids(1)));
                case 3 -> c.addIwant(ControlIWant.newBuilder().addAllMessageIDs(ids(1)));
                default -> c.addIdontwant(ControlIDontWant.newBuilder().addAllMessageIDs(ids(1)));
            }
        }
        return c;
    }

    private byte[] control(ControlMessage.Builder control) {
        return framed(RPC.newBuilder().setControl(control).build());
    }

    /** Random bytes behind a correct length prefix: not an RPC (a first byte of wire type 7 makes sure). */
    private byte[] malformedRpc() {
        byte[] body = bytes(1 + random.nextInt(2000));
        body[0] = 0x0F;
        return framed(body);
    }

    /** A length prefix past --max-rpc-size, and a little of what it promises. */
    private byte[] oversizedFrame() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Uvarint.write(out, MAX_RPC_SIZE + 1 + random.nextInt(MAX_RPC_SIZE));
        out.writeBytes(bytes(100));
        return out.toByteArray();
    }

    private String unknownTopic() {
        return random.nextInt(4) == 0 ? "/waku/2/rs/" + random.nextInt(8) + "/" + random.nextInt(1024)
                : "/hostile/" + Long.toHexString(random.nextLong()) + "/" + random.nextInt(1 << 20);
    }

    private List<ByteString> ids(int n) {
        List<ByteString> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(ByteString.copyFrom(bytes(32)));
        }
        return ids;
    }

    private byte[] payload(int size) {
        return bytes(size);
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] framed(MessageLite rpc) {
        return framed(rpc.toByteArray());
    }

    static byte[] framed(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 5);
        Uvarint.write(out, body.length);
        out.writeBytes(body);
        return out.toByteArray();
    }
}
