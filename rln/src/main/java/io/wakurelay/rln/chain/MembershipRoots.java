package io.wakurelay.rln.chain;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.rln.chain.ChainMetrics.Trigger;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The membership roots a rate-limit proof may name, read from the RLN membership contract over JSON-RPC as nwaku
 * reads them (docs/rln.md, "Membership roots"; ADR 0084): the last {@code rootWindow} roots of {@code root()}, read
 * every {@code pollInterval}, and at once (at most once per {@code unknownRootRefreshInterval}) when a message names a
 * root the window does not hold.
 *
 * <p>{@link #start} checks the chain ({@code eth_chainId}, against {@code --rln-relay-chain-id} when set) and reads
 * the first root before it returns; then one thread of its own ({@code rln-chain}) reads. The relay's event loops ask
 * {@link #contains} per message (no lock, no allocation) and call {@link #onUnknownRoot()} (never blocks) when the
 * root was not there. While the eth clients fail, the window is kept; the failures are counted and logged once per
 * change of state. {@link #ready()} and {@link #health()} are the "Rln Relay" line of {@code /health}.
 */
public final class MembershipRoots implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MembershipRoots.class);
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

    /** How the start waits between its attempts; a seam for tests. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final RootWindow window;
    private final RootReader reader;
    private final EthRpc rpc;
    private final ChainMetrics metrics;
    private final Scheduler scheduler;
    private final ScheduledExecutorService executor;
    private final LongSupplier clock;
    private final Duration pollInterval;
    private final long refreshIntervalNanos;
    private final long chainId;
    private final AtomicLong nextRefreshAt;
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Disposable nextPoll;

    private MembershipRoots(Parts parts, RootReader reader, long chainId, MembershipRootsConfig config) {
        this.window = parts.window;
        this.reader = reader;
        this.rpc = parts.rpc;
        this.metrics = parts.metrics;
        this.scheduler = parts.scheduler;
        this.executor = parts.executor;
        this.clock = parts.clock;
        this.pollInterval = config.pollInterval();
        this.refreshIntervalNanos = config.unknownRootRefreshInterval().toNanos();
        this.chainId = chainId;
        this.nextRefreshAt = new AtomicLong(clock.getAsLong());
    }

    /** What a start builds, released together when the start fails. */
    private record Parts(RootWindow window, EthRpc rpc, ChainMetrics metrics, Scheduler scheduler,
                         ScheduledExecutorService executor, LongSupplier clock) {
        void release() {
            metrics.close();
            rpc.close();
            scheduler.dispose();
        }
    }

    /**
     * Checks the chain, reads the first root and starts reading every {@code pollInterval}. Blocks its caller (never
     * call it on an event loop): while no eth client answers {@code eth_chainId}, it asks again every
     * {@code startRetryDelay}, {@code startAttempts} times at most (nwaku's 15 times 4 s). A first read of the roots
     * that fails for another reason than a missing contract does not stop the start: the node starts not ready, and
     * the reads go on.
     *
     * @param registry where the meters go (docs/metrics.md, "RLN"); removed at {@link #close()}
     * @throws ChainStartException when it cannot start, with one line naming the flag to look at
     */
    public static MembershipRoots start(MembershipRootsConfig config, MeterRegistry registry) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "rln-chain");
            thread.setDaemon(true);
            return thread;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // the next poll does not wait for the stop
        executor.setRemoveOnCancelPolicy(true);
        return start(config, registry, new JsonRpcClient(config.callTimeout(), config.maxResponseBytes()),
                Schedulers.fromExecutorService(executor, "rln-chain"), executor, System::nanoTime,
                d -> Thread.sleep(d.toMillis()));
    }

    /** {@link #start(MembershipRootsConfig, MeterRegistry)} with its parts given (tests: a fake RPC, virtual time). */
    static MembershipRoots start(MembershipRootsConfig config, MeterRegistry registry, EthRpc rpc, Scheduler scheduler,
                                 ScheduledExecutorService executor, LongSupplier clock, Sleeper sleeper) {
        Parts parts = new Parts(new RootWindow(config.rootWindow()), rpc, new ChainMetrics(registry), scheduler,
                executor, clock);
        try {
            if (config.ethClientAddresses().isEmpty()) {
                throw new ChainStartException("RLN needs an eth client: give --rln-relay-eth-client-address");
            }
            if (config.ethContractAddress().isEmpty()) {
                throw new ChainStartException(
                        "RLN needs the membership contract: give --rln-relay-eth-contract-address");
            }
            Endpoints endpoints = new Endpoints(config.ethClientAddresses(), rpc, parts.metrics);
            RootReader reader = new RootReader(endpoints, parts.window, parts.metrics, config.ethContractAddress(),
                    config.pollInterval(), clock);
            parts.metrics.gauges(parts.window::size, reader::ageSeconds);
            long chainId = checkChain(config, endpoints, sleeper);
            RpcException first = reader.read(Trigger.START);
            if (first != null && first.failure() == RpcFailure.NO_CONTRACT) {
                throw new ChainStartException("RLN: no contract at " + config.ethContractAddress() + " on chain "
                        + chainId + " answers root() (--rln-relay-eth-contract-address): " + first.getMessage());
            }
            MembershipRoots roots = new MembershipRoots(parts, reader, chainId, config);
            log.atInfo().addKeyValue("contract", String.valueOf(config.ethContractAddress())).addKeyValue("chain", chainId)
                    .addKeyValue("address", endpoints.describeAll()).addKeyValue("pollMs", config.pollInterval().toMillis())
                    .addKeyValue("roots", parts.window.size()).addKeyValue("memberships", reader.memberships())
                    .log("RLN: reading the membership roots");
            roots.schedulePoll();
            return roots;
        } catch (RuntimeException e) {
            parts.release();
            throw e;
        }
    }

    /** The chain's id, asked until an endpoint answers, and checked against {@code --rln-relay-chain-id}. */
    private static long checkChain(MembershipRootsConfig config, Endpoints endpoints, Sleeper sleeper) {
        RpcException last = null;
        for (int attempt = 1; attempt <= config.startAttempts(); attempt++) {
            try {
                long id = endpoints.askChainId();
                URI answered = endpoints.current();
                if (config.chainId() != 0 && config.chainId() != id) {
                    throw new ChainStartException("--rln-relay-chain-id is " + config.chainId() + " but the eth client"
                            + " at " + Endpoints.describe(answered) + " is on chain " + id);
                }
                if (config.chainId() == 0) {
                    log.atWarn().addKeyValue("address", Endpoints.describe(answered)).addKeyValue("chain", id)
                            .log("RLN: --rln-relay-chain-id is not set: using the chain of the eth client");
                }
                endpoints.expectChain(id);
                return id;
            } catch (RpcException e) {
                last = e;
                if (attempt == 1 && config.startAttempts() > 1) {
                    log.atWarn().addKeyValue("reason", e.getMessage()).addKeyValue("retryMs", config.startRetryDelay().toMillis())
                            .addKeyValue("retriesAtMost", config.startAttempts() - 1)
                            .log("RLN: no eth client answered eth_chainId; asking again");
                }
            }
            if (attempt < config.startAttempts()) {
                try {
                    sleeper.sleep(config.startRetryDelay());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ChainStartException("RLN: interrupted while waiting for an eth client");
                }
            }
        }
        throw new ChainStartException("RLN: no eth client answered eth_chainId in " + config.startAttempts()
                + " attempts (--rln-relay-eth-client-address): " + last.getMessage());
    }

    private void schedulePoll() {
        if (closed.get()) {
            return;
        }
        try {
            nextPoll = scheduler.schedule(this::poll, pollInterval.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            // shutting down
        }
    }

    private void poll() {
        try {
            if (!closed.get()) {
                reader.read(Trigger.POLL);
            }
        } catch (RuntimeException e) {
            log.error("RLN: a read of the membership roots failed unexpectedly", e);
        } finally {
            schedulePoll();
        }
    }

    /** Whether {@code root} (the 32-byte little-endian field element of a proof) is in the window. */
    public boolean contains(byte[] root) {
        return root.length == Abi.WORD && window.contains(root, 0);
    }

    /** Whether the 32 bytes at {@code offset} of {@code array} are a root of the window. */
    public boolean contains(byte[] array, int offset) {
        return window.contains(array, offset);
    }

    /** Whether the 32 bytes at {@code index} of {@code buf} are a root of the window; the buffer is not changed. */
    public boolean contains(ByteBuf buf, int index) {
        return window.contains(buf, index);
    }

    /**
     * A message named a root not in the window: read the roots now, unless a read so asked for is already waiting or
     * the last one was asked for less than {@code unknownRootRefreshInterval} ago. Never blocks; any thread.
     */
    public void onUnknownRoot() {
        if (closed.get() || refreshQueued.get()) {
            return;
        }
        long now = clock.getAsLong();
        long allowedAt = nextRefreshAt.get();
        if (now - allowedAt < 0 || !nextRefreshAt.compareAndSet(allowedAt, now + refreshIntervalNanos)) {
            return;
        }
        if (!refreshQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            scheduler.schedule(this::refresh);
        } catch (RejectedExecutionException closing) {
            refreshQueued.set(false);
        }
    }

    private void refresh() {
        refreshQueued.set(false);
        try {
            if (!closed.get()) {
                reader.read(Trigger.UNKNOWN_ROOT);
            }
        } catch (RuntimeException e) {
            log.error("RLN: a read of the membership roots failed unexpectedly", e);
        }
    }

    /** Whether a proof can be checked: the window holds at least one root. */
    public boolean ready() {
        return window.size() > 0;
    }

    /** "Ready", or why not (no root read yet, and why the reads fail): the "Rln Relay" line of {@code /health}. */
    public String health() {
        return reader.health();
    }

    /** The roots held, oldest first, each a copy of its 32 little-endian bytes. */
    public List<byte[]> roots() {
        return window.roots();
    }

    /** The chain the roots are read from. */
    public long chainId() {
        return chainId;
    }

    /** Stops reading: waits up to {@code grace} for a read under way, then releases the client and the meters. */
    public Mono<Void> shutdown(Duration grace) {
        return Mono.<Void>fromRunnable(() -> stop(grace)).subscribeOn(Schedulers.boundedElastic());
    }

    @Override
    public void close() {
        stop(CLOSE_GRACE);
    }

    private void stop(Duration grace) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (executor != null) {
            // a read under way ends by itself (within its call's timeout), not interrupted; the next poll is dropped
            executor.shutdown();
            try {
                if (!executor.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    executor.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                executor.shutdownNow();
            }
        } else {
            Disposable poll = nextPoll;
            if (poll != null) {
                poll.dispose();
            }
        }
        scheduler.dispose();
        rpc.close();
        metrics.close();
    }
}
