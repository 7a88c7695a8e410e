package io.wakurelay.discovery.discv5;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.wakurelay.discovery.discv5.Discv5Metrics.Drop;
import io.wakurelay.discovery.discv5.PendingRequests.Request;
import io.wakurelay.discovery.discv5.Sessions.Session;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrFormatException;
import io.wakurelay.p2p.limits.TokenBuckets;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A discv5 node on one UDP socket: answers PING, FINDNODE and TALKREQ (empty), sends PING and FINDNODE, runs the
 * handshake on both sides, keeps the routing table alive with pings and runs lookups. All state lives on one Netty
 * event loop (no locks): the public methods hand their work to it. Every map is bounded (see {@link Discv5Config});
 * a packet that does not parse, decrypt or answer something we asked is counted and dropped, a source (an address
 * or an IPv6 /64, {@link SourcePrefix}) past its rate is dropped before any cryptography, and the recipient's side of
 * the handshake is bounded by {@link RecipientHandshakes}.
 */
public final class Discv5Service implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Discv5Service.class);
    static final int RANDOM_MESSAGE_LENGTH = 20;
    /** Asked for: a flood is read and dropped by source, not by the kernel with honest packets (≤ rmem_max). */
    static final int RECEIVE_BUFFER_BYTES = 2 << 20;

    private final Discv5Config config;
    private final byte[] privateScalar;
    private final byte[] localId;
    private final Supplier<Enr> localRecord;
    private final Discv5Metrics metrics;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final SecureRandom random = new SecureRandom();
    private final RoutingTable table;
    private final Sessions sessions;
    private final RecipientHandshakes recipient;
    private final PendingRequests requests;
    private final TokenBuckets<SourcePrefix> sources;
    private final ExternalAddress externalAddress;
    private volatile Channel channel;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile int sessionCount;
    private volatile int tableCount;

    private Discv5Service(Discv5Config config, byte[] privateScalar, Supplier<Enr> localRecord,
            Discv5Metrics metrics) {
        this.config = config;
        this.privateScalar = privateScalar.clone();
        this.localId = NodeIds.of(Discv5Crypto.publicKey(privateScalar));
        this.localRecord = localRecord;
        this.metrics = metrics;
        this.group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.loop = group.next();
        this.table = new RoutingTable(localId, config.tableIpLimit(), config.bucketIpLimit(),
                config.bitsPerHop());
        this.externalAddress = new ExternalAddress(config, metrics);
        this.sessions = new Sessions(config.sessions());
        this.recipient = new RecipientHandshakes(config, localId, this.privateScalar, table, sessions, metrics, random,
                this::write, System.nanoTime());
        this.requests = new PendingRequests(config.pendingRequests());
        this.sources = new TokenBuckets<>(config.packetsPerSecond(), config.packetsPerSecond() * 2.0,
                config.rateLimitedSources());
        metrics.bind(() -> sessionCount, () -> tableCount, externalAddress::votes);
    }

    /** Binds the socket, puts the bootstrap records in the table, pings them and starts the liveness checks. */
    public static Discv5Service start(Discv5Config config, byte[] privateScalar, Supplier<Enr> localRecord,
            Discv5Metrics metrics) throws InterruptedException {
        Discv5Service service = new Discv5Service(config, privateScalar, localRecord, metrics);
        service.bind();
        return service;
    }

    private void bind() throws InterruptedException {
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(NioDatagramChannel.class)
                .option(io.netty.channel.ChannelOption.SO_RCVBUF, RECEIVE_BUFFER_BYTES)
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        receive(packet);
                    }
                });
        try {
            channel = bootstrap.bind(config.bind()).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        loop.execute(() -> {
            for (Enr record : config.bootstrap()) {
                NodeEntry.of(record).ifPresentOrElse(node -> {
                    admit(node);
                    ping(node);
                }, () -> log.atWarn().addKeyValue("enr", record.text())
                        .log("discv5: a bootstrap record names no UDP endpoint; left out"));
            }
            updateGauges();
        });
        long every = config.livenessInterval().toMillis();
        loop.scheduleAtFixedRate(this::checkLiveness, every, every, TimeUnit.MILLISECONDS);
        log.atInfo().addKeyValue("address", String.valueOf(localAddress())).addKeyValue("nodeId", NodeIds.hex(localId))
                .log("discv5: listening on UDP");
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    public byte[] localId() {
        return localId.clone();
    }

    // ---- public API: each call runs on the loop ----
    /** PINGs a node: its PONG, or a failure after the request timeout. */
    public CompletableFuture<Message.Pong> ping(NodeEntry node) {
        return request(node, new Message.Ping(requestId(), localRecord.get().seq())).thenApply(Message.Pong.class::cast);
    }

    /** FINDNODE at the given distances: the verified records of the answer that lie at one of them. */
    @SuppressWarnings("unchecked")
    public CompletableFuture<List<Enr>> findNode(NodeEntry node, List<Integer> distances) {
        return request(node, new Message.FindNode(requestId(), List.copyOf(distances))).thenApply(r -> (List<Enr>) r);
    }

    /** An iterative lookup of {@code target}: every verified record met on the way (see {@link Lookup}). */
    public CompletableFuture<List<Enr>> lookup(byte[] target) {
        CompletableFuture<List<Enr>> result = new CompletableFuture<>();
        loop.execute(() -> new Lookup(this, table, target, localId).run().whenComplete((found, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
            } else {
                metrics.lookup(found.size());
                result.complete(found);
            }
        }));
        return result;
    }

    /** A lookup of a random id: the random walk nwaku's {@code queryRandom} makes. */
    public CompletableFuture<List<Enr>> randomLookup() {
        byte[] target = new byte[NodeIds.LENGTH];
        random.nextBytes(target);
        return lookup(target);
    }

    /** Adds records to the table (found by DNS discovery, given at start) and pings them. */
    public void addNodes(List<Enr> records) {
        loop.execute(() -> {
            for (Enr record : records) {
                NodeEntry.of(record).filter(n -> !Arrays.equals(n.id(), localId)).ifPresent(node -> {
                    admit(node);
                    ping(node);
                });
            }
            updateGauges();
        });
    }

    /**
     * Told (on the service's loop) the address the majority of PONGs names when it differs from our record's and
     * {@link Discv5Config#enrAutoUpdate()} is on: it should update the record the service's record supplier gives.
     */
    public void onExternalAddress(java.util.function.Consumer<InetSocketAddress> update) {
        externalAddress.listen(update);
    }

    /** The nodes of the table now. */
    public List<NodeEntry> tableNodes() {
        return onLoop(table::all);
    }

    public int sessionCount() {
        return sessionCount;
    }

    public int tableSize() {
        return tableCount;
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> task) {
        try {
            return loop.submit(task).get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    CompletableFuture<Object> request(NodeEntry node, Message message) {
        Request request = new Request(node, message);
        loop.execute(() -> send(request));
        return request.result;
    }

    private byte[] requestId() {
        byte[] id = new byte[8];
        random.nextBytes(id);
        return id;
    }

    // ---- sending ----
    private void send(Request request) {
        if (requests.isFull()) {
            metrics.dropped(Drop.PENDING_FULL);
            request.result.completeExceptionally(new IllegalStateException("too many discv5 requests in flight"));
            return;
        }
        NodeEntry node = request.node;
        Optional<Session> session = sessions.get(node.id(), node.udp());
        if (session.isEmpty() && requests.handshaking(node)) {
            requests.park(request); // sent when the handshake under way ends, over its session
            return;
        }
        byte[] nonce = nonce();
        byte[] plaintext = session.isPresent() ? request.message.encode() : randomBytes(RANDOM_MESSAGE_LENGTH);
        // without a session the packet carries random bytes: the node answers WHOAREYOU, and the handshake carries it
        byte[] key = session.map(Session::writeKey).orElse(null);
        Packet packet = Packet.ordinary(randomBytes(16), nonce, localId, key, plaintext);
        requests.add(request, nonce);
        if (session.isEmpty()) {
            requests.openedHandshake(request);
        }
        request.timeout = loop.schedule(() -> timeOut(request), config.requestTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        write(packet, node.id(), node.udp());
    }

    private void respond(byte[] nodeId, InetSocketAddress to, Message message) {
        sessions.get(nodeId, to).ifPresent(session -> {
            byte[] nonce = nonce();
            write(Packet.ordinary(randomBytes(16), nonce, localId, session.writeKey(), message.encode()), nodeId, to);
        });
    }

    private void write(Packet packet, byte[] destId, InetSocketAddress to) {
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            return;
        }
        ch.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(packet.encode(destId)), to));
        metrics.out(packet.flag());
    }

    private void timeOut(Request request) {
        requests.remove(request);
        requests.unpark(request.node).forEach(this::send);
        if (request.message instanceof Message.FindNode && request.nodesMessages > 0) {
            request.result.complete(List.copyOf(request.records)); // part of a split answer: what came
            return;
        }
        request.result.completeExceptionally(new TimeoutException("no answer from " + request.node + " to "
                + request.message.getClass().getSimpleName()));
        updateGauges();
    }

    // ---- receiving ----
    private void receive(DatagramPacket datagram) {
        InetSocketAddress from = datagram.sender();
        ByteBuf content = datagram.content();
        if (localRecord.get() == null) {
            return; // the record naming our port is being made: nothing can be answered yet
        }
        long now = System.nanoTime();
        if (!sources.tryAcquire(SourcePrefix.of(from.getAddress()), now)) {
            metrics.dropped(Drop.RATE_LIMITED);
            return;
        }
        if (content.readableBytes() < Packet.MIN_SIZE || content.readableBytes() > Packet.MAX_SIZE) {
            metrics.dropped(Drop.INVALID);
            return;
        }
        byte[] bytes = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), bytes);
        try {
            Packet packet = Packet.decode(bytes, localId);
            metrics.in(packet.flag());
            switch (packet.flag()) {
                case Packet.FLAG_ORDINARY -> onOrdinary(packet, from, now);
                case Packet.FLAG_WHOAREYOU -> onWhoareyou(packet, from);
                default -> onHandshake(packet, from, now);
            }
        } catch (Discv5PacketException | EnrFormatException e) {
            metrics.dropped(Drop.INVALID);
            log.atDebug().addKeyValue("address", String.valueOf(from)).addKeyValue("reason", e.getMessage())
                    .log("discv5: dropped a packet");
        } catch (RuntimeException e) {
            metrics.dropped(Drop.INVALID);
            log.atWarn().addKeyValue("address", String.valueOf(from)).setCause(e).log("discv5: a packet failed");
        }
        updateGauges();
    }

    private void onOrdinary(Packet packet, InetSocketAddress from, long now) {
        byte[] sourceId = packet.sourceId();
        Optional<Session> session = sessions.get(sourceId, from);
        byte[] plaintext = session.map(s -> Discv5Crypto.aesGcmDecrypt(s.readKey(), packet.nonce(), packet.message(),
                packet.messageAd())).orElse(null);
        if (plaintext == null) {
            recipient.challenge(packet, sourceId, from, now); // the node cannot be read: ask who it is
            return;
        }
        handle(Message.decode(plaintext), sourceId, from);
    }

    private void onWhoareyou(Packet packet, InetSocketAddress from) {
        Optional<Request> pending = requests.byNonce(packet.nonce());
        if (pending.isEmpty() || pending.get().handshakeSent || !pending.get().node.udp().equals(from)) {
            metrics.dropped(Drop.UNSOLICITED);
            return;
        }
        Request request = pending.get();
        NodeEntry node = request.node;
        byte[] challengeData = packet.challengeData();
        byte[] ephemeral = Discv5Crypto.randomScalar(random);
        byte[] ephemeralPublic = Discv5Crypto.publicKey(ephemeral);
        Discv5Crypto.SessionKeys keys = Discv5Crypto.deriveKeys(
                Discv5Crypto.ecdh(node.enr().publicKey(), ephemeral), localId, node.id(), challengeData);
        byte[] signature = Discv5Crypto.idSign(privateScalar, challengeData, ephemeralPublic, node.id());
        Enr ours = localRecord.get();
        byte[] record = packet.whoareyouEnrSeq() < ours.seq() ? ours.encoded() : new byte[0];
        byte[] authdata = new HandshakeAuthdata(localId, signature, ephemeralPublic, record).encode();
        byte[] nonce = nonce();
        byte[] iv = randomBytes(16);
        Packet header = new Packet(iv, Packet.FLAG_HANDSHAKE, nonce, authdata, new byte[0]);
        Packet handshake = new Packet(iv, Packet.FLAG_HANDSHAKE, nonce, authdata,
                Discv5Crypto.aesGcmEncrypt(keys.initiatorKey(), nonce, request.message.encode(), header.messageAd()));
        sessions.put(node.id(), node.udp(), new Session(keys.initiatorKey(), keys.recipientKey()));
        request.handshakeSent = true;
        requests.renonce(request, nonce);
        metrics.handshake();
        // the answer now waits for the node to check our handshake: the request gets its time again
        request.timeout.cancel(false);
        request.timeout = loop.schedule(() -> timeOut(request), config.requestTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        write(handshake, node.id(), node.udp());
    }

    private void onHandshake(Packet packet, InetSocketAddress from, long now) {
        RecipientHandshakes.Accepted accepted = recipient.accept(packet, from, now);
        if (accepted == null) {
            return;
        }
        // a node enters the table only at the endpoint its record names: that it wrote to us from there proves it
        NodeEntry.of(accepted.record()).filter(node -> node.udp().equals(from)).ifPresent(this::admit);
        handle(Message.decode(accepted.plaintext()), accepted.sourceId(), from);
    }

    // ---- messages ----
    private void handle(Message message, byte[] sourceId, InetSocketAddress from) {
        if (message instanceof Message.Ping ping) {
            respond(sourceId, from, new Message.Pong(ping.requestId(), localRecord.get().seq(),
                    from.getAddress().getAddress(), from.getPort()));
        } else if (message instanceof Message.FindNode findNode) {
            answerFindNode(findNode, sourceId, from);
        } else if (message instanceof Message.TalkReq talk) {
            respond(sourceId, from, new Message.TalkResp(talk.requestId(), new byte[0]));
        } else {
            onResponse(message, sourceId);
        }
    }

    private void answerFindNode(Message.FindNode findNode, byte[] sourceId, InetSocketAddress from) {
        List<byte[]> records = new ArrayList<>();
        if (findNode.distances().contains(0)) {
            records.add(localRecord.get().encoded());
        }
        for (NodeEntry node : table.atDistances(findNode.distances(), PendingRequests.MAX_RECORDS)) {
            if (records.size() < PendingRequests.MAX_RECORDS && !Arrays.equals(node.id(), sourceId)) {
                records.add(node.enr().encoded());
            }
        }
        for (Message.Nodes nodes : NodesPacking.pack(findNode.requestId(), records)) {
            respond(sourceId, from, nodes);
        }
    }

    private void onResponse(Message message, byte[] sourceId) {
        Optional<Request> pending = requests.byRequestId(message.requestId());
        if (pending.isEmpty() || !Arrays.equals(pending.get().node.id(), sourceId)) {
            metrics.dropped(Drop.UNSOLICITED);
            return;
        }
        Request request = pending.get();
        table.get(sourceId).ifPresent(this::admit); // it answered: the most recently seen of its bucket
        if (message instanceof Message.Pong pong && request.message instanceof Message.Ping) {
            externalAddress.vote(sourceId, pong, localRecord.get());
        }
        if (message instanceof Message.Pong && request.message instanceof Message.Ping
                || message instanceof Message.TalkResp && request.message instanceof Message.TalkReq) {
            finish(request, message);
        } else if (message instanceof Message.Nodes nodes && request.message instanceof Message.FindNode findNode) {
            boolean valid = request.collect(findNode, nodes); // an impossible total ends the answer with what came
            if (!valid) {
                metrics.dropped(Drop.INVALID);
            }
            if (!valid || request.nodesComplete()) {
                finish(request, List.copyOf(request.records));
            }
        } else {
            metrics.dropped(Drop.UNSOLICITED);
        }
    }

    private void finish(Request request, Object result) {
        requests.remove(request);
        request.result.complete(result);
        requests.unpark(request.node).forEach(this::send);
    }

    // ---- liveness ----
    private void checkLiveness() {
        table.leastRecentlySeen(random).ifPresent(node -> ping(node).whenComplete((pong, error) -> {
            if (error != null) {
                table.remove(node.id());
                log.atDebug().addKeyValue("nodeId", NodeIds.hex(node.id())).addKeyValue("address", String.valueOf(node.udp()))
                        .log("discv5: a node did not answer a liveness ping; removed");
            } else if (pong.enrSeq() > node.enr().seq()) {
                findNode(node, List.of(0)).thenAccept(records -> records.stream()
                        .filter(r -> Arrays.equals(r.nodeId(), node.id())).findFirst()
                        .flatMap(NodeEntry::of).ifPresent(this::admit));
            }
            updateGauges();
        }));
    }

    /** Adds a node to the table; one past an IP limit is counted. */
    private void admit(NodeEntry node) {
        RoutingTable.Added added = table.add(node);
        if (added == RoutingTable.Added.BUCKET_IP_LIMIT || added == RoutingTable.Added.TABLE_IP_LIMIT) {
            metrics.tableRefused(added);
            log.atDebug().addKeyValue("nodeId", NodeIds.hex(node.id())).addKeyValue("address", String.valueOf(node.udp()))
                    .addKeyValue("reason", String.valueOf(added)).log("discv5: a node not added to the table");
        }
    }

    private void updateGauges() {
        sessionCount = sessions.size();
        tableCount = table.size();
    }

    private byte[] nonce() {
        return randomBytes(Discv5Crypto.NONCE_LENGTH);
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Work for the lookup, which runs on the loop. */
    EventLoop loop() {
        return loop;
    }

    /** Stops the service; a second call does nothing (the node stops it both as a component and as a closeable). */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Channel ch = channel;
        if (ch != null) {
            ch.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        loop.execute(() -> requests.all().forEach(r -> {
            requests.remove(r);
            requests.unpark(r.node);
            r.result.completeExceptionally(new IllegalStateException("discv5 stopped"));
        }));
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        log.info("discv5: stopped");
    }
}
