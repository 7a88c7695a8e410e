package io.wakurelay.node.peers;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Resolves a DNS name of a discovered record without blocking the caller ({@link NettyNameResolver}; tests fake it). */
@FunctionalInterface
interface NameResolver {
    /** The name's addresses, or a failure; completes within the resolver's own timeout. */
    CompletableFuture<List<InetAddress>> resolve(String name);
}
