/**
 * The node's Store query service, shared by REST and Store v3: {@link io.wakurelay.node.store.StoreQueries} takes one
 * of the {@link io.wakurelay.node.store.StoreLimits#maxConcurrentQueries()} slots (refused with
 * {@link io.wakurelay.node.store.StoreBusyException}) and opens an {@link io.wakurelay.node.store.OpenQuery}, a page
 * read message by message under a byte budget and closed by whoever writes it out.
 */
package io.wakurelay.node.store;
