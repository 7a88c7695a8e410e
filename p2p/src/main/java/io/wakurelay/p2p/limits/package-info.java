/**
 * The project's one token bucket, for whatever a remote party may make this node do at a rate (discv5's packets,
 * the Waku services' requests), in flow order:
 * <ul>
 *   <li>{@link io.wakurelay.p2p.limits.TokenBuckets}: a bucket per key (an address, a peer id), at most a capacity of
 *       them, the least recently seen forgotten first, and those full again forgotten;</li>
 *   <li>{@link io.wakurelay.p2p.limits.TokenBucket}: one bucket, refilled evenly (a rate and a burst) or by whole
 *       periods (nwaku's {@code volume/period} limits).</li>
 * </ul>
 */
package io.wakurelay.p2p.limits;
