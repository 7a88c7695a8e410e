package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.RPC;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the router decided to write while it held its lock, written after it let go: messages to forward, one
 * control RPC per peer (GRAFT, PRUNE, IHAVE, IWANT answers and subscriptions merged), and peers to disconnect.
 * Writing outside the lock keeps encryption and the per-peer queues off the router's critical section.
 */
final class Outbox {
    private static final Logger log = LoggerFactory.getLogger(Outbox.class);
    /** Nothing to send: what a decision returns that mostly sends nothing, without allocating. Never add to it. */
    static final Outbox NONE = new Outbox();

    private final List<PeerState> peers = new ArrayList<>();
    private final List<ByteBuf> rpcs = new ArrayList<>();
    private final List<PeerSender.Kind> kinds = new ArrayList<>();
    private final Map<PeerState, RPC.Builder> control = new LinkedHashMap<>();
    private final List<PeerState> disconnect = new ArrayList<>();
    private final List<String> disconnectReasons = new ArrayList<>();

    /** Forward {@code rpc} (a reference the outbox now owns) to {@code peer}. */
    void add(PeerState peer, ByteBuf rpc, PeerSender.Kind kind) {
        peers.add(peer);
        rpcs.add(rpc);
        kinds.add(kind);
    }

    /** The control RPC for {@code peer}, built up by every decision of this round. */
    RPC.Builder control(PeerState peer) {
        return control.computeIfAbsent(peer, p -> RPC.newBuilder());
    }

    ControlMessage.Builder controlMessage(PeerState peer) {
        return control(peer).getControlBuilder();
    }

    /** The peers a control RPC goes to, whose relay stream is open now (an RPC held for one not open is not out yet). */
    List<PeerState> controlledOpenPeers() {
        List<PeerState> open = new ArrayList<>();
        for (PeerState p : control.keySet()) {
            if (p.sender.isOpen()) {
                open.add(p);
            }
        }
        return open;
    }

    void disconnect(PeerState peer, String reason) {
        disconnect.add(peer);
        disconnectReasons.add(reason);
    }

    /** Writes everything to the peers' senders and closes the connections to disconnect; call without the lock. */
    void send(ByteBufAllocator alloc, RouterEvents events) {
        for (int i = 0; i < rpcs.size(); i++) {
            peers.get(i).sender.send(rpcs.get(i), kinds.get(i));
        }
        for (Map.Entry<PeerState, RPC.Builder> c : control.entrySet()) {
            RPC rpc = c.getValue().build();
            c.getKey().sender.send(RpcWriter.control(alloc, rpc), PeerSender.Kind.CONTROL);
        }
        for (int i = 0; i < disconnect.size(); i++) {
            PeerState p = disconnect.get(i);
            events.disconnected(disconnectReasons.get(i));
            log.atInfo().addKeyValue("peer", String.valueOf(p.id))
                    .addKeyValue("reason", String.valueOf(disconnectReasons.get(i)))
                    .log("disconnecting relay peer");
            p.connection.close();
        }
    }
}
